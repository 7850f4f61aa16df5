/**
 * What a new user tripped over in the forms (issue 27), in real Chromium through the browser
 * shell against the real app core:
 * - `@` and `/` find resources and prompts whose names have spaces; Escape closes the menu for
 *   good; a spaced filter that matches nothing closes it;
 * - a message over the limit gets a counter and cannot be sent; schema refusals read as sentences
 *   beside their field, never as raw validator text; a text attached as a file that cannot fit
 *   the model's context window says so when it is attached, with the numbers;
 * - the model profile form: an empty form saved shows every problem at once beside its field (an
 *   empty base URL is required, not mistyped), with placeholders that read as examples; a base URL
 *   without http(s)://, duplicate names, the one model a test finds, a stale connection error; a
 *   new profile's form starts without the last test's result;
 * - Import: nothing to import, several skipped entries counted, an env variable given twice; the
 *   Add form refuses two rows of one name beside the row;
 * - in 简体中文 the same refusals are Chinese sentences.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startFakeModel, type FakeModel } from '../fixtures/fake-model.js';
import { addLocalServer, commandLine, expect, expectStatus, openAddServerForm, openApp, openChat, openSettings, ROOT, saveProfile, SCREENSHOTS, serverCard, test } from './helpers.js';

process.env.OPENPROGRAM_LOCAL_MODEL_PROBES = 'none';

const RESOURCE_SERVER = path.join(ROOT, 'test/fixtures/resource-server.mjs');

let model: FakeModel;
let oneModel: FakeModel;
test.beforeAll(async () => {
  model = await startFakeModel({ chunkDelayMs: 1 });
  oneModel = await startFakeModel({ models: ['solo-model'] });
});
test.afterAll(async () => {
  await model?.close();
  await oneModel?.close();
});

test('mentions: resources and prompts with spaces in their names are found and inserted; Escape and a spaced non-match close the menu', async ({ page, shell }) => {
  test.setTimeout(90_000);
  await openApp(page, shell.current);
  await saveProfile(page, { name: 'Fake', baseUrl: model.baseUrl, model: 'fake-forms' });
  await addLocalServer(page, { name: 'notes', command: commandLine(['node', RESOURCE_SERVER]) });
  await expectStatus(serverCard(page, 'notes'), 'ready');
  await openChat(page);
  const box = page.getByRole('textbox', { name: 'Message' });
  const menu = page.getByTestId('composer-menu');

  await box.pressSequentially('Read @my res');
  await expect(menu.getByRole('option')).toHaveCount(1);
  await expect(menu.getByRole('option', { name: /@notes\/my research notes/ })).toBeVisible();
  await box.pressSequentially('earch no');
  await expect(menu.getByRole('option', { name: /@notes\/my research notes/ })).toBeVisible();
  await box.press('Enter');
  await expect(box).toHaveValue('Read ');
  await expect(page.getByTestId('attachment-chip')).toHaveText(/notes\/my research notes/);

  // A spaced filter that matches nothing: the @ was ordinary text, the menu closes.
  await box.pressSequentially('@my cat');
  await expect(menu).toHaveCount(0);
  await box.fill('');
  // Escape closes the menu, and typing on in the same mention keeps it closed.
  await box.pressSequentially('@my');
  await expect(menu).toBeVisible();
  await box.press('Escape');
  await expect(menu).toHaveCount(0);
  await box.pressSequentially(' res');
  await expect(menu).toHaveCount(0);

  // A prompt whose name has a space.
  await box.fill('');
  await box.pressSequentially('/notes/weekly s');
  await expect(menu.getByRole('option', { name: /\/notes\/weekly summary/ })).toBeVisible();
  await box.press('Enter');
  await expect(page.getByRole('form', { name: 'Prompt notes/weekly summary' })).toBeVisible();
});

test('a message over the limit gets a counter and is not sent; "Attach as a file" sends it as an attachment', async ({ page, shell }) => {
  test.setTimeout(90_000);
  await openApp(page, shell.current);
  await saveProfile(page, { name: 'Fake', baseUrl: model.baseUrl, model: 'fake-forms', contextWindow: 200_000 });
  await openChat(page);
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('x'.repeat(1000));
  await expect(page.getByTestId('composer-count')).toHaveCount(0);
  await box.fill('x'.repeat(190_000));
  await expect(page.getByTestId('composer-count')).toContainText('190,000 of 200,000 characters');
  const before = model.requests.length;
  await box.fill('x'.repeat(200_001));
  await expect(page.getByTestId('composer-count')).toContainText('200,001 characters: a message holds at most 200,000. Shorten it, or attach the text as a file.');
  await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeDisabled();
  await page.screenshot({ path: path.join(SCREENSHOTS, 'forms-composer-too-long.png') });
  await box.press('Enter');
  await expect(box).toHaveValue(/^x{200001}$/);
  expect(model.requests.length).toBe(before);

  // "Attach as a file": the text becomes an attachment, the box empties, and the model gets it (fitted to the budget).
  await page.getByRole('button', { name: 'Attach as a file' }).click();
  await expect(box).toHaveValue('');
  await expect(page.getByTestId('attachment-chip')).toHaveText(/pasted text \(200,001 characters\)/);
  await box.fill('see the file');
  await box.press('Enter');
  await expect.poll(() => model.requests.length > before, { timeout: 15_000 }).toBe(true);
  const body = JSON.stringify(model.requests[before]!.body);
  expect(body.includes('[attached text: pasted text.txt]')).toBe(true);
  expect(body.includes('[… cut: 80001 more characters not included]')).toBe(true);
  expect(body.includes('see the file')).toBe(true);
  await expect(page.getByTestId('msg-context')).toContainText('pasted text.txt');
  // The chip names the file once; its note says what was left out, the number grouped.
  await expect(page.getByTestId('msg-context').getByTestId('context-notes')).toHaveText('· Shortened: 80,001 characters were left out');
});

test('"Attach as a file" with a text that cannot fit the model’s window says so at once, with the numbers; a larger model lifts it', async ({ page, shell }) => {
  test.setTimeout(90_000);
  await openApp(page, shell.current);
  // A model on this computer without a stated window: the app guesses 8,192 tokens.
  await saveProfile(page, { name: 'Small', baseUrl: model.baseUrl, model: 'fake-small' });
  await saveProfile(page, { name: 'Large', baseUrl: model.baseUrl, model: 'fake-large', contextWindow: 200_000, asNew: true });
  await openChat(page);
  const box = page.getByRole('textbox', { name: 'Message' });
  const fit = page.getByTestId('attachment-fit');
  await box.fill('y'.repeat(300_000));
  await expect(fit).toHaveCount(0);
  await page.getByRole('button', { name: 'Attach as a file' }).click();
  await expect(page.getByTestId('attachment-chip')).toHaveText(/pasted text \(300,000 characters\)/);
  await expect(fit).toHaveText(
    'This will not fit fake-small: a message carries the first 120,000 characters of attached text, about 30,000 tokens, and the model’s context window of 8,192 tokens has room for 6,144 once 2,048 are kept for the answer. Sent like this, it is refused: pick a model with a larger window, or attach a shorter part. That window is a guess from the model’s name: if you know the real one, enter it in Settings → Model.',
  );
  await page.screenshot({ path: path.join(SCREENSHOTS, 'forms-attach-too-large.png') });

  // The conversation's model picker: a model with room lifts the warning, and back brings it again.
  const picker = page.getByRole('combobox', { name: 'Model profile' });
  await picker.selectOption({ label: 'Large (fake-large)' });
  await expect(fit).toHaveCount(0);
  await picker.selectOption({ label: 'Default (Small)' });
  await expect(fit).toBeVisible();

  // Known not to fit: Send is off, and Enter sends nothing.
  const before = model.requests.length;
  await box.fill('summarize');
  await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeDisabled();
  await box.press('Enter');
  await expect(box).toHaveValue('summarize');
  await expect(page.getByTestId('msg-user')).toHaveCount(0);

  // A typed message too long for the window (not known here): main refuses it with the numbers and
  // advice about the conversation, not the tools, and the model is asked nothing.
  await page.getByRole('button', { name: /^Remove pasted text/ }).click();
  await expect(fit).toHaveCount(0);
  await box.fill('z '.repeat(60_000));
  await box.press('Enter');
  const note = page.getByTestId('context-overflow-note');
  await expect(note).toContainText('more than the model’s context window of 8,192 tokens');
  await expect(note).toContainText('Most of it is the conversation and what is attached to it: attach a shorter part, start a new conversation');
  expect(model.requests.length).toBe(before);
});

test('model profile form: scheme, raw validator text, duplicate names, the one model, a stale connection error', async ({ page, shell }) => {
  test.setTimeout(90_000);
  await openApp(page, shell.current);
  await openSettings(page, 'Model');
  const form = page.getByTestId('profile-form');
  const alertBeside = (label: string) => form.locator('label.field', { has: page.getByLabel(label, { exact: true }) }).getByRole('alert');

  // An empty form: the placeholders read as examples, and nothing is said about a window yet.
  await expect(page.getByLabel('Base URL')).toHaveAttribute('placeholder', 'e.g. https://api.openai.com/v1');
  await expect(page.getByLabel('Model name')).toHaveAttribute('placeholder', 'e.g. gpt-4o-mini');
  await expect(page.getByTestId('context-window-source')).toHaveText('');
  // Saved empty: every problem at once, each beside its field; an empty address is missing, not mistyped.
  await page.getByRole('button', { name: 'Save model' }).click();
  await expect(alertBeside('Base URL')).toHaveText('The base URL is required.');
  await expect(alertBeside('Model name')).toHaveText('The model name is required.');
  await expect(page.getByLabel('Model name')).toHaveAttribute('aria-invalid', 'true');
  await page.screenshot({ path: path.join(SCREENSHOTS, 'forms-profile-empty.png') });
  // Typing a model takes its refusal away and says how the window is found.
  await page.getByLabel('Model name').fill('m');
  await expect(alertBeside('Model name')).toHaveCount(0);
  await expect(page.getByTestId('context-window-source')).toHaveText('Empty: the app uses a guess from the model’s name. Test connection learns it where the provider says it.');

  // No scheme: refused beside the base URL, nothing saved.
  await page.getByLabel('Base URL').fill('api.example.com/v1');
  await page.getByLabel('Model name').fill('m');
  await page.getByRole('button', { name: 'Save model' }).click();
  await expect(alertBeside('Base URL')).toHaveText('Start the base URL with https:// (or http:// for a server on this computer or network), e.g. https://api.openai.com/v1.');
  await expect(page.getByRole('list', { name: 'Profiles' })).toHaveCount(0);
  // Editing the address clears that refusal.
  await page.getByLabel('Base URL').fill('http://127.0.0.1:1/v1');
  await expect(alertBeside('Base URL')).toHaveCount(0);

  // A stale connection error goes when the address changes.
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByTestId('connection-result')).toHaveClass(/error-text/, { timeout: 20_000 });
  await page.getByLabel('Base URL').fill(oneModel.baseUrl);
  await expect(page.getByTestId('connection-result')).toHaveCount(0);

  // An emptied model is refused beside its field in a sentence (the form's own check, worded like main's refusal).
  await page.getByLabel('Model name').fill('');
  await page.getByLabel('Profile name').fill('Work');
  await page.getByRole('button', { name: 'Save model' }).click();
  await expect(alertBeside('Model name')).toHaveText('The model name is required.');
  await expect(form).not.toContainText('Model is required');

  // The one model the endpoint lists fills the empty model field.
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByTestId('connection-result')).toHaveClass(/ok-text/, { timeout: 20_000 });
  await expect(page.getByLabel('Model name')).toHaveValue('solo-model');
  await page.getByRole('button', { name: 'Save model' }).click();
  await expect(page.getByRole('status')).toHaveText('Saved.');
  await expect(page.getByTestId('profile-Work')).toBeVisible();
  // The saved profile's form checks its connection at once.
  await expect(page.getByTestId('connection-result')).toHaveText('Connected. The provider lists 1 model.');

  // A new profile's form starts with no test result and no model list of the other profile.
  await page.getByRole('button', { name: '+ New profile' }).click();
  await expect(page.getByLabel('Profile name')).toHaveValue('');
  await expect(page.getByTestId('connection-result')).toHaveCount(0);
  await expect(page.getByLabel('Available models')).toHaveCount(0);

  // A second profile with the same name (other case): refused beside the name.
  await page.getByLabel('Profile name').fill(' work ');
  await page.getByLabel('Base URL').fill(oneModel.baseUrl);
  await page.getByLabel('Model name').fill('solo-model');
  await page.getByRole('button', { name: 'Save model' }).click();
  await expect(alertBeside('Profile name')).toHaveText('Another profile has this name: choose another.');
  await page.screenshot({ path: path.join(SCREENSHOTS, 'forms-profile-duplicate.png') });
  await expect(page.getByRole('listitem').filter({ hasText: 'solo-model' })).toHaveCount(1);

  // Another profile's form (here the saved one, opened from the list) starts without a test result too.
  await page.getByTestId('profile-Work').getByRole('button', { name: 'Work' }).click();
  await expect(page.getByLabel('Profile name')).toHaveValue('Work');
  await expect(page.getByTestId('connection-result')).toHaveCount(0);
  await expect(page.getByLabel('Available models')).toHaveCount(0);
});

test('import: nothing to import, several skipped entries counted, a variable given twice; the Add form refuses a repeated row', async ({ page, shell }) => {
  test.setTimeout(90_000);
  await openApp(page, shell.current);
  await openSettings(page, 'MCP servers');
  await page.getByRole('button', { name: 'Import / export' }).click();
  const box = page.getByTestId('import-export');
  for (const text of ['{}', '[]', '{"mcpServers": {}}', '{"servers": {}}']) {
    await box.getByLabel('Import JSON').fill(text);
    await box.getByRole('button', { name: 'Preview' }).click();
    await expect(box.getByTestId('import-nothing'), text).toHaveText('Nothing to import: the text lists no servers ({"servers": …} or {"mcpServers": …}).');
    await expect(box.getByRole('button', { name: /^Import \d/ })).toHaveCount(0);
  }

  // One good entry, three that cannot be read (a bad name, an empty command, an env variable given twice).
  const doc = '{"mcpServers": {"good": {"command": "node", "args": ["-e", "1"]}, "bad name": {"command": "x"}, "empty": {"command": ""}, "twice": {"command": "node", "env": {"API_KEY": "a", "API_KEY": "b"}}}}';
  await box.getByLabel('Import JSON').fill(doc);
  await box.getByRole('button', { name: 'Preview' }).click();
  await expect(box.getByRole('button', { name: 'Import 1 server (1 new, 3 skipped)' })).toBeVisible();
  await expect(box.getByTestId('import-unreadable')).toHaveCount(3);
  await expect(box.getByTestId('import-unreadable').filter({ hasText: 'twice' })).toHaveText('Skipped twice: It gives the environment variable “API_KEY” twice.');
  await expect(box.getByTestId('import-preview').locator('strong')).toHaveText(['good']);
  await page.screenshot({ path: path.join(SCREENSHOTS, 'forms-import-skipped.png') });
  await box.getByRole('button', { name: 'Close' }).click();

  // The Add form: a second row of the same name is refused beside that row.
  const form = await openAddServerForm(page);
  await form.getByLabel('Server name').fill('envs');
  await form.getByLabel('Command').fill('node -e 1');
  for (const [i, v] of ['API_KEY', 'API_KEY'].entries()) {
    await form.getByRole('button', { name: '+ Add variable' }).click();
    await form.getByLabel(`Variable name ${i + 1}`).fill(v);
    await form.getByLabel(`Variable value ${i + 1}`).fill(`v${i}`);
  }
  const dup = form.getByTestId('duplicate-row');
  await expect(dup).toHaveCount(1);
  await expect(form.getByTestId('new-value-row').nth(1).getByTestId('duplicate-row')).toHaveText('“API_KEY” is already given in a row above: give each name once.');
  await form.getByRole('button', { name: 'Add server' }).click();
  await expect(form).toBeVisible();
  // The refusal is said once, beside the row (no summary under the form repeats it); the focus goes there.
  await expect(form.getByLabel('Variable name 2')).toBeFocused();
  await expect(form.getByRole('alert')).toHaveCount(1);
  await expect(serverCard(page, 'envs')).toHaveCount(0);
  await form.getByLabel('Variable name 2').fill('OTHER_KEY');
  await expect(dup).toHaveCount(0);
});

test('in 简体中文 the refusals are Chinese sentences beside their field', async ({ page, shell }) => {
  await openApp(page, shell.current);
  await page.getByRole('tab', { name: 'Settings' }).click();
  await page.locator('.settings-nav').getByRole('button', { name: 'Language', exact: true }).click();
  await page.getByLabel('Language').selectOption('zh-CN');
  await page.getByRole('tab', { name: '设置' }).click();
  await page.locator('.settings-nav').getByRole('button', { name: '模型', exact: true }).click();
  const form = page.getByTestId('profile-form');
  // Saved empty: the base URL is missing (not mistyped), the model name too.
  await page.getByRole('button', { name: '保存模型' }).click();
  await expect(form.getByRole('alert')).toHaveText(['基础 URL为必填项。', '模型名称为必填项。']);
  await page.getByLabel('基础 URL').fill('api.example.com/v1');
  await page.getByRole('button', { name: '保存模型' }).click();
  // Both problems at once, each beside its field, in Chinese.
  await expect(form.getByRole('alert')).toHaveText(['基础 URL 需以 https:// 开头（本机或局域网中的服务器可用 http://），例如 https://api.openai.com/v1。', '模型名称为必填项。']);
  await expect(page.getByLabel('模型名称')).toHaveAttribute('placeholder', '例如 gpt-4o-mini');
  await page.getByLabel('基础 URL').fill(model.baseUrl);
  await page.getByRole('button', { name: '保存模型' }).click();
  await expect(form.getByRole('alert')).toHaveText('模型名称为必填项。');
});

test('export (secrets left out): the list is shown with what it is, copied, and saved as a file holding the same JSON', async ({ page, shell, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openApp(page, shell.current);
  await addLocalServer(page, { name: 'notes', command: commandLine(['node', RESOURCE_SERVER]), env: [['NOTES_TOKEN', 'tok-secret-1']] });
  await page.getByRole('button', { name: 'Import / export' }).click();
  const box = page.getByTestId('import-export');
  await box.getByRole('button', { name: 'Export (secrets left out)' }).click();
  const exported = box.getByTestId('exported-json');
  await expect(exported).toContainText('with every secret left empty');
  const json = await exported.getByLabel('Exported JSON').inputValue();
  expect(JSON.parse(json)).toMatchObject({ servers: { notes: { type: 'local', command: ['node', RESOURCE_SERVER], env: { NOTES_TOKEN: '' } } } });
  expect(json).not.toContain('tok-secret-1');
  await exported.getByRole('button', { name: 'Copy' }).click();
  await expect(exported.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(json);
  const [download] = await Promise.all([page.waitForEvent('download'), exported.getByRole('link', { name: 'Save as a file' }).click()]);
  expect(download.suggestedFilename()).toBe('mcp-servers.json');
  expect(readFileSync((await download.path())!, 'utf8')).toBe(json);
});
