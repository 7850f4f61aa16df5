/**
 * Prompts as slash commands, in real Chromium through the browser shell, against the real
 * `@modelcontextprotocol/server-everything` and a fake OpenAI-compatible model whose request
 * bodies are checked (docs/ARCHITECTURE.md "Prompts and resources in chat"):
 * - `/` lists the server's prompts (server-qualified, with descriptions), filtered as one types,
 *   chosen with the keyboard;
 * - the argument form marks required arguments and offers the server's completions, the second
 *   argument's depending on the first (`context.arguments`);
 * - the prompt's messages reach the model request, are shown on the sent message, and survive a
 *   reload (rebuilt from the saved transcript for the next request).
 */
import path from 'node:path';
import { startFakeModel, requestTexts, type FakeModel } from '../fixtures/fake-model.js';
import { addLocalServer, commandLine, expect, expectStatus, openApp, openChat, ROOT, saveProfile, SCREENSHOTS, sendMessage, serverCard, test } from './helpers.js';

process.env.OPENPROGRAM_LOCAL_MODEL_PROBES = 'none';

const EVERYTHING = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

let model: FakeModel;
test.beforeAll(async () => {
  model = await startFakeModel({ chunkDelayMs: 1 });
});
test.afterAll(async () => {
  await model?.close();
});


test('"/" lists the prompts; a completable prompt offers completions and its message reaches the model', async ({ page, shell }) => {
  test.setTimeout(120_000);
  await openApp(page, shell.current);
  await saveProfile(page, { name: 'Fake', baseUrl: model.baseUrl, model: 'fake-prompts' });
  await addLocalServer(page, { name: 'every', command: commandLine(['node', EVERYTHING, 'stdio']) });
  await expectStatus(serverCard(page, 'every'), 'ready');
  await openChat(page);

  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('/');
  const menu = page.getByTestId('composer-menu');
  await expect(menu).toBeVisible();
  await expect(menu.getByRole('option', { name: /\/every\/completable-prompt/ })).toBeVisible();
  await expect(menu.getByRole('option', { name: /\/every\/simple-prompt/ })).toBeVisible();
  await expect(menu.getByRole('option', { name: /First argument choice narrows values/ })).toBeVisible();
  await page.screenshot({ path: path.join(SCREENSHOTS, 'composer-slash-menu.png') });

  // Filtering as one types; the keyboard picks the only match.
  await box.pressSequentially('complet');
  await expect(menu.getByRole('option')).toHaveCount(1);
  await expect(menu.getByRole('option').first()).toHaveAttribute('aria-selected', 'true');
  await box.press('Enter');

  const form = page.getByRole('form', { name: 'Prompt every/completable-prompt' });
  await expect(form).toBeVisible();
  // Each required argument has one visible marker (*), and "required" in its accessible name.
  await expect(form.getByText('required')).toHaveCount(2);
  await expect(form.locator('.required')).toHaveText([' *', ' *']);
  await expect(form).not.toContainText('(required)');
  const department = form.getByRole('textbox', { name: /department/ });
  const name = form.getByRole('textbox', { name: /name/ });
  await expect(department).toHaveAccessibleName(/^department\s*required$/);
  await department.pressSequentially('Eng');
  const deptSuggestions = form.getByRole('listbox', { name: 'Suggestions for department' });
  await expect(deptSuggestions.getByRole('option', { name: 'Engineering' })).toBeVisible();
  await deptSuggestions.getByRole('option', { name: 'Engineering' }).click();
  await expect(department).toHaveValue('Engineering');

  // The second argument's suggestions depend on the first (sent as context.arguments).
  await name.click();
  const nameSuggestions = form.getByRole('listbox', { name: 'Suggestions for name' });
  await expect(nameSuggestions.getByRole('option', { name: 'Alice' })).toBeVisible();
  await expect(nameSuggestions.getByRole('option', { name: 'Bob' })).toBeVisible();
  await expect(nameSuggestions.getByRole('option', { name: 'David' })).toHaveCount(0);
  await page.screenshot({ path: path.join(SCREENSHOTS, 'composer-argument-form.png') });
  // Keyboard choice of a suggestion.
  await name.pressSequentially('B');
  await expect(nameSuggestions.getByRole('option')).toHaveCount(1);
  await expect(nameSuggestions.getByRole('option', { name: 'Bob' })).toBeVisible();
  await name.fill('Bo');
  await expect(nameSuggestions.getByRole('option', { name: 'Bob' })).toBeVisible();
  await name.press('ArrowDown');
  await name.press('Enter');
  await expect(name).toHaveValue('Bob');

  const before = model.requests.length;
  await form.getByRole('button', { name: 'Send prompt' }).click();
  await expect(form).toBeHidden();
  const expected = 'Please promote Bob to the head of the Engineering team.';
  await expect.poll(() => model.requests.slice(before).some((r) => requestTexts(r.body).includes(expected)), { timeout: 15_000 }).toBe(true);
  // The sent message shows the prompt; its message is there to read.
  const sent = page.getByTestId('msg-context');
  await expect(sent).toContainText('every/Team Management');
  await expect(page.getByRole('button', { name: 'Stop' })).toBeHidden({ timeout: 30_000 });

  // After a reload the prompt is still part of the conversation and of the next model request.
  await page.reload();
  await expect(page.getByTestId('msg-context')).toContainText('every/Team Management');
  await page.getByTestId('msg-context').getByText('every/Team Management').click();
  await expect(page.getByTestId('prompt-message')).toContainText(expected);
  const next = model.requests.length;
  await sendMessage(page, 'and then?');
  await expect.poll(() => model.requests.slice(next).some((r) => requestTexts(r.body).includes(expected) && requestTexts(r.body).includes('and then?')), { timeout: 15_000 }).toBe(true);
});

test('a prompt with an embedded resource: its text reaches the model; a missing required argument is refused in the form', async ({ page, shell }) => {
  test.setTimeout(120_000);
  await openApp(page, shell.current);
  await saveProfile(page, { name: 'Fake', baseUrl: model.baseUrl, model: 'fake-prompts-2' });
  await addLocalServer(page, { name: 'every', command: commandLine(['node', EVERYTHING, 'stdio']) });
  await expectStatus(serverCard(page, 'every'), 'ready');
  await openChat(page);

  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('/resource-prompt');
  await page.getByTestId('composer-menu').getByRole('option', { name: /resource-prompt/ }).click();
  const form = page.getByRole('form', { name: 'Prompt every/resource-prompt' });
  await form.getByRole('button', { name: 'Send prompt' }).click();
  await expect(form.getByRole('alert')).toHaveText('Fill in the required fields.');
  const type = form.getByRole('textbox', { name: /resourceType/ });
  await type.pressSequentially('T');
  await form.getByRole('listbox', { name: 'Suggestions for resourceType' }).getByRole('option', { name: 'Text' }).click();
  await form.getByRole('textbox', { name: /resourceId/ }).fill('3');
  const before = model.requests.length;
  await form.getByRole('button', { name: 'Send prompt' }).click();
  await expect
    .poll(() => model.requests.slice(before).some((r) => requestTexts(r.body).some((t) => t.includes('[resource: demo://resource/dynamic/text/3]') && t.includes('Resource 3: This is a plaintext resource'))), { timeout: 15_000 })
    .toBe(true);
});

test.describe('in Simplified Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('the slash menu, the argument form and the Attach button speak Chinese', async ({ page, shell }) => {
    test.setTimeout(120_000);
    await page.goto('about:blank');
    await page.goto(shell.current.url);
    await expect(page.getByRole('tab', { name: '对话' })).toBeVisible();
    await page.getByRole('tab', { name: '设置' }).click();
    await page.locator('.settings-nav').getByRole('button', { name: 'MCP 服务器', exact: true }).click();
    await page.getByRole('button', { name: '添加服务器' }).click();
    const add = page.getByRole('form', { name: '添加服务器' });
    await add.getByLabel('服务器名称').fill('every');
    await add.getByLabel('命令').fill(commandLine(['node', EVERYTHING, 'stdio']));
    await add.getByRole('button', { name: '添加服务器' }).click();
    await expect(serverCard(page, 'every').getByTestId('server-status')).toHaveText('就绪', { timeout: 30_000 });
    await page.getByRole('tab', { name: '对话' }).click();
    const box = page.getByRole('textbox', { name: '消息' });
    await expect(page.getByRole('button', { name: '附加' })).toBeVisible();
    await box.fill('/args');
    const menu = page.getByTestId('composer-menu');
    await expect(menu.getByText('提示词', { exact: true })).toBeVisible();
    await box.press('Enter');
    const form = page.getByRole('form', { name: '提示词 every/args-prompt' });
    await expect(form.getByText('必填')).toHaveCount(1);
    await expect(form.getByRole('button', { name: '发送提示词' })).toBeVisible();
    await expect(form.getByRole('button', { name: '取消' })).toBeVisible();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'composer-argument-form-zh.png') });
  });
});
