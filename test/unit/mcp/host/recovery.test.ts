/**
 * Crash recovery with real processes: in-flight calls fail at once when a server dies; a crashed
 * server restarts with capped exponential backoff and jitter; its state shows the attempts (the
 * view keeps the last stderr lines); one that keeps crashing stops being retried and its state
 * says so once (`retry.kind: gave_up`); a manual restart
 * starts afresh; nothing restarts after shutdown.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServerState } from '../../../../preload/contract/index.js';
import { ConfigStore, type LocalServerConfig } from '../../../../main/mcp/config.js';
import { backoffDelay, McpHost, RECOVERY } from '../../../../main/mcp/host.js';
import { descendantPids, makeTempDir, removeDir, sdkCommand, waitFor, waitNoChildren, localServer } from '../../helpers.js';

let dir: string;
let store: ConfigStore;
let host: McpHost | null;
/** Every state the host published for server `s`, in order. */
let published: ServerState[];

const local = (command: string[]): LocalServerConfig => localServer(command, { timeout_seconds: 10 });

beforeEach(async () => {
  dir = makeTempDir('op-recovery-');
  store = new ConfigStore(dir);
  await store.load();
  host = null;
  published = [];
});

afterEach(async () => {
  await host?.shutdown();
  expect(await waitNoChildren(), `child processes left: ${descendantPids().join(', ')}`).toBe(true);
  await removeDir(dir);
});

function fastHost(): McpHost {
  host = new McpHost(store, { events: { changed: (v) => v.name === 's' && published.push(v.state) } });
  host.recoveryPolicy = { maxAttempts: 3, baseDelayMs: 50, maxDelayMs: 200, stableMs: 60_000 };
  return host;
}

describe('backoffDelay', () => {
  it('doubles per attempt, is capped, and is jittered to 50–100 % of the nominal delay', () => {
    expect(backoffDelay(1, () => 1)).toBe(RECOVERY.baseDelayMs);
    expect(backoffDelay(3, () => 1)).toBe(RECOVERY.baseDelayMs * 4);
    expect(backoffDelay(30, () => 1)).toBe(RECOVERY.maxDelayMs);
    expect(backoffDelay(3, () => 0)).toBe(RECOVERY.baseDelayMs * 2);
  });
});

describe('crash recovery', () => {
  it('an in-flight call fails at once with a clear error when the server process dies', async () => {
    await store.put('s', local(sdkCommand()));
    const h = fastHost();
    h.startAll();
    await h.whenStarted();
    const call = h.callTool('s__sleep', { ms: 20_000 });
    await new Promise((r) => setTimeout(r, 200));
    const started = Date.now();
    process.kill(h.connection('s')!.pid!, 'SIGKILL');
    await expect(call).rejects.toThrow(/closed/i);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('a crashed server restarts by itself with backoff and is ready again', async () => {
    await store.put('s', local(sdkCommand('--stderr=hello-from-stderr')));
    const h = fastHost();
    h.startAll();
    await h.whenStarted();
    const firstPid = h.connection('s')!.pid!;
    process.kill(firstPid, 'SIGKILL');
    expect(await waitFor(() => h.view('s').state.kind === 'ready' && h.connection('s')!.pid !== firstPid, 5000)).toBe(true);
    // Ready → the crash with restart 1 scheduled → restart 1 starting → ready.
    const after = published.slice(published.findIndex((s) => s.kind === 'error'));
    expect(after[0]).toMatchObject({ kind: 'error', failure: { kind: 'exited', running: true, exit: { signal: 'SIGKILL' } }, retry: { kind: 'scheduled', attempt: 1 } });
    expect(after).toContainEqual({ kind: 'starting', restart: 1 });
    expect(after.at(-1)).toEqual({ kind: 'ready' });
    expect(h.logs('s').some((e) => /restart attempt 1 of 3/.test(e.text))).toBe(true);
    expect(h.logs('s').filter((e) => e.text === 'hello-from-stderr').length).toBe(2); // one log across both processes
  });

  it('a server that keeps crashing stops being retried, says so, and shows its stderr; Restart starts afresh', async () => {
    await store.put('s', local(sdkCommand('--exit-after-init', '--stderr=crash-reason-xyz')));
    const h = fastHost();
    h.startAll();
    const gaveUp = (s: ServerState) => s.kind === 'error' && s.retry?.kind === 'gave_up';
    expect(await waitFor(() => gaveUp(h.view('s').state), 10_000)).toBe(true);
    const v = h.view('s');
    expect(v.state).toMatchObject({ kind: 'error', failure: { kind: 'exited', exit: { code: 3, signal: null }, server_message: null }, retry: { kind: 'gave_up', restarts: 3 } });
    expect(v.stderr_tail).toContain('crash-reason-xyz');
    // The restarts before: numbers 1, 2, 3 were scheduled, each once.
    const scheduled = published.flatMap((s) => (s.kind === 'error' && s.retry?.kind === 'scheduled' ? [s.retry.attempt] : []));
    expect([...new Set(scheduled)]).toEqual([1, 2, 3]);
    // Manual restart resets the count: no restart number, and a crash after it schedules restart 1.
    published = [];
    await h.restart('s');
    expect(await waitFor(() => published.some((s) => s.kind === 'error'), 10_000)).toBe(true);
    expect(published[0]).toEqual({ kind: 'starting', restart: null });
    expect(published.find((s) => s.kind === 'error')).toMatchObject({ retry: { kind: 'scheduled', attempt: 1 } });
  });

  it('a server disabled while a restart is pending is not restarted; nothing restarts after shutdown', async () => {
    await store.put('s', local(sdkCommand()));
    const h = fastHost();
    h.recoveryPolicy = { maxAttempts: 3, baseDelayMs: 400, maxDelayMs: 400, stableMs: 60_000 };
    h.startAll();
    await h.whenStarted();
    process.kill(h.connection('s')!.pid!, 'SIGKILL');
    expect(await waitFor(() => { const s = h.view('s').state; return s.kind === 'error' && s.retry?.kind === 'scheduled'; }, 3000)).toBe(true);
    await h.setEnabled('s', false);
    await new Promise((r) => setTimeout(r, 600));
    expect(h.view('s').state.kind).toBe('disabled');
    expect(h.connection('s')).toBeUndefined();
    await h.setEnabled('s', true);
    expect(await waitFor(() => h.view('s').state.kind === 'ready', 5000)).toBe(true);
    process.kill(h.connection('s')!.pid!, 'SIGKILL');
    expect(await waitFor(() => { const s = h.view('s').state; return s.kind === 'error' && s.retry?.kind === 'scheduled'; }, 3000)).toBe(true);
    await h.shutdown();
    await new Promise((r) => setTimeout(r, 600));
    expect(descendantPids()).toEqual([]);
  });
});

describe('call deadlines', () => {
  it('progress notifications extend a call past its timeout; without progress the same call times out', async () => {
    await store.put('s', { ...local(sdkCommand()), timeout_seconds: 1 });
    const h = fastHost();
    h.startAll();
    await h.whenStarted();
    // 6 steps × 400 ms = 2.4 s, with a 1 s per-call timeout: alive only because progress resets it.
    const r = await h.callTool('s__progress', { steps: 6, ms: 400 });
    expect((r.content as Array<{ text: string }>)[0]!.text).toBe('done after 6 steps');
    await expect(h.callTool('s__sleep', { ms: 2400 })).rejects.toThrow(/timed out/i);
  });
});
