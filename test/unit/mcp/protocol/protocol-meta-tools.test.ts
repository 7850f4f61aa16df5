/**
 * The host's own tools (docs/ARCHITECTURE.md "Protocol features") against the real
 * server-everything: they are offered with valid provider names and `readOnlyHint`, list and read
 * the resources of ready servers and fetch their prompts; a read goes only to the server that
 * listed the resource (a URI the server can serve but did not list is refused); results are
 * bounded; they pass the same permission gate as any tool.
 */
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppCore } from '../../../../main/core.js';
import { META_SERVER } from '../../../../main/mcp/protocol/meta-tools.js';
import { MemorySecretStore } from '../../../../main/secrets/store.js';
import { descendantPids, makeTempDir, removeDir, ROOT, sdkCommand, waitFor, waitNoChildren } from '../../helpers.js';

const EVERYTHING = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
let dir: string;
let core: AppCore;

beforeEach(async () => {
  dir = makeTempDir('op-meta-');
  core = new AppCore({ stateDir: dir, shell: 'browser', secrets: new MemorySecretStore() });
  await core.start();
});

afterEach(async () => {
  await core.shutdown();
  expect(await waitNoChildren(), `child processes left: ${descendantPids().join(', ')}`).toBe(true);
  await removeDir(dir);
});

type Result = { isError?: boolean; content: Array<{ type: string; text?: string }> };
const call = async (name: string, args: Record<string, unknown>): Promise<Result> => (await core.host.callTool(name, args)) as Result;
const textOf = (r: Result): string => r.content.map((c) => c.text ?? '').join('\n');

describe('host meta tools', () => {
  it('are offered only when a ready server has resources or prompts, with valid names and readOnlyHint', async () => {
    await core.host.add('plain', { type: 'local', command: sdkCommand() });
    expect(await waitFor(() => core.host.view('plain').state.kind === 'ready', 10_000)).toBe(true);
    expect(core.host.tools().filter((t) => t.server === META_SERVER)).toEqual([]);
    await core.host.add('ev', { type: 'local', command: [process.execPath, EVERYTHING, 'stdio'] });
    expect(await waitFor(() => core.host.view('ev').state.kind === 'ready', 20_000)).toBe(true);
    const meta = core.host.tools().filter((t) => t.server === META_SERVER);
    expect(meta.map((t) => t.name).sort()).toEqual(['host__get_prompt', 'host__list_prompts', 'host__list_resources', 'host__read_resource']);
    for (const t of meta) {
      expect(t.name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
      expect(t.annotations.readOnlyHint).toBe(true);
    }
    // They belong to no configured server's view.
    expect(core.host.view('ev').tools.some((t) => t.name.startsWith('host__'))).toBe(false);
  });

  it('list, read (only what the server listed), list prompts and get a prompt', async () => {
    await core.host.add('ev', { type: 'local', command: [process.execPath, EVERYTHING, 'stdio'] });
    expect(await waitFor(() => core.host.view('ev').state.kind === 'ready', 20_000)).toBe(true);
    const listed = JSON.parse(textOf(await call('host__list_resources', {}))) as { resources: Array<{ server: string; uri: string; mimeType?: string }> };
    expect(listed.resources.length).toBeGreaterThan(0);
    const textRes = listed.resources.find((r) => r.mimeType?.startsWith('text/'))!;
    expect(textRes.server).toBe('ev');
    const read = await call('host__read_resource', { server: 'ev', uri: textRes.uri });
    expect(read.isError).not.toBe(true);
    expect(textOf(read)).toContain(textRes.uri);
    expect(textOf(read).length).toBeGreaterThan(textRes.uri.length + 5);

    // A URI the server would serve (a template) but did not list: refused, never sent.
    const unlisted = await call('host__read_resource', { server: 'ev', uri: 'demo://resource/dynamic/text/1' });
    expect(unlisted.isError).toBe(true);
    expect(textOf(unlisted)).toContain('did not list');
    // Unknown server, missing argument: tool errors for the model, not exceptions.
    expect((await call('host__read_resource', { server: 'nope', uri: textRes.uri })).isError).toBe(true);
    expect((await call('host__read_resource', { server: 'ev' })).isError).toBe(true);
    expect((await call('host__list_resources', { server: 'nope' })).isError).toBe(true);

    const prompts = JSON.parse(textOf(await call('host__list_prompts', { server: 'ev' }))) as { prompts: Array<{ name: string }> };
    expect(prompts.prompts.map((p) => p.name)).toContain('args-prompt');
    const got = await call('host__get_prompt', { server: 'ev', name: 'args-prompt', arguments: { city: 'Lisbon' } });
    expect(got.isError).not.toBe(true);
    expect(textOf(got)).toContain("user: What's weather in Lisbon?");
    expect((await call('host__get_prompt', { server: 'ev', name: 'no-such-prompt' })).isError).toBe(true);
    expect((await call('host__get_prompt', { server: 'ev', name: 'args-prompt', arguments: { city: 3 } })).isError).toBe(true);
  });

  it('pass the permission gate like any tool: read-only runs without a card in the default mode, asks under "ask every time"', async () => {
    await core.host.add('ev', { type: 'local', command: [process.execPath, EVERYTHING, 'stdio'] });
    expect(await waitFor(() => core.host.view('ev').state.kind === 'ready', 20_000)).toBe(true);
    const req = { conversation_id: 'c1', run_id: 'r1', call_id: 'k1', tool: core.host.tool('host__list_resources')!, args: {} };
    expect(await core.permissions.gate.authorize(req)).toMatchObject({ allowed: true, via: 'read_only_hint' });
    await core.permissions.setMode('ask_all');
    const pending = core.permissions.gate.authorize({ ...req, call_id: 'k2' });
    expect(await waitFor(() => core.permissions.pending().length === 1, 5000)).toBe(true);
    expect(core.permissions.pending()[0]).toMatchObject({ server: META_SERVER, tool: 'list_resources', namespaced_tool: 'host__list_resources' });
    core.permissions.broker.answer(core.permissions.pending()[0]!.id, { decision: 'deny' }, core.permissions.pending()[0]!.args_sha256);
    expect(await pending).toMatchObject({ allowed: false, reason: 'denied' });
  });
});
