/**
 * The app asks in its own confirmation (components/ConfirmAsk.tsx), never the browser's
 * `confirm()`: removing a model profile (its stored key named only when it has one) and exporting
 * the servers with their secrets each wait for the user's yes in an `alertdialog` whose Cancel has
 * the focus; Cancel and Escape change nothing.
 * Real core through the browser shell, real Chromium.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { BASH_SERVER, expect, openApp, openSettings, saveProfile, serverCard, test } from './helpers.js';

process.env.OPENPROGRAM_LOCAL_MODEL_PROBES = 'none';

/** Count the browser's own dialogs (each dismissed): the app must open none. */
function countNativeDialogs(page: Page): () => number {
  let n = 0;
  page.on('dialog', (d) => {
    n++;
    void d.dismiss();
  });
  return () => n;
}

/** The files the app wrote to `<state dir>/exports`. */
function exportedFiles(stateDir: string): string[] {
  const dir = path.join(stateDir, 'exports');
  return existsSync(dir) ? readdirSync(dir).map((f) => path.join(dir, f)) : [];
}

test('removing a model profile asks first in the app: Cancel and Escape keep it, Remove removes it', async ({ page, shell }) => {
  await openApp(page, shell.current);
  const nativeDialogs = countNativeDialogs(page);
  await saveProfile(page, { name: 'Main', baseUrl: 'http://127.0.0.1:9/v1', model: 'm-main', apiKey: 'sk-main-0123456789' });
  await saveProfile(page, { name: 'Spare', baseUrl: 'http://127.0.0.1:9/v1', model: 'm-spare', asNew: true });
  const row = page.getByTestId('profile-Spare');
  const remove = row.getByRole('button', { name: 'Remove' });
  // Spare has no stored key: the question does not speak of one.
  const ask = row.getByRole('alertdialog', { name: 'Remove the profile “Spare”?' });

  // Cancel: the question goes, the profile stays, the focus is back on Remove.
  await remove.click();
  await expect(ask).toBeVisible();
  await expect(ask).toContainText('Remove the profile “Spare”?');
  await expect(ask).not.toContainText('key');
  await expect(ask.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(ask).toHaveCount(0);
  await expect(remove).toBeFocused();
  await expect(row).toBeVisible();

  // Escape keeps it too.
  await remove.click();
  await expect(ask).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(ask).toHaveCount(0);
  await expect(row).toBeVisible();

  // Main has a stored key: the question says it goes too.
  const mainRow = page.getByTestId('profile-Main');
  await mainRow.getByRole('button', { name: 'Remove' }).click();
  const askMain = mainRow.getByRole('alertdialog', { name: 'Remove the profile “Main” and its stored key?' });
  await expect(askMain).toBeVisible();
  await askMain.getByRole('button', { name: 'Cancel' }).click();
  await expect(askMain).toHaveCount(0);

  // Still there after a reload: nothing was removed in main.
  await openApp(page, shell.current);
  await openSettings(page, 'Model');
  await expect(page.getByTestId('profile-Spare')).toBeVisible();

  // Confirmed: gone, and still gone after a reload; the other profile stays.
  await page.getByTestId('profile-Spare').getByRole('button', { name: 'Remove' }).click();
  await page.getByTestId('profile-Spare').getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByTestId('profile-Spare')).toHaveCount(0);
  await expect(page.getByTestId('profile-Main')).toBeVisible();
  await openApp(page, shell.current);
  await openSettings(page, 'Model');
  await expect(page.getByTestId('profile-Main')).toBeVisible();
  await expect(page.getByTestId('profile-Spare')).toHaveCount(0);
  expect(nativeDialogs()).toBe(0);
});

test('in 简体中文 the question names the stored key only when the profile has one', async ({ page, shell }) => {
  await openApp(page, shell.current);
  await saveProfile(page, { name: 'Main', baseUrl: 'http://127.0.0.1:9/v1', model: 'm-main', apiKey: 'sk-main-0123456789' });
  await saveProfile(page, { name: 'Spare', baseUrl: 'http://127.0.0.1:9/v1', model: 'm-spare', asNew: true });
  await page.getByRole('tab', { name: 'Settings' }).click();
  await page.locator('.settings-nav').getByRole('button', { name: 'Language', exact: true }).click();
  await page.getByLabel('Language').selectOption('zh-CN');
  await page.locator('.settings-nav').getByRole('button', { name: '模型', exact: true }).click();
  for (const [name, question] of [
    ['Spare', '要移除配置“Spare”吗？'],
    ['Main', '要移除配置“Main”及其保存的密钥吗？'],
  ] as const) {
    const row = page.getByTestId(`profile-${name}`);
    await row.getByRole('button', { name: '移除' }).click();
    const ask = row.getByRole('alertdialog', { name: question });
    await expect(ask).toBeVisible();
    await ask.getByRole('button', { name: '取消' }).click();
    await expect(ask).toHaveCount(0);
  }
});

test('exporting the servers with their secrets writes the file only after the user confirms in the app', async ({ page, shell }) => {
  const secret = 'tok-export-0123456789';
  writeFileSync(
    path.join(shell.stateDir, 'mcp_servers.json'),
    JSON.stringify({ servers: { files: { type: 'local', command: ['bash', BASH_SERVER], env: { API_TOKEN: secret }, enabled: false } } }),
  );
  await shell.restart();
  await openApp(page, shell.current);
  const nativeDialogs = countNativeDialogs(page);
  await openSettings(page, 'MCP servers');
  await expect(serverCard(page, 'files')).toBeVisible();
  await page.getByRole('button', { name: 'Import / export' }).click();
  const box = page.getByTestId('import-export');
  const exportSecrets = box.getByRole('button', { name: 'Export with secrets…' });
  const ask = box.getByRole('alertdialog', { name: 'Write a file that contains your secrets in plain text?' });

  // Cancel: no file, no notice, the focus back on the button.
  await exportSecrets.click();
  await expect(ask).toBeVisible();
  await expect(ask.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(ask).toHaveCount(0);
  await expect(exportSecrets).toBeFocused();
  // Escape: the same.
  await exportSecrets.click();
  await expect(ask).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(ask).toHaveCount(0);
  await expect(box.getByText('Written to')).toHaveCount(0);
  expect(exportedFiles(shell.stateDir)).toEqual([]);

  // Confirmed: the file is written and named; it holds the secret, which the window never shows.
  await exportSecrets.click();
  await ask.getByRole('button', { name: 'Write the file' }).click();
  await expect(ask).toHaveCount(0);
  await expect(box.getByText('Written to')).toBeVisible();
  const files = exportedFiles(shell.stateDir);
  expect(files).toHaveLength(1);
  await expect(box).toContainText(files[0]!);
  expect(readFileSync(files[0]!, 'utf8')).toContain(secret);
  await expect(page.getByText(secret)).toHaveCount(0);
  expect(nativeDialogs()).toBe(0);
});
