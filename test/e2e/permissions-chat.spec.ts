/**
 * Tool permissions from the chat, end to end in Chromium with the real core, a real
 * server-filesystem and the scripted fake model (docs/ARCHITECTURE.md
 * "Permissions").
 *
 * The agent asks `PermissionGate.authorize()` in main before every `host.callTool()`; the
 * approval card appears in the tool call's card in the transcript (`data-testid="approval-card"`).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { defaultScript, startFakeModel, textOf, type FakeModel, type WireRequest } from '../fixtures/fake-model.js';
import { FS_SERVER, SCREENSHOTS, addLocalServer, commandLine, configureModel, expect, expectStatus, openApp, openChat, openSettings, sendMessage, serverCard, tempDir, test } from './helpers.js';


/** The default script, plus `force <namespaced tool> <json>`: call that tool even if it is not offered. */
function script(req: WireRequest) {
  const last = req.messages[req.messages.length - 1];
  const user = textOf([...req.messages].reverse().find((m) => m.role === 'user'));
  const m = /^force\s+(\S+)\s*(.*)$/s.exec(user.trim());
  if (m && last?.role === 'user') return { toolCalls: [{ name: m[1]!, arguments: m[2] ? (JSON.parse(m[2]) as unknown) : {} }] };
  return defaultScript(req);
}

/** The tool message of the last request that carries one (what the model was told). */
function lastToolMessage(model: FakeModel): string {
  for (const r of [...model.requests].reverse()) {
    const t = [...r.body.messages].reverse().find((m) => m.role === 'tool');
    if (t) return textOf(t);
  }
  return '';
}

async function setup(page: Page, shell: { current: Parameters<typeof openApp>[1] }, model: FakeModel, work: string) {
  await openApp(page, shell.current);
  await configureModel(page, { baseUrl: model.baseUrl, model: 'fake' });
  const card = await addLocalServer(page, { name: 'files', command: commandLine(['node', FS_SERVER, work]) });
  await expectStatus(card, 'ready');
  await openChat(page);
}

const approval = (page: Page) => page.getByTestId('approval-card');

test('write_file asks: Deny writes nothing and the model is told; Allow once writes; Always allow stops asking and survives a restart', async ({ page, shell }) => {
  const work = tempDir('perm-chat');
  const model = await startFakeModel({ script });
  try {
    await setup(page, shell, model, work);
    const denied = path.join(work, 'denied.txt');

    // ---- Deny ----------------------------------------------------------------------------------
    await sendMessage(page, `call __write_file ${JSON.stringify({ path: denied, content: 'no' })}`);
    const card = approval(page);
    await expect(card).toHaveCount(1);
    await expect(card).toContainText('write_file');
    await expect(card).toContainText('files');
    await expect(card.getByTestId('tool-annotations')).toContainText('destructive');
    expect(JSON.parse((await card.getByTestId('approval-args').textContent()) ?? 'null')).toEqual({ path: denied, content: 'no' });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'approval-card.png'), fullPage: true });
    await card.getByLabel('Reason for denying').fill('not in this folder');
    await card.getByRole('button', { name: 'Deny' }).click();
    await expect(approval(page)).toHaveCount(0);
    await expect(page.getByTestId('msg-assistant').last()).toContainText('Denied by the user: not in this folder');
    expect(existsSync(denied)).toBe(false);
    expect(lastToolMessage(model)).toContain('Denied by the user: not in this folder');

    // ---- Allow once ----------------------------------------------------------------------------
    const once = path.join(work, 'once.txt');
    await sendMessage(page, `call __write_file ${JSON.stringify({ path: once, content: 'once' })}`);
    await expect(approval(page)).toHaveCount(1);
    await approval(page).getByRole('button', { name: 'Allow once' }).click();
    await expect.poll(() => existsSync(once) && readFileSync(once, 'utf8')).toBe('once');
    await expect(page.getByTestId('msg-assistant').last()).toContainText('Tool result:');

    // ---- Always allow --------------------------------------------------------------------------
    const always = path.join(work, 'always.txt');
    await sendMessage(page, `call __write_file ${JSON.stringify({ path: always, content: '1' })}`);
    await expect(approval(page)).toHaveCount(1);
    await approval(page).getByRole('button', { name: 'Always allow' }).click();
    await expect.poll(() => existsSync(always) && readFileSync(always, 'utf8')).toBe('1');
    const next = path.join(work, 'next.txt');
    await sendMessage(page, `call __write_file ${JSON.stringify({ path: next, content: '2' })}`);
    await expect.poll(() => existsSync(next) && readFileSync(next, 'utf8')).toBe('2');
    await expect(approval(page)).toHaveCount(0);

    // ---- Survives a restart of the core --------------------------------------------------------
    await shell.restart();
    await openApp(page, shell.current);
    await openSettings(page, 'MCP servers');
    await expectStatus(serverCard(page, 'files'), 'ready');
    await openChat(page);
    const after = path.join(work, 'after-restart.txt');
    await sendMessage(page, `call __write_file ${JSON.stringify({ path: after, content: '3' })}`);
    await expect.poll(() => existsSync(after) && readFileSync(after, 'utf8')).toBe('3');
    await expect(approval(page)).toHaveCount(0);
  } finally {
    await model.close();
  }
});

test('a disabled tool is absent from the request and a call the model makes anyway is refused', async ({ page, shell }) => {
  const work = tempDir('perm-chat-off');
  const model = await startFakeModel({ script });
  try {
    await setup(page, shell, model, work);
    await openSettings(page, 'MCP servers');
    const card = serverCard(page, 'files');
    await card.getByRole('button', { name: 'Tools' }).click();
    await card.getByLabel('Enable tool write_file').click();
    await expect(card.getByLabel('Enable tool write_file')).not.toBeChecked();
    await openChat(page);

    const target = path.join(work, 'forced.txt');
    const n = model.requests.length;
    await sendMessage(page, `force files__write_file ${JSON.stringify({ path: target, content: 'x' })}`);
    await expect(page.getByTestId('msg-assistant').last()).toContainText('Tool result:');
    expect(model.requests[n]!.body.tools!.map((t) => t.function.name)).not.toContain('files__write_file');
    expect(existsSync(target)).toBe(false);
    await expect(approval(page)).toHaveCount(0);
    expect(lastToolMessage(model)).toMatch(/files__write_file|write_file/);
  } finally {
    await model.close();
  }
});

test('a card pending during a window reload is shown again and still works', async ({ page, shell }) => {
  const work = tempDir('perm-chat-reload');
  writeFileSync(path.join(work, 'keep.txt'), 'k');
  const model = await startFakeModel({ script });
  try {
    await setup(page, shell, model, work);
    const target = path.join(work, 'after-reload.txt');
    await sendMessage(page, `call __write_file ${JSON.stringify({ path: target, content: 'r' })}`);
    await expect(approval(page)).toHaveCount(1);
    const id = await approval(page).getAttribute('data-approval-id');
    await page.reload();
    await expect(approval(page)).toHaveCount(1);
    expect(await approval(page).getAttribute('data-approval-id')).toBe(id);
    await approval(page).getByRole('button', { name: 'Allow once' }).click();
    await expect.poll(() => existsSync(target) && readFileSync(target, 'utf8')).toBe('r');
    await expect(approval(page)).toHaveCount(0);
  } finally {
    await model.close();
  }
});

test('Stop while a card is pending withdraws it and nothing runs', async ({ page, shell }) => {
  const work = tempDir('perm-chat-stop');
  const model = await startFakeModel({ script });
  try {
    await setup(page, shell, model, work);
    const target = path.join(work, 'stopped.txt');
    await sendMessage(page, `call __write_file ${JSON.stringify({ path: target, content: 's' })}`);
    await expect(approval(page)).toHaveCount(1);
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await expect(approval(page)).toHaveCount(0);
    // The call is recorded as cancelled, never run.
    await expect(page.getByTestId('tool-card')).toHaveAttribute('data-state', 'cancelled');
    expect(existsSync(target)).toBe(false);
  } finally {
    await model.close();
  }
});

test('a card left unanswered by a core restart reads "interrupted by a restart", never "Cancelled by the user"; the model is told so', async ({ page, shell }) => {
  const work = tempDir('perm-restart');
  const model = await startFakeModel({ script });
  try {
    await setup(page, shell, model, work);
    const target = path.join(work, 'never.txt');
    await sendMessage(page, `call __write_file ${JSON.stringify({ path: target, content: 'x' })}`);
    await expect(approval(page)).toHaveCount(1);
    // The core stops (as Ctrl+C on npm run web does) and starts again; the tab opens the new link.
    await shell.restart({ samePort: true });
    await openApp(page, shell.current);
    const tool = page.getByTestId('tool-card');
    await expect(tool).toHaveAttribute('data-state', 'approval_interrupted');
    await expect(tool.getByTestId('tool-state')).toHaveText('interrupted by a restart ·');
    await expect(tool.getByTestId('tool-error')).toHaveText('Interrupted: the app restarted before you answered. The call was not run.');
    await expect(page.getByTestId('transcript')).not.toContainText('Cancelled by the user');
    await expect(approval(page)).toHaveCount(0);
    expect(existsSync(target)).toBe(false);
    // The next turn's model learns the call never ran because of the restart.
    await sendMessage(page, 'what happened?');
    await expect.poll(() => lastToolMessage(model)).toContain('the app restarted before the user answered');
    // In Simplified Chinese it reads as its own outcome too.
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.locator('.settings-nav').getByRole('button', { name: 'Language', exact: true }).click();
    await page.getByLabel('Language').selectOption('zh-CN');
    await page.getByRole('tab', { name: '对话' }).click();
    await expect(tool.getByTestId('tool-state')).toHaveText('因重启而中断 ·');
    await expect(tool.getByTestId('tool-error')).toHaveText('已中断：在你作答之前应用已重启。这次调用没有运行。');
  } finally {
    await model.close();
  }
});
