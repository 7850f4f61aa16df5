/**
 * The app's own sentences in 简体中文, where a new user's trial found English (docs/ARCHITECTURE.md
 * "Languages"): main sends facts — a failure by kind, an import problem by code, a model error by
 * code and detail, why a call ended, what was cut from an attachment — and the window words them;
 * only data (a command, a server's own words) is shown as sent, marked as such. Times and numbers
 * follow the UI language. Real core, real servers, the scripted fake model, real Chromium.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { startFakeModel, type FakeModel } from '../fixtures/fake-model.js';
import { ROOT, SCREENSHOTS, addLocalServer, cardAction, commandLine, expect, expectStatus, openAddServerForm, openApp, openSettings, saveProfile, serverCard, setApprovalMode, test } from './helpers.js';

const SDK_SERVER = path.join(ROOT, 'test/fixtures/sdk-server.mjs');
const TASK_SERVER = path.join(ROOT, 'test/fixtures/task-server.mjs');

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
