/**
 * Secrets through the real UI: a server added with a secret env value shows only a "set" badge
 * after a reload and an app restart; the value is not in mcp_servers.json; editing another field
 * (timeout) through the Edit form keeps the secret; and the server still receives it, checked by
 * a fixture tool that compares a SHA-256 hash (the value itself is never echoed). The notice that
 * secrets are not in a keychain can be hidden for the session, and the forms that take secrets
 * still say it.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { startFakeModel, type FakeModel } from '../fixtures/fake-model.js';
import { ROOT, addLocalServer, commandLine, configureModel, setApprovalMode, expect, expectStatus, openAddServerForm, openApp, openChat, openSettings, sendMessage, serverCard, test, cardAction } from './helpers.js';

const SDK_SERVER = path.join(ROOT, 'test/fixtures/sdk-server.mjs');
const SECRET = 'ghp_e2eCanary_5d1f0a9b8c7e6d5c';
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

let model: FakeModel;
test.beforeEach(async () => {
  model = await startFakeModel();
});
test.afterEach(async () => {
  await model.close();
});

test('a secret env value survives reloads and edits, is only ever shown masked, and still reaches the server', async ({ page, shell }) => {
  await openApp(page, shell.current);
  await configureModel(page, { baseUrl: model.baseUrl, model: 'fake' });
  // Tools here are not what is tested: run them without approval cards.
  await setApprovalMode(page, 'Never ask');
  const card = await addLocalServer(page, { name: 'sec', command: commandLine([process.execPath, SDK_SERVER]), env: [['GITHUB_TOKEN', SECRET]] });
  await expectStatus(card, 'ready');

  // The settings page tells how secrets are stored (here: no keychain, so a visible notice).
  await expect(page.getByTestId('secrets-notice')).toBeVisible();
  // In English too it is a one-line summary by kind; main's specific notice is folded behind Details.
  const notice = page.getByTestId('secrets-notice');
  await expect(notice).toContainText('Secrets are not in an OS keychain.');
  const fold = notice.locator('details.secrets-detail');
  await expect(fold).not.toHaveAttribute('open', '');
  await expect(fold.locator('span[lang="en"]')).toBeHidden();
  await fold.locator('summary').click();
  await expect(fold.locator('span[lang="en"]')).toBeVisible();

  // Reload, then restart the app: only the masked form is shown, never the value.
  await page.reload();
  await shell.restart();
  await openApp(page, shell.current);
  await openSettings(page, 'MCP servers');
  const again = serverCard(page, 'sec');
  await expectStatus(again, 'ready');
  await expect(again.getByText('GITHUB_TOKEN set')).toBeVisible();
  expect(await page.content()).not.toContain(SECRET);
  expect(readFileSync(path.join(shell.stateDir, 'mcp_servers.json'), 'utf8')).not.toContain(SECRET);

  // Edit another field only: the secret input starts empty and is not sent.
  await (await cardAction(again, 'Edit')).click();
  const form = page.getByRole('form', { name: 'Edit sec' });
  await expect(form.getByLabel('New value for GITHUB_TOKEN')).toHaveValue('');
  await form.getByLabel('Edit timeout seconds').fill('45');
  await form.getByRole('button', { name: 'Save and restart' }).click();
  await expect(form).toBeHidden({ timeout: 30_000 });
  await expectStatus(again, 'ready');
  const stored = JSON.parse(readFileSync(path.join(shell.stateDir, 'mcp_servers.json'), 'utf8')) as { servers: { sec: { timeout_seconds: number; env: Record<string, unknown> } } };
  expect(stored.servers.sec.timeout_seconds).toBe(45);
  expect(Object.keys(stored.servers.sec.env)).toEqual(['GITHUB_TOKEN']);

  // The server still receives the value: the fixture compares hashes.
  await openChat(page);
  await sendMessage(page, `call sec__env_check {"name":"GITHUB_TOKEN","sha256":"${sha(SECRET)}"}`);
  const tool = page.getByTestId('tool-card').last();
  await expect(tool.getByTestId('tool-result')).toHaveText('match', { timeout: 30_000 });

  // No file of the state dir holds the value in plain text (the fallback store is named in the notice).
  for (const f of readdirSync(shell.stateDir)) {
    if (f === 'secrets.json' || f === 'secrets.vault') continue;
    const p = path.join(shell.stateDir, f);
    try {
      expect(readFileSync(p, 'utf8'), f).not.toContain(SECRET);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EISDIR') throw err;
    }
  }
});

test('changing a secret through the Edit form replaces it; removing it unsets it', async ({ page, shell }) => {
  await openApp(page, shell.current);
  await configureModel(page, { baseUrl: model.baseUrl, model: 'fake' });
  // Tools here are not what is tested: run them without approval cards.
  await setApprovalMode(page, 'Never ask');
  const card = await addLocalServer(page, { name: 'rot', command: commandLine([process.execPath, SDK_SERVER]), env: [['API_TOKEN', 'old-value-1234567890']] });
  await expectStatus(card, 'ready');

  await (await cardAction(card, 'Edit')).click();
  let form = page.getByRole('form', { name: 'Edit rot' });
  await form.getByLabel('New value for API_TOKEN').fill('new-value-0987654321');
  await form.getByRole('button', { name: 'Save and restart' }).click();
  await expect(form).toBeHidden({ timeout: 30_000 });
  await openChat(page);
  await sendMessage(page, `call rot__env_check {"name":"API_TOKEN","sha256":"${sha('new-value-0987654321')}"}`);
  await expect(page.getByTestId('tool-card').last().getByTestId('tool-result')).toHaveText('match', { timeout: 30_000 });

  await openSettings(page, 'MCP servers');
  await (await cardAction(card, 'Edit')).click();
  form = page.getByRole('form', { name: 'Edit rot' });
  await form.getByRole('button', { name: 'Remove API_TOKEN' }).click();
  await expect(form.getByRole('button', { name: 'Keep API_TOKEN' })).toBeVisible();
  await form.getByRole('button', { name: 'Save and restart' }).click();
  await expect(form).toBeHidden({ timeout: 30_000 });
  await expect(card.getByText('API_TOKEN set')).toHaveCount(0);
  await openChat(page);
  await sendMessage(page, `call rot__env_check {"name":"API_TOKEN","sha256":"x"}`);
  await expect(page.getByTestId('tool-card').last().getByTestId('tool-result')).toHaveText('unset', { timeout: 30_000 });
});

test('the keychain notice can be hidden for the session; the forms where secrets are entered still say it', async ({ page, shell, context }) => {
  await openApp(page, shell.current);
  await page.setViewportSize({ width: 800, height: 900 });
  await openSettings(page, 'MCP servers');
  const notice = page.getByTestId('secrets-notice');
  await expect(notice).toContainText('Secrets are not in an OS keychain.');
  // At 800 px it takes two lines, not three: the sentence flows after its title, Details and Hide beside it.
  const text = notice.locator('.secrets-text');
  const lineCount = await text.evaluate((el) => Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight)));
  expect(lineCount).toBeLessThanOrEqual(2);
  const hide = notice.getByRole('button', { name: 'Hide for now' });
  expect(Math.abs((await hide.boundingBox())!.y - (await text.boundingBox())!.y)).toBeLessThan(6);
  // No form repeats it while the notice shows.
  await openSettings(page, 'Model');
  await expect(page.getByTestId('secrets-form-note')).toHaveCount(0);

  await hide.click();
  await expect(notice).toHaveCount(0);
  // Hidden on every Settings page, and after a reload in this session.
  for (const section of ['MCP servers', 'Model'] as const) {
    await openSettings(page, section);
    await expect(notice).toHaveCount(0);
  }
  await page.reload();
  await openSettings(page, 'MCP servers');
  await expect(notice).toHaveCount(0);
  // Where secrets are entered it is still said: the Add and Edit forms, a model profile's key.
  const add = await openAddServerForm(page);
  await expect(add.getByTestId('secrets-form-note')).toHaveText('Secrets are not in an OS keychain. They are stored unencrypted in an owner-only file in the app data folder: other users cannot read them, but programs running as you can.');
  await add.getByRole('button', { name: 'Cancel' }).click();
  await openSettings(page, 'Model');
  await expect(page.getByLabel('API key').locator('xpath=..').getByTestId('secrets-form-note')).toBeVisible();

  // A new session (another window or tab) shows the notice again.
  const other = await context.newPage();
  await openApp(other, shell.current);
  await openSettings(other, 'MCP servers');
  await expect(other.getByTestId('secrets-notice')).toContainText('Secrets are not in an OS keychain.');
  await other.close();
});
