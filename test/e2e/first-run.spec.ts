/**
 * The first run end to end (docs/ARCHITECTURE.md "First run"): a fresh state shows the guide in
 * the empty chat; its folder step adds a real `@modelcontextprotocol/server-filesystem` (through
 * `npx`, which runs the copy installed with the app's packages) whose tool lists the folder; an
 * example prompt fills the composer; the empty states say what to do; Skip hides the guide for
 * good. The server's card says where it works: in the folder of its command line while no root
 * folders are given. Real core, real Chromium, a fake Ollama on loopback found by the local-model probe.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startFakeModel, type FakeModel } from '../fixtures/fake-model.js';
import { configureModel, expect, openApp, openChat, openSettings, SCREENSHOTS, sendMessage, tempDir, test } from './helpers.js';

let ollama: FakeModel;
let work: string;
test.beforeAll(async () => {
  ollama = await startFakeModel({ models: ['llama3.2:3b'] });
  // The shell of each test starts after this and probes the fake instead of 127.0.0.1:11434.
  process.env.OPENPROGRAM_LOCAL_MODEL_PROBES = `ollama=${ollama.baseUrl},lmstudio=http://127.0.0.1:9/v1`;
  work = tempDir('first-run');
  mkdirSync(path.join(work, 'notes'));
  writeFileSync(path.join(work, 'notes', 'hello-first-run.txt'), 'hello\n');
  writeFileSync(path.join(work, 'notes', 'plan.md'), '# plan\n');
  writeFileSync(path.join(work, 'a-file.txt'), 'not a folder\n');
});
test.afterAll(async () => {
  process.env.OPENPROGRAM_LOCAL_MODEL_PROBES = 'none';
  await ollama?.close();
  rmSync(work, { recursive: true, force: true });
});

test('a fresh state leads through model, folder server and an example prompt; empty states say what to do', async ({ page, shell }) => {
  test.setTimeout(150_000);
  await openApp(page, shell.current);
  const guide = page.getByTestId('first-run');
  await expect(guide).toBeVisible();
  await expect(guide.getByRole('heading', { name: 'Welcome to OpenProgram' })).toBeVisible();
  await expect(page.getByTestId('first-run-model')).toHaveAttribute('data-done', 'false');
  // Step 1's words fit what it offers: the running (fake) Ollama, one click away.
  await expect(page.getByTestId('first-run-model').getByTestId('set-up-model')).toHaveText('A model server runs on this computer: use it with one click below, or set up another model in Settings → Model.');
  await expect(page.getByTestId('first-run-server')).toHaveAttribute('data-done', 'false');
  await expect(page.getByTestId('first-run-suggestions').getByRole('button', { name: 'Find Memory in the catalog' })).toBeVisible();

  // Empty states: the sidebar, a search without hits (with a way back), the server list.
  const noConversations = page.getByTestId('conversations-empty');
  await expect(noConversations).toContainText('No conversations yet.');
  await noConversations.getByRole('button', { name: 'Write the first message' }).click();
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeFocused();
  await page.getByLabel('Search conversations').fill('zebra');
  const noHits = page.getByTestId('search-empty');
  await expect(noHits).toContainText('No message or title matches “zebra”.');
  await noHits.getByRole('button', { name: 'Clear search' }).click();
  await expect(page.getByLabel('Search conversations')).toHaveValue('');
  await expect(noConversations).toBeVisible();
  await openSettings(page, 'MCP servers');
  const noServers = page.getByTestId('servers-empty');
  await expect(noServers).toContainText('No servers yet. A server gives the model tools');
  await noServers.getByRole('button', { name: 'Browse the catalog' }).click();
  await expect(page.getByRole('heading', { name: 'Catalog', exact: true })).toBeVisible();
  await page.getByRole('tab', { name: 'Chat' }).click();

  // Step 2, bad input: each kind is said beside the field, and nothing is added.
  const form = page.getByRole('form', { name: 'Let the model read a folder' });
  const field = form.getByLabel('Folder path');
  const submit = form.getByRole('button', { name: 'Let the model read it' });
  const error = form.getByRole('alert');
  await submit.click();
  await expect(error).toHaveText('Enter the path of a folder.');
  await field.fill('notes');
  await submit.click();
  await expect(error).toHaveText('Give the full path, starting with / (or ~/ for your home folder).');
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await field.fill(path.join(work, 'missing'));
  await submit.click();
  await expect(error).toHaveText(`There is no folder at ${path.join(work, 'missing')}.`);
  await field.fill(path.join(work, 'a-file.txt'));
  await submit.click();
  await expect(error).toHaveText(`${path.join(work, 'a-file.txt')} is a file, not a folder.`);
  await expect(field).toHaveValue(path.join(work, 'a-file.txt'));
  await expect(page.getByTestId('first-run-server')).toHaveAttribute('data-done', 'false');

  // A real folder (typed with a trailing slash): a filesystem server on it, ready with its tools.
  await field.fill(`${path.join(work, 'notes')}/`);
  await submit.click();
  const state = page.getByTestId('first-run-server-state');
  await expect(state).toHaveAttribute('data-status', 'ready', { timeout: 90_000 });
  await expect(state).toContainText(/files is ready with \d+ tools\./);
  await expect(page.getByTestId('first-run-server')).toHaveAttribute('data-done', 'true');

  // Step 1: the running (fake) Ollama, one click.
  await page.getByTestId('local-offer-ollama').getByRole('button', { name: 'Use Ollama' }).click();
  await expect(page.getByTestId('first-run-model')).toHaveAttribute('data-done', 'true');
  await expect(page.getByTestId('first-run-model')).toContainText('Ready: Ollama · llama3.2:3b.');

  // Step 3: an example fills the composer (and puts the caret there).
  const example = 'List the files in my folder and say in one line what each one is for.';
  await page.getByRole('button', { name: example }).click();
  const box = page.getByRole('textbox', { name: 'Message' });
  await expect(box).toHaveValue(example);
  await expect(box).toBeFocused();

  // The server works: the model's call lists the folder. The first message ends the guide.
  await sendMessage(page, `call list_directory ${JSON.stringify({ path: path.join(work, 'notes') })}`);
  const allow = page.getByRole('button', { name: 'Allow once' });
  const answer = page.getByTestId('msg-assistant').last();
  await expect(allow.or(answer)).toBeVisible({ timeout: 30_000 });
  if (await allow.isVisible()) await allow.click();
  await expect(answer).toContainText('hello-first-run.txt');
  await expect(answer).toContainText('plan.md');
  await expect(guide).toHaveCount(0);
  await expect(noConversations).toHaveCount(0);
  await expect(page.getByTestId('conversation')).toHaveCount(1);

  // The config holds the server as the step made it.
  await openSettings(page, 'MCP servers');
  await expect(page.getByTestId('server-files').locator('.server-meta.mono')).toHaveText(`npx -y @modelcontextprotocol/server-filesystem ${path.join(work, 'notes')}`);

  // Its root folders say what is true: none are given, and it works in the folder of its command line.
  const roots = page.getByTestId('server-files').getByTestId('server-roots');
  await expect(roots.locator('summary')).toHaveText(`Root folders: none given · it works in the folders in its command line (${path.join(work, 'notes')})`);
  await roots.locator('summary').click();
  await expect(roots.getByTestId('roots-command')).toHaveText(
    `No root folders are given to it, so it works in the folders its command line names: ${path.join(work, 'notes')}. Root folders given to it would replace those.`,
  );
  await expect(page.getByTestId('default-roots').getByTestId('roots-empty')).toHaveText(
    'None: servers without folders of their own are given no root folders. Servers whose command line names their folders work in those (files); a folder added here would be given to them instead.',
  );
  await expect(page.getByRole('region', { name: 'Root folders' })).not.toContainText('No folders.');
  await page.screenshot({ path: path.join(SCREENSHOTS, 'first-run-roots.png') });
  // Given a default root folder, the card says it replaces the command line's.
  await page.getByTestId('default-roots').getByLabel('Folder path').fill(work);
  await page.getByTestId('default-roots').getByRole('button', { name: 'Add folder' }).click();
  await expect(roots.locator('summary')).toHaveText('Root folders (1) · the default ones');
  await expect(roots.getByTestId('roots-command')).toHaveText(`Its command line names ${path.join(work, 'notes')}; the root folders given to it replace those.`);
});

test('Skip hides the guide for good; the plain empty chat is left', async ({ page, shell }) => {
  await openApp(page, shell.current);
  await expect(page.getByTestId('first-run')).toBeVisible();
  await page.getByRole('button', { name: 'Skip setup' }).click();
  await expect(page.getByTestId('first-run')).toHaveCount(0);
  // A model server runs here (the fake Ollama): the sentence says so, beside its one-click offer.
  await expect(page.getByTestId('chat-empty').getByTestId('set-up-model')).toHaveText('A model server runs on this computer: use it with one click below, or set up another model in Settings → Model.');
  await expect(page.getByTestId('chat-empty').getByTestId('local-offer-ollama')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
  await expect(page.getByTestId('chat-empty')).toBeVisible();
  await expect(page.getByTestId('first-run')).toHaveCount(0);
});

test('an example prompt fills the box once: replaced and sent, it does not come back after a visit to Settings', async ({ page, shell }) => {
  await openApp(page, shell.current);
  await page.getByTestId('local-offer-ollama').getByRole('button', { name: 'Use Ollama' }).click();
  await expect(page.getByTestId('first-run-model')).toHaveAttribute('data-done', 'true');
  const example = 'Which tools can you use? Give one example of each.';
  await page.getByRole('button', { name: example }).click();
  const box = page.getByRole('textbox', { name: 'Message' });
  await expect(box).toHaveValue(example);
  await box.press('ControlOrMeta+a');
  await box.pressSequentially('my own question');
  await box.press('Enter');
  await expect(page.getByTestId('msg-assistant').last()).toHaveText('echo: my own question', { timeout: 30_000 });
  await expect(box).toHaveValue('');

  // Settings and back: the box is as it was left (empty), and Enter sends nothing.
  await openSettings(page, 'Model');
  await openChat(page);
  await expect(box).toHaveValue('');
  const sent = ollama.requests.length;
  await box.press('Enter');
  await expect(page.getByTestId('msg-user')).toHaveCount(1);
  expect(ollama.requests.length).toBe(sent);
});

test.describe('a folder server that is slow to start, then fails', () => {
  // `npx` on the PATH the app core gets is a stand-in: it waits until the test lets it go, then
  // fails the way a download does. The guide's own command is unchanged.
  let bin: string;
  let path0: string | undefined;
  test.beforeAll(() => {
    bin = tempDir('fake-npx');
    writeFileSync(
      path.join(bin, 'npx'),
      '#!/bin/sh\nwhile [ ! -e "$(dirname "$0")/go" ]; do sleep 0.1; done\necho "npm error 404 Not Found - GET https://registry.npmjs.org/@modelcontextprotocol%2fserver-filesystem" >&2\nexit 1\n',
      { mode: 0o755 },
    );
    path0 = process.env.PATH;
    process.env.PATH = `${bin}:${process.env.PATH ?? ''}`;
  });
  test.afterAll(() => {
    process.env.PATH = path0;
    rmSync(bin, { recursive: true, force: true });
  });

  test('step 2 is under way while its server starts, never checked before it is ready, and says so when it does not start', async ({ page, shell }) => {
    await openApp(page, shell.current);
    const step = page.getByTestId('first-run-server');
    const form = page.getByRole('form', { name: 'Let the model read a folder' });
    await form.getByLabel('Folder path').fill(path.join(work, 'notes'));
    await form.getByRole('button', { name: 'Let the model read it' }).click();
    const state = page.getByTestId('first-run-server-state');
    await expect(state).toHaveAttribute('data-status', 'starting');
    await expect(state).toHaveText('files is starting… The first start may take a minute while the server is downloaded.');
    await expect(step).toHaveAttribute('data-state', 'busy');
    await expect(step).toHaveAttribute('data-done', 'false');
    await expect(step.locator('.guide-num')).toHaveText('2');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'first-run-server-starting.png') });

    // It fails: the step says so, with the first reason and where the rest is.
    writeFileSync(path.join(bin, 'go'), '');
    await expect(step).toHaveAttribute('data-state', 'failed', { timeout: 30_000 });
    await expect(step).toHaveAttribute('data-done', 'false');
    await expect(state).toHaveText('files did not start.');
    const failure = page.getByTestId('first-run-server-failure');
    await expect(failure).toHaveText('The server exited before it finished starting. Settings → MCP servers shows what it said, and lets you change or remove it.');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'first-run-server-failed.png') });
    await failure.getByRole('button', { name: 'Settings → MCP servers' }).click();
    await expect(page.getByRole('heading', { name: 'MCP servers', exact: true })).toBeVisible();
    await expect(page.getByTestId('server-files').getByTestId('server-stderr')).toContainText('npm error 404 Not Found');
  });
});

test('"Set up a model first" goes once a model is set up, and a message then sent is answered', async ({ page, shell }) => {
  test.setTimeout(90_000);
  await openApp(page, shell.current);
  await openChat(page);
  await page.getByRole('textbox', { name: 'Message' }).fill('hello before any model');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  const notice = page.getByTestId('chat-notice');
  await expect(notice).toContainText('Set up a model first in Settings → Model.');
  await configureModel(page, { baseUrl: ollama.baseUrl, model: 'llama3.2:3b' });
  await openChat(page);
  await expect(page.getByTestId('first-run-model')).toHaveAttribute('data-done', 'true');
  await expect(notice).toHaveCount(0);
  await sendMessage(page, 'hello with a model');
  await expect(page.getByTestId('msg-assistant')).toHaveText('echo: hello with a model');
  await expect(notice).toHaveCount(0);
});
