/**
 * MCP Tasks in the real UI (docs/ARCHITECTURE.md "Tasks"), with the scripted model: a tool the
 * server runs as a task (server-everything's `simulate-research-query`, and the hand-written
 * Tasks server over Streamable HTTP) shows on its card as a running task with the server's status
 * messages, then its result, which the model gets; Cancel on the card reaches the server; a
 * reloaded window still shows the running task and sees it finish; a task still running when the
 * app restarts is picked up again (the card says so) and finishes; the Tasks list shows them,
 * each call with its arguments, and a row opens its conversation at the call's tool card.
 * The same for a server of the 2026-07-28 Tasks extension (test/fixtures/tasks-v2-server.mjs over
 * Streamable HTTP), whose question asked inside a task reaches the user as the usual dialog.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Page } from '@playwright/test';
import path from 'node:path';
import { startFakeModel, type FakeModel } from '../fixtures/fake-model.js';
import { ROOT, SCREENSHOTS, addLocalServer, commandLine, configureModel, expect, expectStatus, openAddServerForm, openApp, openChat, openSettings, sendMessage, serverCard, setApprovalMode, test } from './helpers.js';

const EVERYTHING = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const TASK_SERVER = path.join(ROOT, 'test/fixtures/task-server.mjs');
const TASKS_V2_SERVER = path.join(ROOT, 'test/fixtures/tasks-v2-server.mjs');

/** A fixture server over Streamable HTTP as its own process (it outlives the app's restart); its port. */
async function startHttpFixture(args: string[]): Promise<{ server: ChildProcess; port: number }> {
  const server = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve) => server.stdout!.on('data', (d: Buffer) => {
    const m = /PORT (\d+)/.exec(d.toString());
    if (m) resolve(Number(m[1]));
  }));
  return { server, port };
}

/** Add a remote Streamable HTTP server in Settings and wait until it is ready. */
async function addRemoteServer(page: Page, name: string, url: string): Promise<void> {
  await openSettings(page, 'MCP servers');
  const form = await openAddServerForm(page);
  await form.getByLabel('Server name').fill(name);
  await form.getByLabel('Server type').selectOption({ label: 'Remote URL (Streamable HTTP)' });
  await form.getByLabel('URL').fill(url);
  await form.getByRole('button', { name: 'Add server' }).click();
  await expectStatus(serverCard(page, name), 'ready');
}

let model: FakeModel;
test.beforeEach(async () => {
  model = await startFakeModel();
});
test.afterEach(async () => {
  await model.close();
});

test('a task-backed call: running with status messages on its card, then its result; the Tasks list shows it', async ({ page, shell }) => {
  test.setTimeout(90_000);
  await openApp(page, shell.current);
  await configureModel(page, { baseUrl: model.baseUrl, model: 'fake' });
  await setApprovalMode(page, 'Never ask');
  await expectStatus(await addLocalServer(page, { name: 'ev', command: commandLine([process.execPath, EVERYTHING, 'stdio']) }), 'ready', 60_000);
  await openChat(page);
  await sendMessage(page, 'call ev__simulate-research-query {"topic":"tides"}');
  const card = page.getByTestId('tool-card').last();
  const status = card.getByTestId('task-status');
  await expect(status).toHaveAttribute('data-status', 'working', { timeout: 15_000 });
  await expect(card.getByTestId('task-message')).toHaveText(/Analyzing content|Synthesizing findings|Generating report/, { timeout: 10_000 });
  await page.screenshot({ path: path.join(SCREENSHOTS, 'tasks-running.png'), fullPage: true });
  await expect(card).toHaveAttribute('data-state', 'ok', { timeout: 20_000 });
  await expect(status).toHaveAttribute('data-status', 'completed');
  // Done: the last progress step ("Generating report...") is not repeated beside "completed".
  await expect(card.getByTestId('task-message')).toHaveCount(0);
  await expect(card.getByTestId('tool-result')).toContainText('Research Report: tides');
  // The model got the task's result as the tool result.
  await expect(page.getByText(/Tool result: # Research Report: tides/)).toBeVisible({ timeout: 10_000 });

  await page.getByTestId('open-tasks').click();
  const dialog = page.getByTestId('tasks-dialog');
  await expect(dialog.getByTestId('task-row')).toHaveCount(1);
  await expect(dialog.getByTestId('task-row')).toHaveAttribute('data-status', 'completed');
  await expect(dialog).toContainText('simulate-research-query');
  await expect(dialog).toContainText('ev');
  await page.screenshot({ path: path.join(SCREENSHOTS, 'tasks-list.png'), fullPage: true });
});

test('Cancel on a running task’s card cancels it on the server; a reloaded window still shows a running task and sees it finish', async ({ page, shell }) => {
  test.setTimeout(90_000);
  await openApp(page, shell.current);
  await configureModel(page, { baseUrl: model.baseUrl, model: 'fake' });
  await setApprovalMode(page, 'Never ask');
  await expectStatus(await addLocalServer(page, { name: 'ev', command: commandLine([process.execPath, EVERYTHING, 'stdio']) }), 'ready', 60_000);
  await openChat(page);
  await sendMessage(page, 'call ev__simulate-research-query {"topic":"glaciers"}');
  let card = page.getByTestId('tool-card').last();
  await expect(card.getByTestId('task-status')).toHaveAttribute('data-status', 'working', { timeout: 15_000 });
  await card.getByTestId('tool-cancel').click();
  await expect(card).toHaveAttribute('data-state', 'cancelled', { timeout: 15_000 });
  await expect(card.getByTestId('task-status')).toHaveAttribute('data-status', 'cancelled');

  // A second task; the window reloads while it runs.
  await sendMessage(page, 'call ev__simulate-research-query {"topic":"dunes"}');
  card = page.getByTestId('tool-card').last();
  await expect(card.getByTestId('task-status')).toHaveAttribute('data-status', 'working', { timeout: 15_000 });
  await page.reload();
  card = page.getByTestId('tool-card').last();
  await expect(card.getByTestId('task-status')).toHaveAttribute('data-status', /working|completed/, { timeout: 15_000 });
  await expect(card).toHaveAttribute('data-state', 'ok', { timeout: 20_000 });
  await expect(card.getByTestId('tool-result')).toContainText('Research Report: dunes');

  // The list across conversations shows both, the cancelled one and the finished one, told apart
  // by their arguments.
  await page.getByTestId('open-all-tasks').click();
  const rows = page.getByTestId('tasks-dialog').getByTestId('task-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toHaveAttribute('data-status', 'completed');
  await expect(rows.nth(1)).toHaveAttribute('data-status', 'cancelled');
  await expect(rows.nth(0).getByTestId('task-args')).toHaveText('{"topic":"dunes"}');
  await expect(rows.nth(1).getByTestId('task-args')).toHaveText('{"topic":"glaciers"}');
  // A row opens its conversation at that call's tool card.
  await page.evaluate(() => document.querySelector('[data-testid="transcript"]')!.scrollTo(0, 1e9));
  await rows.nth(1).getByTestId('task-open').click();
  await expect(page.getByTestId('tasks-dialog')).toHaveCount(0);
  const hit = page.locator('.search-hit-item');
  await expect(hit).toHaveCount(1);
  await expect(hit.getByTestId('tool-args')).toContainText('"glaciers"');
  await expect(hit.getByTestId('tool-card')).toBeInViewport();
});

test('a task still running when the app restarts is picked up again: the card says so and gets the result', async ({ page, shell }) => {
  test.setTimeout(120_000);
  // The hand-written Tasks server: a separate process that outlives the app's restart.
  const { server, port } = await startHttpFixture([TASK_SERVER]);
  try {
    await openApp(page, shell.current);
    await configureModel(page, { baseUrl: model.baseUrl, model: 'fake' });
    await setApprovalMode(page, 'Never ask');
    await addRemoteServer(page, 'jobs', `http://127.0.0.1:${port}/mcp`);
    await openChat(page);
    await sendMessage(page, 'call jobs__slow-job {"steps":30,"step_ms":300}');
    let card = page.getByTestId('tool-card').last();
    await expect(card.getByTestId('task-message')).toHaveText(/Step [2-9] of 30/, { timeout: 15_000 });

    await shell.restart();
    await openApp(page, shell.current);
    card = page.getByTestId('tool-card').last();
    await expect(card.getByTestId('task-resumed')).toBeVisible({ timeout: 30_000 });
    await expect(card.getByTestId('task-message')).toHaveText(/Step \d+ of 30/);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'tasks-resumed.png'), fullPage: true });
    await expect(card).toHaveAttribute('data-state', 'ok', { timeout: 30_000 });
    await expect(card.getByTestId('tool-result')).toContainText('job done after 30 steps');
    await page.getByTestId('open-tasks').click();
    await expect(page.getByTestId('tasks-dialog').getByTestId('task-row')).toHaveAttribute('data-status', 'completed');
  } finally {
    server.kill();
  }
});

test('a 2026-07-28 Tasks server: its question inside a task is the usual dialog, the answer reaches the task; a task running at a restart is picked up again', async ({ page, shell }) => {
  test.setTimeout(120_000);
  const { server, port } = await startHttpFixture([TASKS_V2_SERVER, '--http']);
  try {
    await openApp(page, shell.current);
    await configureModel(page, { baseUrl: model.baseUrl, model: 'fake' });
    await setApprovalMode(page, 'Never ask');
    await addRemoteServer(page, 'jobs2', `http://127.0.0.1:${port}/mcp`);
    await openChat(page);
    await sendMessage(page, 'call jobs2__confirm-job {"item":"lamp"}');
    let card = page.getByTestId('tool-card').last();
    const dialog = page.getByRole('dialog', { name: 'Request from jobs2' });
    await expect(dialog).toBeVisible({ timeout: 15_000 });
    await expect(dialog).toContainText('Go ahead with lamp?');
    // While the question waits, the card says the task waits for the user.
    await expect(card.getByTestId('task-status')).toHaveAttribute('data-status', 'input_required');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'tasks-v2-question.png'), fullPage: true });
    await dialog.getByLabel('Go ahead').check();
    await dialog.getByRole('button', { name: 'Accept' }).click();
    await expect(card).toHaveAttribute('data-state', 'ok', { timeout: 20_000 });
    await expect(card.getByTestId('task-status')).toHaveAttribute('data-status', 'completed');
    await expect(card.getByTestId('tool-result')).toContainText('confirmed lamp');

    await sendMessage(page, 'call jobs2__slow-job {"steps":30,"step_ms":300}');
    card = page.getByTestId('tool-card').last();
    await expect(card.getByTestId('task-message')).toHaveText(/Step [2-9] of 30/, { timeout: 15_000 });
    await shell.restart();
    await openApp(page, shell.current);
    card = page.getByTestId('tool-card').last();
    await expect(card.getByTestId('task-resumed')).toBeVisible({ timeout: 30_000 });
    await expect(card).toHaveAttribute('data-state', 'ok', { timeout: 30_000 });
    await expect(card.getByTestId('tool-result')).toContainText('job done after 30 steps');
    await page.getByTestId('open-tasks').click();
    const rows = page.getByTestId('tasks-dialog').getByTestId('task-row');
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toHaveAttribute('data-status', 'completed');
    await expect(rows.nth(1)).toHaveAttribute('data-status', 'completed');
  } finally {
    server.kill();
  }
});
