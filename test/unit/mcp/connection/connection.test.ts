/**
 * mcp/connection + mcp/transports with real child processes: the hand-written bash server (protocol
 * 2024-11-05), the SDK fixture in its failure modes, env merge, concurrency, cancellation, close.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LocalServerConfig } from '../../../../main/mcp/config.js';
import { McpConnection, NotConnectedError, collectPages } from '../../../../main/mcp/connection.js';
import { mergedEnv, resolveCommand } from '../../../../main/mcp/transports/environment.js';
import { bashCommand, descendantPids, isAlive, makeTempDir, removeDir, sdkCommand, waitFor, waitGone, waitNoChildren, localServer, sha256 } from '../../helpers.js';

const cfg = localServer;
const open: McpConnection[] = [];
function connect(config: LocalServerConfig, name = 'srv'): McpConnection {
  const c = new McpConnection(name, config);
  open.push(c);
  return c;
}

/** Start a connection and record the child's pid as soon as it exists. */
async function startTrackingPid(c: McpConnection): Promise<{ pid: number | null }> {
  const seen: { pid: number | null } = { pid: null };
  const poll = setInterval(() => {
    seen.pid ??= c.pid;
  }, 5);
  try {
    await c.start();
  } finally {
    clearInterval(poll);
  }
  seen.pid ??= c.pid;
  return seen;
}

function textOf(result: { content?: unknown }): string {
  return ((result.content ?? []) as Array<{ type: string; text?: string }>).map((b) => b.text ?? '').join('');
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
  expect(await waitNoChildren(), `child processes left: ${descendantPids().join(', ')}`).toBe(true);
});

describe('the hand-written bash server (protocol 2024-11-05)', () => {
  it('connects: status ready with its 3 tools', async () => {
    const c = connect(cfg(bashCommand()));
    await c.start();
    expect(c.state).toEqual({ kind: 'ready' });
    expect(c.status).toBe('ready');
    expect(c.tools.map((t) => t.name)).toEqual(['echo', 'upper', 'grow']);
    expect(c.serverInfo).toEqual({ name: 'bash-fixture', version: '1.0.0' });
    expect(c.resolvedCommand).toMatch(/\/bash$/);
    expect(c.pid).toBeGreaterThan(0);
  });

  it('calling echo works (including quotes and unicode), and so does upper', async () => {
    const c = connect(cfg(bashCommand()));
    await c.start();
    const r = await c.callTool('echo', { text: 'hello "world" 你好 🚀' });
    expect(r.isError).toBeFalsy();
    expect(textOf(r)).toBe('hello "world" 你好 🚀');
    expect(textOf(await c.callTool('upper', { text: 'shout' }))).toBe('SHOUT');
  });

  it('an unknown tool returns an error, and the connection stays usable', async () => {
    const c = connect(cfg(bashCommand()));
    await c.start();
    await expect(c.callTool('nope', { text: 'x' })).rejects.toThrow(/Unknown tool: nope/);
    expect(c.status).toBe('ready');
    expect(textOf(await c.callTool('echo', { text: 'still here' }))).toBe('still here');
  });

  it('close() ends the process', async () => {
    const c = connect(cfg(bashCommand()));
    await c.start();
    const pid = c.pid!;
    expect(isAlive(pid)).toBe(true);
    await c.close();
    expect(await waitGone(pid)).toBe(true);
    await expect(c.callTool('echo', { text: 'x' })).rejects.toBeInstanceOf(NotConnectedError);
    await c.close(); // idempotent
  });
});

describe('the SDK fixture', () => {
  it('with --banner still connects, and the banner line is logged as stdout', async () => {
    const c = connect(cfg(sdkCommand('--banner')));
    await c.start();
    expect(c.status).toBe('ready');
    expect(c.tools.map((t) => t.name)).toContain('echo');
    const stdout = c.log.all().filter((e) => e.source === 'stdout');
    expect(stdout).toHaveLength(1);
    expect(stdout[0]!.text).toContain('Welcome');
    expect(textOf(await c.callTool('echo', { text: 'after banner' }))).toBe('after banner');
  });

  it('with --hang and timeout_seconds 1 → error/timeout, and the process is gone', async () => {
    const c = connect(cfg(sdkCommand('--hang'), { timeout_seconds: 1 }));
    const t0 = Date.now();
    const { pid } = await startTrackingPid(c);
    expect(Date.now() - t0).toBeLessThan(8000);
    expect(c.status).toBe('error');
    expect(c.state).toEqual({ kind: 'error', failure: { kind: 'timeout', phase: 'handshake', seconds: 1, server_message: null } });
    expect(c.tools).toEqual([]);
    expect(pid).toBeGreaterThan(0);
    expect(await waitGone(pid!)).toBe(true);
    expect(() => process.kill(pid!, 0)).toThrow();
  });

  it('a command that does not exist → spawn_failed naming the command', async () => {
    const c = connect(cfg(['definitely-not-a-real-command-xyz', '--flag']));
    await c.start();
    expect(c.status).toBe('error');
    expect(c.state).toEqual({ kind: 'error', failure: { kind: 'spawn_failed', command: 'definitely-not-a-real-command-xyz', code: 'not_on_path', server_message: null } });
    expect(c.pid).toBeNull();
  });

  it('a path that is not executable → spawn_failed', async () => {
    const dir = makeTempDir();
    try {
      const c = connect(cfg([path.join(dir, 'missing-binary')]));
      await c.start();
      expect(c.state).toEqual({ kind: 'error', failure: { kind: 'spawn_failed', command: path.join(dir, 'missing-binary'), code: 'not_on_path', server_message: null } });
    } finally {
      await removeDir(dir);
    }
  });

  it('a server that exits before initialize → error/exited with its exit code; its stderr line is in the tail', async () => {
    for (let i = 0; i < 3; i++) {
      const c = connect(cfg(['bash', '-c', 'echo "fatal: config file /etc/x.toml missing" >&2; exit 2']));
      await c.start();
      expect(c.status).toBe('error');
      expect(c.state).toEqual({ kind: 'error', failure: { kind: 'exited', running: false, exit: { code: 2, signal: null }, server_message: null } });
      expect(c.stderrTail()).toContain('fatal: config file /etc/x.toml missing');
    }
  });

  it('a server that exits after initialize → ready, then error/exited with its stderr line and no tools', async () => {
    const changes: string[] = [];
    const watched = new McpConnection('w', cfg(sdkCommand('--exit-after-init', '--stderr=boom: lost the database')), (x) => changes.push(x.status));
    open.push(watched);
    await watched.start();
    expect(await waitFor(() => watched.status === 'error', 5000)).toBe(true);
    expect(changes).toContain('ready');
    expect(watched.state).toMatchObject({ kind: 'error', failure: { kind: 'exited', running: true, server_message: null } });
    expect(watched.stderrTail()).toContain('boom: lost the database');
    expect(watched.tools).toEqual([]);
  });

  it('env merge: the server gets PATH and HOME from the parent plus the configured variable', async () => {
    const secret = 'configured-value-Ω-123';
    const c = connect(cfg(sdkCommand(), { env: { OP_TEST_VAR: secret } }));
    await c.start();
    expect(c.status).toBe('ready');
    const check = async (name: string, value: string): Promise<string> => textOf(await c.callTool('env_check', { name, sha256: sha256(value) }));
    expect(await check('OP_TEST_VAR', secret)).toBe('match');
    expect(await check('PATH', process.env.PATH!)).toBe('match');
    expect(await check('HOME', process.env.HOME!)).toBe('match');
    expect(await check('OP_TEST_VAR', 'other')).toBe('mismatch');
    expect(await check('OP_TEST_UNSET_VAR', '')).toBe('unset');
  });

  it('env merge: a configured variable overrides the inherited one', async () => {
    const c = connect(cfg(sdkCommand(), { env: { HOME: '/override/home' } }));
    await c.start();
    expect(textOf(await c.callTool('env_check', { name: 'HOME', sha256: sha256('/override/home') }))).toBe('match');
    expect(textOf(await c.callTool('env_check', { name: 'PATH', sha256: sha256(process.env.PATH!) }))).toBe('match');
  });

  it('calls are not serialized: 10 concurrent 300 ms sleeps finish well under 10 × 300 ms', async () => {
    const c = connect(cfg(sdkCommand()));
    await c.start();
    const t0 = performance.now();
    const results = await Promise.all(Array.from({ length: 10 }, () => c.callTool('sleep', { ms: 300 })));
    const elapsed = performance.now() - t0;
    expect(results.map(textOf)).toEqual(Array.from({ length: 10 }, () => 'slept 300'));
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(2000);
  });

  it('cancel via AbortSignal rejects the call promptly; the connection stays usable', async () => {
    const c = connect(cfg(sdkCommand()));
    await c.start();
    const ctrl = new AbortController();
    const t0 = performance.now();
    const call = c.callTool('sleep', { ms: 10_000 }, { signal: ctrl.signal });
    setTimeout(() => ctrl.abort(new Error('user pressed stop')), 100);
    await expect(call).rejects.toThrow();
    expect(performance.now() - t0).toBeLessThan(3000);
    expect(c.status).toBe('ready');
    expect(textOf(await c.callTool('echo', { text: 'next' }))).toBe('next');
  });

  it('a per-call timeout rejects the call', async () => {
    const c = connect(cfg(sdkCommand()));
    await c.start();
    await expect(c.callTool('sleep', { ms: 5_000 }, { timeoutMs: 200 })).rejects.toThrow(/timed out/i);
  });

  it('close() during start leaves no process and no ready state', async () => {
    const c = connect(cfg(sdkCommand('--hang'), { timeout_seconds: 30 }));
    const started = c.start();
    expect(await waitFor(() => c.pid !== null, 5000)).toBe(true);
    const pid = c.pid!;
    expect(isAlive(pid)).toBe(true);
    const t0 = Date.now();
    await c.close();
    await started;
    expect(Date.now() - t0).toBeLessThan(6000);
    expect(c.status).not.toBe('ready');
    expect(c.closed).toBe(true);
    expect(await waitGone(pid)).toBe(true);
  });

  it('close() right after start() (before anything happened) leaves no process', async () => {
    const c = connect(cfg(sdkCommand('--init-delay=500')));
    const started = c.start();
    await c.close();
    await started;
    expect(c.status).not.toBe('ready');
    expect(await waitNoChildren()).toBe(true);
  });

  it('a server with many tools lists them all', async () => {
    const c = connect(cfg(sdkCommand('--tools=150')));
    await c.start();
    expect(c.tools).toHaveLength(10 + 150);
  });
});

describe('transports and pagination (pure parts)', () => {
  it('mergedEnv inherits the user environment (not the app variables) and lets the server env override', () => {
    const env = mergedEnv({ B: 'server', C: 'new' }, { A: 'a', B: 'parent', D: undefined });
    expect(env).toEqual({ A: 'a', B: 'server', C: 'new' });
    expect(mergedEnv({}, { OPENPROGRAM_X: '1', npm_y: '1', ELECTRON_Z: '1', KEEP: '1' })).toEqual({ KEEP: '1' });
  });

  it('resolveCommand finds bare names on PATH and rejects what is not there', () => {
    expect(resolveCommand('bash', { PATH: process.env.PATH })).toMatch(/\/bash$/);
    expect(resolveCommand('no-such-cmd-xyz', { PATH: process.env.PATH })).toBeNull();
    expect(resolveCommand('bash', { PATH: '' })).toBeNull();
    expect(resolveCommand(process.execPath, {})).toBe(process.execPath);
  });

  it('collectPages follows every page and stops on a repeated cursor', async () => {
    const pages: Record<string, { items: number[]; nextCursor?: string }> = { start: { items: [1], nextCursor: 'p2' }, p2: { items: [2], nextCursor: 'p3' }, p3: { items: [3] } };
    expect(await collectPages(async (c) => pages[c ?? 'start']!)).toEqual({ items: [1, 2, 3], stopped: null });
    const loop = await collectPages(async (c) => ({ items: [c ?? 'first'], nextCursor: 'same' }));
    expect(loop.items).toEqual(['first', 'same']);
    expect(loop.stopped).toBe('repeated_cursor');
    const endless = await collectPages(async (c) => ({ items: [Number(c ?? 0)], nextCursor: `${Number(c ?? 0) + 1}` }), 5);
    expect(endless.items).toHaveLength(5);
    expect(endless.stopped).toBe('too_many_pages');
  });
});
