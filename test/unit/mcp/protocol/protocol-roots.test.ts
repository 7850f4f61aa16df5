/**
 * Roots through the host with the real server-filesystem process started WITHOUT directory
 * arguments (docs/ARCHITECTURE.md "Protocol features"): it asks the host for its roots
 * (`roots/list`) and may then read inside them and not outside; changing the folders (the
 * default, or the server's own through a PATCH) sends `notifications/roots/list_changed` and the
 * server follows without a restart. Bad folder lists are refused and nothing is saved.
 */
import { promises as fs, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppCore } from '../../../../main/core.js';
import { createDispatcher } from '../../../../main/ipc/dispatch.js';
import { DefaultRootsStore, normalizeRoots, ROOTS_FILE, RootsInputError, toRootEntries } from '../../../../main/mcp/protocol/roots.js';
import { ConfigError, parseServerEntry } from '../../../../main/mcp/config.js';
import { applyPatch } from '../../../../main/mcp/config/patch.js';
import { MemorySecretStore } from '../../../../main/secrets/store.js';
import { descendantPids, makeTempDir, removeDir, ROOT, waitFor, waitNoChildren } from '../../helpers.js';

const FS_SERVER = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
let dir: string;
let dirA: string;
let dirB: string;
let core: AppCore;

beforeEach(async () => {
  dir = makeTempDir('op-roots-');
  dirA = path.join(dir, 'work', 'alpha');
  dirB = path.join(dir, 'work', 'beta');
  mkdirSync(dirA, { recursive: true });
  mkdirSync(dirB, { recursive: true });
  writeFileSync(path.join(dirA, 'a.txt'), 'inside alpha');
  writeFileSync(path.join(dirB, 'b.txt'), 'inside beta');
  core = new AppCore({ stateDir: path.join(dir, 'state'), shell: 'browser', secrets: new MemorySecretStore() });
  await core.start();
});

afterEach(async () => {
  await core.shutdown();
  expect(await waitNoChildren(), `child processes left: ${descendantPids().join(', ')}`).toBe(true);
  await removeDir(dir);
});

/** Read a file through the server; `{ok, text}` (a refusal is a tool error, not a throw). */
async function read(file: string): Promise<{ ok: boolean; text: string }> {
  try {
    const r = (await core.host.callTool('fs__read_text_file', { path: file })) as { isError?: boolean; content: Array<{ text?: string }> };
    return { ok: r.isError !== true, text: r.content.map((c) => c.text ?? '').join('') };
  } catch (err) {
    return { ok: false, text: (err as Error).message };
  }
}

/** Poll an async condition. */
async function eventually(pred: () => Promise<boolean>, timeoutMs = 10_000): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await pred()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

describe('roots with server-filesystem (no directory arguments)', () => {
  it('sandboxed: a roots change restarts it, since the sandbox grants root folders at start; it then reads inside the new ones only', async () => {
    const d = createDispatcher(core);
    await d.invoke('roots.setDefault', { roots: [dirA] });
    await core.host.add('fs', { type: 'local', command: [process.execPath, FS_SERVER] });
    expect(await waitFor(() => core.host.view('fs').state.kind === 'ready', 20_000)).toBe(true);
    if (core.host.view('fs').sandbox?.kind !== 'on') return; // no bubblewrap here: the unsandboxed test below covers roots
    expect(await eventually(async () => (await read(path.join(dirA, 'a.txt'))).ok)).toBe(true);
    const pid = core.host.connection('fs')!.pid;
    await d.invoke('servers.update', { name: 'fs', patch: { roots: [dirB] } });
    expect(await eventually(async () => (await read(path.join(dirB, 'b.txt'))).ok)).toBe(true);
    expect(core.host.connection('fs')!.pid).not.toBe(pid);
    expect((await read(path.join(dirA, 'a.txt'))).ok).toBe(false);
    expect(core.host.logs('fs').some((l) => l.text.startsWith('restarting: its roots changed'))).toBe(true);
  });

  it('unsandboxed: default roots, then the server’s own, then back: it reads inside them and not outside, without a restart', async () => {
    const d = createDispatcher(core);
    expect(await d.invoke('roots.setDefault', { roots: [dirA] })).toEqual({ ok: true, value: { roots: [dirA] } });
    await core.host.add('fs', { type: 'local', command: [process.execPath, FS_SERVER], sandbox: { enabled: false } });
    expect(await waitFor(() => core.host.view('fs').state.kind === 'ready', 20_000)).toBe(true);
    expect(core.host.view('fs').protocol.roots).toEqual({ own: null, effective: [dirA] });
    expect(await eventually(async () => (await read(path.join(dirA, 'a.txt'))).ok)).toBe(true);
    expect((await read(path.join(dirA, 'a.txt'))).text).toBe('inside alpha');
    const outside = await read(path.join(dirB, 'b.txt'));
    expect(outside.ok).toBe(false);
    expect(outside.text).toMatch(/denied|outside|not allowed/i);

    // The server's own folders (PATCH), told through notifications/roots/list_changed.
    const pid = core.host.connection('fs')!.pid;
    const patched = await d.invoke('servers.update', { name: 'fs', patch: { roots: [dirB] } });
    expect(patched).toMatchObject({ ok: true, value: { protocol: { roots: { own: [dirB], effective: [dirB] } } } });
    expect(await eventually(async () => (await read(path.join(dirB, 'b.txt'))).ok)).toBe(true);
    expect((await read(path.join(dirA, 'a.txt'))).ok).toBe(false);
    expect(core.host.connection('fs')!.pid).toBe(pid); // no restart
    const file = JSON.parse(await fs.readFile(path.join(dir, 'state', 'mcp_servers.json'), 'utf8')) as { servers: Record<string, { roots?: string[] }> };
    expect(file.servers.fs!.roots).toEqual([dirB]);

    // Back to the default (null), and a new default reaches it too.
    await d.invoke('servers.update', { name: 'fs', patch: { roots: null } });
    expect(await eventually(async () => (await read(path.join(dirA, 'a.txt'))).ok)).toBe(true);
    await d.invoke('roots.setDefault', { roots: [dirB] });
    expect(await eventually(async () => (await read(path.join(dirB, 'b.txt'))).ok && !(await read(path.join(dirA, 'a.txt'))).ok)).toBe(true);
    expect(core.host.connection('fs')!.pid).toBe(pid);
    const saved = JSON.parse(await fs.readFile(path.join(dir, 'state', 'roots.json'), 'utf8')) as { default: string[] };
    expect(saved.default).toEqual([dirB]);
  });

  it('bad folder lists are refused with a typed error on the roots field, and nothing is saved', async () => {
    const d = createDispatcher(core);
    await d.invoke('roots.setDefault', { roots: [dirA] });
    // Why, as the issue the window words (never main's English).
    expect(await d.invoke('roots.setDefault', { roots: ['relative/dir'] })).toMatchObject({ ok: false, error: { code: 'invalid_input', field: 'roots', issue: { code: 'custom', path: ['roots'], rule: 'absolute_path' } } });
    expect(await d.invoke('roots.setDefault', { roots: ['/ok', 'bad\u0001'] })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await d.invoke('roots.setDefault', { roots: Array.from({ length: 65 }, (_, i) => `/d${i}`) })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await d.invoke('roots.getDefault', {})).toEqual({ ok: true, value: { roots: [dirA], can_pick: false } });
    await core.host.add('fs', { type: 'local', command: [process.execPath, FS_SERVER] });
    expect(await waitFor(() => core.host.view('fs').state.kind === 'ready', 20_000)).toBe(true);
    expect(await d.invoke('servers.update', { name: 'fs', patch: { roots: ['not/absolute'] } })).toMatchObject({ ok: false, error: { code: 'invalid_input', issue: { rule: 'absolute_path' } } });
    expect(core.host.view('fs').protocol.roots.own).toBeNull();
    // No folder picker in the browser shell: the path field is used instead.
    expect(await d.invoke('roots.pickFolder', {})).toEqual({ ok: true, value: { path: null } });
  });

  it('an unreadable default roots file is kept and not used; the window is told by code, with the file and the parser’s words', async () => {
    const other = makeTempDir('op-roots-bad-');
    try {
      writeFileSync(path.join(other, ROOTS_FILE), '{ not json');
      const store = new DefaultRootsStore(other);
      expect(await store.load()).toEqual({ code: 'roots_unreadable', file: path.join(other, ROOTS_FILE), said: expect.stringMatching(/JSON/) });
      expect(store.get()).toEqual([]);
      // A window that connects after the start (the browser shell's) learns of it from app.info.
      const late = new AppCore({ stateDir: other, shell: 'browser', secrets: new MemorySecretStore() });
      await late.start();
      try {
        expect(await createDispatcher(late).invoke('app.info', {})).toMatchObject({ ok: true, value: { warnings: [{ code: 'roots_unreadable', file: path.join(other, ROOTS_FILE) }] } });
      } finally {
        await late.shutdown();
      }
    } finally {
      await removeDir(other);
    }
  });

  it('normalizeRoots and toRootEntries', () => {
    expect(normalizeRoots(['/a/b/../c', '/a/c'])).toEqual(['/a/c']);
    expect(() => normalizeRoots(['a'])).toThrow(RootsInputError);
    expect(toRootEntries(['/tmp/my dir'])).toEqual([{ uri: 'file:///tmp/my%20dir', name: 'my dir' }]);
  });

  it('the config entry: roots load normalized, bad ones are a ConfigError on the roots field, PATCH keeps/replaces/clears', () => {
    const cfg = parseServerEntry({ type: 'local', command: ['x'], roots: ['/a/./b', '/a/b'] });
    expect(cfg.roots).toEqual(['/a/b']);
    expect(parseServerEntry({ type: 'local', command: ['x'] }).roots).toBeUndefined();
    for (const bad of [['rel'], '/not-a-list', [3]]) {
      let err: unknown;
      try {
        parseServerEntry({ type: 'local', command: ['x'], roots: bad });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).field).toBe('roots');
    }
    expect(applyPatch(cfg, { timeout_seconds: 5 }).roots).toEqual(['/a/b']);
    expect(applyPatch(cfg, { roots: ['/c'] }).roots).toEqual(['/c']);
    expect(applyPatch(cfg, { roots: null }).roots).toBeUndefined();
    expect(() => applyPatch(cfg, { roots: ['c'] })).toThrow(ConfigError);
  });
});
