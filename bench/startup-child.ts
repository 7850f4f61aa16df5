/**
 * "20 stdio servers that each take 500 ms to initialize: all ready in ≤ 2× one server's time."
 * Each sample times McpHost.startAll() → whenStarted() (every server settled) on a fresh host:
 * one server alone, and 20 at once with the host's default concurrency and with other bounds.
 * For scale, 20 bare SDK clients connecting all at once (no bound) show what the machine allows.
 * Each sample also records the CPU the servers and this process used: on a small machine the
 * servers' own start-up CPU, not the concurrency bound, can set the floor.
 * Arms rotate per round; every sample waits until the previous sample's processes are gone.
 * Usage: startup-child.ts <rounds> <servers> <initDelayMs> <arms> <tag>, arms comma-separated:
 * a concurrency (0 = the host's default) or `bare`. Prints `RESULT {...}`.
 */
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/client';
import { ConfigStore } from '../main/mcp/config.js';
import { McpHost } from '../main/mcp/host.js';
import { mergedEnv } from '../main/mcp/transports/environment.js';
import { readFileSync } from 'node:fs';
import { fixtureArgs, fixtureEntry, makeStateDir, removeDir, waitNoTagged, type LocalEntry } from './util.js';

interface Sample {
  arm: string;
  ms: number;
  /** Per server: its own start → ready, ms (log timestamps, 1 ms resolution). */
  perServerMs: number[];
  ready: number;
  /** CPU used meanwhile (ms): by this process, and by its reaped children (the servers). */
  cpu: { selfMs: number; childrenMs: number };
}

/** CPU ms of reaped children (cutime + cstime of /proc/self/stat); 0 where /proc is missing. */
function childrenCpuMs(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[13]) + Number(f[14])) * 10; // clock ticks of 10 ms (USER_HZ 100)
  } catch {
    return 0;
  }
}

/** Run `fn` and measure the CPU used by this process and by children reaped meanwhile. */
async function withCpu<T>(fn: () => Promise<T>): Promise<[T, Sample['cpu']]> {
  const s0 = process.cpuUsage();
  const c0 = childrenCpuMs();
  const r = await fn();
  const s = process.cpuUsage(s0);
  return [r, { selfMs: (s.user + s.system) / 1000, childrenMs: childrenCpuMs() - c0 }];
}

async function hostSample(arm: string, dir: string, expected: number, concurrency: number | undefined, tag: string): Promise<Sample> {
  const store = new ConfigStore(dir);
  await store.load();
  const host = new McpHost(store, concurrency === undefined ? {} : { concurrency });
  // CPU is counted from start until every server process has exited (children's CPU is known
  // only once they are reaped), so it includes the shutdown; the wall time does not.
  const [[ms, views, perServerMs], cpu] = await withCpu(async () => {
    const t0 = performance.now();
    host.startAll();
    await host.whenStarted();
    const wall = performance.now() - t0;
    const vs = host.list();
    const per = vs.map((v) => {
      const c = host.connection(v.name);
      const started = c?.log.all().find((e) => e.text === 'starting')?.ts;
      return c?.readyAt && started ? c.readyAt - started : NaN;
    });
    await host.shutdown();
    const left = await waitNoTagged(tag, 5000);
    if (left.length) throw new Error(`${left.length} fixture processes left after shutdown`);
    return [wall, vs, per] as const;
  });
  const ready = views.filter((v) => v.state.kind === 'ready').length;
  if (ready !== expected) throw new Error(`${arm}: only ${ready}/${expected} servers became ready`);
  return { arm, ms, perServerMs, ready, cpu };
}

async function bareSample(n: number, delay: number, tag: string): Promise<Sample> {
  const [r, cpu] = await withCpu(() => bareRun(n, delay, tag));
  return { ...r, cpu };
}

async function bareRun(n: number, delay: number, tag: string): Promise<Omit<Sample, 'cpu'>> {
  const t0 = performance.now();
  const clients = await Promise.all(
    Array.from({ length: n }, async () => {
      const s = performance.now();
      const c = new Client({ name: 'bare-bench', version: '0.0.0' }, { capabilities: {} });
      await c.connect(new StdioClientTransport({ command: process.execPath, args: fixtureArgs(tag, `--init-delay=${delay}`), env: mergedEnv({}), stderr: 'pipe' }));
      await c.listTools();
      return { c, ms: performance.now() - s };
    }),
  );
  const ms = performance.now() - t0;
  await Promise.all(clients.map(({ c }) => c.close()));
  const left = await waitNoTagged(tag, 5000);
  if (left.length) throw new Error(`${left.length} bare fixture processes left after close`);
  return { arm: 'bare', ms, perServerMs: clients.map((x) => x.ms), ready: clients.length };
}

async function main(): Promise<void> {
  const [roundsArg, serversArg, delayArg, concArg, tag] = process.argv.slice(2);
  if (!tag) throw new Error('usage: startup-child.ts <rounds> <servers> <initDelayMs> <arms> <tag>');
  const rounds = Number(roundsArg);
  const n = Number(serversArg);
  const delay = Number(delayArg);
  const armNames = concArg!.split(',');
  const flags = [`--init-delay=${delay}`];
  const one = await makeStateDir({ slow: fixtureEntry(tag, flags) });
  const entries: Record<string, LocalEntry> = {};
  for (let i = 0; i < n; i++) entries[`slow${i}`] = fixtureEntry(tag, flags);
  const many = await makeStateDir(entries);

  type Arm = { name: string; run: () => Promise<Sample> };
  const arms: Arm[] = [
    { name: 'one', run: () => hostSample('one', one, 1, undefined, tag) },
    ...armNames.map((a) =>
      a === 'bare'
        ? { name: 'bare', run: () => bareSample(n, delay, tag) }
        : { name: `c${a}`, run: () => hostSample(`c${a}`, many, n, Number(a) === 0 ? undefined : Number(a), tag) },
    ),
  ];
  // Warm-up: disk cache, module compilation of the fixture and of our code.
  await arms[0]!.run();

  const samples: Sample[] = [];
  for (let r = 0; r < rounds; r++) {
    const k = r % arms.length;
    for (const arm of [...arms.slice(k), ...arms.slice(0, k)]) {
      samples.push(await arm.run());
      // One server alone is cheap and is the denominator: take two samples of it per round.
      if (arm.name === 'one') samples.push(await arm.run());
    }
  }
  await removeDir(one);
  await removeDir(many);
  process.stdout.write(`RESULT ${JSON.stringify({ samples })}\n`);
}

main().catch((err) => {
  console.error((err as Error).stack ?? err);
  process.exit(1);
});
