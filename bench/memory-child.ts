/**
 * Main-process memory per idle connection: RSS / heapUsed delta after connecting N idle stdio
 * fixture servers, divided by N. Run with --expose-gc --max-semi-space-size=1 in a fresh process.
 * Usage: memory-child.ts <ours|bare> <n> <tag> [halves|whole] [snapshots]. Prints `RESULT {...}`.
 *
 * A warm-up group (four connections) is opened and closed before the baseline, so one-off costs
 * (lazy module code, first-use compilation) are not charged to the N connections. `halves`
 * (default): per-connection figures are the slope from N/2 to N connections (see main()).
 * `whole`: the N connections are started at once, from the baseline, and timed until all are
 * ready. `snapshots`: a heap snapshot after each reading (./heap-snapshot.ts) says what the
 * connections hold, code apart. Both modes start connections through the host's start admission
 * (main/mcp/host/start-admission.ts), so start-up times compare like for like.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/client';
import { ConfigStore } from '../main/mcp/config.js';
import { McpHost } from '../main/mcp/host.js';
import { mergedEnv } from '../main/mcp/transports/environment.js';
import { CpuAwareAdmission } from '../main/mcp/host/start-admission.js';
import { perConnection, snapshotSummary, type HeapSummary } from './heap-snapshot.js';
import { fixtureArgs, fixtureEntry, makeStateDir, removeDir, waitNoTagged, type LocalEntry } from './util.js';

const gc = (globalThis as { gc?: () => void }).gc;

/**
 * Collect garbage and wait until V8's memory reducer has given back unused heap pages (it runs
 * some 5 s after activity stops), so the readings before and after are taken in the same state
 * and are not dominated by heap slack. The parent also starts this process with a 1 MiB
 * semi-space so the young generation cannot hold tens of MiB of slack.
 */
/** Resident anonymous memory (heap, malloc, stacks; not file-backed code pages), bytes; Linux only. */
function rssAnon(): number | null {
  try {
    const m = /RssAnon:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

interface Reading extends NodeJS.MemoryUsage {
  rssAnon: number | null;
}

async function settle(minMs = 5000, maxMs = 8000): Promise<Reading> {
  const t0 = performance.now();
  let prev = process.memoryUsage();
  for (;;) {
    gc?.();
    await new Promise((r) => setTimeout(r, 250));
    const m = process.memoryUsage();
    const elapsed = performance.now() - t0;
    const stable = m.heapTotal === prev.heapTotal && Math.abs(m.rss - prev.rss) < prev.rss * 0.002;
    if ((stable && elapsed >= minMs) || elapsed >= maxMs) return { ...m, rssAnon: rssAnon() };
    prev = m;
  }
}

/** Connect `n` bare SDK clients, as the host's default start admission lets each begin. */
async function bareClients(n: number, tag: string): Promise<Client[]> {
  const clients: Client[] = [];
  await new CpuAwareAdmission().run(
    Array.from({ length: n }, (_, i) => i),
    async () => {
      const c = new Client({ name: 'bare-bench', version: '0.0.0' }, { capabilities: {} });
      await c.connect(new StdioClientTransport({ command: process.execPath, args: fixtureArgs(tag), env: mergedEnv({}), stderr: 'pipe' }));
      await c.listTools();
      clients.push(c);
    },
  );
  return clients;
}

/** Something holding `k` idle connections open. */
interface Group {
  ready: number;
  /** From the first start until every connection was ready (or failed), ms. */
  startMs: number;
  close(): Promise<void>;
}

async function ourGroup(k: number, tag: string, label: string, dirs: string[]): Promise<Group> {
  const servers: Record<string, LocalEntry> = {};
  for (let i = 0; i < k; i++) servers[`${label}${i}`] = fixtureEntry(tag);
  const dir = await makeStateDir(servers);
  dirs.push(dir);
  const store = new ConfigStore(dir);
  await store.load();
  const host = new McpHost(store);
  const t0 = performance.now();
  host.startAll();
  await host.whenStarted();
  const startMs = performance.now() - t0;
  return { ready: host.list().filter((v) => v.state.kind === 'ready').length, startMs, close: () => host.shutdown() };
}

async function bareGroup(k: number, tag: string): Promise<Group> {
  const t0 = performance.now();
  const clients = await bareClients(k, tag);
  const startMs = performance.now() - t0;
  return { ready: clients.length, startMs, close: async () => void (await Promise.all(clients.map((c) => c.close()))) };
}

async function main(): Promise<void> {
  const [mode, nArg, tag, layoutArg, snapArg] = process.argv.slice(2);
  if (!tag || (mode !== 'ours' && mode !== 'bare')) throw new Error('usage: memory-child.ts <ours|bare> <n> <tag> [halves|whole] [snapshots]');
  const layout = layoutArg === 'whole' ? 'whole' : 'halves';
  const snapDir = snapArg === 'snapshots' ? mkdtempSync(path.join(os.tmpdir(), 'openprogram-heap-')) : null;
  const n = Number(nArg);
  const half = layout === 'whole' ? 0 : Math.floor(n / 2);
  const dirs: string[] = [];
  const group = (k: number, label: string): Promise<Group> => (mode === 'ours' ? ourGroup(k, tag, label, dirs) : bareGroup(k, tag));
  /** A reading, then (with `snapshots`) a heap snapshot summed by kind. */
  const read = async (label: string): Promise<{ reading: Reading; heap: HeapSummary | null }> => {
    const reading = await settle();
    return { reading, heap: snapDir ? snapshotSummary(snapDir, label) : null };
  };

  // Warm up: a few connections opened and closed (lazy code, first-use compilation).
  await (await group(Math.min(4, n), 'warm')).close();
  // Readings at 0, n/2 and n idle connections. Non-heap memory also drifts down for a while after
  // startup (allocator and V8 page pools giving memory back), which can make 0→n negative; the
  // n/2→n slope is the better per-connection figure.
  const before = await read('before');
  const a = half > 0 ? await group(half, 'a') : null;
  const mid = half > 0 ? await read('mid') : before;
  const b = await group(n - half, 'b');
  const after = await read('after');
  const ready = (a?.ready ?? 0) + b.ready;
  await Promise.all([a?.close(), b.close()]);
  const left = await waitNoTagged(tag, 3000);
  for (const d of dirs) await removeDir(d);
  if (snapDir) rmSync(snapDir, { recursive: true, force: true });
  const count = n - half;
  const per = (k: keyof Reading, from: Reading, c: number): number | null => {
    const x = after.reading[k];
    const y = from[k];
    return typeof x === 'number' && typeof y === 'number' ? (x - y) / c : null;
  };
  process.stdout.write(
    `RESULT ${JSON.stringify({
      mode,
      n,
      layout,
      ready,
      gcExposed: Boolean(gc),
      before: before.reading,
      mid: mid.reading,
      after: after.reading,
      startMs: b.startMs,
      rssPerConn: per('rss', mid.reading, count),
      rssAnonPerConn: per('rssAnon', mid.reading, count),
      heapUsedPerConn: per('heapUsed', mid.reading, count),
      externalPerConn: per('external', mid.reading, count),
      heap: mid.heap && after.heap ? perConnection(mid.heap, after.heap, count) : null,
      fromZero: { rss: per('rss', before.reading, n), rssAnon: per('rssAnon', before.reading, n), heapUsed: per('heapUsed', before.reading, n) },
      leftAfterShutdown: left,
    })}\n`,
  );
}

main().catch((err) => {
  console.error((err as Error).stack ?? err);
  process.exit(1);
});
