/**
 * The app's own sentences in 简体中文, where a new user's trial found English (docs/ARCHITECTURE.md
 * "Languages"): main sends facts — a failure by kind, an import problem by code, a model error by
 * code and detail, why a call ended, what was cut from an attachment — and the window words them;
 * only data (a command, a server's own words) is shown as sent, marked as such. Times and numbers
 * follow the UI language. Refusals main sends as facts are worded here too — a prompt no longer
 * listed or its missing arguments, a resource with nothing to save, a choice on a tool card that
 * could not be saved, an empty conversation title, an edit another action overtook, a rename that
 * could not move a record, a sign-in the authorization server refused — and the banners of what
 * the app found at start (the server list, a missing stored secret, the default root folders).
 * Real core, real servers, the scripted fake model, real Chromium.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { startFakeModel, type FakeModel } from '../fixtures/fake-model.js';
import { startDenyingServer } from '../fixtures/oauth/denying-server.js';
import { ROOT, SCREENSHOTS, addLocalServer, cardAction, commandLine, expect, expectStatus, openAddServerForm, openApp, openSettings, saveProfile, serverCard, setApprovalMode, tempDir, test } from './helpers.js';

const SDK_SERVER = path.join(ROOT, 'test/fixtures/sdk-server.mjs');
const TASK_SERVER = path.join(ROOT, 'test/fixtures/task-server.mjs');
const PROMPT_SERVER = path.join(ROOT, 'test/fixtures/prompt-shift-server.mjs');

/** Settings → Language → 简体中文. */
async function toChinese(page: Page): Promise<void> {
  await page.getByRole('tab', { name: 'Settings' }).click();
  await page.locator('.settings-nav').getByRole('button', { name: 'Language', exact: true }).click();
  await page.getByLabel('Language').selectOption('zh-CN');
  await expect(page.getByRole('tab', { name: '对话' })).toBeVisible();
}

/** Settings → a section, by its Chinese name. */
async function section(page: Page, name: string): Promise<void> {
  await page.getByRole('tab', { name: '设置' }).click();
  await page.locator('.settings-nav').getByRole('button', { name, exact: true }).click();
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const srv = http.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

let model: FakeModel;
test.beforeEach(async () => {
  model = await startFakeModel();
});
test.afterEach(async () => {
  await model.close();
});

test('Settings in 简体中文: a command not on the PATH, pasted text that is no config, skipped entries, failed connection tests and a failed edit — Chinese sentences, the data marked', async ({ page, shell }) => {
  await openApp(page, shell.current);
  const fx = await addLocalServer(page, { name: 'fx', command: commandLine([process.execPath, SDK_SERVER]) });
  await expectStatus(fx, 'ready');
  await toChinese(page);
  await section(page, 'MCP 服务器');

  // The Add form: main's check of the command, worded here; the command is data; the focus goes to the field.
  await page.getByRole('button', { name: '添加服务器' }).click();
  const add = page.getByRole('form', { name: '添加服务器' });
  await add.getByLabel('服务器名称').fill('bad');
  await add.getByLabel('命令').fill('definitely-not-a-command --x');
  await add.getByRole('button', { name: '添加服务器' }).click();
  const commandError = add.locator('.field').filter({ has: page.getByLabel('命令', { exact: true }) }).getByRole('alert');
  await expect(commandError).toHaveText('找不到命令 definitely-not-a-command。请安装它，或填写它的完整路径。');
  await expect(commandError.getByTestId('server-data')).toHaveAttribute('translate', 'no');
  await expect(add.getByLabel('命令')).toBeFocused();
  await add.getByRole('button', { name: '取消' }).click();

  // Import: pasted text that is no config, beside Preview; every skipped entry says why in Chinese.
  await page.getByRole('button', { name: '导入 / 导出' }).click();
  const box = page.getByTestId('import-export');
  const paste = async (text: string): Promise<void> => {
    await box.getByLabel('导入 JSON').fill(text);
    await box.getByRole('button', { name: '预览' }).click();
  };
  await paste('[1,2]');
  await expect(box.getByTestId('import-error')).toHaveText('粘贴的文本不是 JSON 对象：请粘贴服务器配置 {"servers": …} 或 {"mcpServers": …}。');
  await paste('{"mcpServers": ');
  await expect(box.getByTestId('import-error')).toHaveText('粘贴的文本不是有效的 JSON。');
  await paste(JSON.stringify({ mcpServers: { x: { command: 5 }, y: { url: 'ftp://x' }, fx: { command: 'node', args: ['a.js'] }, z: { command: 'node', args: ['-e', '1'], disabled: true } } }));
  await expect(box.getByTestId('import-unreadable')).toHaveText(['已跳过 x：命令的值类型不正确。', '已跳过 y：地址必须以 http:// 或 https:// 开头。']);
  await expect(box.getByTestId('import-exists')).toHaveText('已存在：将跳过（勾选“替换已存在的服务器”即可替换）');
  await expect(box.getByRole('button', { name: '导入 1 个服务器（1 个新的，3 个跳过）' })).toBeVisible();
  await box.screenshot({ path: path.join(SCREENSHOTS, 'i18n-sentences-import.png') });
  await box.getByRole('button', { name: '关闭' }).click();

  // An edit whose server does not start: the failure in Chinese, the server's own lines as sent.
  await (await cardAction(fx, '编辑', { exact: true })).click();
  const edit = page.getByRole('form', { name: '编辑 fx' });
  await edit.getByLabel('编辑命令').fill(commandLine([process.execPath, '-e', "process.stderr.write('boom: no config file\\n'); process.exit(1)"]));
  await edit.getByRole('button', { name: '保存并重启' }).click();
  const failed = edit.getByTestId('edit-error');
  await expect(failed).toContainText('服务器未能以新设置启动，因此没有保存这些设置。', { timeout: 30_000 });
  await expect(failed).toContainText('服务器在启动完成之前就退出了。');
  await expect(failed).toContainText('进程以代码 1 退出。');
  await expect(failed.getByTestId('server-stderr-block')).toContainText('它最后输出到 stderr 的几行：');
  await expect(failed.getByTestId('server-stderr')).toHaveText('boom: no config file');
  await expect(failed.getByTestId('server-stderr')).toHaveAttribute('translate', 'no');
  await expect(failed).not.toContainText(/did not start|Last stderr|exited/);
  await edit.screenshot({ path: path.join(SCREENSHOTS, 'i18n-sentences-edit-failed.png') });
  await edit.getByRole('button', { name: '取消' }).click();

  // "Test connection": nothing listening, then a wrong base URL — sentences by code, what happened beside.
  await section(page, '模型');
  const result = page.getByTestId('connection-result');
  await page.getByLabel('基础 URL').fill(`http://127.0.0.1:${await closedPort()}/v1`);
  await page.getByRole('button', { name: '测试连接' }).click();
  await expect(result).toHaveText('模型的基础 URL 没有响应。请检查地址和端口，以及服务器是否在运行。具体情况：连接被拒绝。', { timeout: 20_000 });
  await page.getByLabel('基础 URL').fill(`${model.baseUrl}/wrong`);
  await page.getByRole('button', { name: '测试连接' }).click();
  await expect(result).toContainText('模型接口返回“未找到”：请检查基础 URL（兼容 OpenAI 的服务器通常以 /v1 结尾）和模型名称（“测试连接”会列出可用模型）。具体情况：HTTP 404。', { timeout: 20_000 });
  await expect(result).not.toContainText(/Nothing answers|The model endpoint|ECONNREFUSED/);
});

test('the chat in 简体中文: a cancelled call, a server’s error, a pasted text’s note and the Tasks list’s times', async ({ page, shell }) => {
  test.setTimeout(120_000);
  const jobs: ChildProcess = spawn(process.execPath, [TASK_SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const port = await new Promise<number>((resolve) =>
      jobs.stdout!.on('data', (d: Buffer) => {
        const m = /PORT (\d+)/.exec(d.toString());
        if (m) resolve(Number(m[1]));
      }),
    );
    await openApp(page, shell.current);
    await saveProfile(page, { name: 'Fake', baseUrl: model.baseUrl, model: 'fake', contextWindow: 200_000 });
    await setApprovalMode(page, 'Never ask');
    await expectStatus(await addLocalServer(page, { name: 'fx', command: commandLine([process.execPath, SDK_SERVER]) }), 'ready');
    await openSettings(page, 'MCP servers');
    const form = await openAddServerForm(page);
    await form.getByLabel('Server name').fill('jobs');
    await form.getByLabel('Server type').selectOption({ label: 'Remote URL (Streamable HTTP)' });
    await form.getByLabel('URL').fill(`http://127.0.0.1:${port}/mcp`);
    await form.getByRole('button', { name: 'Add server' }).click();
    await expectStatus(serverCard(page, 'jobs'), 'ready');
    await toChinese(page);
    await page.getByRole('tab', { name: '对话' }).click();
    const box = page.getByRole('textbox', { name: '消息' });
    const send = async (text: string): Promise<void> => {
      await box.fill(text);
      await page.getByRole('button', { name: '发送', exact: true }).click();
    };

    // Cancelled on its card: said in Chinese by its code (the model was told in English).
    await send('call fx__sleep {"ms":20000}');
    let card = page.getByTestId('tool-card').last();
    await expect(card).toHaveAttribute('data-state', 'running', { timeout: 15_000 });
    await card.getByRole('button', { name: '取消这次调用' }).click();
    await expect(card).toHaveAttribute('data-state', 'cancelled', { timeout: 15_000 });
    await expect(card.getByTestId('tool-error')).toHaveText('你取消了这次调用。');
    // (The scripted model repeats what it was told, in English: that is the model's text, not the card's.)
    await expect(card).not.toContainText('Cancelled');
    await card.screenshot({ path: path.join(SCREENSHOTS, 'i18n-sentences-cancelled.png') });

    // A tool's own error: its words as sent, under a label saying whose they are.
    await send('call fx__fail {"message":"disk quota exceeded"}');
    card = page.getByTestId('tool-card').last();
    await expect(card).toHaveAttribute('data-state', 'error', { timeout: 15_000 });
    await expect(card.getByTestId('tool-result')).toContainText('disk quota exceeded');

    // A text attached as a file, longer than a message may carry: the chip names it once, the note in Chinese.
    await box.fill('x'.repeat(200_001));
    await page.getByRole('button', { name: '作为文件附加' }).click();
    await expect(page.getByTestId('attachment-chip')).toContainText('200,001');
    await send('see the file');
    const notes = page.getByTestId('msg-context').last().getByTestId('context-notes');
    await expect(notes).toHaveText('· 已缩短：省略了 80,001 个字符', { timeout: 15_000 });

    // A task: the Tasks list shows when it started in the UI language's format (24-hour clock, year first).
    await send('call jobs__slow-job {"steps":2,"step_ms":50}');
    card = page.getByTestId('tool-card').last();
    await expect(card).toHaveAttribute('data-state', 'ok', { timeout: 20_000 });
    await page.getByTestId('open-tasks').click();
    const row = page.getByTestId('tasks-dialog').getByTestId('task-row');
    await expect(row).toHaveCount(1);
    await expect(row.locator('td.task-started')).toHaveText(/^\d{4}\/\d{1,2}\/\d{1,2} \d{2}:\d{2}:\d{2}$/);
    await expect(row).not.toContainText(/AM|PM/);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'i18n-sentences-tasks.png') });
  } finally {
    jobs.kill();
  }
});

/** A server card's prompts, as the Tools panel lists them (for a second tab that watches main's re-listing). */
async function promptRows(watch: Page, server: string): Promise<string[]> {
  const card = serverCard(watch, server);
  if (!(await card.getByTestId('tools-list').isVisible())) await card.getByRole('button', { name: '工具', exact: true }).click();
  return card.getByTestId('prompts-list').locator('.small').allTextContents();
}

test('the composer and a tool card in 简体中文: a prompt no longer listed, its missing arguments, a resource with nothing to save, "Always allow" that could not be saved, an empty title — data marked', async ({ page, shell }) => {
  test.setTimeout(180_000);
  const work = tempDir('prompt-shift');
  const shift = (variant: 'v1' | 'v2'): void => writeFileSync(path.join(work, 'control.json'), JSON.stringify({ variant }));
  await openApp(page, shell.current);
  await saveProfile(page, { name: 'Fake', baseUrl: model.baseUrl, model: 'fake', contextWindow: 200_000 });
  await setApprovalMode(page, 'Ask for every tool call');
  await expectStatus(await addLocalServer(page, { name: 'notes', command: commandLine([process.execPath, PROMPT_SERVER, work]) }), 'ready');
  await toChinese(page);
  // A second tab on Settings shows when main has listed the server's prompts again.
  const watch = await page.context().newPage();
  await watch.goto(shell.current.url);
  await watch.getByRole('tab', { name: '设置' }).click();
  await watch.locator('.settings-nav').getByRole('button', { name: 'MCP 服务器', exact: true }).click();
  await expect.poll(() => promptRows(watch, 'notes')).toHaveLength(2);

  await page.getByRole('tab', { name: '对话' }).click();
  const box = page.getByRole('textbox', { name: '消息' });
  const notice = page.getByTestId('chat-notice').last();

  // A prompt picked, then no longer listed by its server: main says so by fact, worded here.
  await box.fill('/digest');
  await page.getByTestId('composer-menu').getByRole('option', { name: /notes\/digest/ }).click();
  let form = page.getByRole('form', { name: '提示词 notes/digest' });
  await expect(form).toBeVisible();
  shift('v2');
  await expect.poll(() => promptRows(watch, 'notes'), { timeout: 15_000 }).toEqual([expect.stringMatching(/^brief \(topic\) /)]);
  await form.getByRole('button', { name: '发送提示词' }).click();
  await expect(notice).toContainText('服务器“notes”没有（或不再有）名为“digest”的提示词。');
  await expect(notice.getByTestId('server-data').nth(1)).toHaveText('digest');
  await expect(notice.getByTestId('server-data').nth(1)).toHaveAttribute('translate', 'no');
  await expect(notice).not.toContainText(/has no prompt|Server "/);
  await form.getByRole('button', { name: '取消' }).click();

  // A required argument the window did not know of (the server changed it): main's refusal, worded here.
  shift('v1');
  await expect.poll(() => promptRows(watch, 'notes'), { timeout: 15_000 }).toHaveLength(2);
  await box.fill('/brief');
  await page.getByTestId('composer-menu').getByRole('option', { name: /notes\/brief/ }).click();
  form = page.getByRole('form', { name: '提示词 notes/brief' });
  await expect(form).toBeVisible();
  shift('v2');
  await expect.poll(() => promptRows(watch, 'notes'), { timeout: 15_000 }).toEqual([expect.stringMatching(/^brief \(topic\) /)]);
  await form.getByRole('button', { name: '发送提示词' }).click();
  await expect(notice).toContainText('提示词“brief”需要填写：topic。');
  await expect(notice.getByTestId('server-data').last()).toHaveText('topic');
  await form.getByRole('button', { name: '取消' }).click();
  await watch.close();

  // "Always allow" that cannot be saved (the server list cannot be replaced: a folder stands in its
  // place): the call runs, and the card says what was not saved, the system's words as sent.
  await box.fill('call notes__links {}');
  await page.getByRole('button', { name: '发送', exact: true }).click();
  const card = page.getByTestId('tool-card').last();
  await expect(card.getByRole('button', { name: '始终允许' })).toBeVisible({ timeout: 15_000 });
  const list = path.join(shell.stateDir, 'mcp_servers.json');
  const kept = readFileSync(list);
  rmSync(list);
  mkdirSync(list);
  writeFileSync(path.join(list, 'in-the-way'), '');
  await card.getByRole('button', { name: '始终允许' }).click();
  await expect(card).toHaveAttribute('data-state', 'ok', { timeout: 15_000 });
  const unsaved = card.getByTestId('tool-permission-warning');
  await expect(unsaved).toContainText('已允许这次调用，但无法保存“始终允许”：下次还会再问你。系统提示：');
  await expect(unsaved.getByTestId('said')).toHaveText(/^E[A-Z]+/);
  await expect(unsaved.getByTestId('said')).toHaveAttribute('translate', 'no');
  await expect(unsaved).not.toContainText('Could not save');
  await card.screenshot({ path: path.join(SCREENSHOTS, 'i18n-sentences-not-saved.png') });
  rmSync(list, { recursive: true });
  writeFileSync(list, kept);

  // A resource whose read has no content: Save says so by fact.
  await card.getByRole('button', { name: '打开资源 note://empty' }).click();
  const viewer = page.getByRole('dialog', { name: '资源查看器' });
  await viewer.getByRole('button', { name: '保存到文件……' }).click();
  await expect(viewer.getByTestId('viewer-note')).toHaveText('该资源没有可保存的内容。');
  await viewer.getByRole('button', { name: '关闭' }).click();

  // A conversation title left empty: refused by its issue, worded here.
  const row = page.getByTestId('conversation').first();
  await row.hover();
  await row.getByRole('button', { name: /^重命名 / }).click();
  const title = page.getByRole('textbox', { name: '对话标题' });
  await title.fill('   ');
  await title.press('Enter');
  await expect(page.getByTestId('conversation-error')).toHaveText('标题为必填项。');
  rmSync(work, { recursive: true, force: true });
});

test('server cards in 简体中文: an edit another action overtook, a rename that could not move a record, a sign-in the authorization server refused — names, codes and the system’s words marked', async ({ page, shell }) => {
  test.setTimeout(150_000);
  const as = await startDenyingServer('access_denied', 'The user declined');
  try {
    await openApp(page, shell.current);
    const fx = await addLocalServer(page, { name: 'fx', command: commandLine([process.execPath, SDK_SERVER]) });
    await expectStatus(fx, 'ready');
    await openSettings(page, 'MCP servers');
    const form = await openAddServerForm(page);
    await form.getByLabel('Server name').fill('remote');
    await form.getByLabel('Server type').selectOption({ label: 'Remote URL (Streamable HTTP)' });
    await form.getByLabel('URL', { exact: true }).fill(as.mcpUrl);
    await form.getByLabel('Authorization').selectOption({ label: 'OAuth sign-in (browser)' });
    await form.getByRole('button', { name: 'Add server' }).click();
    await expectStatus(serverCard(page, 'remote'), 'needs_auth');
    await toChinese(page);
    await section(page, 'MCP 服务器');

    // An edit still starting when the server is disabled: the edit is dropped, and says so.
    await (await cardAction(fx, '编辑', { exact: true })).click();
    const edit = page.getByRole('form', { name: '编辑 fx' });
    await edit.getByLabel('编辑命令').fill(commandLine([process.execPath, SDK_SERVER, '--init-delay=4000']));
    await edit.getByRole('button', { name: '保存并重启' }).click();
    await expect(edit.getByRole('button', { name: '取消' })).toBeDisabled();
    await fx.getByRole('checkbox', { name: '启用 fx' }).click();
    const failed = edit.getByTestId('edit-error');
    await expect(failed).toHaveText('服务器“fx”在编辑启动期间被更改或移除，因此没有保存这次编辑。', { timeout: 30_000 });
    await expect(failed.getByTestId('server-data')).toHaveAttribute('translate', 'no');
    await edit.getByRole('button', { name: '取消' }).click();
    await fx.getByRole('checkbox', { name: '启用 fx' }).click();
    await expect(fx.getByTestId('server-status')).toHaveText('就绪', { timeout: 30_000 });

    // A rename whose pinned tool definitions cannot be written under the new name (a folder stands
    // where their file goes): nothing is renamed, and the record is named in Chinese.
    const pinsOfNew = path.join(shell.stateDir, 'tool-pins', `${createHash('sha256').update('fy').digest('hex').slice(0, 24)}.json`);
    mkdirSync(pinsOfNew, { recursive: true });
    writeFileSync(path.join(pinsOfNew, 'in-the-way'), '');
    await (await cardAction(fx, '编辑', { exact: true })).click();
    const rename = page.getByRole('form', { name: '编辑 fx' });
    await rename.getByLabel('编辑服务器名称').fill('fy');
    await rename.getByRole('button', { name: '保存并重启' }).click();
    const notRenamed = rename.getByTestId('edit-error');
    await expect(notRenamed).toContainText('服务器“fx”未能重命名为“fy”：无法移动它的已固定的工具定义。没有做任何更改。系统提示：', { timeout: 30_000 });
    await expect(notRenamed.getByTestId('said')).toHaveText(/^E[A-Z]+/);
    await expect(notRenamed).not.toContainText('was not renamed');
    await notRenamed.screenshot({ path: path.join(SCREENSHOTS, 'i18n-sentences-rename-failed.png') });
    await rename.getByRole('button', { name: '取消' }).click();
    await expect(serverCard(page, 'fx').getByTestId('server-status')).toHaveText('就绪', { timeout: 30_000 });

    // Sign in: the authorization server sends the browser back with access_denied. The OAuth code
    // is data, its description the authorization server's own words.
    const remote = serverCard(page, 'remote');
    const popup = page.context().waitForEvent('page');
    await remote.getByRole('button', { name: '登录', exact: true }).click();
    await popup;
    const refused = remote.getByRole('alert');
    await expect(refused).toHaveText('授权服务器拒绝了登录（access_denied）。它的说明：“The user declined”', { timeout: 30_000 });
    await expect(refused.getByTestId('server-data')).toHaveText('access_denied');
    await expect(refused.getByTestId('said')).toHaveAttribute('translate', 'no');
    await remote.screenshot({ path: path.join(SCREENSHOTS, 'i18n-sentences-sign-in-refused.png') });
  } finally {
    await as.close();
  }
});

test('banners in 简体中文 about what the app found at start: skipped servers, a missing stored secret, unreadable root folders — paths and names marked', async ({ page, shell }) => {
  await openApp(page, shell.current);
  await toChinese(page);
  // What a later start finds: an entry that cannot be used, a secret reference with nothing stored behind it, a roots file that is no JSON.
  writeFileSync(
    path.join(shell.stateDir, 'mcp_servers.json'),
    JSON.stringify({ servers: { ftp: { url: 'ftp://example.com/x' }, gh: { type: 'local', command: ['node', 'x.js'], enabled: false, env: { GITHUB_TOKEN: { secret: 'mcp:gh:env:GITHUB_TOKEN:0123456789ab' } } } } }),
  );
  writeFileSync(path.join(shell.stateDir, 'roots.json'), '{ not json');
  await shell.restart({ samePort: true });
  // The same origin: the language picked before the restart holds.
  await page.goto('about:blank');
  await page.goto(shell.current.url);
  await expect(page.getByRole('tab', { name: '对话' })).toBeVisible();
  const banners = page.getByTestId('app-warning');
  await expect(banners.filter({ hasText: '服务器列表中有些服务器无法使用' })).toContainText('已跳过 ftp：地址必须以 http:// 或 https:// 开头。');
  const secret = banners.filter({ hasText: '密钥存储中缺少' });
  await expect(secret).toContainText('密钥存储中缺少服务器“gh”的环境变量 GITHUB_TOKEN 的已保存值：请重新填写（编辑）。');
  await expect(secret.getByTestId('server-data').last()).toHaveText('GITHUB_TOKEN');
  const roots = banners.filter({ hasText: '默认根目录' });
  await expect(roots).toContainText(`无法读取默认根目录（${path.join(shell.stateDir, 'roots.json')}），因此没有使用它们。系统提示：`);
  await expect(roots.getByTestId('server-data')).toHaveAttribute('translate', 'no');
  await expect(page.getByRole('alert').filter({ hasText: /skipped|missing from the secret store|could not be read/ })).toHaveCount(0);
  await page.screenshot({ path: path.join(SCREENSHOTS, 'i18n-sentences-banners.png') });
});
