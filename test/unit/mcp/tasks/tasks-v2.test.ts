/**
 * The 2026-07-28 Tasks extension (`io.modelcontextprotocol/tasks`) against the hand-written V2
 * tasks server (test/fixtures/tasks-v2-server.mjs, a real process on SDK v2's Server), over stdio
 * and over Streamable HTTP: every call on such a server goes through the official requester
 * library, whose extension requests travel on the raw request lane (main/mcp/tasks/raw-lane.ts);
 * docs/ARCHITECTURE.md "Tasks". Also the SDK gap that makes the lane necessary: when that test
 * fails, the SDK carries V2 task results and the lane can go.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { Client, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createTaskSessionFromClient } from '@modelcontextprotocol/ext-tasks/client';
import { afterEach, describe, expect, it } from 'vitest';
import { McpConnection, type ElicitHandler } from '../../../../main/mcp/connection.js';
import type { ServerConfig } from '../../../../main/mcp/config.js';
import { ServerTasks, type TaskObserver, type TaskReference } from '../../../../main/mcp/tasks/session.js';
import type { TaskStatus } from '../../../../preload/contract/index.js';
import { ROOT, descendantPids, localServer, waitFor, waitNoChildren } from '../../helpers.js';

const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'tasks-v2-server.mjs');
const TASKS = 'io.modelcontextprotocol/tasks';
const JOB = { name: 'slow-job', arguments: { steps: 2, step_ms: 50 } };
/** A result schema that takes any JSON value (what the library's SDK adapter passes). */
const anyResult = { '~standard': { version: 1 as const, vendor: 'test', validate: (value: unknown) => ({ value }) } };

const connections: McpConnection[] = [];
const clients: Client[] = [];
const processes: ChildProcess[] = [];
afterEach(async () => {
  await Promise.all(connections.splice(0).map((c) => c.close()));
  await Promise.all(clients.splice(0).map((c) => c.close()));
  for (const p of processes.splice(0)) p.kill();
  expect(await waitNoChildren(), `child processes left: ${descendantPids().join(', ')}`).toBe(true);
});

/** What the HTTP fixture process wrote to stderr (its `CALL` lines). */
const httpStderr: string[] = [];

/** The fixture over Streamable HTTP as its own process; its URL. */
async function httpFixture(): Promise<string> {
  const server = spawn(process.execPath, [FIXTURE, '--http'], { stdio: ['ignore', 'pipe', 'pipe'] });
  processes.push(server);
  httpStderr.length = 0;
  server.stderr!.on('data', (d: Buffer) => httpStderr.push(...d.toString().split('\n').filter(Boolean)));
  const port = await new Promise<number>((resolve, reject) => {
    server.stdout!.on('data', (d: Buffer) => {
      const m = /PORT (\d+)/.exec(d.toString());
      if (m) resolve(Number(m[1]));
    });
    server.once('exit', () => reject(new Error('fixture exited')));
  });
  return `http://127.0.0.1:${port}/mcp`;
}

const TRANSPORTS: Array<[string, () => Promise<ServerConfig>]> = [
  ['stdio', async () => localServer([process.execPath, FIXTURE], { timeout_seconds: 20 })],
  ['Streamable HTTP', async () => ({ type: 'http', url: await httpFixture(), headers: {}, auth: { kind: 'none' }, enabled: true, timeout_seconds: 20 }) as ServerConfig],
];

async function connect(config: ServerConfig, elicit: ElicitHandler | null = null): Promise<McpConnection> {
  const c = new McpConnection('v2', config, () => undefined, undefined, null, { elicit });
  connections.push(c);
  await c.start();
  expect(c.state).toEqual({ kind: 'ready' });
  expect(c.protocol?.era).toBe('modern');
  return c;
}

/** An observer that keeps what it hears. */
function watcher(): TaskObserver & { statuses: TaskStatus[]; reference: TaskReference | null; cancel: (() => Promise<void>) | null } {
  const w = {
    statuses: [] as TaskStatus[],
    reference: null as TaskReference | null,
    cancel: null as (() => Promise<void>) | null,
    created(task: { reference: TaskReference; status: TaskStatus; cancel: () => Promise<void> }) {
      w.reference = task.reference;
      w.cancel = task.cancel;
      w.statuses.push(task.status);
    },
    updated(status: TaskStatus) {
      w.statuses.push(status);
    },
  };
  return w;
}

const text = (r: { content?: unknown }): string => ((r.content as Array<{ text?: string }>)[0]?.text ?? '');

/** The fixture's stderr lines: the connection's log for stdio, the process's own for HTTP. */
const stderrOf = (c: McpConnection): string[] => (c.config.type === 'local' ? c.log.tail('stderr', 200) : httpStderr);

describe.each(TRANSPORTS)('a 2026-07-28 Tasks server over %s', (_kind, configOf) => {
  it('a call the server answers with a task: created working, the server’s status messages, then its result; the call declared the extension', async () => {
    const c = await connect(await configOf());
    const w = watcher();
    const result = await c.callTool('slow-job', { steps: 3, step_ms: 60 }, { task: w });
    expect(text(result)).toBe('job done after 3 steps');
    expect('resultType' in result).toBe(false);
    expect(w.reference).toMatchObject({ generation: 'v2', taskId: expect.stringMatching(/^task-/) });
    expect(w.statuses[0]!.kind).toBe('working');
    expect(w.statuses.some((s) => /^Step \d of 3$/.test(s.message ?? ''))).toBe(true);
    expect(w.statuses.at(-1)!.kind).toBe('completed');
    // The extension was declared on that request (its per-request capabilities), by the library.
    expect(stderrOf(c)).toContain('CALL {"name":"slow-job","declared":true}');
  }, 30_000);

  it('an ordinary tool answers at once on the same path, and its progress reaches the caller', async () => {
    const c = await connect(await configOf());
    const progress: Array<{ progress: number; message: string | null }> = [];
    const result = await c.callTool('echo', { text: 'hi' }, { onProgress: (p) => progress.push({ progress: p.progress, message: p.message }) });
    expect(text(result)).toBe('hi');
    expect(progress).toEqual([
      { progress: 1, message: 'half' },
      { progress: 2, message: 'done' },
    ]);
  }, 30_000);

  it('input_required: the server’s question goes to the user’s answerer; accept and decline reach the task', async () => {
    const asked: string[] = [];
    let answer: 'accept' | 'decline' = 'accept';
    const elicit: ElicitHandler = async (_server, form) => {
      asked.push(form.message);
      return answer === 'accept' ? { action: 'accept', content: { ok: true } } : { action: 'decline' };
    };
    const c = await connect(await configOf(), elicit);
    const w = watcher();
    expect(text(await c.callTool('confirm-job', { item: 'lamp' }, { task: w }))).toBe('confirmed lamp');
    expect(asked).toEqual(['Go ahead with lamp?']);
    expect(w.statuses.some((s) => s.kind === 'input_required' && s.message === 'Waiting for confirmation')).toBe(true);
    answer = 'decline';
    expect(text(await c.callTool('confirm-job', { item: 'vase' }))).toBe('not confirmed vase');
  }, 30_000);

  it('a task that fails is an error result with the server’s reason', async () => {
    const c = await connect(await configOf());
    const result = await c.callTool('broken-job', {});
    expect(result.isError).toBe(true);
    expect(text(result)).toBe('the job broke');
  }, 30_000);

  it('Cancel (tasks/cancel) and Stop end a running task cancelled on the server', async () => {
    const c = await connect(await configOf());
    // Cancel, as the card's button does: the kept cancel of the observer.
    const w = watcher();
    const first = c.callTool('slow-job', { steps: 200, step_ms: 50 }, { task: w }).catch((e: Error) => e);
    expect(await waitFor(() => w.cancel !== null, 10_000)).toBe(true);
    await w.cancel!();
    expect(((await first) as Error).name).toBe('TaskCancelled');
    // The server says so too: picking the task up again finds it cancelled.
    expect(await c.resumeTask(w.reference!)).toEqual({ kind: 'cancelled' });
    // Stop: the run's signal.
    const stop = new AbortController();
    const w2 = watcher();
    const second = c.callTool('slow-job', { steps: 200, step_ms: 50 }, { task: w2, signal: stop.signal }).catch((e: Error) => e);
    expect(await waitFor(() => w2.reference !== null, 10_000)).toBe(true);
    stop.abort();
    expect(((await second) as Error).name).toBe('TaskCancelled');
    expect(await c.resumeTask(w2.reference!)).toEqual({ kind: 'cancelled' });
  }, 30_000);

  it('a request the server never answers: Stop tells the server, a timeout fails the call with the time it waited', async () => {
    const c = await connect(await configOf());
    const stop = new AbortController();
    const stalled = c.callTool('stall', {}, { signal: stop.signal }).catch((e: Error) => e);
    await new Promise((r) => setTimeout(r, 300));
    stop.abort(new Error('stopped by the user'));
    expect(((await stalled) as Error).message).toBe('stopped by the user');
    // stdio: notifications/cancelled for the lane's id; HTTP: the request's stream is closed.
    expect(await waitFor(() => stderrOf(c).includes('CANCELLED stall'), 5000)).toBe(true);
    const timedOut = await c.callTool('stall', {}, { timeoutMs: 400 }).catch((e: Error) => e);
    expect((timedOut as Error).name).toBe('DispatchError');
    expect((timedOut as Error).message).toMatch(/did not answer tools\/call within/);
  }, 30_000);
});

describe('the raw request lane', () => {
  it('a request waiting when the server process ends fails at once, not at its timeout', async () => {
    const c = await connect(localServer([process.execPath, FIXTURE], { timeout_seconds: 60 }));
    const started = Date.now();
    const stalled = c.callTool('stall', {}).catch((e: Error) => e);
    await new Promise((r) => setTimeout(r, 300));
    process.kill(c.pid!, 'SIGKILL');
    const err = (await stalled) as Error;
    expect(err.message).toMatch(/connection .*closed/);
    expect(Date.now() - started).toBeLessThan(20_000);
  }, 30_000);
});

describe('the SDK gap the lane fills', () => {
  /** A bare SDK client on the fixture, in the 2026-07-28 era, declaring the tasks extension. */
  async function sdkClient(): Promise<Client> {
    const client = new Client({ name: 'tasks-v2-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' }, capabilities: { extensions: { [TASKS]: {} } } });
    clients.push(client);
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [FIXTURE] }));
    expect(client.getProtocolEra()).toBe('modern');
    expect(client.getServerCapabilities()?.extensions?.[TASKS]).toEqual({});
    return client;
  }

  it('Client.request rejects a `resultType: "task"` tools/call result whatever the result schema, and the error does not carry the task', async () => {
    const client = await sdkClient();
    const err = await client.request({ method: 'tools/call', params: JOB }, anyResult).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(SdkError);
    expect((err as SdkError).code).toBe(SdkErrorCode.UnsupportedResultType);
    expect((err as SdkError).data).toEqual({ resultType: 'task', method: 'tools/call' });
    // The server did create the task (task-1): it is only reachable by an id the client never got.
    const got = (await client.request({ method: 'tasks/get', params: { taskId: 'task-1' } }, anyResult)) as Record<string, unknown>;
    expect(got.taskId).toBe('task-1');
  }, 30_000);

  it('the library gives no task session on such a server without a raw dispatch; ServerTasks.open without the lane neither', async () => {
    const client = await sdkClient();
    expect(() => createTaskSessionFromClient(client, { endpointId: 'probe' })).toThrow(/rawDispatch/);
    expect(await ServerTasks.open(client, { name: 'v2' }, null)).toBeNull();
  }, 30_000);

  it('a client that does not declare the extension gets -32021 for a task-only tool (the spec’s Missing Required Client Capability)', async () => {
    const client = new Client({ name: 'tasks-v2-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    clients.push(client);
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [FIXTURE] }));
    await expect(client.callTool(JOB)).rejects.toMatchObject({ code: -32021 });
  }, 30_000);
});
