/**
 * Short labels in a narrow window (docs/ARCHITECTURE.md "Visual design"): at 800 px in Chinese —
 * whose labels have no spaces to break at, so a squeezed one breaks a character at a time — the
 * chat header's Tasks link, the tool picker's counts, the Tasks list's badges, headers and Cancel
 * stay on one line, the approval card's Deny stays beside its reason field, and a long tool name
 * in the Tasks list is cut with an ellipsis instead of wrapping (at 1440 px too); the chat header
 * stays one row at 800 and 1440 px, in Chinese and English, with a long title and model name.
 * Measured in the page: the lines a label's text takes, by the positions of its text boxes.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { startFakeModel, type FakeModel } from '../fixtures/fake-model.js';
import { BASH_SERVER, ROOT, addLocalServer, commandLine, configureModel, expect, expectStatus, openApp, openChat, openSettings, sendMessage, tempDir, test } from './helpers.js';

let model: FakeModel;
test.beforeEach(async () => {
  model = await startFakeModel();
});
test.afterEach(async () => {
  await model.close();
});

/** How many lines the text inside `el` takes (text boxes whose tops differ by more than a few pixels). */
async function lines(el: Locator): Promise<number> {
  return el.evaluate((root) => {
    const tops: number[] = [];
    const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      if (!n.textContent?.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      for (const r of range.getClientRects()) if (r.width > 0.5) tops.push(r.top);
    }
    tops.sort((a, b) => a - b);
    return tops.reduce((count, top, i) => (i > 0 && top - tops[i - 1]! > 4 ? count + 1 : count), tops.length ? 1 : 0);
  });
}

/** Every element of `all` takes one line. */
async function oneLineEach(all: Locator, what: string): Promise<void> {
  const n = await all.count();
  expect(n, what).toBeGreaterThan(0);
  for (let i = 0; i < n; i++) expect(await lines(all.nth(i)), `${what} #${i + 1}: ${await all.nth(i).textContent()}`).toBe(1);
}

/** A conversation with a long title holding four task-backed calls of one tool, as earlier sessions would have saved it. */
async function seedTasks(stateDir: string): Promise<void> {
  const { openConversationDatabase } = await import('../../main/chat/conversations/database.js');
  const { ConversationStore } = await import('../../main/chat/conversations/store.js');
  const { TaskStore } = await import('../../main/chat/conversations/tasks.js');
  const db = openConversationDatabase(stateDir);
  const store = new ConversationStore(db);
  const tasks = new TaskStore(db);
  store.ensure('t', 'call simulate-research-query {"topic":"cats"} and then summarize the report in three bullet points');
  const statuses = ['cancelled', 'completed', 'working', 'input_required'] as const;
  statuses.forEach((kind, i) => {
    store.append('t', { kind: 'user', id: `u${i}`, ts: i, text: `call simulate-research-query ${i}` });
    store.append('t', {
      kind: 'tool', id: `i${i}`, ts: i, run_id: `r${i}`, call_id: `c${i}`, tool: 'every__simulate-research-query', server: 'every', original_name: 'simulate-research-query',
      args: { topic: `topic ${i}` }, state: 'ok', content: [{ type: 'text', text: 'done' }], error: null, duration_ms: 40, progress: null, permission: null,
    });
    tasks.add({ server: 'every', task_id: `task-${i}`, conversation_id: 't', run_id: `r${i}`, call_id: `c${i}`, item_id: `i${i}`, tool: 'every__simulate-research-query', original_name: 'simulate-research-query', reference: {}, status: { kind, message: null }, origin: 'started', created_at: Date.now() - (4 - i) * 60_000 });
  });
  store.close();
  db.close();
}

/** At 800 and 1440 px the chat header is one row: a long title and model name give way, not Tasks or the export buttons. */
async function headerInOneRow(page: Page): Promise<void> {
  const centre = async (l: Locator): Promise<number> => ((b) => b.y + b.height / 2)((await l.boundingBox())!);
  for (const width of [800, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    const title = await centre(page.getByTestId('chat-title'));
    for (const b of [page.getByTestId('open-tasks'), page.locator('.chat-toolbar .export-buttons button').last()]) expect(Math.abs((await centre(b)) - title), `header row at ${width} px`).toBeLessThan(4);
  }
}

async function inChinese(page: Page): Promise<void> {
  await page.evaluate(() => localStorage.setItem('openprogram.language', 'zh-CN'));
  await page.reload();
  await expect(page.getByRole('tab', { name: '对话' })).toBeVisible();
}

test('at 800 px in Chinese, short labels, badges and buttons keep one line; long names are cut with an ellipsis', async ({ page, shell }) => {
  test.setTimeout(120_000);
  await shell.current.stop();
  await seedTasks(shell.stateDir);
  await shell.restart();
  await openApp(page, shell.current);
  // A long model name takes room in the chat header (as real ones do).
  await configureModel(page, { baseUrl: model.baseUrl, model: 'qwen2.5-coder-32b-instruct-q4_K_M' });
  await expectStatus(await addLocalServer(page, { name: 'files', command: commandLine(['bash', BASH_SERVER]) }), 'ready');
  await openChat(page);
  await page.keyboard.press('Control+Shift+O');
  // A tool without annotations asks first: its approval card waits.
  await sendMessage(page, 'call echo {"text":"hi"}');
  await expect(page.getByTestId('approval-card')).toBeVisible({ timeout: 30_000 });

  await page.setViewportSize({ width: 800, height: 900 });
  await inChinese(page);

  // The approval card: Deny stays beside the reason field, on the buttons' row.
  const card = page.getByTestId('approval-card');
  await expect(card).toBeVisible();
  const deny = card.getByRole('button', { name: '拒绝' });
  const reason = card.getByRole('textbox', { name: /理由/ });
  const [d, r, allow] = [(await deny.boundingBox())!, (await reason.boundingBox())!, (await card.getByRole('button', { name: '允许一次' }).boundingBox())!];
  expect(Math.abs(d.y + d.height / 2 - (r.y + r.height / 2))).toBeLessThan(4);
  expect(Math.abs(d.y + d.height / 2 - (allow.y + allow.height / 2))).toBeLessThan(4);
  await oneLineEach(card.getByRole('button'), 'approval buttons');

  // The tool picker: each server's counts on one line, the menu not scrolling sideways.
  await page.locator('.tool-picker > button').click();
  const menu = page.locator('.tool-picker-menu');
  await expect(menu).toBeVisible();
  await oneLineEach(menu.locator('.check > span'), 'tool picker labels');
  expect(await menu.evaluate((m) => m.scrollWidth <= m.clientWidth)).toBe(true);
  await page.keyboard.press('Escape');

  // The chat header of a conversation with a long title: Tasks on one line.
  await page.getByRole('button', { name: /summarize the report/ }).click();
  await expect(page.getByTestId('chat-title')).toContainText('summarize the report');
  await oneLineEach(page.getByTestId('open-tasks'), 'header Tasks link');
  await oneLineEach(page.locator('.chat-toolbar .export-buttons button'), 'export buttons');
  await headerInOneRow(page);

  // The Tasks list across conversations: badges, headers, times and Cancel on one line; the call's
  // tool name, arguments and the conversation each on one line, cut with an ellipsis when long.
  for (const width of [800, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.getByTestId('open-all-tasks').click();
    const dialog = page.getByTestId('tasks-dialog');
    await expect(dialog.getByTestId('task-row')).toHaveCount(4);
    await oneLineEach(dialog.locator('.task-badge'), `status badges at ${width} px`);
    await oneLineEach(dialog.locator('th').filter({ hasText: /\S/ }), `column headers at ${width} px`);
    await oneLineEach(dialog.locator('.task-line'), `call and conversation lines at ${width} px`);
    await oneLineEach(dialog.locator('.task-started'), `start times at ${width} px`);
    await oneLineEach(dialog.getByTestId('task-cancel'), `Cancel at ${width} px`);
    expect(await dialog.evaluate((m) => m.scrollWidth <= m.clientWidth)).toBe(true);
    // The conversation's title is cut; the whole is in the tooltip.
    const conversation = dialog.locator('.task-conversation').first();
    expect(await conversation.locator('.task-line').evaluate((e) => e.scrollWidth > e.clientWidth)).toBe(true);
    await expect(conversation).toHaveAttribute('title', /^call simulate-research-query .*summarize the report/);
    await dialog.getByRole('button', { name: '关闭' }).click();
  }

  // In English too (longer button labels), the header stays one row.
  await page.evaluate(() => localStorage.setItem('openprogram.language', 'en'));
  await page.reload();
  await expect(page.getByTestId('chat-title')).toContainText('summarize the report');
  await headerInOneRow(page);
});

test('Settings at 800 px never scroll sideways: a server whose command line and folder are long paths, in English and Chinese', async ({ page, shell }) => {
  await page.setViewportSize({ width: 800, height: 860 });
  await openApp(page, shell.current);
  const dir = path.join(tempDir('openprogram-e2e-a-rather-long-folder-name-for-a-narrow-window-'), 'Documents', 'Projects', 'Quarterly reports');
  mkdirSync(dir, { recursive: true });
  const FS = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
  await expectStatus(await addLocalServer(page, { name: 'files', command: commandLine(['node', FS, dir]) }), 'ready');
  await openSettings(page, 'MCP servers');
  for (const language of ['en', 'zh-CN']) {
    // The window stays on Settings → MCP servers across the reload that switches the language.
    await page.evaluate((l) => localStorage.setItem('openprogram.language', l), language);
    await page.reload();
    if (!(await page.locator('.server-card').first().isVisible())) {
      await page.getByRole('tab', { name: language === 'en' ? 'Settings' : '设置' }).click();
      await page.locator('.settings-nav').getByRole('button', { name: language === 'en' ? 'MCP servers' : 'MCP 服务器', exact: true }).click();
    }
    await expect(page.locator('.server-card').first()).toBeVisible();
    // The page is as wide as the window: nothing (the root folders' line, the command, the sandbox's paths) widens it.
    const [scroll, client] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
    expect(scroll, `the page at 800 px (${language}) scrolls sideways`).toBeLessThanOrEqual(client);
    // Add server stays in the window.
    const add = await page.getByRole('button', { name: language === 'en' ? 'Add server' : '添加服务器', exact: true }).first().boundingBox();
    expect(add && add.x + add.width, language).toBeLessThanOrEqual(800);
  }
});
