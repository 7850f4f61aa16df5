/**
 * The protocol inspector in the real UI (docs/ARCHITECTURE.md "Protocol inspector"): a real
 * `tools/call` of `@modelcontextprotocol/server-everything` and its result, over stdio and over
 * Streamable HTTP, reached from the chat's tool card; filters, copy as JSON and saving a `.jsonl`
 * file; a 2026-07-28 server's `input_required` round grouped with its call; and a replay with
 * edited arguments that asks for approval in the inspector and runs once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { startFakeModel, type FakeModel } from '../fixtures/fake-model.js';
import { ROOT, SCREENSHOTS, addLocalServer, commandLine, configureModel, expect, expectStatus, openAddServerForm, openApp, openChat, openSettings, sendMessage, serverCard, setApprovalMode, test, cardAction } from './helpers.js';

const EVERYTHING = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const MODERN = path.join(ROOT, 'test/fixtures/modern-stdio-server.mjs');

async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise((r) => srv.close(r));
  return port;
}

/** server-everything over Streamable HTTP on a free loopback port. */
async function startEverythingHttp(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server-everything did not start: ${out}`)), 20_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      if (/listening on port/i.test(out)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stderr!.on('data', onData);
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server-everything exited (${code}): ${out}`)));
  });
  return { url: `http://127.0.0.1:${port}/mcp`, child };
}

const inspector = (page: Page) => page.getByRole('dialog', { name: /^Protocol inspector — / });

/** The last tool card, once it finished with `ok`; then its "Inspect messages" link. */
async function inspectLastCall(page: Page): Promise<Locator> {
  const card = page.getByTestId('tool-card').last();
  await expect(card).toHaveAttribute('data-state', 'ok', { timeout: 20_000 });
  await card.getByRole('button', { name: 'Inspect messages' }).click();
  const dialog = inspector(page);
  await expect(dialog).toBeVisible();
  return dialog;
}

/** The focused exchange shows the tools/call request and its response with `text` in the result. */
async function expectCallAndResult(dialog: Locator, text: string): Promise<void> {
  const ex = dialog.locator('[data-testid="inspector-exchange"][data-focused="true"]');
  await expect(ex).toHaveCount(1);
  const req = ex.locator('[data-testid="inspector-message"][data-dir="out"][data-kind="request"][data-method="tools/call"]');
  const res = ex.locator('[data-testid="inspector-message"][data-dir="in"][data-kind="response"][data-method="tools/call"]');
  await expect(req).toHaveCount(1);
  await expect(res).toHaveCount(1);
  await req.getByRole('button', { name: /request tools\/call/ }).click();
  await expect(req.getByTestId('inspector-json')).toContainText(`"name": "echo"`);
  await res.getByRole('button', { name: /response tools\/call/ }).click();
  await expect(res.getByTestId('inspector-json')).toContainText(text);
}

test.describe('with a model', () => {
  let model: FakeModel;
  test.beforeEach(async () => {
    model = await startFakeModel();
  });
  test.afterEach(async () => {
    await model.close();
  });

  test('a real tools/call and its result over stdio and Streamable HTTP, from the tool card; filter, copy, save', async ({ page, shell, context }) => {
    const http = await startEverythingHttp();
    try {
      await openApp(page, shell.current);
      await configureModel(page, { baseUrl: model.baseUrl, model: 'fake' });
      await setApprovalMode(page, 'Never ask');
      await expectStatus(await addLocalServer(page, { name: 'every', command: commandLine(['node', EVERYTHING, 'stdio']) }), 'ready');
      const form = await openAddServerForm(page);
      await form.getByLabel('Server name').fill('everyhttp');
      await form.getByLabel('Server type').selectOption({ label: 'Remote URL (Streamable HTTP)' });
      await form.getByLabel('URL').fill(http.url);
      await form.getByRole('button', { name: 'Add server' }).click();
      await expectStatus(serverCard(page, 'everyhttp'), 'ready');

      await openChat(page);
      await sendMessage(page, 'call every__echo {"message":"hello over stdio"}');
      let dialog = await inspectLastCall(page);
      await expectCallAndResult(dialog, 'hello over stdio');
      await page.screenshot({ path: path.join(SCREENSHOTS, 'inspector-stdio.png'), fullPage: true });

      // Filters: by method, then by text.
      await dialog.getByLabel('Method').selectOption('tools/call');
      await expect(dialog.getByTestId('inspector-exchange')).toHaveCount(1);
      await dialog.getByLabel('Method').selectOption('');
      expect(await dialog.getByTestId('inspector-exchange').count()).toBeGreaterThan(2); // the handshake and listings too
      await dialog.getByLabel('Filter by text').fill('hello over stdio');
      await expect(dialog.getByTestId('inspector-exchange')).toHaveCount(1);
      await dialog.getByLabel('Filter by text').fill('no such text anywhere');
      await expect(dialog.getByTestId('inspector-empty')).toHaveText('No message matches the filter.');
      await dialog.getByLabel('Filter by text').fill('');

      // Copy a message as JSON.
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      const focused = dialog.locator('[data-testid="inspector-exchange"][data-focused="true"]');
      await focused.locator('[data-testid="inspector-message"][data-kind="response"]').getByRole('button', { name: 'Copy JSON' }).click();
      const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText())) as { result: { content: Array<{ text: string }> } };
      expect(copied.result.content[0]!.text).toContain('hello over stdio');

      // Save as .jsonl: one recorded message per line.
      await dialog.getByRole('button', { name: 'Save as .jsonl' }).click();
      const saved = dialog.getByTestId('inspector-saved');
      await expect(saved).toContainText('.jsonl');
      const file = /to (\/\S+\.jsonl)$/.exec((await saved.textContent()) ?? '')![1]!;
      const lines = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { method: string | null; dir: string; message: unknown });
      expect(lines.some((l) => l.method === 'tools/call' && l.dir === 'in' && JSON.stringify(l.message).includes('hello over stdio'))).toBe(true);
      await dialog.getByRole('button', { name: 'Close' }).click();
      await expect(dialog).toBeHidden();

      // The same over Streamable HTTP.
      await sendMessage(page, 'call everyhttp__echo {"message":"hello over http"}');
      // The new call's own card (not the stdio call's, still the last one for a moment).
      await expect(page.getByTestId('tool-card')).toHaveCount(2);
      dialog = await inspectLastCall(page);
      await expect(dialog).toHaveAccessibleName('Protocol inspector — everyhttp');
      await expectCallAndResult(dialog, 'hello over http');
      await page.screenshot({ path: path.join(SCREENSHOTS, 'inspector-http.png'), fullPage: true });
    } finally {
      http.child.kill();
    }
  });

  test('a 2026-07-28 input_required round is grouped with its tools/call', async ({ page, shell }) => {
    await openApp(page, shell.current);
    await configureModel(page, { baseUrl: model.baseUrl, model: 'fake' });
    await setApprovalMode(page, 'Never ask');
    await expectStatus(await addLocalServer(page, { name: 'fx', command: commandLine([process.execPath, MODERN]) }), 'ready');
    await openChat(page);
    await sendMessage(page, 'call fx__ask {}');
    const ask = page.getByRole('dialog', { name: 'Request from fx' });
    await expect(ask).toBeVisible({ timeout: 15_000 });
    await ask.getByLabel('Name').fill('Ada');
    await ask.getByLabel('Age').fill('36');
    await ask.getByRole('button', { name: 'Accept' }).click();
    const dialog = await inspectLastCall(page);
    const ex = dialog.locator('[data-testid="inspector-exchange"][data-focused="true"]');
    await expect(ex).toContainText('Multi-round request: 1 input_required round');
    const calls = ex.locator('[data-testid="inspector-message"][data-method="tools/call"]');
    await expect(calls).toHaveCount(4);
    await expect(calls.nth(1)).toHaveAttribute('data-input-required', 'true');
    await expect(calls.nth(1)).toContainText('input required');
    await calls.nth(2).getByRole('button', { name: /request tools\/call/ }).click();
    await expect(calls.nth(2).getByTestId('inspector-json')).toContainText('inputResponses');
    await calls.nth(3).getByRole('button', { name: /response tools\/call/ }).click();
    await expect(calls.nth(3).getByTestId('inspector-json')).toContainText('Ada');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'inspector-input-required.png'), fullPage: true });
  });

  test('replay with edited arguments asks for approval in the inspector and runs once, beside the original', async ({ page, shell }) => {
    await openApp(page, shell.current);
    await configureModel(page, { baseUrl: model.baseUrl, model: 'fake' });
    await setApprovalMode(page, 'Never ask');
    await expectStatus(await addLocalServer(page, { name: 'every', command: commandLine(['node', EVERYTHING, 'stdio']) }), 'ready');
    await openChat(page);
    await sendMessage(page, 'call every__echo {"message":"original words"}');
    await expect(page.getByTestId('tool-card').last()).toHaveAttribute('data-state', 'ok', { timeout: 20_000 });

    // Every call asks from now on; open the inspector from the server card.
    await setApprovalMode(page, 'Ask for every tool call');
    await openSettings(page, 'MCP servers');
    await (await cardAction(serverCard(page, 'every'), 'Inspector')).click();
    const dialog = inspector(page);
    await expect(dialog).toHaveAccessibleName('Protocol inspector — every');
    await dialog.getByLabel('Method').selectOption('tools/call');
    const requests = dialog.locator('[data-testid="inspector-message"][data-dir="out"][data-kind="request"][data-method="tools/call"]');
    await expect(requests).toHaveCount(1);
    const ex = dialog.getByTestId('inspector-exchange').first();
    await ex.getByRole('button', { name: 'Replay…' }).click();
    const args = ex.getByLabel('Arguments for echo (JSON)');
    await expect(args).toHaveValue(/original words/);
    await args.fill('{"message":"edited words"}');
    await ex.getByRole('button', { name: 'Run again' }).click();
    const card = dialog.getByTestId('approval-card');
    await expect(card).toHaveCount(1);
    await expect(card).toContainText('echo');
    expect(JSON.parse((await card.getByTestId('approval-args').textContent()) ?? 'null')).toEqual({ message: 'edited words' });
    // The card is the inspector's, not the chat's tray.
    await expect(page.getByTestId('pending-approvals')).toHaveCount(0);
    await card.getByRole('button', { name: 'Allow once' }).click();
    await expect(ex.getByTestId('replay-result')).toHaveAttribute('data-outcome', 'ok');
    await expect(ex.getByTestId('replay-result')).toContainText('edited words');
    await expect(ex.getByTestId('replay-original')).toContainText('original words');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'inspector-replay.png'), fullPage: true });
    // It ran once: one more tools/call request, from the replay, with the edited arguments.
    await expect(requests).toHaveCount(2);
    await dialog.getByLabel('Filter by text').fill('edited words');
    await expect(requests).toHaveCount(1);
    await expect(dialog.getByTestId('inspector-exchange')).toContainText('From a replay');
  });
});
