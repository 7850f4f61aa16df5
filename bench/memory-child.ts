/**
 * Main-process memory per idle connection: RSS / heapUsed delta after connecting N idle stdio
 * fixture servers, divided by N. Run with --expose-gc --max-semi-space-size=1 in a fresh process.
 * Usage: memory-child.ts <ours|bare> <n> <tag>. Prints `RESULT {...}`.
 *
 * One connection is opened and closed before the baseline, so one-off costs (lazy module code,
 * first-use compilation) are not charged to the N connections. Per-connection figures are the
 * slope from N/2 to N connections (see main()).
 */
import { readFileSync } from 'node:fs';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/client';
import { ConfigStore } from '../main/mcp/config.js';
import { McpHost } from '../main/mcp/host.js';
import { mergedEnv } from '../main/mcp/transports/environment.js';
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

/** Connect `n` bare SDK clients, four at a time (the host's default start concurrency). */
async function bareClients(n: number, tag: string): Promise<Client[]> {
  const clients: Client[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < n) {
      next++;
      const c = new Client({ name: 'bare-bench', version: '0.0.0' }, { capabilities: {} });
      await c.connect(new StdioClientTransport({ command: process.execPath, args: fixtureArgs(tag), env: mergedEnv({}), stderr: 'pipe' }));
      await c.listTools();
      clients.push(c);
    }
  };
  await Promise.all(Array.from({ length: Math.min(4, n) }, worker));
  return clients;
}

/** Something holding `k` idle connections open. */
interface Group {
  ready: number;
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
  host.startAll();
  await host.whenStarted();
  return { ready: host.list().filter((v) => v.state.kind === 'ready').length, close: () => host.shutdown() };
}

async function bareGroup(k: number, tag: string): Promise<Group> {
  const clients = await bareClients(k, tag);
  return { ready: clients.length, close: async () => void (await Promise.all(clients.map((c) => c.close()))) };
}

async function main(): Promise<void> {
  const [mode, nArg, tag] = process.argv.slice(2);
  if (!tag || (mode !== 'ours' && mode !== 'bare')) throw new Error('usage: memory-child.ts <ours|bare> <n> <tag>');
  const n = Number(nArg);
  const half = Math.floor(n / 2);
  const dirs: string[] = [];
  const group = (k: number, label: string): Promise<Group> => (mode === 'ours' ? ourGroup(k, tag, label, dirs) : bareGroup(k, tag));

  // Warm up: one connection opened and closed (lazy code, first-use compilation).
  await (await group(1, 'warm')).close();
  // Readings at 0, n/2 and n idle connections. Non-heap memory also drifts down for a while after
  // startup (allocator and V8 page pools giving memory back), which can make 0→n negative; the
  // n/2→n slope is the better per-connection figure.
  const before = await settle();
  const a = await group(half, 'a');
  const mid = await settle();
  const b = await group(n - half, 'b');
  const after = await settle();
  const ready = a.ready + b.ready;
  await Promise.all([a.close(), b.close()]);
  const left = await waitNoTagged(tag, 3000);
  for (const d of dirs) await removeDir(d);
  const per = (k: keyof Reading, from: Reading, count: number): number | null => {
    const x = after[k];
    const y = from[k];
    return typeof x === 'number' && typeof y === 'number' ? (x - y) / count : null;
  };
  process.stdout.write(
    `RESULT ${JSON.stringify({
      mode,
      n,
      ready,
      gcExposed: Boolean(gc),
      before,
      mid,
      after,
      rssPerConn: per('rss', mid, n - half),
      rssAnonPerConn: per('rssAnon', mid, n - half),
      heapUsedPerConn: per('heapUsed', mid, n - half),
      externalPerConn: per('external', mid, n - half),
      fromZero: { rss: per('rss', before, n), rssAnon: per('rssAnon', before, n), heapUsed: per('heapUsed', before, n) },
      leftAfterShutdown: left,
    })}\n`,
  );
}

main().catch((err) => {
  console.error((err as Error).stack ?? err);
  process.exit(1);
});
