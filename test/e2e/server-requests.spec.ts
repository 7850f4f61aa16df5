/**
 * Server-initiated requests in the real UI: an elicitation form (a server asks the user for
 * input mid-call) and a sampling approval (a server asks to use the user's model). Both show the
 * asking server's name; nothing reaches the model before the user allows it.
 */
import path from 'node:path';
import { startFakeModel, type FakeModel } from '../fixtures/fake-model.js';
import { ROOT, addLocalServer, commandLine, configureModel, setApprovalMode, expect, expectStatus, openApp, openChat, sendMessage, test } from './helpers.js';

const SDK_SERVER = path.join(ROOT, 'test/fixtures/sdk-server.mjs');
let model: FakeModel;
test.beforeEach(async () => {
  model = await startFakeModel();
});
test.afterEach(async () => {
  await model.close();
});

test('an elicitation form: the user fills it in, defaults fill the rest, the server gets the answer', async ({ page, shell }) => {
  await openApp(page, shell.current);
  await configureModel(page, { baseUrl: model.baseUrl, model: 'fake' });
  // Tools here are not what is tested: run them without approval cards.
  await setApprovalMode(page, 'Never ask');
  await expectStatus(await addLocalServer(page, { name: 'fx', command: commandLine([process.execPath, SDK_SERVER]) }), 'ready');
  await openChat(page);
  await sendMessage(page, 'call fx__ask {}');
  const dialog = page.getByRole('dialog', { name: 'Request from fx' });
  await expect(dialog).toBeVisible({ timeout: 15_000 });
  await expect(dialog).toContainText('Who are you?');
  await expect(dialog.getByLabel('Age')).toHaveValue('30'); // the schema's default is pre-filled
  await dialog.getByRole('button', { name: 'Accept' }).click();
  await expect(dialog.getByRole('alert')).toContainText('"Name" is required');
  await dialog.getByLabel('Name').fill('Ada');
  await dialog.getByLabel('Age').fill('');
  await dialog.getByRole('button', { name: 'Accept' }).click();
  await expect(dialog).toBeHidden();
  const result = page.getByTestId('tool-card').last().getByTestId('tool-result');
  await expect(result).toContainText('"action":"accept"', { timeout: 15_000 });
  await expect(result).toContainText('"name":"Ada"');
  await expect(result).toContainText('"age":30'); // omitted → the default, applied by the app
});

test('a sampling request waits for the user; Allow lets the model answer the server', async ({ page, shell }) => {
  await openApp(page, shell.current);
  await configureModel(page, { baseUrl: model.baseUrl, model: 'fake' });
  // Tools here are not what is tested: run them without approval cards.
  await setApprovalMode(page, 'Never ask');
  await expectStatus(await addLocalServer(page, { name: 'fx', command: commandLine([process.execPath, SDK_SERVER]) }), 'ready');
  await openChat(page);
  await sendMessage(page, 'call fx__summarize {"text":"the quarterly numbers"}');
  const dialog = page.getByRole('dialog', { name: 'Model request from fx' });
  await expect(dialog).toBeVisible({ timeout: 15_000 });
  await expect(dialog).toContainText('the quarterly numbers');
  await expect(dialog).toContainText('Be brief.');
  const before = model.requests.length;
  await page.waitForTimeout(300);
  expect(model.requests.length).toBe(before); // nothing sent to the model while the dialog is open
  await dialog.getByRole('button', { name: 'Allow' }).click();
  await expect(page.getByTestId('tool-card').last().getByTestId('tool-result')).toContainText('model fake said: echo: the quarterly numbers', { timeout: 15_000 });
});
