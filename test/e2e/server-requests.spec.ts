/**
 * Server-initiated requests in the real UI: an elicitation form (a server asks the user for
 * input mid-call) and a sampling approval (a server asks to use the user's model). Both show the
 * asking server's name; nothing reaches the model before the user allows it.
 */
import path from 'node:path';
import { startFakeModel, type FakeModel } from '../fixtures/fake-model.js';
import { ROOT, SCREENSHOTS, addLocalServer, commandLine, configureModel, setApprovalMode, expect, expectStatus, openApp, openChat, sendMessage, test } from './helpers.js';

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
  // The problem is said beside its field, once: the focus goes there, no summary repeats it.
  await expect(dialog.locator('[data-key="name"]').getByRole('alert')).toHaveText('Enter a value.');
  await expect(dialog.getByLabel('Name')).toBeFocused();
  await expect(dialog.getByRole('alert')).toHaveCount(1);
  await expect(dialog.getByTestId('elicit-summary')).toHaveCount(0);
  await expect(dialog.locator('[data-key="age"]')).toContainText('Default: 30');
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

test('server-everything’s elicitation form: every field kind as its own control, defaults shown, problems beside their fields, the answer as the user saw it', async ({ page, shell }) => {
  test.setTimeout(90_000);
  const everything = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
  await openApp(page, shell.current);
  await configureModel(page, { baseUrl: model.baseUrl, model: 'fake' });
  await setApprovalMode(page, 'Never ask');
  await expectStatus(await addLocalServer(page, { name: 'ev', command: commandLine([process.execPath, everything, 'stdio']) }), 'ready', 60_000);
  await openChat(page);
  await sendMessage(page, 'call ev__trigger-elicitation-request {}');
  const dialog = page.getByRole('dialog', { name: 'Request from ev' });
  await expect(dialog).toBeVisible({ timeout: 15_000 });
  const field = (key: string) => dialog.locator(`[data-key="${key}"]`);
  // Each kind is its own control, defaults pre-filled and said.
  await expect(field('email').getByLabel('String with email format')).toHaveAttribute('type', 'email');
  await expect(field('homepage').getByLabel('String with uri format')).toHaveAttribute('type', 'url');
  await expect(field('birthdate').getByLabel('String with date format')).toHaveAttribute('type', 'date');
  await expect(field('integer').getByLabel('Integer')).toHaveValue('42');
  await expect(field('integer')).toContainText('From 1 to 100 · Default: 42');
  await expect(field('untitledMultipleSelectEnum')).toHaveAttribute('data-kind', 'multi');
  await expect(field('untitledMultipleSelectEnum').getByRole('checkbox', { name: 'Guitar' })).toBeChecked();
  await expect(field('titledSingleSelectEnum').getByLabel('Titled Single Select Enum')).toHaveValue('hero-1');
  await expect(field('titledSingleSelectEnum').getByRole('option', { name: 'Wonder Woman' })).toHaveCount(1);
  await expect(field('titledMultipleSelectEnum').getByRole('checkbox', { name: 'Tuna' })).toBeChecked();
  await expect(field('titledMultipleSelectEnum')).toContainText('Default: Tuna');
  await expect(field('legacyTitledEnum').getByRole('option', { name: 'Dogs' })).toHaveCount(1);
  // Bad values: each problem beside its field, nothing sent.
  await field('name').getByLabel('String').fill('Ada');
  await field('email').getByLabel('String with email format').fill('not-an-email');
  await field('integer').getByLabel('Integer').fill('500');
  for (const name of ['Piano', 'Violin', 'Drums']) await field('untitledMultipleSelectEnum').getByRole('checkbox', { name }).check();
  await field('titledMultipleSelectEnum').getByRole('checkbox', { name: 'Salmon' }).check();
  await field('titledMultipleSelectEnum').getByRole('checkbox', { name: 'Trout' }).check();
  await dialog.getByRole('button', { name: 'Accept' }).click();
  await expect(field('email').getByRole('alert')).toHaveText('Enter an email address, such as name@example.com.');
  await expect(field('integer').getByRole('alert')).toHaveText('Enter 100 or less.');
  await expect(field('untitledMultipleSelectEnum').getByRole('alert')).toHaveText('Pick at most 3.');
  // The dialog scrolls, so a line names the fields (not their problems again), each a way to it.
  await expect(field('email').getByLabel('String with email format')).toBeFocused();
  const summary = dialog.getByTestId('elicit-summary');
  await expect(summary).toContainText('Before this can be sent, 3 fields need a change:');
  await expect(summary.getByRole('button')).toHaveText(['String with email format', 'Integer', 'Untitled Multiple Select Enum']);
  await expect(summary).not.toContainText('Enter');
  await summary.getByRole('button', { name: 'Integer' }).click();
  await expect(field('integer').getByLabel('Integer')).toBeFocused();
  await dialog.screenshot({ path: path.join(SCREENSHOTS, 'elicitation-everything.png') });
  // Fix them and send.
  await field('email').getByLabel('String with email format').fill('ada@example.com');
  await field('integer').getByLabel('Integer').fill('7');
  for (const name of ['Guitar', 'Violin', 'Drums']) await field('untitledMultipleSelectEnum').getByRole('checkbox', { name }).uncheck();
  await field('legacyTitledEnum').getByLabel('Legacy Titled Single Select Enum').selectOption({ label: 'Dogs' });
  await dialog.getByRole('button', { name: 'Accept' }).click();
  await expect(dialog).toBeHidden();
  const result = page.getByTestId('tool-card').last().getByTestId('tool-result');
  await expect(result).toContainText('User provided the requested information', { timeout: 15_000 });
  const raw = JSON.parse((await result.textContent())!.split('Raw result:')[1]!.trim().replace(/\s+$/, '')) as { content: Record<string, unknown> };
  expect(raw.content).toMatchObject({
    name: 'Ada',
    email: 'ada@example.com',
    integer: 7,
    number: 3.14,
    untitledMultipleSelectEnum: ['Piano'],
    titledSingleSelectEnum: 'hero-1',
    titledMultipleSelectEnum: ['fish-1', 'fish-2', 'fish-3'],
    legacyTitledEnum: 'pet-2',
    firstLine: 'It was a dark and stormy night.',
  });
});
