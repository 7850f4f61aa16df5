/**
 * Languages end to end (docs/ARCHITECTURE.md "Languages"): the UI follows the OS locale,
 * can be switched in Settings → Language, and in Simplified Chinese no English is left on the
 * chat and Settings screens — real core, real server-filesystem, the scripted fake model, real
 * Chromium through the browser shell.
 *
 * The walk collects every visible text node plus the aria-label, placeholder and title of every
 * visible element (and the options of visible selects), removes what is not UI text — the data
 * (messages, tool arguments and results, paths, server/tool/model names, URLs, conversation
 * titles) and an explicit allowlist of names that stay as they are (product names, protocol
 * identifiers, key names) — and fails on any Latin word that remains.
 */
import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { startFakeModel, type FakeModel } from '../fixtures/fake-model.js';
import { startRegistryFixture } from '../fixtures/registry-server.js';
import { FS_SERVER, ROOT, SCREENSHOTS, addLocalServer, commandLine, configureModel, expect, expectStatus, openApp, openChat, openSettings, sendMessage, serverCard, tempDir, test, cardAction } from './helpers.js';

/**
 * Elements whose content is data, not UI text: messages, tool arguments/results, names and
 * commands in monospace (tool, server, path, command line), conversation titles, logs, schemas
 * and the server's own tool descriptions, main's English detail of the secrets notice.
 */
const DATA_SELECTORS = [
  '[data-testid="msg-user"]',
  '[data-testid="msg-assistant"]',
  '[data-testid="tool-args"]',
  '[data-testid="tool-result"]',
  '[data-testid="approval-args"]',
  '[data-testid="tool-name"]',
  '.mono',
  '.conv-title',
  '.chat-title',
  '.server-name',
  '.profile-name',
  '.approval-head strong',
  '.tool-schema summary',
  'pre',
  '[lang="en"]',
  // Data inside a sentence or a server's own words (a server card's failure: command, URL, message).
  '[translate="no"]',
].join(', ');

/**
 * Words that stay as they are in every language: the product, protocol identifiers and formats,
 * third-party product names, key names of shortcuts, and language names shown in their own
 * language (the Language select offers "English").
 */
const ALLOWED = [
  'OpenProgram',
  'MCP',
  'OAuth',
  'Bearer',
  'JSON',
  'Markdown',
  'URL',
  'API',
  'HTTP',
  'Streamable',
  'SSE',
  'stdio',
  'stderr',
  'token',
  'shell',
  'http',
  'https',
  'OpenAI',
  'Anthropic',
  'Ollama',
  'LM Studio',
  'vLLM',
  'OpenRouter',
  'GPT-4o',
  'Llama',
  'ID',
  'client_id',
  'client_secret',
  'scope',
  'Ctrl',
  'Shift',
  'Enter',
  'Esc',
  'English',
  'npx -y @modelcontextprotocol/server-filesystem',
  // Formats and examples that are identifiers: config documents, a server-name example.
  '{"servers": …}',
  '{"mcpServers": …}',
  'filesystem',
  // The MCP Bundle file format.
  '.mcpb',
];

/** Every visible UI string on the page (text nodes, aria-label/placeholder/title, options of visible selects). */
async function visibleStrings(page: Page): Promise<string[]> {
  return page.evaluate((dataSel) => {
    const out: string[] = [];
    const shown = (el: Element | null): el is Element => !!el && el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }) && !el.closest(dataSel);
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent?.trim();
      if (text && n.parentElement?.tagName !== 'OPTION' && shown(n.parentElement)) out.push(text);
    }
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      if (!shown(el)) continue;
      for (const a of ['aria-label', 'placeholder', 'title']) {
        const v = el.getAttribute(a)?.trim();
        if (v) out.push(v);
      }
      if (el instanceof HTMLSelectElement) for (const o of Array.from(el.options)) if (o.text.trim()) out.push(o.text.trim());
    }
    return out;
  }, DATA_SELECTORS);
}

/** The strings that still hold a Latin word once data and allowlisted names are taken out. */
function untranslated(strings: string[], data: string[]): string[] {
  const remove = [...data, ...ALLOWED].filter(Boolean).sort((a, b) => b.length - a.length);
  const left = new Set<string>();
  for (const s of strings) {
    let rest = s.replace(/https?:\/\/\S+/g, ' ').replace(/\/[\w./-]+/g, ' ');
    for (const r of remove) rest = rest.split(r).join(' ');
    if (/[A-Za-z]{2,}/.test(rest)) left.add(s);
  }
  return [...left];
}

/** Assert that the current screen speaks Chinese only (bar data and the allowlist); screenshot it. */
async function expectAllChinese(page: Page, data: string[], shot: string): Promise<void> {
  await page.screenshot({ path: path.join(SCREENSHOTS, `i18n-${shot}.png`), fullPage: true });
  const strings = await visibleStrings(page);
  expect(strings.length, `strings found on ${shot}`).toBeGreaterThan(5);
  expect(untranslated(strings, data), `untranslated English on ${shot}`).toEqual([]);
  // And the screen really is in Chinese, not empty of words.
  expect(strings.some((s) => /[\u4e00-\u9fff]/.test(s)), `Chinese text on ${shot}`).toBe(true);
}

/** Settings → a section by its (current-language) name. */
async function settingsSection(page: Page, tab: string, section: string): Promise<void> {
  await page.getByRole('tab', { name: tab }).click();
  await page.locator('.settings-nav').getByRole('button', { name: section, exact: true }).click();
}

test('switching to 简体中文 translates every visible string of the chat and Settings screens; English comes back', async ({ page, shell }) => {
  const work = tempDir('i18n');
  const model: FakeModel = await startFakeModel();
  try {
    await openApp(page, shell.current);
    await configureModel(page, { baseUrl: model.baseUrl, model: 'fake' });
    const card = await addLocalServer(page, { name: 'files', command: commandLine(['node', FS_SERVER, work]) });
    await expectStatus(card, 'ready');

    // A conversation with a finished read-only tool call, then one waiting for approval.
    await openChat(page);
    const first = 'call __list_allowed_directories';
    await sendMessage(page, first);
    await expect(page.getByTestId('tool-card').first()).toHaveAttribute('data-state', 'ok');
    await expect(page.getByTestId('msg-assistant').last()).toContainText('Tool result');
    const write = `call __write_file ${JSON.stringify({ path: path.join(work, 'a.txt'), content: 'x' })}`;
    await sendMessage(page, write);
    await expect(page.getByTestId('approval-card')).toBeVisible();

    // ---- Switch to 简体中文 ----------------------------------------------------------------------
    await settingsSection(page, 'Settings', 'Language');
    await page.getByLabel('Language').selectOption('zh-CN');
    await expect(page.getByRole('tab', { name: '对话' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');

    // Data that may appear inside UI strings (server, model and tool names, the conversation title).
    const data = ['files', 'fake', first, write, 'list_allowed_directories', 'write_file', '__', 'a.txt'];

    await expectAllChinese(page, data, 'settings-language');

    // ---- Chat: sidebar, transcript with tool calls and an approval card, composer --------------
    await page.getByRole('tab', { name: '对话' }).click();
    await expect(page.getByRole('textbox', { name: '消息' })).toBeVisible();
    await expect(page.getByTestId('approval-card')).toContainText('允许一次');
    await expectAllChinese(page, data, 'chat');
    // The conversation list says "just now" and the message count in Chinese.
    await expect(page.getByTestId('conversation').first()).toContainText('条消息');

    // ---- Settings → MCP 服务器: a server with its Tools panel, the Edit form, the Add-server form, import/export
    await settingsSection(page, '设置', 'MCP 服务器');
    const files = serverCard(page, 'files');
    await expect(files.getByTestId('server-status')).toHaveText('就绪');
    await files.getByRole('button', { name: '工具', exact: true }).click();
    await expect(files.getByTestId('tool-permissions')).toBeVisible();
    // Every tool of the server: the names the model sees and the server's titles are data.
    const names = await files.locator('[data-testid^="tool-"] .tool-row-name').allTextContents();
    data.push(...names.flatMap((n) => n.split(/[\s—]+/)).filter((w) => w.length > 1));
    await (await cardAction(files, '编辑', { exact: true })).click();
    await expect(page.getByRole('form', { name: '编辑 files' })).toBeVisible();
    await page.getByRole('button', { name: '添加服务器' }).click();
    const add = page.getByRole('form', { name: '添加服务器' });
    await expect(add).toBeVisible();
    await add.getByRole('button', { name: '+ 添加变量' }).click();
    await page.getByRole('button', { name: '导入 / 导出' }).click();
    await expectAllChinese(page, data, 'settings-servers');
    // The page scrolls inside its panel: a picture of the server card with its Tools panel too.
    await files.screenshot({ path: path.join(SCREENSHOTS, 'i18n-settings-server-tools.png') });
    // The remote-server variant of the form (authorization, headers).
    await add.getByLabel('服务器类型').selectOption('http');
    await add.getByLabel('授权').selectOption('oauth');
    await add.locator('summary').click();
    await expectAllChinese(page, data, 'settings-add-remote');

    // ---- Settings → 模型 ------------------------------------------------------------------------
    await settingsSection(page, '设置', '模型');
    await expect(page.getByRole('heading', { name: '模型', exact: true })).toBeVisible();
    await page.getByRole('button', { name: '测试连接' }).click();
    await expect(page.getByTestId('connection-result')).toContainText('已连接');
    await expect(page.getByLabel('可用模型')).toBeVisible();
    // The models the provider lists, and the model-name example, are model names (data).
    data.push('gpt-4o-mini', ...(await page.getByLabel('可用模型').locator('option[value]:not([value=""])').allTextContents()));
    await expectAllChinese(page, data, 'settings-model');

    // ---- Settings → 工具权限 --------------------------------------------------------------------
    await settingsSection(page, '设置', '工具权限');
    await expect(page.getByRole('radio', { name: '每次工具调用都询问' })).toBeVisible();
    await expectAllChinese(page, data, 'settings-permissions');

    // ---- Settings → 目录: the catalog from the local registry fixture (entries are data) ----------
    const registry = await startRegistryFixture();
    try {
      await settingsSection(page, '设置', '目录');
      await page.getByLabel('注册中心地址').fill(registry.url);
      await page.getByRole('button', { name: '使用此注册中心' }).click();
      await expect(page.getByTestId('catalog-source')).toBeVisible();
      await page.getByLabel('显示已弃用的服务器').check();
      await expect(page.locator('[data-name="io.github.example/old-tool"]')).toBeVisible();
      await page.locator('[data-name="io.github.example/everything"]').getByRole('button', { name: '安装' }).click();
      await page.getByRole('button', { name: '检查更新' }).click();
      await expect(page.getByText('尚未从目录安装任何服务器。')).toBeVisible();
      await expectAllChinese(page, data, 'settings-catalog');
    } finally {
      await registry.close();
    }

    // ---- Back to English: the English labels return, unchanged -----------------------------------
    await settingsSection(page, '设置', '语言');
    await page.getByLabel('语言').selectOption('en');
    await expect(page.getByRole('tab', { name: 'Chat' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await openChat(page);
    await expect(page.getByRole('button', { name: 'Allow once' })).toBeVisible();
    await expect(page.getByTestId('tool-card').first().getByTestId('tool-state')).toHaveText('ok ·');
    await expect(page.getByRole('button', { name: '+ New chat' })).toBeVisible();
    await page.getByRole('button', { name: 'Deny' }).click();
    await expect(page.getByTestId('tool-card').last()).toHaveAttribute('data-state', 'denied');
  } finally {
    await model.close();
  }
});

/**
 * A stdio server that answers `initialize` with a JSON-RPC error of its own words (and says
 * something on stderr first); other requests (the `server/discover` probe) get "Method not found".
 */
const REFUSING_SERVER = [
  "process.stderr.write('refuser: config loaded\\n');",
  "require('readline').createInterface({ input: process.stdin }).on('line', (l) => {",
  '  let m; try { m = JSON.parse(l); } catch { return; }',
  '  if (m.id === undefined) return;',
  "  const error = m.method === 'initialize' ? { code: -32000, message: 'License expired for tenant acme' } : { code: -32601, message: 'Method not found' };",
  "  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, error }) + '\\n');",
  '});',
].join('\n');

test('failing server cards read by their codes: English, then 简体中文 with only the data as sent (marked)', async ({ page, shell }) => {
  test.setTimeout(150_000);
  const work = tempDir('i18n-states');
  const script = path.join(work, 'vanishing-server.sh');
  // The server file is an argument, so the sandbox grants its package (a file a script names
  // inside itself is outside the policy, and would be blocked).
  writeFileSync(script, `#!/bin/sh\nexec "${process.execPath}" "$@"\n`);
  chmodSync(script, 0o755);
  try {
    await openApp(page, shell.current);
    // A server whose command is gone by the time the app starts it again.
    const gone = await addLocalServer(page, { name: 'gone', command: commandLine([script, path.join(ROOT, 'test/fixtures/sdk-server.mjs')]) });
    await expectStatus(gone, 'ready');
    const refuses = await addLocalServer(page, { name: 'refuses', command: commandLine(['node', '-e', REFUSING_SERVER]) });
    await expectStatus(refuses, 'error');
    // A server that keeps crashing right after it is ready: restarted with backoff until the app gives up (about 15–30 s).
    const crashy = await addLocalServer(page, { name: 'crashy', command: commandLine(['node', path.join(ROOT, 'test/fixtures/sdk-server.mjs'), '--exit-after-init', '--stderr=crashy: lost its database']) });
    rmSync(script);
    await shell.restart();
    await openApp(page, shell.current);
    await openSettings(page, 'MCP servers');
    await expectStatus(gone, 'error');
    await expectStatus(refuses, 'error');

    // English: each card's sentence is chosen by its code.
    await expect(gone.getByTestId('server-error')).toHaveAttribute('data-kind', 'spawn_failed');
    await expect(gone.getByTestId('server-error')).toContainText(`The command ${script} was not found. Install it, or give its full path.`);
    await expect(gone.getByTestId('server-data').first()).toHaveText(script);
    await expect(refuses.getByTestId('server-error')).toContainText('The server refused to start the session (JSON-RPC error -32000).');
    await expect(refuses.getByTestId('server-said-block')).toContainText('The server said:');
    await expect(refuses.getByTestId('server-said')).toHaveText('License expired for tenant acme');
    await expect(refuses.getByTestId('server-stderr')).toHaveText('refuser: config loaded');
    await expect(crashy.getByTestId('server-recovery')).toContainText('so it is no longer restarted automatically', { timeout: 60_000 });
    await expect(crashy.getByTestId('server-error')).toContainText('The server closed the connection.');
    await expect(crashy.getByTestId('server-error')).toContainText('The process exited with code 3.');
    await expect(crashy.getByTestId('server-stderr')).toContainText('crashy: lost its database');

    // ---- 简体中文 -----------------------------------------------------------------------------------
    await settingsSection(page, 'Settings', 'Language');
    await page.getByLabel('Language').selectOption('zh-CN');
    await settingsSection(page, '设置', 'MCP 服务器');
    await expect(gone.getByTestId('server-status')).toHaveText('出错');
    await expect(gone.getByTestId('server-error')).toContainText(`找不到命令 ${script}。请安装它，或填写它的完整路径。`);
    await expect(refuses.getByTestId('server-error')).toContainText('服务器拒绝了握手（JSON-RPC 错误 -32000）。');
    await expect(refuses.getByTestId('server-said-block')).toContainText('服务器原话：');
    // The server's own words stay as it sent them, marked as data.
    await expect(refuses.getByTestId('server-said')).toHaveText('License expired for tenant acme');
    await expect(refuses.getByTestId('server-said')).toHaveAttribute('translate', 'no');
    await expect(crashy.getByTestId('server-error')).toContainText('服务器关闭了连接。');
    await expect(crashy.getByTestId('server-error')).toContainText('进程以代码 3 退出。');
    await expect(crashy.getByTestId('server-recovery')).toContainText('它已连续崩溃 6 次，因此不再自动重启。请排除原因后点击“重启”。');
    await expect(crashy.getByTestId('server-stderr')).toContainText('crashy: lost its database');
    // No English sentence of main's on any card: outside the marked data, only Chinese.
    for (const card of [gone, refuses, crashy]) await expect(card.getByTestId('server-error')).not.toContainText(/Could not|was not found|exited|closed the connection|restarted|sign in/);
    await expectAllChinese(page, ['crashy', 'gone', 'refuses', 'JSON-RPC'], 'settings-server-failures');
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

test.describe('with a Chinese OS locale', () => {
  test.use({ locale: 'zh-CN' });

  test('the UI follows the OS locale; a pick in Settings overrides it and is kept across a reload; System follows the OS again', async ({ page, shell }) => {
    await page.goto('about:blank');
    await page.goto(shell.current.url);
    await expect(page.getByRole('tab', { name: '对话' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: '消息' })).toBeVisible();
    await expect(page.getByRole('button', { name: '+ 新对话' })).toBeVisible();
    // The empty chat's link to the model settings keeps its text inside the button.
    await expect(page.getByRole('button', { name: '设置 → 模型' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');

    await settingsSection(page, '设置', '语言');
    const select = page.getByLabel('语言');
    await expect(select).toHaveValue('system');
    await expect(select.locator('option[value="system"]')).toHaveText('跟随系统（简体中文）');
    await select.selectOption('en');
    await expect(page.getByRole('tab', { name: 'Chat' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Language' })).toBeVisible();

    // The pick is kept: a reload stays in English although the OS asks for Chinese.
    await page.reload();
    await expect(page.getByRole('tab', { name: 'Chat' })).toBeVisible();
    await page.getByRole('tab', { name: 'Settings' }).click();
    await expect(page.locator('.settings-nav').getByRole('button', { name: 'MCP servers', exact: true })).toBeVisible();
    await page.locator('.settings-nav').getByRole('button', { name: 'Language', exact: true }).click();
    await expect(page.getByLabel('Language')).toHaveValue('en');
    await expect(page.getByLabel('Language').locator('option[value="system"]')).toHaveText('System (简体中文)');

    // System: follows the OS (Chinese) again.
    await page.getByLabel('Language').selectOption('system');
    await expect(page.getByRole('tab', { name: '对话' })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('tab', { name: '对话' })).toBeVisible();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'i18n-os-locale.png'), fullPage: true });
  });
});
