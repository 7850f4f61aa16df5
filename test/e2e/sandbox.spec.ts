/**
 * The local-server sandbox in the window (docs/ARCHITECTURE.md "Sandbox"), against real
 * bubblewrap: a hostile probe server is added through the form and shows "Sandboxed" and its
 * policy; its read of a file outside its folders fails and the card says "Blocked reading …";
 * "Allow for this server" restarts it with that file readable and the read works; turning the
 * sandbox off in the edit form asks first and the card then says "Unsandboxed".
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startFakeModel, type FakeModel } from '../fixtures/fake-model.js';
import { ROOT, SCREENSHOTS, addLocalServer, commandLine, configureModel, expect, expectStatus, openChat, openApp, openSettings, sendMessage, serverCard, setApprovalMode, tempDir, test, cardAction } from './helpers.js';

const PROBE = path.join(ROOT, 'test/fixtures/sandbox-probe-server.mjs');

test.describe('Sandbox', () => {
  let model: FakeModel;
  test.use({ colorScheme: 'light', viewport: { width: 1440, height: 900 } });
  test.afterEach(async () => {
    await model?.close();
  });

  test('a sandboxed server: badge and policy, a blocked read allowed from the card, the sandbox turned off with confirmation', async ({ page, shell }) => {
    test.setTimeout(150_000);
    const outside = tempDir('sandbox-outside');
    const secret = path.join(outside, 'secret.txt');
    writeFileSync(secret, 'outside-content');
    model = await startFakeModel();
    await openApp(page, shell.current);
    await configureModel(page, { baseUrl: model.baseUrl, model: 'fake-probe' });
    await setApprovalMode(page, 'Never ask');

    const card = await addLocalServer(page, { name: 'probe', command: commandLine([process.execPath, PROBE]) });
    await expectStatus(card, 'ready');
    const sandbox = card.getByTestId('sandbox-card');
    await expect(sandbox.getByTestId('sandbox-badge')).toHaveText('Sandboxed');
    await sandbox.getByText('What it may do').click();
    const policy = sandbox.getByTestId('sandbox-policy');
    await expect(policy.getByTestId('sandbox-policy-read')).toContainText('/usr');
    await expect(policy.getByTestId('sandbox-policy-read')).toContainText(ROOT);
    await expect(policy.getByTestId('sandbox-policy-deny')).toContainText('/etc/shadow');
    await expect(policy.getByTestId('sandbox-policy-hosts')).toHaveText('none (no network)');
    await expect(policy.getByTestId('sandbox-policy-read')).not.toContainText(outside);

    // The read outside its folders fails, and the card says what was blocked.
    const read = `call __probe ${JSON.stringify({ op: 'read', target: secret })}`;
    await openChat(page);
    await sendMessage(page, read);
    await expect(page.getByTestId('tool-card').first().getByTestId('tool-result')).toHaveText(/^error ENOENT/);
    await openSettings(page, 'MCP servers');
    const denial = card.getByTestId('sandbox-denial');
    await expect(denial).toHaveCount(1);
    await expect(denial).toContainText(`Blocked reading ${secret}`);
    await expect(denial).toHaveAttribute('data-kind', 'read');
    mkdirSync(SCREENSHOTS, { recursive: true });
    await sandbox.getByText('What it may do').click();
    await card.screenshot({ path: path.join(SCREENSHOTS, 'sandbox-card.png') });

    // Allow it: main restarts the server with the file readable; the denial goes with the old process.
    // Allow says exactly what it grants and asks once more.
    await denial.getByRole('button', { name: 'Allow for this server' }).click();
    const confirm = denial.getByTestId('sandbox-allow-confirm');
    await expect(confirm).toContainText(`Let probe read ${secret}? It restarts with that access.`);
    await confirm.getByRole('button', { name: 'Allow reading' }).click();
    await expect(denial).toHaveCount(0, { timeout: 30_000 });
    await expectStatus(card, 'ready');
    await expect(policy.getByTestId('sandbox-policy-read')).toContainText(secret);
    await openChat(page);
    await sendMessage(page, read);
    await expect(page.getByTestId('tool-card')).toHaveCount(2);
    await expect(page.getByTestId('tool-card').nth(1).getByTestId('tool-result')).toHaveText('ok outside-content');

    // A path the sandbox never shows (the app's own state folder) is blocked with no Allow: no setting could grant it.
    await sendMessage(page, `call __probe ${JSON.stringify({ op: 'read', target: path.join(shell.stateDir, 'mcp_servers.json') })}`);
    await expect(page.getByTestId('tool-card').nth(2).getByTestId('tool-result')).toHaveText(/^error ENOENT/);
    await openSettings(page, 'MCP servers');
    const never = card.getByTestId('sandbox-denial');
    await expect(never).toHaveCount(1);
    await expect(never).toHaveAttribute('data-grantable', 'false');
    await expect(never).toContainText('never visible to servers');
    await expect(never.getByRole('button')).toHaveCount(0);

    // Turning the sandbox off asks first, in the page; "Keep it sandboxed" keeps it on.
    await openSettings(page, 'MCP servers');
    await (await cardAction(card, 'Edit')).click();
    const form = page.getByRole('form', { name: 'Edit probe' });
    await expect(form.getByLabel('Extra read folders')).toHaveValue(secret);
    const toggle = form.getByRole('switch', { name: 'Run in the sandbox' });
    await toggle.click();
    const ask = form.getByRole('alertdialog');
    await expect(ask).toContainText('full rights');
    await form.screenshot({ path: path.join(SCREENSHOTS, 'sandbox-form-confirm.png') });
    await ask.getByRole('button', { name: 'Keep it sandboxed' }).click();
    await expect(toggle).toBeChecked();
    await toggle.click();
    await form.getByRole('alertdialog').getByRole('button', { name: 'Turn the sandbox off' }).click();
    await expect(toggle).not.toBeChecked();
    await form.getByRole('button', { name: 'Save and restart' }).click();
    await expect(form).toBeHidden({ timeout: 30_000 });
    await expectStatus(card, 'ready');
    await expect(sandbox.getByTestId('sandbox-badge')).toHaveText('Unsandboxed');
    await expect(sandbox).toContainText('full rights');
    await expect(sandbox.getByTestId('sandbox-policy')).toHaveCount(0);
    await expect(card.getByTestId('sandbox-denial')).toHaveCount(0);
    await card.screenshot({ path: path.join(SCREENSHOTS, 'sandbox-card-off.png') });
    // Unsandboxed, the server reads whatever the user can.
    const other = path.join(outside, 'other.txt');
    writeFileSync(other, 'unsandboxed-content');
    await openChat(page);
    await sendMessage(page, `call __probe ${JSON.stringify({ op: 'read', target: other })}`);
    await expect(page.getByTestId('tool-card').nth(3).getByTestId('tool-result')).toHaveText('ok unsandboxed-content');
  });

  test('the form refuses a bad host beside its field, and a new server can start with extra folders', async ({ page, shell }) => {
    const extra = tempDir('sandbox-extra');
    await openApp(page, shell.current);
    await openSettings(page, 'MCP servers');
    await page.getByRole('button', { name: 'Add server' }).click();
    const form = page.getByRole('form', { name: 'Add server' });
    await form.getByLabel('Server name').fill('probe2');
    await form.getByLabel('Command').fill(commandLine([process.execPath, PROBE]));
    const sandbox = form.getByTestId('sandbox-fields');
    await sandbox.getByLabel('Allowed hosts').fill('api.example.com\nnot a host');
    await form.getByRole('button', { name: 'Add server' }).click();
    await expect(sandbox.getByRole('alert')).toContainText('“not a host” is not a host name');
    await expect(form).toBeVisible();
    await sandbox.getByLabel('Allowed hosts').fill('api.example.com');
    await sandbox.getByLabel('Extra write folders').fill(extra);
    await form.getByRole('button', { name: 'Add server' }).click();
    await expect(form).toBeHidden();
    const card = serverCard(page, 'probe2');
    await expectStatus(card, 'ready');
    await card.getByText('What it may do').click();
    await expect(card.getByTestId('sandbox-policy-write')).toContainText(extra);
    await expect(card.getByTestId('sandbox-policy-hosts')).toHaveText('api.example.com');
  });
});
