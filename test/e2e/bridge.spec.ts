/**
 * The browser shell's bridge: when the app core goes away, the page says so at once and actions
 * fail with a clear message instead of hanging; a page opened without its token explains what to
 * do.
 */
import { expect, openApp, openSettings, test } from './helpers.js';

test('a stopped app core is shown at once; actions fail with a clear message, never hang', async ({ page, shell }) => {
  await openApp(page, shell.current);
  await openSettings(page, 'Model');
  await shell.current.stop();
  await expect(page.getByTestId('bridge-lost')).toBeVisible({ timeout: 10_000 });
  await page.getByLabel('Base URL').fill('http://127.0.0.1:1/v1');
  await page.getByLabel('Model name').fill('m');
  await page.getByRole('button', { name: 'Save model' }).click();
  await expect(page.getByRole('status')).toContainText('Lost the connection to the app core', { timeout: 5000 });
});

test('a page opened without the token explains how to open it', async ({ page, shell }) => {
  await page.goto(shell.current.url.replace(/#.*$/, ''));
  await expect(page.getByRole('alert').first()).toContainText('open the link that npm run web printed');
});

test('after a core restart, a tab with the old token says plainly what to do instead of spinning', async ({ page, shell }) => {
  await openApp(page, shell.current);
  await openSettings(page, 'Model');
  await shell.restart({ samePort: true });
  const stale = page.getByTestId('bridge-stale');
  await expect(stale).toBeVisible({ timeout: 15_000 });
  await expect(stale).toContainText('Open the new link that npm run web printed');
  await expect(stale).toContainText('it shows what that core has saved');
  // It stays that way (no endless "Reconnecting…"), and shows no empty lists that look like loss.
  await page.waitForTimeout(3000);
  await expect(page.getByTestId('bridge-lost')).toHaveCount(0);
  await expect(stale).toBeVisible();
  await expect(page.getByText('Nothing is shown here until you open the new link.')).toBeVisible();
  // The new link works.
  await openApp(page, shell.current);
  await expect(page.getByTestId('bridge-stale')).toHaveCount(0);
});

test('after a core restart, pasting the new link into the old tab (only the #token changes) brings it back', async ({ page, shell }) => {
  await openApp(page, shell.current);
  await openSettings(page, 'Model');
  await shell.restart({ samePort: true });
  await expect(page.getByTestId('bridge-stale')).toBeVisible({ timeout: 15_000 });
  // The same document, a new fragment: what pasting the link into the address bar does.
  const before = await page.evaluate(() => performance.timeOrigin);
  await page.evaluate((url) => {
    location.href = url;
  }, shell.current.url);
  await expect(page.getByTestId('bridge-stale')).toHaveCount(0, { timeout: 10_000 });
  expect(await page.evaluate(() => performance.timeOrigin)).not.toBe(before);
  // The app works: the settings load and a save goes through to the new core.
  await openSettings(page, 'Model');
  await page.getByLabel('Base URL').fill('http://127.0.0.1:1/v1');
  await page.getByLabel('Model name').fill('after-restart');
  await page.getByRole('button', { name: 'Save model' }).click();
  await expect(page.getByRole('status')).toHaveText('Saved.');
  // The token does not stay in the address bar.
  expect(page.url()).not.toContain('token=');
});
