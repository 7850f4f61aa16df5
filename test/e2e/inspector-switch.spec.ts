/**
 * The protocol inspector's per-server recorder switch in the real UI (docs/ARCHITECTURE.md
 * "Protocol inspector"): a real stdio server's handshake is recorded; switched off, a restart of
 * the server records nothing; the choice holds after a restart of the core; switched back on, the
 * next restart is recorded again.
 */
import path from 'node:path';
import type { Page } from '@playwright/test';
import { BASH_SERVER, SCREENSHOTS, addLocalServer, cardAction, commandLine, expect, expectStatus, openApp, openSettings, serverCard, test } from './helpers.js';

const inspector = (page: Page) => page.getByRole('dialog', { name: 'Protocol inspector — bash' });

async function openInspector(page: Page) {
  await (await cardAction(serverCard(page, 'bash'), 'Inspector', { exact: true })).click();
  const dialog = inspector(page);
  await expect(dialog).toBeVisible();
  return dialog;
}

async function restartServer(page: Page) {
  const card = serverCard(page, 'bash');
  await (await cardAction(card, 'Restart', { exact: true })).click();
  await expectStatus(card, 'ready');
}

test('switching the recorder off for one server keeps its messages out, across a restart of the core; on again records', async ({ page, shell }) => {
  await openApp(page, shell.current);
  const card = await addLocalServer(page, { name: 'bash', command: commandLine(['bash', BASH_SERVER]) });
  await expectStatus(card, 'ready');

  let dialog = await openInspector(page);
  const record = dialog.getByTestId('inspector-recording');
  await expect(record).toBeChecked();
  await expect(dialog.locator('[data-testid="inspector-message"][data-method="initialize"]').first()).toBeVisible();

  // ---- Off: cleared, and a restart of the server records nothing ---------------------------------
  await dialog.getByRole('checkbox', { name: 'Record this server' }).uncheck();
  await expect(record).not.toBeChecked();
  await expect(dialog.getByTestId('inspector-off')).toBeVisible();
  await dialog.getByRole('button', { name: 'Clear' }).click();
  await expect(dialog.getByTestId('inspector-empty')).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await restartServer(page);
  dialog = await openInspector(page);
  await expect(dialog.getByTestId('inspector-empty')).toHaveText('No messages recorded yet.');
  await page.screenshot({ path: path.join(SCREENSHOTS, 'inspector-recording-off.png'), fullPage: true });
  await dialog.getByRole('button', { name: 'Close' }).click();

  // ---- The core restarts (the server with it): still off, still nothing ------------------------------
  await shell.restart();
  await openApp(page, shell.current);
  await openSettings(page, 'MCP servers');
  await expectStatus(serverCard(page, 'bash'), 'ready');
  dialog = await openInspector(page);
  await expect(dialog.getByTestId('inspector-recording')).not.toBeChecked();
  await expect(dialog.getByTestId('inspector-empty')).toBeVisible();

  // ---- On again: the next restart of the server is recorded ------------------------------------------
  await dialog.getByRole('checkbox', { name: 'Record this server' }).check();
  await expect(dialog.getByTestId('inspector-off')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await restartServer(page);
  dialog = await openInspector(page);
  await expect(dialog.locator('[data-testid="inspector-message"][data-method="initialize"]').first()).toBeVisible();
});
