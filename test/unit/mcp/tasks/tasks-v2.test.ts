/**
 * The 2026-07-28 Tasks extension (`io.modelcontextprotocol/tasks`) against a hand-written V2
 * tasks server (test/fixtures/tasks-v2-server.mjs, a real stdio process on SDK v2's Server):
 * what the app does today, and the SDK gap that keeps it from taking V2 task results
 * (docs/ARCHITECTURE.md "Tasks", its Generations point). When the gap tests fail, the SDK carries V2 task
 * traffic and the library's `rawDispatch` can be the SDK's `request` — then this client can
 * declare the extension.
 */
import path from 'node:path';
import { Client, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createTaskSessionFromClient } from '@modelcontextprotocol/ext-tasks/client';
import { afterEach, describe, expect, it } from 'vitest';
import { McpConnection } from '../../../../main/mcp/connection.js';
import { ServerTasks } from '../../../../main/mcp/tasks/session.js';
import { ROOT, descendantPids, localServer, waitNoChildren } from '../../helpers.js';

const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'tasks-v2-server.mjs');
const TASKS = 'io.modelcontextprotocol/tasks';
const JOB = { name: 'slow-job', arguments: { steps: 2, step_ms: 50 } };
/** A result schema that takes any JSON value (what the library's SDK adapter passes). */
const anyResult = { '~standard': { version: 1 as const, vendor: 'test', validate: (value: unknown) => ({ value }) } };

const connections: McpConnection[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(connections.splice(0).map((c) => c.close()));
  await Promise.all(clients.splice(0).map((c) => c.close()));
  expect(await waitNoChildren(), `child processes left: ${descendantPids().join(', ')}`).toBe(true);
});

/** A bare SDK client on the fixture, in the 2026-07-28 era, declaring the tasks extension. */
async function sdkClient(): Promise<Client> {
  const client = new Client({ name: 'tasks-v2-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' }, capabilities: { extensions: { [TASKS]: {} } } });
  clients.push(client);
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [FIXTURE] }));
  expect(client.getProtocolEra()).toBe('modern');
  expect(client.getServerCapabilities()?.extensions?.[TASKS]).toEqual({});
  return client;
}

describe('a 2026-07-28 Tasks server', () => {
  it('the app: a modern session, no task session (the library refuses without rawDispatch), ordinary tools work, a task-only tool says which capability is missing', async () => {
    const c = new McpConnection('v2', localServer([process.execPath, FIXTURE], { timeout_seconds: 20 }));
    connections.push(c);
    await c.start();
    expect(c.status).toBe('ready');
    expect(c.protocol?.era).toBe('modern');
    const echo = await c.callTool('echo', { text: 'hi' });
    expect((echo.content as Array<{ text: string }>)[0]!.text).toBe('hi');
    // The app does not declare the extension, so the server does not answer with a task.
    await expect(c.callTool('slow-job', JOB.arguments)).rejects.toMatchObject({ code: -32003 });
  }, 30_000);

  it('ServerTasks.open gives no task session on a V2 server: createTaskSessionFromClient needs rawDispatch + v2RequestFraming', async () => {
    const client = await sdkClient();
    expect(() => createTaskSessionFromClient(client, { endpointId: 'probe' })).toThrow(/rawDispatch/);
    expect(await ServerTasks.open(client, { name: 'v2' }, null)).toBeNull();
  }, 30_000);

  it('SDK gap: Client.request rejects a `resultType: "task"` tools/call result whatever the result schema, and the error does not carry the task', async () => {
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
    // A `complete` extension result reaches the caller without its `resultType`, which the
    // library's V2 schemas require (GetTaskResultV2Schema).
    expect('resultType' in got).toBe(false);
  }, 30_000);
});
