/**
 * Shared helpers of the benchmarks: statistics, the fixture server, temp state dirs, running a
 * TypeScript child under the same tsx loader, and finding child processes left behind.
 */
import { spawn } from 'node:child_process';
import { existsSync, promises as fs, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { ConfigStore } from '../main/mcp/config.js';
import { McpHost } from '../main/mcp/host.js';

export const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
/** The project root (children run from a bundle elsewhere get it from the environment). */
export const ROOT = process.env.OPENPROGRAM_BENCH_ROOT || path.resolve(BENCH_DIR, '..');
export const FIXTURE = path.join(ROOT, 'test/fixtures/sdk-server.mjs');

/** Median of a non-empty list. */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** A random tag that marks the fixture processes of one run, so leftovers can be found. */
export function newTag(): string {
  return `bench-${process.pid}-${randomBytes(4).toString('hex')}`;
}

/** The fixture's argv (after the node binary), tagged. Extra flags are ignored by the fixture. */
export function fixtureArgs(tag: string, ...flags: string[]): string[] {
  return [FIXTURE, ...flags, `--bench-tag=${tag}`];
}

/** Local server config entries, as written to mcp_servers.json. */
export interface LocalEntry {
  type: 'local';
  command: string[];
  env: Record<string, string>;
  enabled: boolean;
  timeout_seconds: number;
}

/** A local server entry running the fixture with node. */
export function fixtureEntry(tag: string, flags: string[] = [], timeout_seconds = 60): LocalEntry {
  return { type: 'local', command: [process.execPath, ...fixtureArgs(tag, ...flags)], env: {}, enabled: true, timeout_seconds };
}

/** Make a fresh temp state dir holding mcp_servers.json with the given servers. */
export async function makeStateDir(servers: Record<string, LocalEntry>): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'openprogram-bench-'));
  await fs.writeFile(path.join(dir, 'mcp_servers.json'), JSON.stringify({ servers }, null, 2), { mode: 0o600 });
  return dir;
}

/** Remove a temp dir (best effort). */
export async function removeDir(dir: string): Promise<void> {
  await fs.rm(dir, { recursive: true, force: true }).catch(() => undefined);
}

/** Pids of live processes whose command line contains `tag` (Linux /proc; [] elsewhere). */
export function findTagged(tag: string): number[] {
  if (!existsSync('/proc')) return [];
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (!cmd.includes(tag)) continue;
      // A zombie (already exited, not yet reaped) is not "left behind".
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (state !== 'Z') out.push(pid);
    } catch {
      // The process ended while we looked.
    }
  }
  return out;
}

/** Wait until no tagged process is left (up to `ms`); returns the pids still alive. */
export async function waitNoTagged(tag: string, ms = 3000): Promise<number[]> {
  const deadline = Date.now() + ms;
  let left = findTagged(tag);
  while (left.length && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    left = findTagged(tag);
  }
  return left;
}

/** Kill the given pids (ones this bench started, found by tag). */
export function killPids(pids: number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** Result of a child run: the last JSON line it printed on stdout, plus timing and output. */
export interface ChildRun<T> {
  result: T;
  wallMs: number;
  stderr: string;
}

/**
 * Run a bench child process: `argv` after the node binary. The child reports by printing one JSON
 * line prefixed with `RESULT ` (and may add fields later with `FINAL `).
 * @throws when the child exits non-zero or prints no result.
 */
export function runChild<T>(argv: string[], label: string, timeoutMs = 120_000): Promise<ChildRun<T>> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, argv, {
      cwd: ROOT,
      env: { ...process.env, OPENPROGRAM_BENCH_ROOT: ROOT },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let result: T | undefined;
    let wallMs = 0;
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (c: string) => {
      stdout += c;
      const lines = stdout.split('\n');
      stdout = lines.pop() ?? '';
      for (const line of lines) {
        if (line.startsWith('RESULT ') && result === undefined) {
          wallMs = performance.now() - t0;
          result = JSON.parse(line.slice(7)) as T;
        } else if (line.startsWith('FINAL ')) {
          result = { ...(result as object), ...(JSON.parse(line.slice(6)) as object) } as T;
        }
      }
    });
    child.stderr.on('data', (c: string) => {
      stderr += c;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code !== 0 || result === undefined) {
        reject(new Error(`${label} failed (code ${code}, signal ${signal}):\n${stderr.slice(-2000)}`));
      } else resolve({ result, wallMs, stderr });
    });
  });
}

/** Run a TypeScript file of bench/ in a fresh Node process with the same tsx loader as this one. */
export function runTsChild<T>(file: string, args: string[], nodeFlags: string[] = [], timeoutMs = 120_000): Promise<ChildRun<T>> {
  return runChild<T>([...process.execArgv, ...nodeFlags, path.join(BENCH_DIR, file), ...args], `${file} ${args.join(' ')}`, timeoutMs);
}

/**
 * Run a JavaScript bundle (ESM) in a fresh plain Node process, no loader. It is imported from a
 * one-line wrapper so that no module of the bundle mistakes itself for the main script.
 */
export function runBundleChild<T>(bundle: string, args: string[], timeoutMs = 120_000, nodeFlags: string[] = []): Promise<ChildRun<T>> {
  const wrapper = `process.argv.splice(1, 0, 'bench-wrapper'); await import(${JSON.stringify(pathToFileURL(bundle).href)});`;
  return runChild<T>([...nodeFlags, '--input-type=module', '-e', wrapper, ...args], `${path.basename(bundle)} ${args.join(' ')}`, timeoutMs);
}

/** Format a number of ms for the table. */
export function fmtMs(ms: number): string {
  if (ms < 1) return `${ms.toFixed(3)} ms`;
  if (ms < 100) return `${ms.toFixed(1)} ms`;
  return `${ms.toFixed(0)} ms`;
}

/** Format bytes as MiB/KiB. */
export function fmtBytes(b: number): string {
  const sign = b < 0 ? '-' : '';
  const a = Math.abs(b);
  if (a >= 1024 * 1024) return `${sign}${(a / 1024 / 1024).toFixed(2)} MiB`;
  return `${sign}${(a / 1024).toFixed(0)} KiB`;
}

/** One row of the printed table. */
export interface Row {
  bench: string;
  measurement: string;
  target: string;
  /** "OK", "OVER", or "" for report-only rows. */
  mark: string;
}

/** Render rows as a fixed-width text table. */
export function table(rows: Row[]): string {
  const head: Row = { bench: 'Benchmark', measurement: 'Measurement', target: 'Target', mark: 'Mark' };
  const all = [head, ...rows];
  const w = (k: keyof Row): number => Math.max(...all.map((r) => r[k].length));
  const line = (r: Row): string => `${r.bench.padEnd(w('bench'))}  ${r.measurement.padEnd(w('measurement'))}  ${r.target.padEnd(w('target'))}  ${r.mark}`;
  const sep = `${'-'.repeat(w('bench'))}  ${'-'.repeat(w('measurement'))}  ${'-'.repeat(w('target'))}  ${'-'.repeat(4)}`;
  return [line(head), sep, ...rows.map(line)].join('\n');
}

/** CPU counters (clock ticks): the whole machine's busy time and this process tree's CPU time. */
export interface CpuSnapshot {
  at: number;
  busy: number;
  ours: number;
}

/**
 * Read /proc: machine busy ticks (all CPUs) and the CPU ticks of this process plus its live
 * descendants plus reaped descendants (cutime/cstime). The difference of two snapshots tells how
 * much CPU *other* processes used meanwhile. Returns null where /proc is not available.
 */
export function cpuSnapshot(): CpuSnapshot | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = line;
    const busy = user + nice + system + irq + softirq + steal;
    const procs = new Map<number, { ppid: number; ticks: number }>();
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        // f[0] = state (field 3); ppid = field 4; utime..cstime = fields 14..17.
        procs.set(Number(entry), { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]) });
      } catch {
        // gone
      }
    }
    const children = new Map<number, number[]>();
    for (const [pid, p] of procs) children.set(p.ppid, [...(children.get(p.ppid) ?? []), pid]);
    let ours = 0;
    const stack = [process.pid];
    while (stack.length) {
      const pid = stack.pop()!;
      ours += procs.get(pid)?.ticks ?? 0;
      stack.push(...(children.get(pid) ?? []));
    }
    return { at: performance.now(), busy, ours };
  } catch {
    return null;
  }
}

/** Share of the machine's total CPU capacity that other processes used between two snapshots. */
export function foreignCpuShare(a: CpuSnapshot | null, b: CpuSnapshot | null, cpus: number, ticksPerSecond = 100): number | null {
  if (!a || !b) return null;
  const capacity = ((b.at - a.at) / 1000) * ticksPerSecond * cpus;
  if (capacity <= 0) return null;
  return Math.max(0, (b.busy - a.busy - (b.ours - a.ours)) / capacity);
}

/** A server process started by a bench child (see {@link startServerProcess}). */
export interface ServerProcess {
  /** The URL the server printed (`URL <url>` on stdout). */
  url: string;
  pid: number;
  /** End it: close its stdin (it exits on that), SIGKILL after `graceMs`. */
  close(graceMs?: number): Promise<void>;
}

/**
 * Start a TypeScript file of bench/ as a server process, under the same loader as this process.
 * It must print `URL <url>` on stdout once it listens and exit when its stdin closes.
 * @throws when it exits or prints nothing within `timeoutMs`.
 */
export function startServerProcess(file: string, args: string[], timeoutMs = 30_000): Promise<ServerProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, path.join(BENCH_DIR, file), ...args], {
      cwd: ROOT,
      env: { ...process.env, OPENPROGRAM_BENCH_ROOT: ROOT },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let done = false;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    const timer = setTimeout(() => fail(new Error(`${file} printed no URL within ${timeoutMs} ms:\n${err.slice(-2000)}`)), timeoutMs);
    function fail(e: Error): void {
      if (done) return;
      done = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(e);
    }
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (c: string) => {
      if (err.length < 1 << 16) err += c;
    });
    child.stdout.on('data', (c: string) => {
      out += c;
      const m = /^URL (\S+)$/m.exec(out);
      if (!m || done) return;
      done = true;
      clearTimeout(timer);
      resolve({
        url: m[1]!,
        pid: child.pid!,
        close: async (graceMs = 3000) => {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.stdin.end();
          const t = setTimeout(() => child.kill('SIGKILL'), graceMs);
          await exited;
          clearTimeout(t);
        },
      });
    });
    child.on('error', (e) => fail(e));
    child.on('exit', (code, signal) => fail(new Error(`${file} exited (code ${code}, signal ${signal}) before printing its URL:\n${err.slice(-2000)}`)));
  });
}

/**
 * A real host over a fresh state dir holding one SDK fixture server named `fx` (tagged for the
 * leftover-process scan), started and ready.
 * @throws when the fixture does not become ready.
 */
export async function startFixtureHost(tag: string): Promise<{ host: McpHost; stateDir: string }> {
  const stateDir = await makeStateDir({ fx: fixtureEntry(tag) });
  const store = new ConfigStore(stateDir);
  await store.load();
  const host = new McpHost(store);
  host.startAll();
  await host.whenStarted();
  const conn = host.connection('fx');
  if (conn?.status !== 'ready') throw new Error(`fixture not ready (${conn?.status}): ${JSON.stringify(conn?.state)}`);
  return { host, stateDir };
}

/**
 * Run `n` calls of the fixture's `sleep {ms}` at once; checks every result.
 * @returns wall time in ms
 * @throws on an unexpected result
 */
export async function sleepBurst(call: () => Promise<CallToolResult>, n: number, ms: number): Promise<number> {
  const t0 = performance.now();
  const rs = await Promise.all(Array.from({ length: n }, call));
  const wall = performance.now() - t0;
  for (const r of rs) {
    const first = r.content[0];
    if (r.isError || !first || first.type !== 'text' || first.text !== `slept ${ms}`) throw new Error(`unexpected result ${JSON.stringify(r).slice(0, 300)}`);
  }
  return wall;
}
