/**
 * Live lists and misbehaving servers, with real processes: resources and prompts are listed;
 * list_changed refreshes the tools offered to the model (also from a server that never declared
 * listChanged); pagination guards; an unsupported protocol version; a stderr flood stays bounded.
 */
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collectPages, McpConnection } from '../../../../main/mcp/connection.js';
import { ConfigStore, type LocalServerConfig } from '../../../../main/mcp/config.js';
import { McpHost } from '../../../../main/mcp/host.js';
import type { RegisteredTool } from '../../../../main/mcp/adapter.js';
import { ROOT, bashCommand, descendantPids, makeTempDir, removeDir, waitFor, waitNoChildren, localServer } from '../../helpers.js';

const RAW = path.join(ROOT, 'test', 'fixtures', 'raw-server.mjs');
const EVERYTHING = path.join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const local = (command: string[], timeout = 20): LocalServerConfig => localServer(command, { timeout_seconds: timeout });

let dir: string;
const open: Array<{ close(): Promise<void> } | { shutdown(): Promise<void> }> = [];
beforeEach(() => {
  dir = makeTempDir('op-lists-');
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => ('close' in o ? o.close() : o.shutdown())));
  expect(await waitNoChildren(), `child processes left: ${descendantPids().join(', ')}`).toBe(true);
  await removeDir(dir);
});

describe('collectPages guards', () => {
  it('follows every page', async () => {
    const r = await collectPages(async (c) => ({ items: [c ?? '0'], nextCursor: c === undefined ? '1' : c === '1' ? '2' : undefined }));
    expect(r).toEqual({ items: ['0', '1', '2'], stopped: null });
  });
  it('stops on a repeated cursor (keeping one copy of each item) and after too many pages; an empty cursor is the end', async () => {
    const loop = await collectPages(async () => ({ items: [1], nextCursor: 'same' }));
    expect(loop).toEqual({ items: [1], stopped: 'repeated_cursor' });
    const cycle = await collectPages(async (c) => ({ items: [c ?? 'A0'], nextCursor: c === 'B' ? 'A' : c === 'A' ? 'B' : 'A' }));
    expect(cycle).toEqual({ items: ['A0', 'A', 'B'], stopped: 'repeated_cursor' });
    const empty = await collectPages(async () => ({ items: [1], nextCursor: '' }));
    expect(empty).toEqual({ items: [1], stopped: null });
    let n = 0;
    const many = await collectPages(async () => ({ items: [n], nextCursor: String(++n) }), 10);
    expect(many.items).toHaveLength(10);
    expect(many.stopped).toBe('too_many_pages');
  });
});

describe('resources and prompts', () => {
  it('server-everything (stdio) lists tools, resources and prompts', async () => {
    const c = new McpConnection('every', local([process.execPath, EVERYTHING, 'stdio']));
    open.push(c);
    await c.start();
    expect(c.status).toBe('ready');
    expect(c.tools.length).toBeGreaterThan(5);
    expect(c.resources.length).toBeGreaterThan(0);
    expect(c.prompts.length).toBeGreaterThan(0);
  }, 30_000);
});

describe('list_changed', () => {
  it('a server that never declared listChanged still refreshes the tools offered to the model', async () => {
    const store = new ConfigStore(dir);
    await store.load();
    await store.put('b', local(bashCommand()));
    const events: RegisteredTool[][] = [];
    const host = new McpHost(store, { events: { toolsChanged: (t) => events.push(t) } });
    open.push(host);
    host.startAll();
    await host.whenStarted();
    expect(host.tools().map((t) => t.name)).not.toContain('b__grown');
    await host.callTool('b__grow', {});
    expect(await waitFor(() => host.tools().some((t) => t.name === 'b__grown'), 5000)).toBe(true);
    expect(events.at(-1)?.map((t) => t.name)).toContain('b__grown');
    const r = await host.callTool('b__grown', {});
    expect((r.content as Array<{ text: string }>)[0]!.text).toBe('I was added at run time');
    expect(host.logs('b').some((e) => e.text === 'tools/list_changed received')).toBe(true);
  });
});

describe('misbehaving servers', () => {
  it('an unsupported protocol version → error of kind protocol (the initialize answer was not accepted)', async () => {
    const c = new McpConnection('old', local([process.execPath, RAW, 'bad-version'], 5));
    open.push(c);
    await c.start();
    expect(c.status).toBe('error');
    expect(c.state).toEqual({ kind: 'error', failure: { kind: 'protocol', phase: 'handshake', reason: 'initialize_rejected', rpc_code: null, server_message: null } });
    expect(c.log.all().some((e) => e.source === 'lifecycle' && /1999-01-01/.test(e.text))).toBe(true);
  });

  it('a cursor that repeats forever stops listing with a visible warning; the server is still usable', async () => {
    const c = new McpConnection('loop', local([process.execPath, RAW, 'pages-loop'], 5));
    open.push(c);
    await c.start();
    expect(c.status).toBe('ready');
    expect(c.issues).toEqual([{ kind: 'list_stopped', list: 'tools', reason: 'repeated_cursor' }]);
    expect(c.tools.map((t) => t.name)).toEqual(['t0', 'tNaN']);
  });

  it('a response to no request is logged as a protocol line, and the server stays ready', async () => {
    const c = new McpConnection('stray', local([process.execPath, RAW, 'stray-response'], 5));
    open.push(c);
    await c.start();
    expect(c.status).toBe('ready');
    expect(await waitFor(() => c.log.all().some((e) => e.source === 'protocol' && /987654/.test(e.text)), 5000)).toBe(true);
    expect(c.status).toBe('ready');
  });

  it('a stderr flood is kept bounded in the log and the server still works', async () => {
    const c = new McpConnection('flood', local([process.execPath, RAW, 'flood'], 10));
    open.push(c);
    await c.start();
    expect(c.status).toBe('ready');
    expect(await waitFor(() => c.log.all().some((e) => e.source === 'stderr' && /flood line 19999/.test(e.text)), 5000)).toBe(true);
    expect(c.log.all().length).toBeLessThanOrEqual(500);
    expect(c.stderrTail().length).toBeLessThanOrEqual(20);
  });
});
