/**
 * Managing MCP servers from Settings, and chat controls: the Add form's validation (nothing is
 * saved on bad input; a refusal far above the button is brought into view), a failing server's visible error, enable/disable, restart, remove, the
 * hand-written bash stdio server used from chat, and Stop during a streamed answer.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { splitCommandLine } from '../../renderer/src/commandLine.js';
import { startFakeModel, type FakeModel } from '../fixtures/fake-model.js';
import { BASH_SERVER, FS_SERVER, SCREENSHOTS, addLocalServer, commandLine, configureModel, setApprovalMode, expect, expectStatus, openAddServerForm, openApp, openChat, openSettings, sendMessage, serverCard, submitLocalServer, tempDir, test, cardAction } from './helpers.js';

/** Names in the persisted config file (empty when there is none yet). */
function storedNames(stateDir: string): string[] {
  const file = path.join(stateDir, 'mcp_servers.json');
  if (!existsSync(file)) return [];
  return Object.keys((JSON.parse(readFileSync(file, 'utf8')) as { servers: Record<string, unknown> }).servers ?? {});
}

/** The names of every server card shown. */
async function shownServers(page: Page): Promise<string[]> {
  const ids = await page.locator('[data-testid^="server-"][data-status]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!));
  return ids.map((id) => id.replace(/^server-/, ''));
}

/** Start recording every `data-status` a server card takes (to see transient states). */
async function recordStatuses(page: Page, name: string): Promise<() => Promise<string[]>> {
  await page.evaluate((n) => {
    const w = window as unknown as { __statuses: Record<string, string[]> };
    w.__statuses ??= {};
    const seen: string[] = (w.__statuses[n] = []);
    const sel = `[data-testid="server-${n}"]`;
    const note = (): void => {
      const s = document.querySelector(sel)?.getAttribute('data-status') ?? 'absent';
      if (seen[seen.length - 1] !== s) seen.push(s);
    };
    note();
    new MutationObserver(note).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-status'] });
  }, name);
  return () => page.evaluate((n) => (window as unknown as { __statuses: Record<string, string[]> }).__statuses[n]!, name);
}

const bashCommand = commandLine(['bash', BASH_SERVER]);

test.describe('Add-server form', () => {
  let dir: string;
  test.beforeEach(() => {
    dir = tempDir('fs');
  });
  test.afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  test('rejects bad input inline and saves nothing', async ({ page, shell }) => {
    await openApp(page, shell.current);
    await openSettings(page, 'MCP servers');
    await expect(page.getByText('No servers yet')).toBeVisible();

    // Empty name.
    let form = await openAddServerForm(page);
    await form.getByLabel('Command').fill(bashCommand);
    await form.getByRole('button', { name: 'Add server' }).click();
    await expect(form.getByRole('alert')).toHaveText('Name is required.');
    await expect(form.getByLabel('Server name')).toHaveAttribute('aria-invalid', 'true');

    // Empty command.
    await form.getByLabel('Server name').fill('nocmd');
    await form.getByLabel('Command').fill('   ');
    await form.getByRole('button', { name: 'Add server' }).click();
    await expect(form.getByRole('alert')).toHaveText('Command is required.');

    // A name that is not allowed.
    await form.getByLabel('Server name').fill('bad name!');
    await form.getByLabel('Command').fill(bashCommand);
    await form.getByRole('button', { name: 'Add server' }).click();
    await expect(form.getByRole('alert')).toContainText('Use letters, digits');
    await form.getByRole('button', { name: 'Cancel' }).click();
    await expect(form).toBeHidden();

    // One good server, so that a duplicate can be tried.
    const files = await addLocalServer(page, { name: 'files', command: commandLine(['node', FS_SERVER, dir]) });
    await expectStatus(files, 'ready');

    // Duplicate name.
    form = await submitLocalServer(page, { name: 'files', command: bashCommand });
    await expect(form.getByRole('alert')).toHaveText('A server named "files" already exists.');
    await expect(page.locator('[data-testid="server-files"]')).toHaveCount(1);

    // A command that does not exist: rejected by main, shown inline under the command.
    await form.getByLabel('Server name').fill('ghost');
    await form.getByLabel('Command').fill('definitely-not-a-command-e2e --flag');
    await form.getByRole('button', { name: 'Add server' }).click();
    const commandError = form.locator('.field').filter({ has: page.getByLabel('Command') }).getByRole('alert');
    await expect(commandError).toContainText('not found');
    await expect(commandError).toContainText('definitely-not-a-command-e2e');
    await expect(form).toBeVisible(); // the form stays open with the input kept
    await expect(form.getByLabel('Command')).toHaveValue('definitely-not-a-command-e2e --flag');

    // An invalid environment variable name.
    await form.getByLabel('Server name').fill('badenv');
    await form.getByLabel('Command').fill(bashCommand);
    await form.getByRole('button', { name: '+ Add variable' }).click();
    await form.getByLabel('Variable name 1').fill('1BAD');
    await form.getByLabel('Variable value 1').fill('x');
    await form.getByRole('button', { name: 'Add server' }).click();
    await expect(form.getByRole('alert')).toContainText('Not a valid variable name: 1BAD');
    await form.getByRole('button', { name: 'Cancel' }).click();

    // Nothing of that was saved: not shown, not in the file, and not after a reload either.
    expect(await shownServers(page)).toEqual(['files']);
    expect(storedNames(shell.stateDir)).toEqual(['files']);
    await openApp(page, shell.current);
    await openSettings(page, 'MCP servers');
    await expectStatus(serverCard(page, 'files'), 'ready');
    expect(await shownServers(page)).toEqual(['files']);
    await expect(serverCard(page, 'ghost')).toHaveCount(0);
    await expect(serverCard(page, 'badenv')).toHaveCount(0);
  });
});

test.describe('Add-server form at 800 px', () => {
  test.use({ viewport: { width: 800, height: 900 } });

  test('a refused submit brings the first problem into view and focuses its field; the message is not repeated', async ({ page, shell }) => {
    await openApp(page, shell.current);
    await openSettings(page, 'MCP servers');
    const form = await openAddServerForm(page);
    const body = page.locator('.settings-body');
    const submitFromBottom = async (): Promise<void> => {
      // The user scrolled down to the button, far below the fields.
      await body.evaluate((el) => el.scrollTo(0, el.scrollHeight));
      await form.getByRole('button', { name: 'Add server' }).click();
    };

    // Refused in the window: the empty name, at the top of the form.
    await form.getByLabel('Command').fill('definitely-not-a-command-e2e --flag');
    await body.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await expect(form.getByLabel('Server name')).not.toBeInViewport();
    await submitFromBottom();
    await expect(form.getByLabel('Server name')).toBeFocused();
    await expect(form.getByLabel('Server name')).toBeInViewport();
    await expect(form.getByText('Name is required.')).toBeInViewport();

    // Refused by main: the command is not found on PATH.
    await form.getByLabel('Server name').fill('ghost');
    await body.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await expect(form.getByLabel('Command')).not.toBeInViewport();
    await submitFromBottom();
    const message = form.getByRole('alert').filter({ hasText: 'definitely-not-a-command-e2e' });
    await expect(message).toHaveCount(1);
    await expect(message).toBeInViewport();
    await expect(form.getByLabel('Command')).toBeFocused();
    await expect(form.getByLabel('Command')).toBeInViewport();
    // One copy of the message: beside its field, nowhere else on the page.
    await expect(page.getByText(/definitely-not-a-command-e2e.*not found|not found.*definitely-not-a-command-e2e/)).toHaveCount(1);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'add-server-refused-800.png') });
  });
});

test.describe('Server lifecycle', () => {
  test('a failing command shows error with its stderr', async ({ page, shell }) => {
    await openApp(page, shell.current);
    const card = await addLocalServer(page, {
      name: 'broken',
      command: commandLine(['node', '-e', "console.error('boom-stderr'); process.exit(2)"]),
    });
    await expectStatus(card, 'error');
    // The shown command line reads back to the stored argv (quotes kept where needed).
    expect(splitCommandLine((await card.locator('.server-meta').textContent()) ?? '')).toEqual(['node', '-e', "console.error('boom-stderr'); process.exit(2)"]);
    await expect(card.locator('.status-dot')).toHaveClass(/\berror\b/);
    const error = card.getByTestId('server-error');
    await expect(error).toContainText('boom-stderr');
    await expect(error).toContainText(/exited|closed/i);
    // The server exits on the protocol probe and again on the older-handshake retry; its stderr
    // line is shown once (the latest process's), not once per attempt.
    const stderrShown = (await card.locator('pre[data-testid="server-stderr"]').textContent()) ?? '';
    expect(stderrShown.split('boom-stderr').length - 1).toBe(1);
    await expect(card).not.toContainText(/\d+ tools/);
    // Its one primary action is Restart (in view, not in the menu); Tools stays, plain.
    const restart = card.locator('.server-actions > button', { hasText: 'Restart' });
    await expect(restart).toHaveClass(/primary-quiet/);
    await expect(card.locator('.server-actions > button', { hasText: 'Tools' })).not.toHaveClass(/primary/);
    await restart.click();
    await expectStatus(card, 'error');
    await expect(card.getByTestId('server-error')).toContainText('boom-stderr');
    // The log shows the stderr line too.
    await (await cardAction(card, 'Logs')).click();
    await expect(card.getByTestId('server-logs')).toContainText('[stderr] boom-stderr');
    // Persisted even though it failed (it is the user's config); after an app restart it is tried
    // again in the background and fails the same visible way.
    expect(storedNames(shell.stateDir)).toEqual(['broken']);
    await shell.restart();
    await openApp(page, shell.current);
    await openSettings(page, 'MCP servers');
    await expectStatus(serverCard(page, 'broken'), 'error');
    await expect(serverCard(page, 'broken').getByTestId('server-error')).toContainText('boom-stderr');
  });

  test('disable, enable, restart and remove', async ({ page, shell }) => {
    await openApp(page, shell.current);
    const card = await addLocalServer(page, { name: 'echoer', command: bashCommand });
    await expectStatus(card, 'ready');
    await expect(card).toContainText('3 tools');
    const toggle = card.getByLabel('Enable echoer');
    await expect(toggle).toBeChecked();

    // Disable: stopped, no tools, Restart unavailable; persisted.
    // The checkbox follows main's answer (it is controlled by the server view), so click it and
    // wait for the state rather than using uncheck()/check(), which expect an instant change.
    await toggle.click();
    await expectStatus(card, 'disabled');
    await expect(toggle).not.toBeChecked();
    await expect(await cardAction(card, 'Restart')).toBeDisabled();
    await page.keyboard.press('Escape');
    await card.getByRole('button', { name: 'Tools' }).click();
    await expect(card.getByTestId('tools-list')).toContainText('Enable the server to see its tools.');
    await openChat(page);
    await expect(page.locator('.chat-toolbar')).toContainText('0 tools available');
    await openApp(page, shell.current);
    await openSettings(page, 'MCP servers');
    await expectStatus(serverCard(page, 'echoer'), 'disabled');

    // Enable: starting → ready.
    const statuses = await recordStatuses(page, 'echoer');
    await serverCard(page, 'echoer').getByLabel('Enable echoer').click();
    await expect(serverCard(page, 'echoer').getByTestId('server-status')).toHaveText(/^(starting|ready)$/);
    await expectStatus(serverCard(page, 'echoer'), 'ready');
    await expect(serverCard(page, 'echoer').getByLabel('Enable echoer')).toBeChecked();
    expect(await statuses()).toEqual(['disabled', 'starting', 'ready']);

    // Restart: a new session (starting again), then ready.
    const restarts = await recordStatuses(page, 'echoer');
    await (await cardAction(serverCard(page, 'echoer'), 'Restart')).click();
    await expect.poll(restarts).toEqual(['ready', 'starting', 'ready']);
    await expectStatus(serverCard(page, 'echoer'), 'ready');
    await expect(serverCard(page, 'echoer')).toContainText('3 tools');

    // Remove asks in the app's own confirmation (never the browser's); declining first: still there.
    let nativeDialogs = 0;
    page.on('dialog', (d) => (nativeDialogs++, void d.dismiss()));
    await (await cardAction(serverCard(page, 'echoer'), 'Remove')).click();
    const ask = serverCard(page, 'echoer').getByRole('alertdialog', { name: 'Remove server "echoer"?' });
    await expect(ask).toBeVisible();
    await expect(ask.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await expect(ask).toHaveCount(0);
    await expect(serverCard(page, 'echoer')).toBeVisible();
    expect(storedNames(shell.stateDir)).toEqual(['echoer']);
    // Escape keeps it too.
    await (await cardAction(serverCard(page, 'echoer'), 'Remove')).click();
    await expect(ask).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(ask).toHaveCount(0);
    expect(storedNames(shell.stateDir)).toEqual(['echoer']);

    // Remove, confirming: gone from the list, the file, and after a reload.
    await (await cardAction(serverCard(page, 'echoer'), 'Remove')).click();
    await ask.getByRole('button', { name: 'Remove' }).click();
    await expect(serverCard(page, 'echoer')).toHaveCount(0);
    expect(nativeDialogs).toBe(0);
    await expect(page.getByText('No servers yet')).toBeVisible();
    expect(storedNames(shell.stateDir)).toEqual([]);
    await openApp(page, shell.current);
    await openSettings(page, 'MCP servers');
    await expect(page.getByText('No servers yet')).toBeVisible();
    await openChat(page);
    await expect(page.locator('.chat-toolbar')).toContainText('0 tools available');
  });
});

test.describe('Chat', () => {
  let model: FakeModel;
  test.afterEach(async () => {
    await model?.close();
  });

  test('the hand-written bash server connects and its echo tool works from chat', async ({ page, shell }) => {
    model = await startFakeModel();
    await openApp(page, shell.current);
    await configureModel(page, { baseUrl: model.baseUrl, model: 'fake-bash' });
    // Tools here are not what is tested: run them without approval cards.
    await setApprovalMode(page, 'Never ask');
    const card = await addLocalServer(page, { name: 'echoer', command: bashCommand });
    await expectStatus(card, 'ready');
    await card.getByRole('button', { name: 'Tools' }).click();
    // Each tool by its own name; the name the model sees (plainly server__tool here) in its tooltip.
    for (const name of ['echo', 'upper']) {
      const row = card.getByTestId(`tool-${name}`);
      await expect(row.locator('.tool-row-name .mono').first()).toHaveText(name);
      await expect(row.locator('.tool-row-name .mono').first()).toHaveAttribute('title', `The name the model sees: echoer__${name}`);
      await expect(row).not.toContainText(`echoer__${name}`);
    }

    await openChat(page);
    await sendMessage(page, 'call __echo {"text":"hello from the bash server"}');
    const tool: Locator = page.getByTestId('tool-card');
    await expect(tool.getByTestId('tool-name')).toHaveText('echoer__echo');
    await expect(tool.getByTestId('tool-result')).toHaveText('hello from the bash server');
    await expect(tool.getByTestId('tool-duration')).toHaveText(/^\d+ ms$/);
    await expect(page.getByTestId('msg-assistant')).toHaveText('Tool result: hello from the bash server');
    await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeVisible();
    // No API key configured → no Authorization header is sent.
    expect(model.requests.every((r) => r.authorization === undefined)).toBe(true);

    // A second call in the same conversation, to the other tool.
    await sendMessage(page, 'call __upper {"text":"shout"}');
    await expect(page.getByTestId('tool-card')).toHaveCount(2);
    await expect(page.getByTestId('tool-card').nth(1).getByTestId('tool-name')).toHaveText('echoer__upper');
    await expect(page.getByTestId('tool-card').nth(1).getByTestId('tool-result')).toHaveText('SHOUT');
    await expect(page.getByTestId('msg-assistant').last()).toHaveText('Tool result: SHOUT');
  });

  test('Stop ends a streaming answer', async ({ page, shell }) => {
    const words = Array.from({ length: 80 }, (_, i) => `word${i}`);
    model = await startFakeModel({ chunkDelayMs: 300, script: () => ({ text: words.join(' ') }) });
    await openApp(page, shell.current);
    await configureModel(page, { baseUrl: model.baseUrl, model: 'fake-slow' });
    // Tools here are not what is tested: run them without approval cards.
    await setApprovalMode(page, 'Never ask');
    await openChat(page);
    await sendMessage(page, 'tell me a long story');

    const answer = page.getByTestId('msg-assistant');
    await expect(answer).toContainText('word2');
    const stop = page.getByRole('button', { name: 'Stop' });
    await expect(stop).toBeVisible();
    await expect(page.getByRole('button', { name: 'Send', exact: true })).toHaveCount(0);
    await stop.click();

    await expect(page.getByTestId('chat-notice')).toHaveText('Stopped.');
    await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeVisible();
    await expect(stop).toHaveCount(0);
    // The stream really ended: the text stays cut short and does not grow any more.
    const cut = (await answer.textContent()) ?? '';
    expect(cut.length).toBeGreaterThan(0);
    expect(cut).not.toContain('word79');
    await page.waitForTimeout(1200); // four more chunk intervals
    expect((await answer.textContent()) ?? '').toBe(cut);

    // The chat still works afterwards.
    await sendMessage(page, 'again');
    await expect(page.getByTestId('msg-assistant')).toHaveCount(2);
    await expect(page.getByTestId('msg-assistant').last()).toContainText('word0');
    await page.getByRole('button', { name: 'Stop' }).click();
    await expect(page.getByTestId('chat-notice')).toHaveCount(2);

    // The notice is the window's words: in 简体中文 it reads in Chinese (main stores the kind).
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.locator('.settings-nav').getByRole('button', { name: 'Language', exact: true }).click();
    await page.getByLabel('Language').selectOption('zh-CN');
    await page.getByRole('tab', { name: '对话' }).click();
    await expect(page.getByTestId('chat-notice').first()).toHaveText('已停止。');
  });
});
