/**
 * Protocol features in the real UI (Chromium through the browser shell; docs/ARCHITECTURE.md
 * "Protocol features"): server-everything's simulated logging reaches the Logs view live (no
 * refresh) and the level selector is offered; a URL elicitation shows the asking server and the
 * link's host, and Decline reaches the server.
 */
import path from 'node:path';
import { startFakeModel, type FakeModel } from '../fixtures/fake-model.js';
import { startHttpFixture } from '../fixtures/http-server.js';
import { ROOT, SCREENSHOTS, addLocalServer, commandLine, configureModel, expect, expectStatus, openApp, openChat, openSettings, sendMessage, serverCard, setApprovalMode, submitRemoteServer, test, cardAction } from './helpers.js';

const EVERYTHING = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const FIXTURE = path.join(ROOT, 'test/fixtures/protocol-server.mjs');
let model: FakeModel;
test.beforeEach(async () => {
  model = await startFakeModel();
});
test.afterEach(async () => {
  await model.close();
});

test("server-everything's simulated logging appears in Logs without a refresh; the level selector is there", async ({ page, shell }) => {
  test.setTimeout(90_000);
  await openApp(page, shell.current);
  await configureModel(page, { baseUrl: model.baseUrl, model: 'fake' });
  await setApprovalMode(page, 'Never ask');
  const card = await addLocalServer(page, { name: 'ev', command: commandLine([process.execPath, EVERYTHING, 'stdio']) });
  await expectStatus(card, 'ready');
  // Start the simulated logging through the chat (the model calls the tool).
  await openChat(page);
  await sendMessage(page, 'call ev__toggle-simulated-logging {}');
  await expect(page.getByTestId('tool-card').last().getByTestId('tool-result')).toContainText('Started simulated', { timeout: 15_000 });
  await openSettings(page, 'MCP servers');
  await (await cardAction(serverCard(page, 'ev'), 'Logs', { exact: true })).click();
  const logs = serverCard(page, 'ev').getByTestId('server-logs');
  await expect(logs).toContainText('[server]', { timeout: 15_000 });
  const level = serverCard(page, 'ev').getByLabel('Server log level');
  await expect(level).toBeVisible();
  await level.selectOption('debug');
  await expect(level).toHaveValue('debug');
  // No refresh button, no reload: the next simulated message (every 5 s) is pushed into the open view.
  await expect(serverCard(page, 'ev').getByRole('button', { name: 'Refresh' })).toHaveCount(0);
  const count = async (): Promise<number> => ((await logs.textContent()) ?? '').split('\n').filter((l) => l.includes('[server]')).length;
  const before = await count();
  await expect.poll(count, { timeout: 20_000 }).toBeGreaterThan(before);
  await expect(logs).toContainText('log level set to debug');
  await serverCard(page, 'ev').screenshot({ path: path.join(SCREENSHOTS, 'protocol-logs.png') });
});

test('a URL elicitation names the server and the host; Decline reaches the server', async ({ page, shell }) => {
  await openApp(page, shell.current);
  await configureModel(page, { baseUrl: model.baseUrl, model: 'fake' });
  await setApprovalMode(page, 'Never ask');
  await expectStatus(await addLocalServer(page, { name: 'fx', command: commandLine([process.execPath, FIXTURE]) }), 'ready');
  await openChat(page);
  await sendMessage(page, 'call fx__open_link {"url":"https://pay.example.com/checkout?order=7","message":"Pay for order 7"}');
  const dialog = page.getByRole('dialog', { name: 'Link from fx' });
  await expect(dialog).toBeVisible({ timeout: 15_000 });
  await expect(dialog).toContainText('fx asks you to open a link');
  await expect(dialog.getByTestId('url-host')).toHaveText('pay.example.com');
  await expect(dialog.getByTestId('url-full')).toHaveText('https://pay.example.com/checkout?order=7');
  await expect(dialog).toContainText('Pay for order 7');
  await dialog.screenshot({ path: path.join(SCREENSHOTS, 'protocol-url-elicitation.png') });
  await dialog.getByRole('button', { name: 'Decline' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('tool-card').last().getByTestId('tool-result')).toContainText('"action":"decline"', { timeout: 15_000 });
});

test('roots given in the UI: server-filesystem without directory arguments reads inside them and not outside', async ({ page, shell }) => {
  const { mkdtempSync, writeFileSync, mkdirSync, rmSync } = await import('node:fs');
  const os = await import('node:os');
  const base = mkdtempSync(path.join(os.tmpdir(), 'op-e2e-roots-'));
  const inside = path.join(base, 'inside');
  const outside = path.join(base, 'outside');
  mkdirSync(inside);
  mkdirSync(outside);
  writeFileSync(path.join(inside, 'note.txt'), 'hello from inside');
  writeFileSync(path.join(outside, 'secret.txt'), 'must not be read');
  await openApp(page, shell.current);
  await configureModel(page, { baseUrl: model.baseUrl, model: 'fake' });
  await setApprovalMode(page, 'Never ask');
  await openSettings(page, 'MCP servers');
  const roots = page.getByTestId('default-roots');
  // A relative path is refused in the field, by Enter as by the button, and nothing is added.
  await roots.getByLabel('Folder path').fill('relative/path');
  await roots.getByLabel('Folder path').press('Enter');
  await expect(roots.getByRole('alert')).toContainText('Enter a full folder path');
  await expect(roots.getByLabel('Folder path')).toHaveAttribute('aria-invalid', 'true');
  await expect(roots.locator('.root-row')).toHaveCount(0);
  // An absolute one is saved at once (no Save step): it is still there after leaving the screen.
  await roots.getByLabel('Folder path').fill(inside);
  await roots.getByRole('button', { name: 'Add folder' }).click();
  await expect(roots.getByRole('status')).toHaveText('Saved; the servers were told.');
  await expect(roots.getByRole('alert')).toHaveCount(0);
  await openChat(page);
  await openSettings(page, 'MCP servers');
  await expect(page.getByTestId('default-roots').locator('.root-row .mono')).toHaveText([inside]);
  const card = await addLocalServer(page, { name: 'fs', command: commandLine([process.execPath, path.join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js')]) });
  await expectStatus(card, 'ready');
  await card.getByTestId('server-roots').locator('summary').click();
  await expect(card.getByTestId('server-roots')).toContainText(inside);
  await page.getByRole('region', { name: 'Root folders' }).screenshot({ path: path.join(SCREENSHOTS, 'protocol-default-roots.png') });
  await openChat(page);
  await sendMessage(page, `call fs__read_text_file ${JSON.stringify({ path: path.join(inside, 'note.txt') })}`);
  await expect(page.getByTestId('tool-card').last()).toContainText('hello from inside', { timeout: 15_000 });
  await sendMessage(page, `call fs__read_text_file ${JSON.stringify({ path: path.join(outside, 'secret.txt') })}`);
  await expect(page.getByTestId('tool-card').last()).toContainText(/denied|outside allowed/i, { timeout: 15_000 });
  await expect(page.getByTestId('tool-card').last()).not.toContainText('must not be read');
  // The server's own folders: only the other folder now (no restart needed).
  await openSettings(page, 'MCP servers');
  const own = serverCard(page, 'fs').getByTestId('server-roots');
  if (!(await own.getByLabel('Use its own folders').isVisible())) await own.locator('summary').click();
  await own.getByLabel('Use its own folders').check();
  const editor = own.getByTestId('server-roots-editor');
  await editor.getByRole('button', { name: `Remove folder ${inside}` }).click();
  await editor.getByLabel('Folder path').fill(outside);
  await editor.getByRole('button', { name: 'Add folder' }).click();
  await expect(editor.getByRole('status')).toHaveText('Saved; the servers were told.');
  await serverCard(page, 'fs').screenshot({ path: path.join(SCREENSHOTS, 'protocol-server-roots.png') });
  // Sandboxed, it restarts to be granted its new folders; the call goes to the new process.
  await expectStatus(serverCard(page, 'fs'), 'ready');
  await openChat(page);
  await sendMessage(page, `call fs__read_text_file ${JSON.stringify({ path: path.join(outside, 'secret.txt') })}`);
  await expect(page.getByTestId('tool-card').last()).toContainText('must not be read', { timeout: 15_000 });
  rmSync(base, { recursive: true, force: true });
});

test('icons load anonymously and only from allowed sources; a structured tool result is laid out as fields', async ({ page, shell }) => {
  await openApp(page, shell.current);
  await configureModel(page, { baseUrl: model.baseUrl, model: 'fake' });
  await setApprovalMode(page, 'Never ask');
  const card = await addLocalServer(page, { name: 'fx', command: commandLine([process.execPath, FIXTURE]) });
  await expectStatus(card, 'ready');
  await card.getByRole('button', { name: 'Tools', exact: true }).click();
  const icon = card.getByTestId('tool-open_link').getByTestId('mcp-icon');
  await expect(icon).toBeVisible();
  await expect(icon).toHaveAttribute('src', /^data:image\/png;base64,/);
  await expect(icon).toHaveAttribute('referrerpolicy', 'no-referrer');
  await expect(icon).toHaveAttribute('crossorigin', 'anonymous');
  expect(await icon.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1); // it really loaded (CSP allows data: images)
  // The flood tool declares only a file: and an http: icon: none is shown.
  await expect(card.getByTestId('tool-flood').getByTestId('mcp-icon')).toHaveCount(0);
  await card.screenshot({ path: path.join(SCREENSHOTS, 'protocol-icons.png') });
  await openChat(page);
  await sendMessage(page, 'call fx__weather {}');
  const structured = page.getByTestId('tool-card').last().getByTestId('structured-result');
  await expect(structured).toBeVisible({ timeout: 15_000 });
  await expect(structured.locator('dt', { hasText: 'temperature' })).toBeVisible();
  await expect(structured.locator('dd').first()).toHaveText('21');
  await expect(structured.locator('dd').nth(1)).toHaveText('Sunny <b>bold</b>'); // data stays text
  await expect(structured.locator('b')).toHaveCount(0);
  await page.getByTestId('tool-card').last().screenshot({ path: path.join(SCREENSHOTS, 'protocol-structured.png') });
});

test('an http server that only speaks legacy SSE says so on its card', async ({ page, shell }) => {
  const sse = await startHttpFixture({ mode: 'sse' });
  try {
    await openApp(page, shell.current);
    await openSettings(page, 'MCP servers');
    await submitRemoteServer(page, { name: 'old', url: sse.url });
    const card = serverCard(page, 'old');
    await expectStatus(card, 'ready');
    await expect(card.getByTestId('sse-fallback')).toHaveText('Legacy SSE fallback');
    await card.screenshot({ path: path.join(SCREENSHOTS, 'protocol-sse-fallback.png') });
  } finally {
    await sse.close();
  }
});
