/**
 * The server card's Edit form in Chromium with the real core (docs/ARCHITECTURE.md "Renaming a
 * server", "Update semantics (PATCH)"): renaming the real `@modelcontextprotocol/server-everything`
 * (stdio) keeps its "Always allow" and its pins, so its tool runs under the new name without
 * asking, while the conversation still shows the call made under the old name; a taken name is
 * refused beside the field; a remote server-everything switches from Streamable HTTP to SSE and
 * is ready again with its header kept; a new value row repeating a name is refused beside the row;
 * stored and new value rows share one design (the same columns, Remove in each, a refusal under
 * its row).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { startFakeModel, type FakeModel } from '../fixtures/fake-model.js';
import { BASH_SERVER, ROOT, SCREENSHOTS, addLocalServer, cardAction, commandLine, configureModel, expect, expectStatus, openAddServerForm, openApp, openChat, openSettings, sendMessage, serverCard, setApprovalMode, test } from './helpers.js';

const EVERYTHING = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise((r) => srv.close(r));
  return port;
}

/** server-everything in `mode` (`streamableHttp` serves /mcp, `sse` serves /sse) on a free loopback port. */
async function startEverything(mode: 'streamableHttp' | 'sse'): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING, mode], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server-everything did not start: ${out}`)), 20_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      if (/listening on port|running on port/i.test(out)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stderr!.on('data', onData);
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server-everything exited (${code}): ${out}`)));
  });
  return { url: `http://127.0.0.1:${port}/${mode === 'sse' ? 'sse' : 'mcp'}`, child };
}

type FileEntry = { type: string; url?: string; env?: Record<string, { secret: string }>; headers?: Record<string, { secret: string }>; tools?: Record<string, { approval?: string }> };
const configOf = (stateDir: string): Record<string, FileEntry> => (JSON.parse(readFileSync(path.join(stateDir, 'mcp_servers.json'), 'utf8')) as { servers: Record<string, FileEntry> }).servers;
const pinFile = (stateDir: string, name: string): string => path.join(stateDir, 'tool-pins', `${createHash('sha256').update(name).digest('hex').slice(0, 24)}.json`);

/** Open a server's Edit form from its card. */
async function openEdit(page: Page, name: string): Promise<Locator> {
  await openSettings(page, 'MCP servers');
  await (await cardAction(serverCard(page, name), 'Edit', { exact: true })).click();
  const form = page.getByRole('form', { name: `Edit ${name}` });
  await expect(form).toBeVisible();
  return form;
}

test.describe('rename', () => {
  let model: FakeModel;
  test.beforeEach(async () => {
    model = await startFakeModel();
  });
  test.afterEach(async () => {
    await model.close();
  });

  test('an always-allowed, pinned tool runs under the new name without asking; the old call still shows; a taken name is refused beside the field', async ({ page, shell }) => {
    await openApp(page, shell.current);
    await configureModel(page, { baseUrl: model.baseUrl, model: 'fake' });
    await setApprovalMode(page, 'Ask for every tool call');
    await expectStatus(await addLocalServer(page, { name: 'every', command: commandLine(['node', EVERYTHING, 'stdio']) }), 'ready');
    await addLocalServer(page, { name: 'my_tools', command: commandLine(['node', EVERYTHING, 'stdio']) });
    const dir = shell.current.stateDir;
    expect(existsSync(pinFile(dir, 'every'))).toBe(true);

    // Always allow echo, from the approval card of a real call.
    await openChat(page);
    await sendMessage(page, 'call every__echo {"message":"before rename"}');
    await page.getByTestId('approval-card').getByRole('button', { name: 'Always allow' }).click();
    await expect(page.getByTestId('tool-card').first()).toHaveAttribute('data-state', 'ok', { timeout: 20_000 });
    await expect.poll(() => configOf(dir).every?.tools?.echo?.approval).toBe('always_allow');

    // A name the window knows is taken (another case), and one only main refuses (the tool
    // namespace of my_tools): both refused beside the name field, and nothing changes.
    const form = await openEdit(page, 'every');
    await form.getByLabel('Edit server name').fill('MY_TOOLS');
    await form.getByRole('button', { name: 'Save and restart' }).click();
    await expect(form.getByTestId('name-error')).toHaveText('The name "MY_TOOLS" is taken by another server (names that differ only in case, or in "." and "_", are the same): choose another.');
    await form.getByLabel('Edit server name').fill('my.tools');
    await form.getByRole('button', { name: 'Save and restart' }).click();
    await expect(form.getByTestId('name-error')).toHaveText('The name "my.tools" is taken by another server (names that differ only in case, or in "." and "_", are the same): choose another.');
    await form.getByLabel('Edit server name').fill('bad name!');
    await form.getByRole('button', { name: 'Save and restart' }).click();
    await expect(form.getByTestId('name-error')).toHaveText(/Use letters, digits/);
    expect(Object.keys(configOf(dir))).toEqual(['every', 'my_tools']);

    // The rename.
    await form.getByLabel('Edit server name').fill('everything');
    await expect(form.getByTestId('name-error')).toHaveCount(0);
    await expect(form.getByText(/Renaming keeps its secrets/)).toBeVisible();
    await form.screenshot({ path: path.join(SCREENSHOTS, 'server-edit-rename.png') });
    await form.getByRole('button', { name: 'Save and restart' }).click();
    await expect(form).toBeHidden();
    await expect(serverCard(page, 'every')).toHaveCount(0);
    await expectStatus(serverCard(page, 'everything'), 'ready');
    expect(Object.keys(configOf(dir))).toEqual(['everything', 'my_tools']);
    expect(configOf(dir).everything!.tools!.echo!.approval).toBe('always_allow');
    expect(existsSync(pinFile(dir, 'every'))).toBe(false);
    expect((JSON.parse(readFileSync(pinFile(dir, 'everything'), 'utf8')) as { server: string }).server).toBe('everything');
    // It ran sandboxed (the default where bubblewrap works): its scratch folder moved with it.
    if (existsSync(path.join(dir, 'sandbox', 'everything'))) expect(existsSync(path.join(dir, 'sandbox', 'every'))).toBe(false);

    // The tool runs under its new name without asking; the earlier call still shows as it was made.
    await openChat(page);
    const n = model.requests.length;
    await sendMessage(page, 'call everything__echo {"message":"after rename"}');
    await expect(page.getByTestId('tool-card')).toHaveCount(2);
    await expect(page.getByTestId('tool-card').nth(1)).toHaveAttribute('data-state', 'ok', { timeout: 20_000 });
    await expect(page.getByTestId('approval-card')).toHaveCount(0);
    await expect(page.getByTestId('tool-card').nth(1).getByTestId('tool-permission')).toContainText('always allowed');
    expect(model.requests[n]!.body.tools!.map((t) => t.function.name)).toContain('everything__echo');
    expect(model.requests[n]!.body.tools!.map((t) => t.function.name)).not.toContain('every__echo');
    await expect(page.getByTestId('msg-assistant').last()).toContainText('after rename');
    // After a reload the conversation is read back from its database: both calls still show.
    await page.reload();
    await expect(page.getByTestId('tool-card')).toHaveCount(2);
    await expect(page.getByTestId('tool-card').first()).toContainText('every');
    await expect(page.getByTestId('tool-card').first().getByTestId('tool-state')).toContainText('ok');
  });
});

test('a remote server switches from Streamable HTTP to SSE, keeping its header, and is ready again', async ({ page, shell }) => {
  const http = await startEverything('streamableHttp');
  const sse = await startEverything('sse');
  try {
    await openApp(page, shell.current);
    await openSettings(page, 'MCP servers');
    const add = await openAddServerForm(page);
    await add.getByLabel('Server name').fill('remote');
    await add.getByLabel('Server type').selectOption({ label: 'Remote URL (Streamable HTTP)' });
    await add.getByLabel('URL').fill(http.url);
    await add.getByRole('button', { name: '+ Add header' }).click();
    await add.getByLabel('Header name 1').fill('X-Team-Key');
    await add.getByLabel('Header value 1').fill('team-secret-1');
    await add.getByRole('button', { name: 'Add server' }).click();
    await expect(add).toBeHidden();
    await expectStatus(serverCard(page, 'remote'), 'ready');
    const dir = shell.current.stateDir;
    const before = configOf(dir).remote!;
    expect(before.type).toBe('http');

    const form = await openEdit(page, 'remote');
    await form.getByLabel('Edit transport').selectOption({ label: 'Remote URL (legacy SSE)' });
    await expect(form.getByText(/headers, authorization and sign-in are kept/)).toBeVisible();
    await form.getByLabel('Edit URL').fill(sse.url);
    await form.screenshot({ path: path.join(SCREENSHOTS, 'server-edit-transport.png') });
    await form.getByRole('button', { name: 'Save and restart' }).click();
    await expect(form).toBeHidden({ timeout: 30_000 });
    await expectStatus(serverCard(page, 'remote'), 'ready');
    const after = configOf(dir).remote!;
    expect(after.type).toBe('sse');
    expect(after.url).toBe(sse.url);
    // The same header, under the same secret-store key.
    expect(after.headers).toEqual(before.headers);
    await expect(serverCard(page, 'remote')).toContainText('X-Team-Key');
    await expect(serverCard(page, 'remote')).toContainText('sse');
  } finally {
    http.child.kill();
    sse.child.kill();
  }
});

test('a new value row that repeats a name is refused beside the row, and nothing is saved', async ({ page, shell }) => {
  await openApp(page, shell.current);
  await expectStatus(await addLocalServer(page, { name: 'every', command: commandLine(['node', EVERYTHING, 'stdio']), env: [['API_KEY', 'k1']] }), 'ready');
  const dir = shell.current.stateDir;
  const before = readFileSync(path.join(dir, 'mcp_servers.json'), 'utf8');
  const form = await openEdit(page, 'every');
  await form.getByRole('button', { name: '+ Add variable' }).click();
  await form.getByLabel('New variable name 1').fill('API_KEY');
  await form.getByLabel('New variable value 1').fill('k2');
  const rows = form.getByTestId('duplicate-row');
  await expect(rows).toHaveCount(1);
  await expect(rows).toHaveText('“API_KEY” is already given in a row above: give each name once.');
  await expect(form.getByLabel('New variable name 1')).toHaveAttribute('aria-invalid', 'true');
  await form.getByRole('button', { name: '+ Add variable' }).click();
  await form.getByLabel('New variable name 2').fill('OTHER');
  await form.getByLabel('New variable value 2').fill('v');
  await form.getByRole('button', { name: '+ Add variable' }).click();
  await form.getByLabel('New variable name 3').fill('OTHER');
  await form.getByLabel('New variable value 3').fill('w');
  await expect(rows).toHaveCount(2);
  await form.getByRole('button', { name: 'Save and restart' }).click();
  // Said once, beside each row: no summary repeats it; the focus goes to the first repeat.
  await expect(form.getByLabel('New variable name 1')).toBeFocused();
  await expect(form.getByRole('alert')).toHaveCount(2);
  await expect(form).not.toContainText('Two rows');
  await expect(form).toBeVisible();
  expect(readFileSync(path.join(dir, 'mcp_servers.json'), 'utf8')).toBe(before);
  // Fixing the rows lets it save: one renamed, the other repeat's row removed with its own button.
  await form.getByLabel('New variable name 1').fill('SECOND_KEY');
  await form.getByRole('button', { name: 'Remove row 3' }).click();
  await expect(form.getByLabel('New variable name 3')).toHaveCount(0);
  await expect(rows).toHaveCount(0);
  await form.getByRole('button', { name: 'Save and restart' }).click();
  await expect(form).toBeHidden({ timeout: 30_000 });
  expect(Object.keys(configOf(dir).every!.env!).sort()).toEqual(['API_KEY', 'OTHER', 'SECOND_KEY']);
});

test.describe('in 简体中文', () => {
  test.use({ locale: 'zh-CN' });

  test('a taken name and a repeated variable are refused beside their fields in Chinese', async ({ page, shell }) => {
    await page.goto(shell.current.url);
    await page.getByRole('tab', { name: '设置' }).click();
    await page.locator('.settings-nav').getByRole('button', { name: 'MCP 服务器', exact: true }).click();
    for (const name of ['every', 'other']) {
      await page.getByRole('button', { name: '添加服务器' }).click();
      const add = page.getByRole('form', { name: '添加服务器' });
      await add.getByLabel('服务器名称').fill(name);
      await add.getByLabel('命令').fill(commandLine(['node', EVERYTHING, 'stdio']));
      if (name === 'every') {
        await add.getByRole('button', { name: '+ 添加变量' }).click();
        await add.getByLabel('变量名 1').fill('API_KEY');
        await add.getByLabel('变量值 1').fill('k1');
      }
      await add.getByRole('button', { name: '添加服务器' }).click();
      await expect(add).toBeHidden();
    }
    await (await cardAction(serverCard(page, 'every'), '编辑', { exact: true })).click();
    const form = page.getByRole('form', { name: '编辑 every' });
    await form.getByLabel('编辑服务器名称').fill('Other');
    await form.getByRole('button', { name: '+ 添加变量' }).click();
    await form.getByLabel('新变量名 1').fill('API_KEY');
    await form.getByLabel('新变量值 1').fill('k2');
    await expect(form.getByTestId('duplicate-row')).toHaveText('上面的行已经填写了“API_KEY”：每个名称只能填写一次。');
    await form.getByRole('button', { name: '保存并重启' }).click();
    await expect(form.getByTestId('name-error')).toHaveText('名称“Other”已被另一个服务器使用（仅大小写不同，或仅“.”与“_”不同的名称视为相同）：请换一个名称。');
    // Each problem once, beside its field; the focus is on the first of them.
    await expect(form.getByRole('alert')).toHaveCount(2);
    await expect(form.getByLabel('编辑服务器名称')).toBeFocused();
    await expect(form.getByText('重命名会保留它的密钥')).toBeVisible();
    await form.screenshot({ path: path.join(SCREENSHOTS, 'server-edit-zh-CN.png') });
    expect(Object.keys(configOf(shell.current.stateDir))).toEqual(['every', 'other']);
  });
});

test('stored and new value rows share one design: the same columns, Remove in each, a refusal on its own line under the row', async ({ page, shell }) => {
  await openApp(page, shell.current);
  await page.setViewportSize({ width: 800, height: 900 });
  await expectStatus(await addLocalServer(page, { name: 'files', command: commandLine(['bash', BASH_SERVER]), env: [['FOO', 'stored-value-1']] }), 'ready');
  const form = await openEdit(page, 'files');
  await form.getByRole('button', { name: '+ Add variable' }).click();
  const stored = form.getByTestId('stored-value-row');
  const added = form.getByTestId('new-value-row');
  await expect(stored).toHaveCount(1);
  await expect(added).toHaveCount(1);
  /** Where each column of a row starts and how wide it is. */
  const columns = (row: Locator) =>
    row.evaluate((el) =>
      [...el.children]
        .filter((c) => !c.classList.contains('kv-error'))
        .map((c) => {
          const r = c.getBoundingClientRect();
          return { x: Math.round(r.x), width: Math.round(r.width), top: Math.round(r.top), bottom: Math.round(r.bottom) };
        }),
    );
  const before = await columns(added);
  const s = await columns(stored);
  expect(s.map((c) => c.x)).toEqual(before.map((c) => c.x));
  // The value fields and the Remove buttons are the same width (the name column holds a field or a name).
  expect(s[1]!.width).toBe(before[1]!.width);
  expect(s[2]!.width).toBe(before[2]!.width);
  await expect(stored.getByRole('button', { name: 'Remove FOO' })).toHaveText('Remove');
  await expect(added.getByRole('button', { name: 'Remove row 1' })).toHaveText('Remove');

  // A repeated name: the refusal goes under the row, which keeps its columns.
  await form.getByLabel('New variable name 1').fill('FOO');
  await form.getByLabel('New variable value 1').fill('x');
  const refusal = added.getByTestId('duplicate-row');
  await expect(refusal).toHaveText('“FOO” is already given in a row above: give each name once.');
  const after = await columns(added);
  expect(after.map((c) => [c.x, c.width])).toEqual(before.map((c) => [c.x, c.width]));
  const r = (await refusal.boundingBox())!;
  expect(r.y).toBeGreaterThanOrEqual(Math.max(...after.map((c) => c.bottom)) - 1);

  // Removing the stored one is undone the same way: Remove turns into Keep.
  await stored.getByRole('button', { name: 'Remove FOO' }).click();
  await expect(stored.getByRole('button', { name: 'Keep FOO' })).toHaveText('Keep');
  await expect(stored.getByLabel('New value for FOO')).toHaveCount(0);
  await expect(refusal).toHaveCount(0);
  await form.screenshot({ path: path.join(SCREENSHOTS, 'server-edit-value-rows.png') });
  await stored.getByRole('button', { name: 'Keep FOO' }).click();
  await expect(stored.getByLabel('New value for FOO')).toBeVisible();
});
