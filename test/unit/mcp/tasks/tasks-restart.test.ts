/**
 * MCP Tasks across an app restart, on real parts: the hand-written Tasks servers of both
 * generations (test/fixtures/task-server.mjs, 2025-11-25; test/fixtures/tasks-v2-server.mjs
 * --http, the 2026-07-28 extension) over Streamable HTTP as real processes, the conversation
 * database as a real SQLite file, and McpHost. A run's task-backed call saves its task; the app
 * "stops" mid-task (host shut down, database closed); a new host and task service on the same
 * file and server pick the task up again once the server is ready, and its result lands on the
 * tool entry, which says it was picked up again. Also: a task the server no longer knows is
 * reported lost, and Cancel from the Tasks list reaches the server (`tasks/cancel`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openConversationDatabase, type ConversationDatabase } from '../../../../main/chat/conversations/database.js';
import { ConversationStore } from '../../../../main/chat/conversations/store.js';
import { TaskStore } from '../../../../main/chat/conversations/tasks.js';
import { taskEntryWriter } from '../../../../main/chat/task-entries.js';
import { ConfigStore } from '../../../../main/mcp/config.js';
import { McpHost } from '../../../../main/mcp/host.js';
import { TaskService } from '../../../../main/mcp/tasks/service.js';
import type { TaskView, TranscriptItem } from '../../../../preload/contract/index.js';
import { ROOT, makeTempDir, removeDir, waitFor } from '../../helpers.js';

/** The two generations' servers: the script and its arguments (both print `PORT <n>` and take --port). */
const GENERATIONS: Array<[string, string[]]> = [
  ['2025-11-25 tasks', [path.join(ROOT, 'test', 'fixtures', 'task-server.mjs')]],
  ['the 2026-07-28 Tasks extension', [path.join(ROOT, 'test', 'fixtures', 'tasks-v2-server.mjs'), '--http']],
];
type ToolItem = Extract<TranscriptItem, { kind: 'tool' }>;

let dir: string;
let server: ChildProcess | null = null;
let url = '';
const cleanup: Array<() => Promise<void> | void> = [];

async function startServer(command: string[]): Promise<void> {
  dir = makeTempDir('op-tasks-');
  server = spawn(process.execPath, command, { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    server!.stdout!.on('data', (d: Buffer) => {
      const m = /PORT (\d+)/.exec(d.toString());
      if (m) resolve(Number(m[1]));
    });
    server!.once('exit', () => reject(new Error('task server exited')));
  });
  url = `http://127.0.0.1:${port}/mcp`;
}
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
  server?.kill();
  server = null;
  await removeDir(dir);
});

/** One "app": database, conversations, host, task service — as main/core.ts wires them. */
async function app(): Promise<{ db: ConversationDatabase; store: ConversationStore; host: McpHost; tasks: TaskService; seen: TaskView[]; stop(): Promise<void> }> {
  const db = openConversationDatabase(dir);
  const store = new ConversationStore(db);
  store.markInterrupted();
  const seen: TaskView[] = [];
  const config = new ConfigStore(dir);
  await config.load();
  if (!config.has('jobs')) await config.put('jobs', { type: 'http', url, headers: {}, auth: { kind: 'none' }, enabled: true, timeout_seconds: 10 } as never);
  let tasks: TaskService | null = null;
  const host = new McpHost(config, { events: { changed: (view) => tasks?.serverChanged(view.name) } });
  tasks = new TaskService(
    new TaskStore(db),
    { ready: (name) => host.ready(name) !== null, resumeTask: (s, r, o) => host.resumeTask(s, r, o) },
    taskEntryWriter(store, { chat: () => undefined, changed: () => undefined }),
    (v) => seen.push(v),
  );
  tasks.loadSaved();
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    await host.shutdown();
    store.close();
    db.close();
  };
  cleanup.push(stop);
  host.startAll();
  await host.whenStarted();
  return { db, store, host, tasks, seen, stop };
}

/** A conversation with a running tool entry for `slow-job`, as a run's recorder makes it. */
function runningEntry(store: ConversationStore): ToolItem {
  store.ensure('c1', 'run the job');
  const item: ToolItem = { kind: 'tool', id: 'item-1', ts: Date.now(), run_id: 'r1', call_id: 'call-1', tool: 'jobs__slow-job', server: 'jobs', original_name: 'slow-job', args: {}, state: 'running', content: [], error: null, duration_ms: null, progress: null, permission: null };
  store.append('c1', item);
  return item;
}

describe.each(GENERATIONS)('tasks across a restart (%s)', (_generation, command) => {
  beforeEach(() => startServer(command));

  it('a task saved before a restart is picked up by a new host and its result lands on the tool entry', async () => {
    const first = await app();
    const item = runningEntry(first.store);
    const call = { conversation_id: 'c1', run_id: 'r1', call_id: 'call-1', item_id: item.id, server: 'jobs', tool: 'jobs__slow-job', original_name: 'slow-job' };
    const observer = first.tasks.observe(call, (task) => first.store.update('c1', { ...(first.store.item('c1', item.id) as ToolItem), task }));
    const running = first.host.callTool('jobs__slow-job', { steps: 8, step_ms: 250 }, { task: observer }).catch((e: Error) => e);
    expect(await waitFor(() => first.seen.some((v) => v.status.message === 'Step 2 of 8'), 8000)).toBe(true);
    // The app stops mid-task: the run's call is cut off with it.
    await first.stop();
    await running;

    const second = await app();
    const listed = second.tasks.list('c1');
    expect(listed).toHaveLength(1);
    expect(await waitFor(() => (second.store.item('c1', item.id) as ToolItem).state === 'ok', 10_000)).toBe(true);
    const done = second.store.item('c1', item.id) as ToolItem;
    expect(done.content).toEqual([{ type: 'text', text: 'job done after 8 steps' }]);
    expect(done.task).toMatchObject({ origin: 'resumed', status: { kind: 'completed' } });
    expect(second.tasks.list()[0]!.status.kind).toBe('completed');
    // Its statuses after the pick-up were followed too.
    expect(second.seen.some((v) => v.origin === 'resumed' && v.status.kind === 'working')).toBe(true);
  }, 40_000);

  it('a saved task the server does not know any more is reported lost on its entry', async () => {
    const first = await app();
    const item = runningEntry(first.store);
    const call = { conversation_id: 'c1', run_id: 'r1', call_id: 'call-1', item_id: item.id, server: 'jobs', tool: 'jobs__slow-job', original_name: 'slow-job' };
    const observer = first.tasks.observe(call, (task) => first.store.update('c1', { ...(first.store.item('c1', item.id) as ToolItem), task }));
    const running = first.host.callTool('jobs__slow-job', { steps: 40, step_ms: 250 }, { task: observer }).catch((e: Error) => e);
    expect(await waitFor(() => first.seen.length > 0, 8000)).toBe(true);
    await first.stop();
    await running;
    // The server restarts too (its in-memory task store is gone), on the same port.
    const port = new URL(url).port;
    server!.kill();
    await new Promise((r) => server!.once('exit', r));
    server = spawn(process.execPath, [...command, `--port=${port}`], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => server!.stdout!.on('data', (d: Buffer) => /PORT/.test(d.toString()) && resolve()));

    const second = await app();
    expect(await waitFor(() => (second.store.item('c1', item.id) as ToolItem).state === 'error', 10_000)).toBe(true);
    const lost = second.store.item('c1', item.id) as ToolItem;
    expect(lost.task?.status.kind).toBe('lost');
    expect(lost.error).toMatch(/no longer knows/);
  }, 40_000);

  it('a saved task is never asked for on another server: after the URL changed, the entry says so', async () => {
    const first = await app();
    const item = runningEntry(first.store);
    const call = { conversation_id: 'c1', run_id: 'r1', call_id: 'call-1', item_id: item.id, server: 'jobs', tool: 'jobs__slow-job', original_name: 'slow-job' };
    const observer = first.tasks.observe(call, (task) => first.store.update('c1', { ...(first.store.item('c1', item.id) as ToolItem), task }));
    const running = first.host.callTool('jobs__slow-job', { steps: 40, step_ms: 250 }, { task: observer }).catch((e: Error) => e);
    expect(await waitFor(() => first.seen.length > 0, 8000)).toBe(true);
    await first.stop();
    await running;
    // Another Tasks server takes the name: its address differs.
    const other = spawn(process.execPath, command, { stdio: ['ignore', 'pipe', 'inherit'] });
    cleanup.push(() => void other.kill());
    const port = await new Promise<number>((resolve) => other.stdout!.on('data', (d: Buffer) => {
      const m = /PORT (\d+)/.exec(d.toString());
      if (m) resolve(Number(m[1]));
    }));
    const config = new ConfigStore(dir);
    await config.load();
    await config.put('jobs', { type: 'http', url: `http://127.0.0.1:${port}/mcp`, headers: {}, auth: { kind: 'none' }, enabled: true, timeout_seconds: 10 } as never);

    const second = await app();
    expect(await waitFor(() => (second.store.item('c1', item.id) as ToolItem).state === 'error', 10_000)).toBe(true);
    const lost = second.store.item('c1', item.id) as ToolItem;
    expect(lost.task?.status.kind).toBe('lost');
    expect(lost.error).toMatch(/server was changed/);
  }, 40_000);

  it('Cancel from the Tasks list reaches the server: the task and the call end cancelled', async () => {
    const first = await app();
    const item = runningEntry(first.store);
    const call = { conversation_id: 'c1', run_id: 'r1', call_id: 'call-1', item_id: item.id, server: 'jobs', tool: 'jobs__slow-job', original_name: 'slow-job' };
    const observer = first.tasks.observe(call, () => undefined);
    const running = first.host.callTool('jobs__slow-job', { steps: 40, step_ms: 200 }, { task: observer }).catch((e: Error) => e);
    expect(await waitFor(() => first.seen.length > 0, 8000)).toBe(true);
    const taskId = first.seen[0]!.task_id;
    expect(await first.tasks.cancel('jobs', taskId)).toBe(true);
    const err = await running;
    expect((err as Error).name).toBe('TaskCancelled');
    expect(await waitFor(() => first.tasks.list('c1')[0]!.status.kind === 'cancelled', 5000)).toBe(true);
    // Nothing follows it any more.
    expect(await first.tasks.cancel('jobs', taskId)).toBe(false);
  }, 40_000);
});
