/**
 * MCP Tasks against server-everything's task tool (`simulate-research-query`, 2025-11-25 tasks
 * of SDK v1) as a real stdio process: a task-backed call reports its statuses and returns its
 * final result, and a cancel reaches the server (`tasks/cancel`, its task store says cancelled).
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpConnection } from '../../../../main/mcp/connection.js';
import { TaskCancelled, type TaskReference } from '../../../../main/mcp/tasks/session.js';
import type { TaskStatus } from '../../../../preload/contract/index.js';
import { ROOT, descendantPids, localServer, waitNoChildren } from '../../helpers.js';

const EVERYTHING = path.join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const RESEARCH = 'simulate-research-query';

const open: McpConnection[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
  expect(await waitNoChildren(), `child processes left: ${descendantPids().join(', ')}`).toBe(true);
});

async function everything(): Promise<McpConnection> {
  const c = new McpConnection('every', localServer([process.execPath, EVERYTHING, 'stdio'], { timeout_seconds: 20 }));
  open.push(c);
  await c.start();
  expect(c.status).toBe('ready');
  return c;
}

describe('tasks with server-everything', () => {
  it('a task-backed call reports the status messages and returns the final result', async () => {
    const c = await everything();
    const created: TaskReference[] = [];
    const seen: TaskStatus[] = [];
    const r = await c.callTool(RESEARCH, { topic: 'tides' }, {
      task: { created: (t) => created.push(t.reference), updated: (s) => seen.push(s) },
    });
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ generation: 'v1', originalOperation: 'tools/call' });
    const text = (r.content as Array<{ text: string }>)[0]!.text;
    expect(text).toMatch(/# Research Report: tides/);
    const messages = seen.map((s) => s.message);
    expect(messages).toContain('Gathering sources...');
    expect(messages).toContain('Generating report...');
    expect(seen.at(-1)!.kind).toBe('completed');
  }, 30_000);

  it('input_required: the server asks through an elicitation delivered with tasks/result; the answer shapes the result', async () => {
    const asked: string[] = [];
    const c = new McpConnection('every', localServer([process.execPath, EVERYTHING, 'stdio'], { timeout_seconds: 20 }), undefined, undefined, null, {
      elicit: async (_server, form) => {
        asked.push(form.message);
        return { action: 'accept', content: { interpretation: 'snake' } };
      },
    });
    open.push(c);
    await c.start();
    const seen: TaskStatus[] = [];
    const r = await c.callTool(RESEARCH, { topic: 'python', ambiguous: true }, { task: { created: () => undefined, updated: (s) => seen.push(s) } });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(/could have multiple interpretations/);
    expect(seen.map((s) => s.kind)).toContain('input_required');
    expect((r.content as Array<{ text: string }>)[0]!.text).toMatch(/# Research Report: python \(snake\)/);
  }, 40_000);

  it('aborting the call cancels the task on the server (tasks/cancel)', async () => {
    const c = await everything();
    const ac = new AbortController();
    let taskId = '';
    const call = c.callTool(RESEARCH, { topic: 'glaciers' }, {
      signal: ac.signal,
      task: {
        created: (t) => {
          taskId = t.reference.taskId;
          setTimeout(() => ac.abort(), 300);
        },
        updated: () => undefined,
      },
    });
    await expect(call).rejects.toBeInstanceOf(TaskCancelled);
    // The server's own task store says so: a fresh tasks/get on the same session.
    const client = (c as unknown as { client: { request(r: unknown, s: unknown): Promise<unknown> } }).client;
    const { z } = await import('zod');
    const got = (await client.request({ method: 'tasks/get', params: { taskId } }, z.looseObject({ status: z.string() }))) as { status: string };
    expect(got.status).toBe('cancelled');
  }, 30_000);
});
