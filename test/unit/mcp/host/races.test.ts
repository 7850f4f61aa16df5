/**
 * Management actions win races (docs/ARCHITECTURE.md "Update semantics (PATCH)"): removing or
 * disabling a server while an edit of it is starting sticks (no server comes back, running or
 * saved) and the edit says so by fact; once shutdown began, actions are refused as the app
 * shutting down; two concurrent adds of one name give the second a conflict; names that differ
 * only in case are duplicates. Real server processes (the SDK fixture, slowed with --init-delay).
 */
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigStore } from '../../../../main/mcp/config.js';
import { HostError, McpHost } from '../../../../main/mcp/host.js';
import { MemorySecretStore } from '../../../../main/secrets/store.js';
import { descendantPids, makeTempDir, removeDir, sdkCommand, waitFor, waitNoChildren } from '../../helpers.js';

let dir: string;
let store: ConfigStore;
let host: McpHost;
beforeEach(async () => {
  dir = makeTempDir('op-races-');
  const secrets = new MemorySecretStore();
  store = new ConfigStore(dir, secrets);
  await store.load();
  host = new McpHost(store, { secrets });
});
afterEach(async () => {
  await host.shutdown();
  expect(await waitNoChildren(), `child processes left: ${descendantPids().join(', ')}`).toBe(true);
  await removeDir(dir);
});

const codeOf = (e: unknown): string | undefined => (e instanceof HostError ? e.code : undefined);

async function readyServer(name: string): Promise<void> {
  await host.add(name, { type: 'local', command: sdkCommand() });
  expect(await waitFor(() => host.view(name).state.kind === 'ready', 15_000)).toBe(true);
}

describe('an edit that is still starting loses to', () => {
  it('a removal: the server stays removed, stopped and unsaved', async () => {
    await readyServer('a');
    const edit = host.update('a', { command: sdkCommand('--init-delay=800'), env: { X: 'edited-value' } }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 200));
    await host.remove('a');
    const r = await edit;
    expect(codeOf(r)).toBe('conflict');
    // The window words it from the fact: the edit was overtaken, so it was not saved.
    expect((r as HostError).fact).toEqual({ kind: 'edit_superseded', server: 'a' });
    expect(store.has('a')).toBe(false);
    expect(host.list()).toEqual([]);
    expect(host.connection('a')).toBeUndefined();
    expect(JSON.parse(readFileSync(store.file, 'utf8')).servers).toEqual({});
    expect(await waitNoChildren(), `child processes left: ${descendantPids().join(', ')}`).toBe(true);
  }, 30_000);

  it('a disable: the server stays disabled, stopped, and the disable is saved', async () => {
    await readyServer('b');
    const edit = host.update('b', { command: sdkCommand('--init-delay=800') }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 200));
    await host.setEnabled('b', false);
    expect(codeOf(await edit)).toBe('conflict');
    expect(host.view('b').state.kind).toBe('disabled');
    expect(store.get('b')?.enabled).toBe(false);
    expect(JSON.parse(readFileSync(store.file, 'utf8')).servers.b.enabled).toBe(false);
    expect(host.connection('b')).toBeUndefined();
    expect(await waitNoChildren(), `child processes left: ${descendantPids().join(', ')}`).toBe(true);
  }, 30_000);
});

describe('after shutdown began', () => {
  it('an add, an edit and a rename are refused as the app shutting down (a fact, not a sentence)', async () => {
    await host.add('c', { type: 'local', command: sdkCommand(), enabled: false });
    await host.shutdown();
    for (const attempt of [host.add('d', { type: 'local', command: sdkCommand(), enabled: false }), host.update('c', { env: { X: '1' } }), host.rename('c', 'e')]) {
      const err = await attempt.catch((e: unknown) => e);
      expect(codeOf(err)).toBe('start_failed');
      expect((err as HostError).fact).toEqual({ kind: 'shutting_down' });
    }
  });
});

describe('names', () => {
  it('two concurrent adds of one name: the second gets a conflict', async () => {
    const cfg = { type: 'local' as const, command: sdkCommand(), enabled: false };
    const results = await Promise.allSettled([host.add('twin', cfg), host.add('twin', cfg)]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(codeOf(rejected.reason)).toBe('conflict');
    expect(store.names()).toEqual(['twin']);
  });

  it('names that differ only in case are duplicates (add and import)', async () => {
    await host.add('Files', { type: 'local', command: sdkCommand(), enabled: false });
    const err = await host.add('files', { type: 'local', command: sdkCommand(), enabled: false }).catch((e: unknown) => e);
    expect(codeOf(err)).toBe('conflict');
    expect((err as HostError).field).toBe('name');
    const r = await host.importServers(JSON.stringify({ servers: { FILES: { type: 'local', command: sdkCommand(), enabled: false } } }), true);
    expect(r.added).toEqual([]);
    expect(r.replaced).toEqual([]);
    expect(r.skipped[0]).toMatchObject({ name: 'FILES', reason: expect.stringMatching(/differ only in case/) });
    expect(store.names()).toEqual(['Files']);
  });
});
