/**
 * The main user path, by clicking and typing only: configure a model, add the filesystem MCP
 * server, watch it become ready, let the model call one of its tools from the chat, and find
 * everything still there after the app restarts.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { splitCommandLine } from '../../renderer/src/commandLine.js';
import { startFakeModel, type FakeModel } from '../fixtures/fake-model.js';
import {
  FS_SERVER,
  SCREENSHOTS,
  addLocalServer,
  commandLine,
  configureModel,
  expect,
  expectStatus,
  openApp,
  openChat,
  openSettings,
  sendMessage,
  serverCard,
  tempDir,
  test,
} from './helpers.js';

const API_KEY = 'sk-e2e-main-path-9f3c1a7e55';
const MODEL = 'fake-e2e-model';
const CANARY = 'purple-giraffe-7319 was here';

let model: FakeModel;
let filesDir: string;
let filePath: string;

test.beforeAll(async () => {
  model = await startFakeModel({ chunkDelayMs: 60 });
  // A space in the directory name: the command line must quote it.
  filesDir = path.join(tempDir('files'), 'shared docs');
  mkdirSync(filesDir);
  filePath = path.join(filesDir, 'notes.txt');
  writeFileSync(filePath, `Meeting notes\n${CANARY}\n`);
  mkdirSync(SCREENSHOTS, { recursive: true });
});

test.afterAll(async () => {
  await model?.close();
  if (filesDir) rmSync(path.dirname(filesDir), { recursive: true, force: true });
});

test('configure a model, add the filesystem server, call its tool from chat, persist across restart', async ({ page, shell }) => {
  await openApp(page, shell.current);
  await expect(page.getByText('No model configured')).toBeVisible();

  // ---- Settings → Model ----------------------------------------------------------------------
  await configureModel(page, { baseUrl: model.baseUrl, model: MODEL, apiKey: API_KEY });
  // The key is stored, shown only as a masked badge, and the input is cleared.
  await expect(page.locator('.field').filter({ hasText: 'API key' }).locator('.badge')).toContainText('set');
  await expect(page.getByLabel('API key')).toHaveValue('');
  await expect(page.locator('body')).not.toContainText(API_KEY);

  // ---- Settings → MCP servers → Add server ---------------------------------------------------
  const card = await addLocalServer(page, { name: 'files', command: commandLine(['node', FS_SERVER, filesDir]) });
  await expect(card.getByTestId('server-status')).toHaveText(/^(starting|ready)$/);
  await expectStatus(card, 'ready');
  await expect(card).toContainText(/\d+ tools/);
  await card.getByRole('button', { name: 'Tools' }).click();
  const tools = card.getByTestId('tools-list');
  await expect(tools.getByTestId('tool-read_text_file')).toBeVisible();
  await expect(tools.getByTestId('tool-list_directory')).toBeVisible();
  // The command is shown as a line that reads back to the same argv: the directory with a space
  // stays quoted as one argument.
  await expect(card.locator('.server-meta')).toHaveText(`node ${FS_SERVER} '${filesDir}'`);
  expect(splitCommandLine((await card.locator('.server-meta').textContent()) ?? '')).toEqual(['node', FS_SERVER, filesDir]);
  await page.screenshot({ path: path.join(SCREENSHOTS, 'settings.png'), fullPage: true });

  // The config file holds the server; the API key is not in any plain file we can see.
  const stored = JSON.parse(readFileSync(path.join(shell.stateDir, 'mcp_servers.json'), 'utf8')) as { servers: Record<string, { command: string[] }> };
  expect(stored.servers.files?.command).toEqual(['node', FS_SERVER, filesDir]);
  expect(readFileSync(path.join(shell.stateDir, 'model_profiles.json'), 'utf8')).not.toContain(API_KEY);

  // ---- Chat ----------------------------------------------------------------------------------
  await openChat(page);
  await expect(page.locator('.chat-toolbar')).toContainText(`Model: ${MODEL}`);
  await expect(page.locator('.chat-toolbar')).toContainText(/[1-9]\d* tools available/);

  // Record every text the assistant bubble shows, to prove the answer arrives in pieces.
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __assistantTexts: string[] }).__assistantTexts = seen;
    new MutationObserver(() => {
      const el = document.querySelector('[data-testid="msg-assistant"]');
      const t = el?.textContent ?? '';
      if (t && seen[seen.length - 1] !== t) seen.push(t);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });

  const requestsBefore = model.requests.length;
  await sendMessage(page, `call __read_text_file ${JSON.stringify({ path: filePath })}`);
  await expect(page.getByTestId('msg-user')).toContainText('call __read_text_file');
  // While the run is going, Stop replaces Send.
  await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible();

  const toolCard = page.getByTestId('tool-card');
  await expect(toolCard).toHaveCount(1);
  await expect(toolCard.getByTestId('tool-name')).toHaveText('files__read_text_file');
  await expect(toolCard).toContainText('files'); // the server
  const args = JSON.parse((await toolCard.getByTestId('tool-args').textContent()) ?? 'null') as unknown;
  expect(args).toEqual({ path: filePath });
  await expect(toolCard.getByTestId('tool-result')).toContainText(CANARY);
  await expect(toolCard.getByTestId('tool-duration')).toHaveText(/^\d+ ms$/);
  await expect(toolCard).toHaveClass(/\bok\b/);

  const answer = page.getByTestId('msg-assistant');
  await expect(answer).toContainText(`Tool result: Meeting notes`);
  await expect(answer).toContainText(CANARY);
  await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Stop' })).toHaveCount(0);
  await expect(page.getByTestId('chat-notice')).toHaveCount(0);

  const seen = await page.evaluate(() => (window as unknown as { __assistantTexts: string[] }).__assistantTexts);
  expect(seen.length, `the answer should stream in pieces, saw: ${JSON.stringify(seen)}`).toBeGreaterThan(2);
  expect(seen[seen.length - 1]).toContain(CANARY);
  // A short answer that starts empty is never called "the rest, as plain text" while it streams.
  expect(seen.some((x) => x.includes('plain text'))).toBe(false);
  expect(seen[0]!.length).toBeLessThan(seen[seen.length - 1]!.length);

  // The model got: the offered namespaced tool, then the tool result; always with our key.
  const reqs = model.requests.slice(requestsBefore);
  expect(reqs.length).toBe(2);
  for (const r of reqs) {
    expect(r.authorization).toBe(`Bearer ${API_KEY}`);
    expect(r.body.model).toBe(MODEL);
  }
  expect(reqs[0]!.body.tools?.map((t) => t.function.name)).toContain('files__read_text_file');
  const toolMsg = reqs[1]!.body.messages.find((m) => m.role === 'tool');
  expect(JSON.stringify(toolMsg?.content)).toContain('purple-giraffe-7319');

  await page.screenshot({ path: path.join(SCREENSHOTS, 'chat.png'), fullPage: true });

  // ---- Restart with the same state dir -------------------------------------------------------
  await shell.restart(); // also asserts the old shell left no MCP server process behind
  await openApp(page, shell.current);
  await openSettings(page, 'MCP servers');
  const again = serverCard(page, 'files');
  await expect(again).toBeVisible();
  await expectStatus(again, 'ready');
  await again.getByRole('button', { name: 'Tools' }).click();
  await expect(again.getByTestId('tool-read_text_file').locator('.tool-row-name .mono').first()).toHaveAttribute('title', 'The name the model sees: files__read_text_file');

  await openSettings(page, 'Model');
  await expect(page.getByLabel('Base URL')).toHaveValue(model.baseUrl);
  await expect(page.getByLabel('Model name')).toHaveValue(MODEL);
  await expect(page.locator('.field').filter({ hasText: 'API key' }).locator('.badge')).toContainText('set');
  await expect(page.getByLabel('API key')).toHaveValue('');
  await expect(page.getByLabel('API key')).toHaveAttribute('placeholder', /keep the stored key/);
  await expect(page.locator('body')).not.toContainText(API_KEY);

  // The conversation came back (reopened at start) and the persisted key still works.
  await openChat(page);
  await expect(page.locator('.chat-toolbar')).toContainText(`Model: ${MODEL}`);
  await expect(page.getByTestId('tool-card')).toHaveCount(1);
  await expect(page.getByTestId('msg-assistant')).toContainText(CANARY);
  const n = model.requests.length;
  await sendMessage(page, 'hello after restart');
  await expect(page.getByTestId('msg-assistant').last()).toHaveText('echo: hello after restart');
  expect(model.requests[n]?.authorization).toBe(`Bearer ${API_KEY}`);
});
