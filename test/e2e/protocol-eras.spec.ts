/**
 * Protocol eras in the real UI: a 2026-07-28 stdio server (serveStdio) and the hand-written
 * 2024-11-05 bash server side by side, each card naming the negotiated revision; a server with
 * malformed tools shows one sentence per left-out tool; a 2026-07-28 tool that answers
 * `input_required` opens the same elicitation dialog as a 2025 server's request.
 */
import path from 'node:path';
import { startFakeModel, type FakeModel } from '../fixtures/fake-model.js';
import { BASH_SERVER, ROOT, SCREENSHOTS, addLocalServer, commandLine, configureModel, expect, expectStatus, openApp, openChat, sendMessage, setApprovalMode, test } from './helpers.js';

const MODERN = path.join(ROOT, 'test/fixtures/modern-stdio-server.mjs');
const RAW = path.join(ROOT, 'test/fixtures/raw-server.mjs');

test('each card names its protocol revision; malformed tools are named, the good ones listed', async ({ page, shell }) => {
  await openApp(page, shell.current);
  const modern = await addLocalServer(page, { name: 'modern', command: commandLine([process.execPath, MODERN]) });
  await expectStatus(modern, 'ready');
  await expect(modern.getByTestId('server-info')).toHaveText('Server modern-fixture 2.0.0 · protocol 2026-07-28');
  const old = await addLocalServer(page, { name: 'old', command: commandLine(['bash', BASH_SERVER]) });
  await expectStatus(old, 'ready');
  await expect(old.getByTestId('server-info')).toHaveText('Server bash-fixture 1.0.0 · protocol 2024-11-05');
  const bad = await addLocalServer(page, { name: 'bad', command: commandLine([process.execPath, RAW, 'bad-tools']) });
  await expectStatus(bad, 'ready');
  const issues = bad.getByTestId('server-issue');
  await expect(issues).toHaveCount(5);
  await expect(issues.first()).toHaveText('The tool “stringy” was left out: its input schema is not an object schema.');
  await expect(issues.nth(1)).toHaveText('The tool “broken_props” was left out: its input schema is malformed.');
  await expect(bad).toContainText('3 tools');
  await page.screenshot({ path: path.join(SCREENSHOTS, 'protocol-eras-cards.png'), fullPage: true });
});

test.describe('with a model', () => {
  let model: FakeModel;
  test.beforeEach(async () => {
    model = await startFakeModel();
  });
  test.afterEach(async () => {
    await model.close();
  });

  test('a 2026-07-28 input_required elicitation opens the dialog; the answer reaches the server', async ({ page, shell }) => {
    await openApp(page, shell.current);
    await configureModel(page, { baseUrl: model.baseUrl, model: 'fake' });
    await setApprovalMode(page, 'Never ask');
    await expectStatus(await addLocalServer(page, { name: 'fx', command: commandLine([process.execPath, MODERN]) }), 'ready');
    await openChat(page);
    await sendMessage(page, 'call fx__ask {}');
    const dialog = page.getByRole('dialog', { name: 'Request from fx' });
    await expect(dialog).toBeVisible({ timeout: 15_000 });
    await expect(dialog).toContainText('Who are you?');
    await dialog.getByLabel('Name').fill('Ada');
    await dialog.getByLabel('Age').fill('36');
    await dialog.getByRole('button', { name: 'Accept' }).click();
    await expect(dialog).toBeHidden();
    const result = page.getByTestId('tool-card').last().getByTestId('tool-result');
    await expect(result).toContainText('"action":"accept"', { timeout: 15_000 });
    await expect(result).toContainText('"name":"Ada"');
    await expect(result).toContainText('"age":36');
  });
});
