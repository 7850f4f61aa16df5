/**
 * One bad entry never kills the window, in real Chromium through the browser shell: a tool result
 * and an answer of raw HTML nested 10,000 levels deep show as markdown cut to plain text (the
 * nesting bound, docs/ARCHITECTURE.md "Conversations"); a stored entry of a shape the window
 * cannot render shows "Could not display this entry" with its raw text (the error boundary around
 * each entry and tool card), one that is not JSON at all shows main's unreadable-entry notice, and
 * sending goes on (main leaves damaged entries out of the model's context). Each time the other
 * entries and the composer keep working, and the app is still alive after a reload, which
 * reopens the same conversation.
 */
import path from 'node:path';
import { defaultScript, startFakeModel, textOf, type FakeModel, type Turn, type WireRequest } from '../fixtures/fake-model.js';
import { ROOT, SCREENSHOTS, addLocalServer, commandLine, expect, expectStatus, openApp, openChat, saveProfile, sendMessage, setApprovalMode, test, type ShellHandle } from './helpers.js';
import type { Page } from '@playwright/test';

// Never depend on a model server that happens to run on this machine.
process.env.OPENPROGRAM_LOCAL_MODEL_PROBES = 'none';

const SDK_SERVER = path.join(ROOT, 'test/fixtures/sdk-server.mjs');
/** A tool result that reads as markdown, then 10,000 nested `<div>`s (≈ 50,000 characters). */
const DEEP = `**Report from the tool**\n\n${'<div>'.repeat(10_000)}bottom of the pile`;

function script(req: WireRequest): Turn {
  const user = textOf([...req.messages].reverse().find((m) => m.role === 'user'));
  if (user === 'deep') {
    // After the tool, an answer nested as deeply.
    if (req.messages.at(-1)?.role === 'tool') return { text: `The tool said:\n\n${DEEP}` };
    const echo = req.tools?.find((t) => t.function.name.endsWith('__echo'));
    if (echo) return { toolCalls: [{ name: echo.function.name, arguments: { text: DEEP } }] };
  }
  return defaultScript(req);
}

let model: FakeModel;
test.beforeAll(async () => {
  model = await startFakeModel({ script, chunkDelayMs: 1 });
});
test.afterAll(async () => {
  await model?.close();
});

/** A model, the sdk fixture server as `fx`, and tools that run without asking. */
async function setUp(page: Page, shell: ShellHandle): Promise<void> {
  await openApp(page, shell.current);
  // A window large enough for the 50,000-character result: what is tested is how it shows, not the budget.
  await saveProfile(page, { name: 'Default', baseUrl: model.baseUrl, model: 'fake-1', contextWindow: 128_000 });
  await setApprovalMode(page, 'Never ask');
  await expectStatus(await addLocalServer(page, { name: 'fx', command: commandLine([process.execPath, SDK_SERVER]) }), 'ready');
  await openChat(page);
}

/** The window is alive: the composer sends and the answer comes back. */
async function composerWorks(page: Page, text: string): Promise<void> {
  await sendMessage(page, text);
  await expect(page.getByTestId('msg-assistant').last()).toHaveText(`echo: ${text}`);
}

test('raw HTML nested 10,000 levels deep, in a tool result and an answer, shows as bounded text; the window goes on, also after a reload', async ({ page, shell }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await setUp(page, shell);
  await sendMessage(page, 'deep');

  const check = async (): Promise<void> => {
    const result = page.getByTestId('tool-card').last().getByTestId('tool-result');
    const answer = page.getByTestId('msg-assistant').filter({ hasText: 'The tool said:' });
    for (const where of [result, answer]) {
      // The markdown before the nesting is rendered; the rest is plain text, every tag as written.
      await expect(where.locator('[data-streamdown="strong"]', { hasText: 'Report from the tool' })).toBeVisible();
      // Over 50,000 characters: folded; the rest comes piece by piece on request.
      await where.getByTestId('fold-rest').click();
      await expect(where.getByTestId('fold-progress')).toHaveCount(0);
      await expect(where.getByTestId('fold-rest')).toHaveCount(0);
      const overflow = where.getByTestId('markdown-overflow');
      await expect(overflow).toContainText('The rest is shown as plain text because it is nested too deeply.');
      const rest = (await where.locator('pre.md-rest').allTextContents()).join('');
      expect(rest.startsWith('<div><div><div>')).toBe(true);
      expect(rest.endsWith('bottom of the pile')).toBe(true);
      expect(rest.length).toBe(10_000 * 5 + 'bottom of the pile'.length);
    }
    // Not one div of it became an element, and nothing needed the error boundary.
    const depth = await page.getByTestId('transcript').evaluate((root) => {
      let max = 0;
      const walk = (el: Element, d: number): void => {
        max = Math.max(max, d);
        for (const c of Array.from(el.children)) walk(c, d + 1);
      };
      walk(root, 0);
      return max;
    });
    expect(depth).toBeLessThan(100);
    await expect(page.getByTestId('entry-failed')).toHaveCount(0);
  };
  await check();
  await page.screenshot({ path: path.join(SCREENSHOTS, 'containment-deep-html.png') });
  await composerWorks(page, 'still here?');

  // The app reopens this conversation after a reload: it shows it the same way.
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Chat' })).toBeVisible();
  await expect(page.getByTestId('msg-assistant').last()).toHaveText('echo: still here?');
  await check();
  await composerWorks(page, 'and after the reload?');
  expect(errors).toEqual([]);
});

test('a stored entry the window cannot render shows "Could not display this entry" with its raw text; the rest works, also after a reload', async ({ page, shell }) => {
  await setUp(page, shell);
  await composerWorks(page, 'before the damage');
  // Entries of a shape this window does not expect (a damaged or foreign record), written into
  // the open conversation the way an earlier session would have stored them.
  const { openConversationDatabase, DATABASE_FILE } = await import('../../main/chat/conversations/database.js');
  const { ConversationStore } = await import('../../main/chat/conversations/store.js');
  const { default: Database } = await import('better-sqlite3');
  await shell.current.stop();
  const store = new ConversationStore(openConversationDatabase(shell.stateDir).db);
  const conv = store.lastOpened()!;
  const tool = { kind: 'tool', id: 'bad-tool', ts: Date.now(), run_id: 'old', call_id: 'c1', tool: 'fx__echo', server: 'fx', original_name: 'echo', args: { text: 'hi' }, state: 'ok', error: null, duration_ms: 3, progress: null, permission: null } as const;
  const content = [{ type: 'text' as const, text: 'the raw words of the damaged result' }];
  store.append(conv, { ...tool, content });
  store.append(conv, { kind: 'user', id: 'torn', ts: Date.now(), text: 'a message whose row is torn' });
  store.append(conv, { kind: 'user', id: 'after-1', ts: Date.now(), text: 'a good entry after the bad one' });
  store.close();
  const db = new Database(path.join(shell.stateDir, DATABASE_FILE));
  // The server's name is an object where a string belongs: rendering the card throws. A second
  // result text is an object too: main leaves the entry out of the model's context (building it
  // from such an entry failed every later send).
  const damaged = [...content, { type: 'text', text: { not: 'a string' } }];
  db.prepare('UPDATE items SET data = ? WHERE id = ?').run(JSON.stringify({ ...tool, server: { name: 'fx' }, content: damaged }), 'bad-tool');
  // A row that is not JSON at all: the conversation still opens, the entry shows as unreadable.
  db.prepare('UPDATE items SET data = ? WHERE id = ?').run('{"kind":"user","id":"torn","te', 'torn');
  db.close();
  await shell.restart();

  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const check = async (): Promise<void> => {
    // Everything else is there: earlier entries, the entry after it, the composer.
    await expect(page.getByTestId('msg-user').filter({ hasText: 'before the damage' })).toBeVisible();
    await expect(page.getByTestId('msg-assistant').filter({ hasText: 'echo: before the damage' })).toBeVisible();
    await expect(page.getByTestId('msg-user').filter({ hasText: 'a good entry after the bad one' })).toBeVisible();
    await expect(page.getByTestId('chat-notice').filter({ hasText: 'This entry could not be read' })).toHaveCount(1);
    await expect(page.getByTestId('msg-user').filter({ hasText: 'a message whose row is torn' })).toHaveCount(0);
    const failed = page.getByTestId('entry-failed');
    await expect(failed).toHaveCount(1);
    await expect(failed).toHaveAttribute('data-part', 'tool');
    await expect(failed).toContainText('Could not display this entry.');
    // Its raw text on request, as text.
    const raw = failed.getByTestId('entry-raw');
    await expect(raw).toBeHidden();
    await failed.getByText('Show its raw text').click();
    await expect(raw).toContainText('the raw words of the damaged result');
    expect(await raw.evaluate((el) => el.children.length)).toBe(0);
  };
  await openApp(page, shell.current);
  await check();
  await page.screenshot({ path: path.join(SCREENSHOTS, 'containment-bad-entry.png') });
  await composerWorks(page, 'the composer still works');
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Chat' })).toBeVisible();
  await check();
  await composerWorks(page, 'and after the reload');
  // The boundary caught it: nothing reached the page as an uncaught error.
  expect(errors).toEqual([]);
});
