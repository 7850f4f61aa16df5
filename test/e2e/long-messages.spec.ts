/**
 * Long messages and long conversations in Chromium (docs/ARCHITECTURE.md "Conversations"): a
 * conversation holding a 5 MB pasted log, a 5 MB markdown answer and a long tool result opens with
 * its newest entry in view, each long message folded; the fold control shows more, the rest (piece
 * by piece) and folds again; copy, search and export use the whole text. A sidebar of 1,000
 * conversations renders only the rows in view and still opens one far down; a 3,000-entry
 * conversation slides its shown entries as the user scrolls up.
 */
import { readFileSync } from 'node:fs';
import { expect, openApp, test } from './helpers.js';

const MB5 = 5_000_000;

/** A pasted build log of `chars` characters whose last line holds `tail`. */
function log(chars: number, tail: string): string {
  const lines: string[] = [];
  let n = 0;
  for (let i = 0; n < chars - tail.length; i++) {
    const line = `${String(i).padStart(7, '0')} [info] compiled module-${i % 1013}.ts in ${(i * 7) % 311} ms`;
    lines.push(line);
    n += line.length + 1;
  }
  return `${lines.join('\n')}\n${tail}`;
}

/** Markdown of about `chars` characters: headed sections of paragraphs, ending with `tail`. */
function markdown(chars: number, tail: string): string {
  const parts: string[] = [];
  let n = 0;
  for (let i = 0; n < chars; i++) {
    const s = `## Section ${i}\n\nThe **result** of step ${i} is in \`out/${i}.txt\`; nothing else changed in this step of the run.\n\n`;
    parts.push(s);
    n += s.length;
  }
  return `${parts.join('')}${tail}`;
}

test('a conversation with 5 MB messages opens at its newest entry; long messages fold, unfold piece by piece, and copy, search and export use the whole text', async ({ page, shell, context }) => {
  test.setTimeout(180_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const pasted = log(MB5, 'LAST LINE: quokka-unfold-7781');
  const answer = markdown(MB5, 'The end of the answer: wombat-final-3303.');
  const result = log(200_000, 'result tail');
  const { openConversationDatabase } = await import('../../main/chat/conversations/database.js');
  const { ConversationStore } = await import('../../main/chat/conversations/store.js');
  await shell.current.stop();
  const store = new ConversationStore(openConversationDatabase(shell.stateDir).db);
  store.ensure('big', 'A pasted log');
  store.append('big', { kind: 'user', id: 'u1', ts: 1, text: pasted });
  store.append('big', {
    kind: 'tool', id: 't1', ts: 2, run_id: 'r1', call_id: 'c1', tool: 'files__read_text_file', server: 'files', original_name: 'read_text_file',
    args: { path: '/var/log/build.log' }, state: 'ok', content: [{ type: 'text', text: result }], error: null, duration_ms: 3, progress: null, permission: null,
  });
  store.append('big', { kind: 'assistant', id: 'a1', ts: 3, run_id: 'r1', text: answer, state: 'done' });
  store.close();
  await shell.restart();
  await openApp(page, shell.current);

  await page.getByRole('button', { name: /A pasted log/ }).click();
  const newest = page.locator('[data-item-id="a1"]');
  await expect(newest).toBeInViewport();
  // The answer shows its first part as markdown, and says how much is left.
  await expect(newest.getByRole('heading', { name: 'Section 0' })).toBeVisible();
  const answerBar = newest.getByTestId('fold-bar');
  await expect(answerBar).toContainText(`of ${answer.length.toLocaleString('en')} characters shown.`);
  const shownAtFirst = await newest.getByTestId('folded').getAttribute('data-shown');
  expect(Number(shownAtFirst)).toBeLessThan(20_000);
  // The user message and the tool result are folded too.
  const user = page.locator('[data-item-id="u1"]');
  await expect(user.getByTestId('fold-rest')).toHaveText(/^Show the rest \([\d,]+ characters\)$/);
  expect((await user.getByTestId('fold-piece').evaluateAll((els) => els.map((e) => e.textContent).join(''))).length).toBeLessThan(30_000);
  await expect(page.getByTestId('tool-result').getByTestId('fold-bar')).toBeVisible();

  // Show more adds one piece.
  await user.getByTestId('fold-more').click();
  await expect.poll(async () => Number(await user.getByTestId('folded').getAttribute('data-shown'))).toBeGreaterThan(Number(shownAtFirst));
  // Show the rest adds every piece, one per step, until the whole text is on the page.
  await user.getByTestId('fold-rest').click();
  await expect(user.getByTestId('fold-rest')).toHaveCount(0, { timeout: 120_000 });
  await expect(user.getByTestId('fold-progress')).toHaveCount(0, { timeout: 120_000 });
  await expect(user.getByTestId('folded')).toHaveAttribute('data-shown', String(pasted.length));
  // The pieces put together are the message, character for character.
  const shownText = await user.getByTestId('fold-piece').evaluateAll((els) => els.map((e) => e.textContent).join(''));
  expect(shownText.length).toBe(pasted.length);
  expect(shownText === pasted).toBe(true);
  // Fold again.
  await user.getByTestId('fold-less').click();
  await expect(user.getByTestId('fold-rest')).toBeVisible();
  await expect(user.getByTestId('fold-piece')).toHaveCount(1);

  // Copy puts the whole message on the clipboard, folded as it is.
  await newest.hover();
  await newest.getByRole('button', { name: 'Copy', exact: true }).click();
  await expect(newest.getByRole('button', { name: 'Copied' })).toBeVisible();
  const copied = (await page.evaluate(() => navigator.clipboard.readText())) as string;
  expect(copied.length).toBe(answer.length);
  expect(copied.endsWith('wombat-final-3303.')).toBe(true);

  // Search finds a word at the very end of the folded message.
  await page.getByRole('searchbox', { name: 'Search conversations' }).fill('quokka');
  await expect(page.getByTestId('search-hit')).toHaveCount(1);
  await page.getByRole('searchbox', { name: 'Search conversations' }).fill('');

  // Export holds the whole text.
  const [md] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export Markdown' }).click()]);
  const exported = readFileSync((await md.path())!, 'utf8');
  expect(exported).toContain('LAST LINE: quokka-unfold-7781');
  expect(exported).toContain('wombat-final-3303.');
});

test('1,000 conversations: the sidebar renders the rows in view and opens one far down; a 3,000-entry conversation slides its shown entries while scrolling up', async ({ page, shell }) => {
  test.setTimeout(180_000);
  const { openConversationDatabase } = await import('../../main/chat/conversations/database.js');
  const { ConversationStore } = await import('../../main/chat/conversations/store.js');
  await shell.current.stop();
  const opened = openConversationDatabase(shell.stateDir);
  // 1,000 conversations (the most the sidebar lists): number 998 is the oldest (the last row), the long one the newest.
  let clock = Date.now() - 10_000_000;
  const timed = new ConversationStore(opened.db, () => (clock += 1000));
  opened.db.transaction(() => {
    for (let c = 998; c >= 0; c--) {
      timed.ensure(`c${c}`, `Conversation number ${c}`);
      timed.append(`c${c}`, { kind: 'user', id: `c${c}-u`, ts: c, text: `hello ${c}` });
    }
    timed.ensure('huge', 'A conversation of many entries');
    for (let i = 0; i < 3000; i++) timed.append('huge', i % 2 ? { kind: 'assistant', id: `h${i}`, ts: i, run_id: `r${i}`, text: `answer ${i}`, state: 'done' } : { kind: 'user', id: `h${i}`, ts: i, text: `question ${i}` });
  })();
  timed.setLastOpened('huge');
  timed.close();
  await shell.restart();
  await openApp(page, shell.current);
  await expect(page.locator('[data-item-id="h2999"]')).toBeInViewport();

  // Only some rows are in the page; scrolling to the bottom brings the last one, which opens.
  const list = page.getByRole('list', { name: 'Saved conversations' });
  const rows = list.getByTestId('conversation');
  await expect(rows.first()).toBeVisible();
  expect(await rows.count()).toBeLessThan(100);
  await list.evaluate((el) => (el.scrollTop = el.scrollHeight));
  const last = list.getByRole('button', { name: /Conversation number 998/ });
  await expect(last).toBeVisible();
  expect(await rows.count()).toBeLessThan(100);
  await last.click();
  await expect(page.getByTestId('chat-title')).toHaveText('Conversation number 998');

  // Back to the long one: scrolling up shows earlier entries by itself, and the page keeps at most 200.
  await list.evaluate((el) => (el.scrollTop = 0));
  await page.getByRole('button', { name: /A conversation of many entries/ }).click();
  await expect(page.locator('[data-item-id="h2999"]')).toBeInViewport();
  const transcript = page.getByTestId('transcript');
  const entries = transcript.locator(':scope > .item[data-item-id]');
  await expect(entries).toHaveCount(40);
  const box = (await transcript.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  for (let i = 0; i < 60; i++) {
    await page.mouse.wheel(0, -1500);
    await page.waitForTimeout(30);
  }
  await expect.poll(() => entries.count()).toBe(200);
  await expect(page.locator('[data-item-id="h2999"]')).toHaveCount(0);
  await expect(transcript.getByRole('button', { name: /^Show 40 later entries/ })).toBeVisible();
  // The newest come back on the way down.
  for (let i = 0; i < 200 && !(await page.locator('[data-item-id="h2999"]').count()); i++) {
    await page.mouse.wheel(0, 1500);
    await page.waitForTimeout(30);
  }
  await expect(page.locator('[data-item-id="h2999"]')).toHaveCount(1);
  expect(await entries.count()).toBeLessThanOrEqual(200);
});

test('an unfolded answer reads as one text: the revealed part has the first part’s type size and block spacing, and once all is shown the bar says so', async ({ page, shell }) => {
  test.setTimeout(120_000);
  // The trial's answer: 150 paragraphs (about 37,000 characters), a table and a code block.
  const para = (i: number): string => `Paragraph ${i}: ${'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(4).trim()}`;
  const answer = `${Array.from({ length: 150 }, (_, i) => para(i + 1)).join('\n\n')}\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n\n\`\`\`js\nconsole.log("end");\n\`\`\`\n\nTHE END.`;
  const { openConversationDatabase } = await import('../../main/chat/conversations/database.js');
  const { ConversationStore } = await import('../../main/chat/conversations/store.js');
  await shell.current.stop();
  const store = new ConversationStore(openConversationDatabase(shell.stateDir).db);
  store.ensure('long', 'long 150');
  store.append('long', { kind: 'user', id: 'u1', ts: 1, text: 'long 150' });
  store.append('long', { kind: 'assistant', id: 'a1', ts: 2, run_id: 'r1', text: answer, state: 'done' });
  store.close();
  await shell.restart();
  await openApp(page, shell.current);
  await page.getByRole('button', { name: /long 150/ }).click();

  const msg = page.locator('[data-item-id="a1"]');
  await msg.getByTestId('fold-more').click();
  const pieces = msg.getByTestId('fold-piece');
  await expect(pieces).toHaveCount(2);
  // Each piece's paragraphs, measured where they meet: the first piece's last two and the second's first.
  const seam = await pieces.evaluateAll((els) => {
    const ps = els.map((el) => [...el.querySelectorAll('p')]);
    const a = ps[0]!.at(-2)!;
    const b = ps[0]!.at(-1)!;
    const c = ps[1]![0]!;
    const box = (e: Element): DOMRect => e.getBoundingClientRect();
    return {
      sizes: [getComputedStyle(b).fontSize, getComputedStyle(c).fontSize],
      lineHeights: [getComputedStyle(b).lineHeight, getComputedStyle(c).lineHeight],
      gapInside: box(b).top - box(a).bottom,
      gapAcross: box(c).top - box(b).bottom,
    };
  });
  expect(seam.sizes[1]).toBe(seam.sizes[0]);
  expect(seam.lineHeights[1]).toBe(seam.lineHeights[0]);
  expect(seam.sizes[0]).toBe('14px');
  expect(Math.abs(seam.gapAcross - seam.gapInside)).toBeLessThanOrEqual(1);

  // Show the rest: every piece; the bar no longer counts "N of N", it says all of it is shown.
  await msg.getByTestId('fold-rest').click();
  await expect(msg.getByTestId('fold-progress')).toHaveCount(0, { timeout: 60_000 });
  await expect(msg.getByTestId('folded')).toHaveAttribute('data-shown', String(answer.length));
  await expect(msg.getByTestId('fold-note')).toHaveText(`All ${answer.length.toLocaleString('en')} characters shown. Copy, search and export use the whole message.`);
  await expect(msg.getByTestId('fold-less')).toBeVisible();
  await expect(msg.getByRole('cell', { name: '2' })).toBeVisible();
});
