/**
 * Tool permissions in Settings, through the real UI in Chromium against the real core and a real
 * server-filesystem: per-tool Enabled and approval choices are saved in mcp_servers.json and
 * survive a core restart; a disabled tool is absent from the model request's `tools`; the default
 * mode is chosen in Settings → Tool permissions; the import preview shows other hosts' keys
 * (Cline's disabledTools / alwaysAllow) and the import applies them.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { startFakeModel, type WireRequest } from '../fixtures/fake-model.js';
import { FS_SERVER, SCREENSHOTS, addLocalServer, commandLine, configureModel, expect, expectStatus, openApp, openChat, openSettings, sendMessage, serverCard, tempDir, test } from './helpers.js';

function storedTools(stateDir: string, server: string): unknown {
  const doc = JSON.parse(readFileSync(path.join(stateDir, 'mcp_servers.json'), 'utf8')) as { servers: Record<string, { tools?: unknown }> };
  return doc.servers[server]?.tools;
}

async function openToolPermissions(page: Page): Promise<void> {
  await page.getByRole('tab', { name: 'Settings' }).click();
  await page.locator('.settings-nav').getByRole('button', { name: 'Tool permissions', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Tool permissions', exact: true })).toBeVisible();
}

test('per-tool settings: disable a tool and always-allow another; saved, survive a core restart, and the disabled tool is not offered to the model', async ({ page, shell }) => {
  const work = tempDir('perm-files');
  writeFileSync(path.join(work, 'a.txt'), 'hello');
  const model = await startFakeModel();
  try {
    await openApp(page, shell.current);
    await configureModel(page, { baseUrl: model.baseUrl, model: 'fake' });
    const card = await addLocalServer(page, { name: 'files', command: commandLine(['node', FS_SERVER, work]) });
    await expectStatus(card, 'ready');
    await card.getByRole('button', { name: 'Tools' }).click();
    const panel = card.getByTestId('tool-permissions');
    await expect(panel).toContainText('Servers declare these hints');
    const write = panel.getByTestId('tool-write_file');
    await expect(write.getByTestId('tool-annotations')).toContainText('destructive');
    await expect(panel.getByTestId('tool-read_text_file').getByTestId('tool-annotations')).toContainText('read-only');

    // The switches are controlled by main's answer: click, then wait for the saved state.
    await write.getByLabel('Enable tool write_file').click();
    await expect(write.getByLabel('Enable tool write_file')).not.toBeChecked();
    await expect(write).toHaveClass(/disabled/);
    await panel.getByLabel('Approval for create_directory').selectOption('always_allow');
    await expect(panel.getByLabel('Approval for create_directory')).toHaveValue('always_allow');
    await expect.poll(() => storedTools(shell.stateDir, 'files')).toEqual({ write_file: { enabled: false }, create_directory: { approval: 'always_allow' } });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'tool-permissions.png'), fullPage: true });

    // The model's request offers every tool but the disabled one.
    await openChat(page);
    const n = model.requests.length;
    await sendMessage(page, 'hello');
    await expect(page.getByTestId('msg-assistant')).toHaveText('echo: hello');
    const offered = model.requests[n]!.body.tools!.map((t) => t.function.name);
    expect(offered).toContain('files__read_text_file');
    expect(offered).toContain('files__create_directory');
    expect(offered).not.toContain('files__write_file');

    // Default mode in Settings → Tool permissions.
    await openToolPermissions(page);
    await expect(page.getByRole('radio', { name: 'Ask unless the tool is read-only (default)' })).toBeChecked();
    await expect(page.getByTestId('permission-settings')).toContainText('Servers declare these hints');
    await page.getByRole('radio', { name: 'Ask for every tool call' }).click();
    await expect(page.getByRole('radio', { name: 'Ask for every tool call' })).toBeChecked();
    await expect.poll(() => JSON.parse(readFileSync(path.join(shell.stateDir, 'permissions.json'), 'utf8')) as unknown).toEqual({ mode: 'ask_all' });

    // ---- Restart the core on the same state dir ----------------------------------------------
    await shell.restart();
    await openApp(page, shell.current);
    await openSettings(page, 'MCP servers');
    const again = serverCard(page, 'files');
    await expectStatus(again, 'ready');
    await again.getByRole('button', { name: 'Tools' }).click();
    await expect(again.getByLabel('Enable tool write_file')).not.toBeChecked();
    await expect(again.getByLabel('Enable tool read_text_file')).toBeChecked();
    await expect(again.getByLabel('Approval for create_directory')).toHaveValue('always_allow');
    await openToolPermissions(page);
    await expect(page.getByRole('radio', { name: 'Ask for every tool call' })).toBeChecked();

    // Still not offered after the restart; re-enabling offers it again.
    await openChat(page);
    const m = model.requests.length;
    await sendMessage(page, 'again');
    await expect(page.getByTestId('msg-assistant').last()).toHaveText('echo: again');
    expect(model.requests[m]!.body.tools!.map((t) => t.function.name)).not.toContain('files__write_file');

    await openSettings(page, 'MCP servers');
    const c3 = serverCard(page, 'files');
    await c3.getByRole('button', { name: 'Tools' }).click();
    await c3.getByRole('button', { name: 'Enable all' }).click();
    await expect(c3.getByLabel('Enable tool write_file')).toBeChecked();
    await expect.poll(() => storedTools(shell.stateDir, 'files')).toEqual({ create_directory: { approval: 'always_allow' } });
    await c3.getByRole('button', { name: 'Always allow read-only tools' }).click();
    await expect(c3.getByLabel('Approval for read_text_file')).toHaveValue('always_allow');
    await expect(c3.getByLabel('Approval for write_file')).toHaveValue('default');
  } finally {
    await model.close();
  }
});

test('import: the preview shows a Cline-style entry’s disabledTools and alwaysAllow, and the import applies them', async ({ page, shell }) => {
  const work = tempDir('perm-import');
  const model = await startFakeModel();
  try {
    await openApp(page, shell.current);
    await openSettings(page, 'MCP servers');
    await page.getByRole('button', { name: 'Import / export' }).click();
    const box = page.getByTestId('import-export');
    const json = JSON.stringify({
      mcpServers: {
        cline: { command: 'node', args: [FS_SERVER, work], disabled: false, disabledTools: ['write_file', 'move_file'], alwaysAllow: ['read_text_file'], autoApprove: true },
      },
    });
    await box.getByLabel('Import JSON').fill(json);
    await box.getByRole('button', { name: 'Preview' }).click();
    const preview = box.getByTestId('import-preview');
    await expect(preview.getByTestId('preview-disabled-tools')).toContainText('write_file, move_file');
    await expect(preview.getByTestId('preview-always-allow')).toContainText('read_text_file');
    await expect(preview.getByTestId('preview-unmapped')).toContainText('autoApprove');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'import-permissions.png'), fullPage: true });
    await box.getByRole('button', { name: /^Import 1 server/ }).click();
    await expect(box.getByTestId('import-result')).toContainText('Added: cline');

    expect(storedTools(shell.stateDir, 'cline')).toEqual({ write_file: { enabled: false }, move_file: { enabled: false }, read_text_file: { approval: 'always_allow' } });
    const card = serverCard(page, 'cline');
    await expectStatus(card, 'ready');
    await card.getByRole('button', { name: 'Tools' }).click();
    await expect(card.getByLabel('Enable tool write_file')).not.toBeChecked();
    await expect(card.getByLabel('Enable tool move_file')).not.toBeChecked();
    await expect(card.getByLabel('Approval for read_text_file')).toHaveValue('always_allow');

    // They take effect: the disabled tools are not offered to the model.
    await configureModel(page, { baseUrl: model.baseUrl, model: 'fake' });
    await openChat(page);
    await sendMessage(page, 'hi');
    await expect(page.getByTestId('msg-assistant')).toHaveText('echo: hi');
    const offered = (model.requests.at(-1)!.body as WireRequest).tools!.map((t) => t.function.name);
    expect(offered).toContain('cline__read_text_file');
    expect(offered).not.toContain('cline__write_file');
    expect(offered).not.toContain('cline__move_file');
  } finally {
    await model.close();
  }
});
