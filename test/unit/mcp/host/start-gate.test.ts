/**
 * When servers start with `startServers: 'after-ui'` (both shells; docs/ARCHITECTURE.md
 * "Start-up and shutdown"): a real core with a real stdio server in mcp_servers.json. No process
 * is spawned before the window's first call is answered; the call starts them; with no window the
 * fallback starts them; shutdown before that spawns nothing; a call before the config is loaded
 * starts them as soon as it is.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppCore } from '../../../../main/core.js';
import { createDispatcher } from '../../../../main/ipc/dispatch.js';
import { MemorySecretStore } from '../../../../main/secrets/store.js';
import { descendantPids, makeTempDir, removeDir, sdkCommand, sleep, waitFor, waitNoChildren } from '../../helpers.js';

let dir: string;
let core: AppCore | null;

function makeCore(serverStartFallbackMs: number): AppCore {
  core = new AppCore({ stateDir: dir, shell: 'browser', secrets: new MemorySecretStore(), startServers: 'after-ui', serverStartFallbackMs });
  return core;
}

beforeEach(() => {
  dir = makeTempDir('op-start-gate-');
  writeFileSync(path.join(dir, 'mcp_servers.json'), JSON.stringify({ servers: { fx: { type: 'local', command: sdkCommand(), enabled: true } } }));
  core = null;
});

afterEach(async () => {
  await core?.shutdown();
  expect(await waitNoChildren(), `child processes left: ${descendantPids().join(', ')}`).toBe(true);
  await removeDir(dir);
});

describe("startServers: 'after-ui'", () => {
  it('spawns nothing before the first call; the answered call starts the servers', async () => {
    const c = makeCore(600_000);
    await c.start();
    await sleep(200);
    expect(c.host.view('fx').state.kind).toBe('starting');
    expect(c.host.connection('fx')).toBeUndefined();
    expect(descendantPids()).toEqual([]);
    const d = createDispatcher(c);
    const list = await d.invoke('servers.list', {});
    expect(list.ok).toBe(true);
    expect(await waitFor(() => c.host.view('fx').state.kind === 'ready', 15_000)).toBe(true);
  });

  it('with no window, the fallback starts the servers', async () => {
    const c = makeCore(50);
    await c.start();
    expect(await waitFor(() => c.host.view('fx').state.kind === 'ready', 15_000)).toBe(true);
  });

  it('shutdown before the fallback: nothing is ever spawned', async () => {
    const c = makeCore(100);
    await c.start();
    await c.shutdown();
    core = null;
    await sleep(400);
    expect(c.host.connection('fx')).toBeUndefined();
    expect(descendantPids()).toEqual([]);
  });

  it('a call answered before the config was loaded starts the servers once it is', async () => {
    const c = makeCore(600_000);
    const d = createDispatcher(c);
    expect((await d.invoke('app.info', {})).ok).toBe(true);
    await sleep(50);
    expect(c.host.connection('fx')).toBeUndefined();
    await c.start();
    expect(await waitFor(() => c.host.view('fx').state.kind === 'ready', 15_000)).toBe(true);
  });
});
