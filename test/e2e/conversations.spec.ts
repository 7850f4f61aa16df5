/**
 * Conversations that last, through the UI in Chromium: a conversation with a tool call survives a
 * page reload and a core restart and the next request carries its history; search finds a word
 * that appears only in a tool result and opens the conversation at the hit; rename, export
 * (file contents checked), delete; edit-and-resend and regenerate replace what they should (the
 * edit box sends on Enter like the composer, Shift+Enter a new line, Escape cancels); two
 * conversations stream at once; keyboard shortcuts; search results never scroll sideways.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startFakeModel, textOf, type FakeModel, type WireRequest } from '../fixtures/fake-model.js';
import { FS_SERVER, SCREENSHOTS, addLocalServer, commandLine, configureModel, expect, expectStatus, openApp, openChat, sendMessage, tempDir, test } from './helpers.js';

const SECRET_WORD = 'xylophone-mango-4411';

let model: FakeModel;
let filesDir: string;
let filePath: string;
let turn = 0;

/** Reads a file when asked (`call …`), answers "I read it." after a tool result, else echoes with a turn number. */
function script(req: WireRequest) {
  const last = req.messages[req.messages.length - 1];
  if (last?.role === 'tool') return { text: 'I read it.' };
  const user = textOf([...req.messages].reverse().find((m) => m.role === 'user'));
  const m = /^call\s+(\S+)\s*(.*)$/s.exec(user.trim());
  if (m) {
    const tool = req.tools?.find((t) => t.function.name.endsWith(m[1]!));
    if (tool) return { toolCalls: [{ name: tool.function.name, arguments: JSON.parse(m[2] || '{}') as unknown }] };
  }
  if (user.startsWith('slow')) return { text: Array.from({ length: 200 }, (_, i) => `w${i}`).join(' ') };
  return { text: `echo ${++turn}: ${user}` };
}

test.beforeAll(async () => {
  model = await startFakeModel({ chunkDelayMs: 40, script });
  filesDir = tempDir('conv-files');
  filePath = path.join(filesDir, 'notes.txt');
  writeFileSync(filePath, `Meeting notes\nThe code word is ${SECRET_WORD}.\n`);
  mkdirSync(SCREENSHOTS, { recursive: true });
});

test.afterAll(async () => {
  await model?.close();
  if (filesDir) rmSync(filesDir, { recursive: true, force: true });
});

test('a conversation with a tool call survives reload and restart, is found by a word only in its tool result, renamed, exported and deleted', async ({ page, shell }) => {
  await openApp(page, shell.current);
  await configureModel(page, { baseUrl: model.baseUrl, model: 'fake-conv' });
  const card = await addLocalServer(page, { name: 'files', command: commandLine(['node', FS_SERVER, filesDir]) });
  await expectStatus(card, 'ready');

  await openChat(page);
  const ask = `call __read_text_file ${JSON.stringify({ path: filePath })}`;
  await sendMessage(page, ask);
  await expect(page.getByTestId('tool-card').getByTestId('tool-result')).toContainText(SECRET_WORD);
  await expect(page.getByTestId('msg-assistant')).toHaveText('I read it.');
  const sidebar = page.getByRole('complementary', { name: 'Conversations' });
  await expect(sidebar.getByTestId('conversation')).toHaveCount(1);
  await expect(sidebar.getByTestId('conversation')).toContainText('call __read_text_file');

  // A window reload shows main's copy of the conversation.
  await page.reload();
  await expect(page.getByTestId('tool-card').getByTestId('tool-result')).toContainText(SECRET_WORD);
  await expect(page.getByTestId('msg-assistant')).toHaveText('I read it.');
  await expect(page.getByTestId('msg-user')).toHaveText(ask);

  // A core restart too; the next request carries the saved history, tool call included.
  await shell.restart();
  await openApp(page, shell.current);
  await expect(page.getByTestId('tool-card')).toHaveCount(1);
  await expect(page.getByTestId('msg-assistant')).toHaveText('I read it.');
  const before = model.requests.length;
  await sendMessage(page, 'what was the code word?');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('what was the code word?');
  const req = model.requests[before]!.body;
  expect(req.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user']);
  expect(textOf(req.messages[2])).toContain(SECRET_WORD);
  await page.screenshot({ path: path.join(SCREENSHOTS, 'conversation.png') });

  // Search: the word is only in the tool result. Open a new chat first, then follow the hit.
  await page.keyboard.press('Control+Shift+O');
  await expect(page.getByTestId('chat-title')).toHaveText('New chat');
  await page.keyboard.press('Control+k');
  const search = page.getByRole('searchbox', { name: 'Search conversations' });
  await expect(search).toBeFocused();
  await search.fill('xylophone');
  const hit = sidebar.getByTestId('search-hit');
  await expect(hit).toHaveCount(1);
  await expect(hit.locator('mark')).toContainText('xylophone');
  // Whose words and when: the match is in a tool call, just now.
  await expect(hit.getByTestId('search-hit-who')).toHaveText('Tool · just now · ');
  await page.screenshot({ path: path.join(SCREENSHOTS, 'search.png') });
  await hit.click();
  await expect(page.locator('.search-hit-item [data-testid="tool-card"]')).toBeVisible();
  await expect(page.getByTestId('msg-user').first()).toHaveText(ask);
  // Input that would break an FTS5 query is plain text.
  await search.fill('"unbalanced AND (NEAR');
  await expect(sidebar.getByTestId('search-empty')).toContainText('No message or title matches “"unbalanced AND (NEAR”.');
  await search.fill('');

  // Rename (kept after a reload).
  const row = sidebar.getByTestId('conversation');
  await row.hover();
  await row.getByRole('button', { name: /^Rename/ }).click();
  await sidebar.getByLabel('Conversation title').fill('  Notes\nreading  ');
  await sidebar.getByRole('button', { name: 'Save' }).click();
  await expect(row).toContainText('Notes reading');
  await page.reload();
  await expect(sidebar.getByTestId('conversation')).toContainText('Notes reading');
  await expect(page.getByTestId('chat-title')).toHaveText('Notes reading');
  // Found by its title too (words in any order and case), listed above the message hits.
  await search.fill('READING notes');
  const titleHit = sidebar.getByTestId('title-hit');
  await expect(titleHit).toHaveCount(1);
  await expect(titleHit.locator('mark')).toHaveText('reading');
  await expect(titleHit).toContainText('In the title');
  await page.getByRole('button', { name: '+ New chat' }).click();
  await titleHit.click();
  await expect(page.getByTestId('chat-title')).toHaveText('Notes reading');
  await search.fill('');

  // Export as Markdown and as JSON: the files hold the transcript with the tool call.
  const [md] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export Markdown' }).click()]);
  expect(md.suggestedFilename()).toBe('Notes-reading.md');
  const mdText = readFileSync((await md.path())!, 'utf8');
  expect(mdText).toContain('# Notes reading');
  expect(mdText).toContain('### Tool call `files__read_text_file`');
  expect(mdText).toContain(SECRET_WORD);
  expect(mdText).toContain('## You\n\nwhat was the code word?');
  const [js] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export JSON' }).click()]);
  expect(js.suggestedFilename()).toBe('Notes-reading.json');
  const doc = JSON.parse(readFileSync((await js.path())!, 'utf8')) as { format: string; conversation: { title: string; items: Array<{ kind: string; args?: unknown; state?: string }> } };
  expect(doc.format).toBe('openprogram.conversation');
  expect(doc.conversation.title).toBe('Notes reading');
  expect(doc.conversation.items.map((i) => i.kind)).toEqual(['user', 'tool', 'assistant', 'user', 'assistant']);
  expect(doc.conversation.items[1]).toMatchObject({ args: { path: filePath }, state: 'ok' });

  // Delete, with a confirmation; gone after a reload too.
  await sidebar.getByTestId('conversation').hover();
  await sidebar.getByRole('button', { name: /^Delete Notes reading/ }).click();
  await sidebar.getByRole('group', { name: 'Confirm delete' }).getByRole('button', { name: 'Delete' }).click();
  await expect(sidebar.getByTestId('conversation')).toHaveCount(0);
  await expect(page.getByTestId('chat-title')).toHaveText('New chat');
  await page.reload();
  await expect(sidebar.getByTestId('conversation')).toHaveCount(0);
  await search.fill('xylophone');
  await expect(sidebar.getByTestId('search-empty')).toContainText('No message or title matches “xylophone”.');
});

test('edit-and-resend and regenerate replace what they should', async ({ page, shell }) => {
  await openApp(page, shell.current);
  await configureModel(page, { baseUrl: model.baseUrl, model: 'fake-conv' });
  await openChat(page);
  await sendMessage(page, 'first');
  await expect(page.getByTestId('msg-assistant')).toHaveText(/^echo \d+: first$/);
  await sendMessage(page, 'second');
  await expect(page.getByTestId('msg-assistant').last()).toHaveText(/^echo \d+: second$/);

  // Only the last user message offers Edit.
  await expect(page.getByTestId('msg-user').first().locator('..').getByRole('button', { name: 'Edit' })).toHaveCount(0);
  const last = page.locator('.msg-wrap.user').last();
  const box = page.getByLabel('Edit message');
  const n = model.requests.length;
  // Escape cancels the edit: nothing is sent, the message stays as it was.
  await last.hover();
  await last.getByRole('button', { name: 'Edit' }).click();
  await box.fill('not to be sent');
  await box.press('Escape');
  await expect(box).toHaveCount(0);
  await expect(page.getByTestId('msg-user')).toHaveText(['first', 'second']);

  // The edit box takes the composer's keys: Shift+Enter is a new line, Enter while an input method
  // composes is the composition's, Enter sends.
  await last.hover();
  await last.getByRole('button', { name: 'Edit' }).click();
  await box.fill('second,');
  await box.press('Shift+Enter');
  await box.pressSequentially('edited');
  await expect(box).toHaveValue('second,\nedited');
  await box.dispatchEvent('keydown', { key: 'Enter', code: 'Enter', isComposing: true, bubbles: true, cancelable: true });
  await expect(box).toBeVisible();
  await box.press('Enter');
  await expect(box).toHaveCount(0);
  await expect(page.getByTestId('msg-assistant').last()).toHaveText(/^echo \d+: second,\s+edited$/);
  await expect(page.getByTestId('msg-assistant')).toHaveCount(2);
  expect(model.requests.length, 'one request: only the Enter that was not composing sent').toBe(n + 1);
  expect(model.requests[n]!.body.messages.map((m) => textOf(m))).toEqual([`first`, expect.stringMatching(/^echo \d+: first$/), 'second,\nedited']);

  // Save and send still sends what the box holds.
  await last.hover();
  await last.getByRole('button', { name: 'Edit' }).click();
  await box.fill('second, edited');
  await page.getByRole('button', { name: 'Save and send' }).click();
  await expect(page.getByTestId('msg-assistant').last()).toHaveText(/^echo \d+: second, edited$/);
  await expect(page.getByTestId('msg-user')).toHaveText(['first', 'second, edited']);
  await expect(page.getByTestId('msg-assistant')).toHaveCount(2);
  const sent = model.requests[n + 1]!.body.messages;
  expect(sent.map((m) => textOf(m))).toEqual([`first`, expect.stringMatching(/^echo \d+: first$/), 'second, edited']);

  // Regenerate: a new answer replaces the last one.
  const old = await page.getByTestId('msg-assistant').last().textContent();
  await page.getByRole('button', { name: 'Regenerate answer' }).click();
  await expect(page.getByTestId('msg-assistant').last()).not.toHaveText(old!);
  await expect(page.getByTestId('msg-assistant').last()).toHaveText(/^echo \d+: second, edited$/);
  await expect(page.getByTestId('msg-assistant')).toHaveCount(2);
  await page.reload();
  await expect(page.getByTestId('msg-assistant')).toHaveCount(2);
  await expect(page.getByTestId('msg-user')).toHaveText(['first', 'second, edited']);
});

test('two conversations answer at once; Esc stops the open one; copy puts a message on the clipboard', async ({ page, shell, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openApp(page, shell.current);
  await configureModel(page, { baseUrl: model.baseUrl, model: 'fake-conv' });
  await openChat(page);
  await sendMessage(page, 'slow one');
  await expect(page.getByTestId('msg-assistant')).toContainText('w2');
  // A new chat while the first still streams, and a second stream in it.
  await page.keyboard.press('Control+Shift+O');
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeFocused();
  await sendMessage(page, 'slow two');
  await expect(page.getByTestId('msg-assistant')).toContainText('w2');
  const sidebar = page.getByRole('complementary', { name: 'Conversations' });
  await expect(sidebar.getByLabel('answering')).toHaveCount(2);
  // Esc stops the open conversation only.
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('chat-notice')).toHaveText('Stopped.');
  await expect(sidebar.getByLabel('answering')).toHaveCount(1);
  // The other one finishes on its own.
  await sidebar.getByTestId('conversation').filter({ hasText: 'slow one' }).getByRole('button', { name: /slow one/ }).click();
  await expect(page.getByTestId('msg-assistant')).toContainText('w199', { timeout: 30_000 });
  await expect(sidebar.getByLabel('answering')).toHaveCount(0);
  await expect(page.getByTestId('msg-assistant')).not.toContainText('Stopped');

  const answer = page.locator('.msg-wrap.assistant').last();
  await answer.hover();
  await answer.getByRole('button', { name: 'Copy' }).click();
  await expect(answer.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain('w0 w1 w2');
});

test('a long conversation opens with its newest entries, shows earlier ones on request, and a search hit far back opens at the hit', async ({ page, shell }) => {
  // 120 entries written straight into the state dir's database, as earlier sessions would have.
  const { openConversationDatabase } = await import('../../main/chat/conversations/database.js');
  const { ConversationStore } = await import('../../main/chat/conversations/store.js');
  await shell.current.stop();
  const store = new ConversationStore(openConversationDatabase(shell.stateDir).db);
  store.ensure('long', 'A long conversation');
  for (let i = 0; i < 60; i++) {
    store.append('long', { kind: 'user', id: `u${i}`, ts: i, text: i === 3 ? 'the platypus question' : `question ${i}` });
    store.append('long', { kind: 'assistant', id: `a${i}`, ts: i, run_id: `r${i}`, text: `answer ${i}`, state: 'done' });
  }
  store.close();
  await shell.restart();
  await openApp(page, shell.current);
  await page.getByRole('button', { name: /A long conversation/ }).click();
  await expect(page.getByTestId('msg-assistant').last()).toHaveText('answer 59');
  await expect(page.getByTestId('msg-user')).toHaveCount(20);
  await page.getByRole('button', { name: 'Show 40 earlier entries (80 not shown)' }).click();
  await expect(page.getByTestId('msg-user')).toHaveCount(40);
  // A hit far back opens the conversation around it.
  await page.keyboard.press('Control+Shift+O');
  await page.getByRole('searchbox', { name: 'Search conversations' }).fill('platypus');
  await page.getByTestId('search-hit').click();
  await expect(page.locator('.search-hit-item')).toContainText('the platypus question');
  await expect(page.locator('.search-hit-item')).toBeInViewport();
});

test('"Show earlier" clicked again before the last step is on the page: every click counts, and the page changes by one step of 40 entries at a time', async ({ page, shell }) => {
  const { openConversationDatabase } = await import('../../main/chat/conversations/database.js');
  const { ConversationStore } = await import('../../main/chat/conversations/store.js');
  await shell.current.stop();
  const store = new ConversationStore(openConversationDatabase(shell.stateDir).db);
  store.ensure('steps', 'Many steps back');
  for (let i = 0; i < 300; i++)
    store.append('steps', i % 2 ? { kind: 'assistant', id: `e${i}`, ts: i, run_id: `r${i}`, text: `answer ${i}`, state: 'done' } : { kind: 'user', id: `e${i}`, ts: i, text: `question ${i}` });
  store.close();
  await shell.restart();
  await openApp(page, shell.current);
  await page.getByRole('button', { name: /Many steps back/ }).click();
  await expect(page.locator('[data-item-id="e299"]')).toBeVisible();
  const transcript = page.getByTestId('transcript');
  const entries = transcript.locator(':scope > .item[data-item-id]');
  await expect(entries).toHaveCount(40);
  // Entries added to the page per DOM commit (one mutation batch each), from here on.
  await transcript.evaluate((el) => {
    const added: number[] = ((window as unknown as { __added: number[] }).__added = []);
    new MutationObserver((records) => {
      const n = records.reduce((k, r) => k + Array.from(r.addedNodes).filter((node) => node instanceof HTMLElement && node.matches('.item[data-item-id]')).length, 0);
      if (n) added.push(n);
    }).observe(el, { childList: true });
  });
  // Six clicks before the page changes at all (a quick double-click, in the extreme).
  await transcript.evaluate((el) => {
    const button = el.querySelector<HTMLButtonElement>(':scope > .earlier')!;
    for (let i = 0; i < 6; i++) button.click();
  });
  // 6 × 40 entries further back: [20, 260) of which the page keeps 200, the newest leaving.
  await expect(page.locator('[data-item-id="e20"]')).toHaveCount(1);
  await expect(entries).toHaveCount(200);
  await expect(page.locator('[data-item-id="e19"]')).toHaveCount(0);
  await expect(page.locator('[data-item-id="e220"]')).toHaveCount(0);
  await expect(transcript.getByRole('button', { name: 'Show 20 earlier entries (20 not shown)' })).toBeVisible();
  await expect(transcript.getByRole('button', { name: 'Show 40 later entries (80 not shown)' })).toBeVisible();
  // One step per commit: never the whole range replaced at once.
  expect(await page.evaluate(() => (window as unknown as { __added: number[] }).__added)).toEqual([40, 40, 40, 40, 40, 40]);
});

test('search finds Chinese and Japanese words anywhere in a message, one- and two-character words included, and opens the hit', async ({ page, shell }) => {
  const { openConversationDatabase } = await import('../../main/chat/conversations/database.js');
  const { ConversationStore } = await import('../../main/chat/conversations/store.js');
  await shell.current.stop();
  const store = new ConversationStore(openConversationDatabase(shell.stateDir).db);
  store.ensure('zh', '周会');
  store.append('zh', { kind: 'user', id: 'z1', ts: 1, text: '昨天下午我们整理了会议纪要，然后讨论下周的发布计划。' });
  store.append('zh', { kind: 'assistant', id: 'z2', ts: 2, run_id: 'r1', text: '好的，我来总结。', state: 'done' });
  store.ensure('ja', '会議');
  store.append('ja', { kind: 'user', id: 'j1', ts: 3, text: '昨日の会議で議事録を確認しました。' });
  store.close();
  await shell.restart();
  await openApp(page, shell.current);
  const sidebar = page.getByRole('complementary', { name: 'Conversations' });
  const search = page.getByRole('searchbox', { name: 'Search conversations' });
  const hit = sidebar.getByTestId('search-hit');
  for (const [word, count] of [['会议纪要', 1], ['发布', 1], ['周', 1], ['議事録', 1], ['会', 2]] as const) {
    await search.fill(word);
    await expect(hit, word).toHaveCount(count);
    await expect(hit.first().locator('mark'), word).toHaveText(word);
  }
  await search.fill('发布');
  await expect(hit).toHaveCount(1);
  await expect(hit.locator('.conv-snippet')).toContainText('下周的发布计划');
  await page.screenshot({ path: path.join(SCREENSHOTS, 'search-chinese.png') });
  await hit.click();
  await expect(page.locator('.search-hit-item')).toContainText('会议纪要');
});

test('search highlights come from the search engine: a message holding the old marker characters shows no highlight for them', async ({ page, shell }) => {
  const { openConversationDatabase } = await import('../../main/chat/conversations/database.js');
  const { ConversationStore } = await import('../../main/chat/conversations/store.js');
  await shell.current.stop();
  const store = new ConversationStore(openConversationDatabase(shell.stateDir));
  store.ensure('planted', 'Planted marks');
  // The control characters snippets were once marked with, and look-alikes of the markers.
  const planted = '\u0001fake\u0002 before \u0001x<y>z\u0002 the quokka \u0001<\u0001 after >\u0002 end';
  store.append('planted', { kind: 'user', id: 'p1', ts: 1, text: planted });
  store.close();
  await shell.restart();
  await openApp(page, shell.current);
  const sidebar = page.getByRole('complementary', { name: 'Conversations' });
  await page.getByRole('searchbox', { name: 'Search conversations' }).fill('quokka');
  const hit = sidebar.getByTestId('search-hit');
  await expect(hit).toHaveCount(1);
  await expect(hit.locator('mark')).toHaveCount(1);
  await expect(hit.locator('mark')).toHaveText('quokka');
  // Everything else is text, every planted character as it was.
  expect(await hit.locator('.conv-snippet-text').evaluate((e) => e.textContent)).toBe(planted);
  await page.getByRole('searchbox', { name: 'Search conversations' }).fill('fake');
  await expect(hit.locator('mark')).toHaveCount(1);
  await expect(hit.locator('mark')).toHaveText('fake');
});

test('a damaged search index is rebuilt at start with a warning; pages damaged while the app runs heal at the next send, which is saved and answered', async ({ page, shell }) => {
  const { openConversationDatabase, DATABASE_FILE } = await import('../../main/chat/conversations/database.js');
  const { ConversationStore } = await import('../../main/chat/conversations/store.js');
  const { damageEntriesWhileOpen, damageSearchIndex } = await import('../fixtures/damage-db.js');
  const { default: Database } = await import('better-sqlite3');
  await openApp(page, shell.current);
  await configureModel(page, { baseUrl: model.baseUrl, model: 'fake-conv' });
  await shell.current.stop();
  const file = path.join(shell.stateDir, DATABASE_FILE);
  const store = new ConversationStore(openConversationDatabase(shell.stateDir));
  store.ensure('hurt', 'Damaged history');
  for (let i = 0; i < 150; i++) store.append('hurt', { kind: 'user', id: `h${i}`, ts: i, text: `entry ${i} quokka word${i} ${'filler '.repeat(120)}` });
  store.close();
  damageSearchIndex(file);
  await shell.restart();
  await openApp(page, shell.current);
  await expect(page.getByRole('alert').filter({ hasText: 'The search index of your conversations was damaged and has been rebuilt' })).toBeVisible();
  const sidebar = page.getByRole('complementary', { name: 'Conversations' });
  await page.getByRole('searchbox', { name: 'Search conversations' }).fill('word7 quokka');
  await expect(sidebar.getByTestId('search-hit')).toHaveCount(1);
  await page.getByRole('searchbox', { name: 'Search conversations' }).fill('');
  await expect(sidebar.getByTestId('conversation')).toHaveCount(1);

  // Now pages of the entries are overwritten on disk while the app has the file open.
  const mine = new Database(file);
  damageEntriesWhileOpen(mine, file);
  mine.close();
  await page.getByRole('button', { name: /Damaged history/ }).click();
  await sendMessage(page, 'still there after the damage?');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('still there after the damage?');
  await expect(page.getByRole('alert').filter({ hasText: /The conversation database could not be used \(it is damaged or not a database\)\. It was kept as conversations\.db\.unusable-/ })).toContainText(
    'What could still be read was copied over: 1 conversation,',
  );
  await page.screenshot({ path: path.join(SCREENSHOTS, 'conversations-healed.png') });
  // Saved in the healed file: after a restart the message and its answer are there and found.
  await shell.restart();
  await openApp(page, shell.current);
  await page.getByRole('searchbox', { name: 'Search conversations' }).fill('still there after');
  await expect(sidebar.getByTestId('search-hit')).toHaveCount(2);
});

test('search results never scroll sideways: a hit’s title keeps one line, its snippet at most two, at 1440 and 800 px', async ({ page, shell }) => {
  const { openConversationDatabase } = await import('../../main/chat/conversations/database.js');
  const { ConversationStore } = await import('../../main/chat/conversations/store.js');
  await shell.current.stop();
  const store = new ConversationStore(openConversationDatabase(shell.stateDir).db);
  store.ensure('zh', '大家好，今天的会议纪要已经发布在共享文件夹里了，请查收并在周五之前反馈意见');
  store.append('zh', { kind: 'user', id: 'z1', ts: 1, text: '大家好，今天的会议纪要已经发布，请查收。发布之后的第一周，我们会根据大家的反馈再修订一次，然后把最终版本发给所有部门负责人和项目经理。' });
  store.ensure('en', 'Research Report: birds');
  store.append('en', { kind: 'user', id: 'e1', ts: 2, text: `# Research Report: birds (historical) ## Research Parameters - **Topic**: birds - **Clarification**: historical ${'https://example.com/a/very/long/path/without/any/space/'.repeat(4)} ## Synthesis This research query was processed` });
  store.close();
  await shell.restart();
  await openApp(page, shell.current);
  const list = page.getByRole('list', { name: 'Search results' });
  const hits = list.getByTestId('search-hit');
  for (const width of [1440, 800]) {
    await page.setViewportSize({ width, height: 800 });
    for (const [query, count] of [['发布', 1], ['birds research', 1]] as const) {
      await page.getByRole('searchbox', { name: 'Search conversations' }).fill(query);
      await expect(hits).toHaveCount(count);
      const m = await list.evaluate((ul) => {
        const box = ul.getBoundingClientRect();
        return {
          scroll: ul.scrollWidth,
          client: ul.clientWidth,
          rows: [...ul.querySelectorAll('[data-testid="search-hit"]')].map((li) => {
            const title = li.querySelector('.conv-title')!;
            const snippet = li.querySelector('.conv-snippet')!;
            const line = parseFloat(getComputedStyle(snippet).lineHeight);
            const t = title.getBoundingClientRect();
            const s = snippet.getBoundingClientRect();
            return { inside: t.left >= box.left && t.right <= box.right + 0.5 && s.left >= box.left && s.right <= box.right + 0.5, titleLines: Math.round(t.height / parseFloat(getComputedStyle(title).lineHeight)), snippetLines: Math.round(s.height / line) };
          }),
        };
      });
      expect(m.scroll, `${query} at ${width} px`).toBeLessThanOrEqual(m.client);
      for (const r of m.rows) {
        expect(r.inside, `${query} at ${width} px`).toBe(true);
        expect(r.titleLines).toBe(1);
        expect(r.snippetLines).toBeLessThanOrEqual(2);
      }
    }
  }
  // The whole title and snippet are in the hit's tooltip.
  await expect(hits.getByRole('button')).toHaveAttribute('title', /^Research Report: birds\n.*historical https:\/\/example\.com\/a\/very\/long\/path/s);
});
