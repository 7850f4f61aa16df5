/**
 * Tool-call progress (MCP spec "Utilities: Progress"), with server-everything's long-running tool
 * as a real stdio process: McpConnection and McpHost pass every `notifications/progress` of a
 * call to the caller's `onProgress`, and progress keeps extending the call's read timeout.
 */
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpConnection, type ToolProgress } from '../../../../main/mcp/connection.js';
import { ConfigStore } from '../../../../main/mcp/config.js';
import { McpHost } from '../../../../main/mcp/host.js';
import { ROOT, descendantPids, localServer, makeTempDir, removeDir, waitNoChildren } from '../../helpers.js';

const EVERYTHING = path.join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const LONG = 'trigger-long-running-operation';

let dir: string;
const open: Array<{ close(): Promise<void> } | { shutdown(): Promise<void> }> = [];
beforeEach(() => {
  dir = makeTempDir('op-progress-');
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => ('close' in o ? o.close() : o.shutdown())));
  expect(await waitNoChildren(), `child processes left: ${descendantPids().join(', ')}`).toBe(true);
  await removeDir(dir);
});

describe('tool-call progress', () => {
  it('McpConnection.callTool hands every progress notification to onProgress, in order', async () => {
    const c = new McpConnection('every', localServer([process.execPath, EVERYTHING, 'stdio'], { timeout_seconds: 20 }));
    open.push(c);
    await c.start();
    expect(c.status).toBe('ready');
    const seen: ToolProgress[] = [];
    const r = await c.callTool(LONG, { duration: 0.4, steps: 4 }, { onProgress: (p) => seen.push(p) });
    expect((r.content as Array<{ text: string }>)[0]!.text).toMatch(/completed/);
    // The last notification may race the result on the wire; the ones before it cannot.
    expect(seen.slice(0, 3)).toEqual([1, 2, 3].map((progress) => ({ progress, total: 4, message: null })));
    expect(seen.length).toBeLessThanOrEqual(4);
  }, 30_000);

  it('progress extends the read timeout: a call longer than its timeout still completes', async () => {
    const c = new McpConnection('every', localServer([process.execPath, EVERYTHING, 'stdio'], { timeout_seconds: 20 }));
    open.push(c);
    await c.start();
    // 6 steps of 0.3 s = 1.8 s in all, against a 1 s read timeout that each notification restarts.
    const seen: ToolProgress[] = [];
    const r = await c.callTool(LONG, { duration: 1.8, steps: 6 }, { timeoutMs: 1000, onProgress: (p) => seen.push(p) });
    expect(r.isError ?? false).toBe(false);
    expect(seen.map((p) => p.progress).slice(0, 5)).toEqual([1, 2, 3, 4, 5]);
  }, 30_000);

  it('a throwing listener does not fail the call', async () => {
    const c = new McpConnection('every', localServer([process.execPath, EVERYTHING, 'stdio'], { timeout_seconds: 20 }));
    open.push(c);
    await c.start();
    const r = await c.callTool(LONG, { duration: 0.2, steps: 2 }, {
      onProgress: () => {
        throw new Error('listener broke');
      },
    });
    expect((r.content as Array<{ text: string }>)[0]!.text).toMatch(/completed/);
  }, 30_000);

  it('McpHost.callTool passes onProgress through to the server that owns the tool', async () => {
    const store = new ConfigStore(dir);
    await store.load();
    await store.put('every', localServer([process.execPath, EVERYTHING, 'stdio'], { timeout_seconds: 20 }));
    const host = new McpHost(store, {});
    open.push(host);
    host.startAll();
    await host.whenStarted();
    const seen: ToolProgress[] = [];
    await host.callTool(`every__${LONG}`, { duration: 0.6, steps: 3 }, { onProgress: (p) => seen.push(p) });
    expect(seen.slice(0, 2)).toEqual([1, 2].map((progress) => ({ progress, total: 3, message: null })));
  }, 30_000);
});
