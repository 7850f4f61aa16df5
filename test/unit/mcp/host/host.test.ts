/**
 * mcp/host (registry) with real processes and a real config file: background startup and its
 * rules (docs/ARCHITECTURE.md "Readiness"), management actions, shutdown, and tool-name collisions.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServerView } from '../../../../preload/contract/index.js';
import type { RegisteredTool } from '../../../../main/mcp/adapter.js';
import { ConfigStore, type LocalServerConfig } from '../../../../main/mcp/config.js';
import { HostError, McpHost } from '../../../../main/mcp/host.js';
import { bashCommand, descendantPids, isAlive, makeTempDir, removeDir, SDK_SERVER, sdkCommand, waitFor, waitGone, waitNoChildren, localServer, sha256 } from '../../helpers.js';

const local = localServer;
/** A command that leaves a marker file when it is launched, then runs the SDK fixture. */
function markedCommand(marker: string, ...flags: string[]): string[] {
  return ['bash', '-c', 'touch "$0"; exec "$1" "$2" "${@:3}"', marker, process.execPath, SDK_SERVER, ...flags];
}

const textOf = (r: { content?: unknown }): string => ((r.content ?? []) as Array<{ text?: string }>).map((b) => b.text ?? '').join('');

let dir: string;
let store: ConfigStore;
let host: McpHost | null;
let changed: ServerView[];
let removed: string[];
let toolEvents: RegisteredTool[][];

function makeHost(concurrency = 4): McpHost {
  host = new McpHost(store, {
    concurrency,
    events: {
      changed: (v) => changed.push(v),
      removed: (n) => removed.push(n),
      toolsChanged: (t) => toolEvents.push(t),
    },
  });
  return host;
}

function diskServers(): Record<string, LocalServerConfig> {
  return (JSON.parse(readFileSync(store.file, 'utf8')) as { servers: Record<string, LocalServerConfig> }).servers;
}

beforeEach(async () => {
  dir = makeTempDir('op-host-');
  store = new ConfigStore(dir);
  await store.load();
  host = null;
  changed = [];
  removed = [];
  toolEvents = [];
});

afterEach(async () => {
  await host?.shutdown();
  expect(await waitNoChildren(), `child processes left: ${descendantPids().join(', ')}`).toBe(true);
  await removeDir(dir);
});

describe('startAll', () => {
  it('shows every enabled server as starting at once with no tools, then ready', async () => {
    await store.put('one', local(sdkCommand('--init-delay=300')));
    await store.put('two', local(bashCommand()));
    await store.put('three', local(sdkCommand('--init-delay=300', '--tools=2')));
    await store.put('off', local(sdkCommand(), { enabled: false }));
    const h = makeHost(2);
    h.startAll();
    const atOnce = h.list();
    expect(atOnce.map((v) => [v.name, v.state.kind])).toEqual([
      ['one', 'starting'],
      ['two', 'starting'],
      ['three', 'starting'],
      ['off', 'disabled'],
    ]);
    for (const v of atOnce) {
      expect(v.tools).toEqual([]);
      expect(v.tool_count).toBe(0);
    }
    expect(h.tools()).toEqual([]);
    // Every enabled server was announced as starting right away (three is still queued).
    expect(changed.filter((v) => v.state.kind === 'starting').map((v) => v.name).slice(0, 3)).toEqual(['one', 'two', 'three']);
    await h.whenStarted();
    const after = h.list();
    expect(after.map((v) => [v.name, v.state.kind])).toEqual([
      ['one', 'ready'],
      ['two', 'ready'],
      ['three', 'ready'],
      ['off', 'disabled'],
    ]);
    expect(h.view('two').tools.map((t) => t.name)).toEqual(['two__echo', 'two__upper', 'two__grow']);
    expect(h.view('three').tool_count).toBe(12);
    expect(h.tools()).toHaveLength(10 + 3 + 12);
    expect(h.connection('off')).toBeUndefined();
    expect(toolEvents.length).toBeGreaterThan(0);
  });

  it('a server deleted from the store before its turn is not started', async () => {
    const markerA = path.join(dir, 'a.started');
    const markerB = path.join(dir, 'b.started');
    await store.put('a', local(markedCommand(markerA, '--init-delay=400')));
    await store.put('b', local(markedCommand(markerB)));
    const h = makeHost(1);
    h.startAll();
    expect(h.view('b').state.kind).toBe('starting');
    await store.delete('b');
    await h.whenStarted();
    expect(existsSync(markerA)).toBe(true);
    expect(existsSync(markerB)).toBe(false);
    expect(h.connection('b')).toBeUndefined();
    expect(h.list().map((v) => v.name)).toEqual(['a']);
    expect(h.tools().every((t) => t.server === 'a')).toBe(true);
  });

  it('a server removed through the host before its turn is not started', async () => {
    const markerB = path.join(dir, 'b.started');
    await store.put('a', local(sdkCommand('--init-delay=400')));
    await store.put('b', local(markedCommand(markerB)));
    const h = makeHost(1);
    h.startAll();
    await h.remove('b');
    await h.whenStarted();
    expect(existsSync(markerB)).toBe(false);
    expect(removed).toEqual(['b']);
    expect(Object.keys(diskServers())).toEqual(['a']);
  });

  it('a disabled server stays disabled; one disabled before its turn is not started', async () => {
    const markerOff = path.join(dir, 'off.started');
    const markerLate = path.join(dir, 'late.started');
    await store.put('first', local(sdkCommand('--init-delay=400')));
    await store.put('off', local(markedCommand(markerOff), { enabled: false }));
    await store.put('late', local(markedCommand(markerLate)));
    const h = makeHost(1);
    h.startAll();
    expect(h.view('off').state.kind).toBe('disabled');
    expect(h.view('late').state.kind).toBe('starting');
    await store.put('late', { ...store.get('late')!, enabled: false });
    await h.whenStarted();
    expect(existsSync(markerOff)).toBe(false);
    expect(existsSync(markerLate)).toBe(false);
    expect(h.view('off').state.kind).toBe('disabled');
    expect(h.view('late').state.kind).toBe('disabled');
    expect(h.view('first').state.kind).toBe('ready');
  });

  it('a server edited in the store before its turn starts with the current config', async () => {
    await store.put('a', local(sdkCommand('--init-delay=400')));
    await store.put('b', local(sdkCommand(), { env: { WHO: 'snapshot' } }));
    const h = makeHost(1);
    h.startAll();
    await store.put('b', local(sdkCommand(), { env: { WHO: 'current' } }));
    await h.whenStarted();
    expect(h.view('b').state.kind).toBe('ready');
    expect(textOf(await h.callTool('b__env_check', { name: 'WHO', sha256: sha256('current') }))).toBe('match');
  });
});

describe('management actions', () => {
  it('add() starts the server in the background and persists it', async () => {
    const h = makeHost();
    const v = await h.add('echoes', { type: 'local', command: bashCommand(), env: { TOKEN: 'super-secret-token-value' } });
    expect(v.state.kind).toBe('starting');
    expect(v.env.TOKEN).toEqual({ has_value: true, masked: '••••••••alue' });
    expect(JSON.stringify(v)).not.toContain('super-secret-token-value');
    expect(Object.keys(diskServers().echoes?.env ?? {})).toEqual(['TOKEN']);
    expect(readFileSync(store.file, 'utf8')).not.toContain('super-secret-token-value');
    expect(store.get('echoes')).toMatchObject({ env: { TOKEN: 'super-secret-token-value' } });
    expect(await waitFor(() => h.view('echoes').state.kind === 'ready', 10_000)).toBe(true);
    expect(textOf(await h.callTool('echoes__echo', { text: 'hi' }))).toBe('hi');
  });

  it('add() with an existing name → HostError conflict, nothing changed', async () => {
    const h = makeHost();
    await h.add('dup', { type: 'local', command: bashCommand(), enabled: false });
    const before = readFileSync(store.file, 'utf8');
    const err = await h.add('dup', { type: 'local', command: sdkCommand() }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HostError);
    expect(err).toMatchObject({ code: 'conflict', field: 'name' });
    expect(readFileSync(store.file, 'utf8')).toBe(before);
  });

  it('add() with a missing command → command_not_found and nothing persisted', async () => {
    const h = makeHost();
    await h.add('keep', { type: 'local', command: bashCommand(), enabled: false });
    const before = readFileSync(store.file, 'utf8');
    const err = await h.add('ghost', { type: 'local', command: ['no-such-mcp-server-xyz', '--stdio'] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HostError);
    expect(err).toMatchObject({ code: 'command_not_found', field: 'command' });
    expect((err as Error).message).toContain('no-such-mcp-server-xyz');
    expect(store.has('ghost')).toBe(false);
    expect(readFileSync(store.file, 'utf8')).toBe(before);
    expect(h.list().map((v) => v.name)).toEqual(['keep']);
  });

  it('update() whose new config fails to start keeps the old config on disk and throws start_failed', async () => {
    const h = makeHost();
    await h.add('svc', { type: 'local', command: sdkCommand(), env: { KEEP_ME: 'stored-credential' } });
    expect(await waitFor(() => h.view('svc').state.kind === 'ready', 10_000)).toBe(true);
    const pid = h.connection('svc')!.pid!;
    const before = readFileSync(store.file, 'utf8');
    const err = await h
      .update('svc', { command: ['bash', '-c', 'echo "cannot bind port 8080" >&2; exit 1'], env: { KEEP_ME: '' } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HostError);
    expect(err).toMatchObject({ code: 'start_failed' });
    expect((err as Error).message).toContain('cannot bind port 8080');
    // The window words it from facts: the failure by kind, the server's own lines as sent.
    expect((err as HostError).fact).toEqual({ kind: 'server_failure', failure: { kind: 'exited', running: false, exit: { code: 1, signal: null }, server_message: null }, stderr: ['cannot bind port 8080'] });
    expect(readFileSync(store.file, 'utf8')).toBe(before);
    expect(store.get('svc')).toMatchObject({ env: { KEEP_ME: 'stored-credential' } });
    // The old client keeps running and serving.
    expect(h.view('svc').state.kind).toBe('ready');
    expect(h.connection('svc')!.pid).toBe(pid);
    expect(textOf(await h.callTool('svc__echo', { text: 'still' }))).toBe('still');
  });

  it('update() that starts fine persists the edit and replaces the process', async () => {
    const h = makeHost();
    await h.add('svc', { type: 'local', command: sdkCommand(), env: { A: 'one', B: 'two' } });
    expect(await waitFor(() => h.view('svc').state.kind === 'ready', 10_000)).toBe(true);
    const oldPid = h.connection('svc')!.pid!;
    const v = await h.update('svc', { env: { A: '', B: 'three' } });
    expect(v.state.kind).toBe('ready');
    expect(Object.keys(diskServers().svc?.env ?? {})).toEqual(['B']);
    expect(store.get('svc')).toMatchObject({ env: { B: 'three' } });
    expect(await waitGone(oldPid)).toBe(true);
    expect(textOf(await h.callTool('svc__env_check', { name: 'B', sha256: sha256('three') }))).toBe('match');
    expect(textOf(await h.callTool('svc__env_check', { name: 'A', sha256: sha256('one') }))).toBe('unset');
    // The log's last lifecycle line says the old connection closed, not that the server stopped.
    const lifecycle = h.logs('svc').filter((e) => e.source === 'lifecycle').map((e) => e.text);
    expect(lifecycle.at(-1)).toBe('closing: the previous connection; the new settings are running');
  });

  it('remove() closes the process and unregisters its tools', async () => {
    await store.put('stay', local(bashCommand()));
    await store.put('go', local(sdkCommand()));
    const h = makeHost();
    h.startAll();
    await h.whenStarted();
    expect(h.tools().some((t) => t.server === 'go')).toBe(true);
    const pid = h.connection('go')!.pid!;
    expect(isAlive(pid)).toBe(true);
    toolEvents = [];
    await h.remove('go');
    expect(await waitGone(pid)).toBe(true);
    expect(h.tools().map((t) => t.name)).toEqual(['stay__echo', 'stay__upper', 'stay__grow']);
    expect(h.tool('go__echo')).toBeUndefined();
    expect(toolEvents.at(-1)?.map((t) => t.name)).toEqual(['stay__echo', 'stay__upper', 'stay__grow']);
    expect(removed).toEqual(['go']);
    expect(Object.keys(diskServers())).toEqual(['stay']);
    await expect(h.callTool('go__echo', { text: 'x' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(h.remove('go')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('setEnabled(false) stops the process and unregisters its tools; true starts it again', async () => {
    const h = makeHost();
    await h.add('t', { type: 'local', command: bashCommand() });
    expect(await waitFor(() => h.view('t').state.kind === 'ready', 10_000)).toBe(true);
    const pid = h.connection('t')!.pid!;
    const v = await h.setEnabled('t', false);
    expect(v.state.kind).toBe('disabled');
    expect(h.tools()).toEqual([]);
    expect(await waitGone(pid)).toBe(true);
    expect(diskServers().t?.enabled).toBe(false);
    await h.setEnabled('t', true);
    expect(await waitFor(() => h.view('t').state.kind === 'ready', 10_000)).toBe(true);
  });
});

describe('shutdown', () => {
  it('while a --hang server is starting: resolves quickly and leaves no child process', async () => {
    await store.put('hang', local(sdkCommand('--hang'), { timeout_seconds: 60 }));
    await store.put('ok', local(sdkCommand()));
    const h = makeHost();
    h.startAll();
    expect(await waitFor(() => h.connection('hang')?.pid != null, 5000)).toBe(true);
    const pid = h.connection('hang')!.pid!;
    const t0 = Date.now();
    await h.shutdown();
    // Bounded by the SDK's stdin-close grace period (2 s) + SIGTERM — far from the 60 s timeout.
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(await waitGone(pid)).toBe(true);
    expect(h.tools()).toEqual([]);
    expect(await waitNoChildren()).toBe(true);
    await expect(h.add('late', { type: 'local', command: sdkCommand() })).rejects.toMatchObject({ code: 'start_failed' });
  });

  it('takes no more servers from the startup queue', async () => {
    const markers = [1, 2, 3].map((i) => path.join(dir, `q${i}.started`));
    await store.put('slow', local(sdkCommand('--init-delay=300')));
    for (const [i, m] of markers.entries()) await store.put(`q${i}`, local(markedCommand(m)));
    const h = makeHost(1);
    h.startAll();
    await h.shutdown();
    await h.whenStarted();
    for (const m of markers) expect(existsSync(m)).toBe(false);
  });
});

describe('tool collisions across servers', () => {
  it('two servers whose names sanitize alike: nothing dropped, stable hash suffix, warning, correct routing', async () => {
    await store.put('my.srv', local(sdkCommand(), { env: { WHO: 'dotted' } }));
    await store.put('my_srv', local(sdkCommand(), { env: { WHO: 'underscored' } }));
    const h = makeHost();
    h.startAll();
    await h.whenStarted();
    const tools = h.tools();
    expect(tools).toHaveLength(20);
    expect(new Set(tools.map((t) => t.name)).size).toBe(20);
    const dotted = tools.filter((t) => t.server === 'my.srv');
    const under = tools.filter((t) => t.server === 'my_srv');
    expect(dotted.map((t) => t.name)).toContain('my_srv__env_check');
    const suffixed = under.find((t) => t.original_name === 'env_check')!;
    expect(suffixed.name).toMatch(/^my_srv__env_check_[0-9a-f]{6}$/);
    for (const t of tools) expect(t.name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    // The rename is an issue of the server that got the suffixed names.
    expect(h.view('my_srv').issues).toContainEqual({ kind: 'tool_renamed', tool: 'env_check', like: 'env_check', like_server: 'my.srv', offered_as: suffixed.name });
    expect(h.view('my.srv').issues.filter((i) => i.kind === 'tool_renamed')).toEqual([]);
    // Each name reaches its own server with the real tool name.
    expect(textOf(await h.callTool('my_srv__env_check', { name: 'WHO', sha256: sha256('dotted') }))).toBe('match');
    expect(textOf(await h.callTool(suffixed.name, { name: 'WHO', sha256: sha256('underscored') }))).toBe('match');
    // Stable: a fresh host over the same config gives the same names.
    await h.shutdown();
    const again = makeHost();
    again.startAll();
    await again.whenStarted();
    expect(again.tools().map((t) => t.name)).toEqual(tools.map((t) => t.name));
  });
});
