/**
 * Benchmarks (`npm run bench`). Prints each figure next to its target with OK/OVER and writes the
 * raw samples to artifacts/bench.json (BENCH_ONLY=startup,http … runs a subset). Not a pass/fail test: exits 0 whatever the figures are
 * (non-zero only if a benchmark could not run at all).
 *
 * 1. App core ready to serve the UI — 10 configured servers (one hangs in initialize) vs 0, each
 *    sample a fresh process running the real browser shell, timed from process start until an
 *    HTTP GET of the index page and a WebSocket `servers.list` round-trip succeed. Two variants:
 *    under tsx (as `npm run web`), and bundled to plain JS (as the Electron build loads main),
 *    where the fixed start-up cost is far smaller, so the same absolute delay weighs more.
 * 2. 1,000 no-op tool calls — our host vs a bare SDK client, sequential and in batches.
 * 3. Main-process memory per idle stdio connection, ours vs a bare SDK client in the same run
 *    (goal ≤ 2×): the heapUsed slope from 10 to 20 servers bundled as the Electron build (and
 *    under tsx), what heap snapshots say each connection holds (code apart), and 100 idle servers:
 *    start-up to all ready, heap and RSS at idle.
 * 4. 20 stdio servers that each take 500 ms to initialize vs one: McpHost.startAll with the default
 *    concurrency and with higher bounds (bare SDK clients all at once and the servers' own
 *    start-up CPU show what the machine allows).
 * 5. 100 concurrent calls of a 100 ms tool on one stdio server (host.callTool).
 * 6. Tool registry of 5,000 tools over 50 servers: buildToolTable alone, the host's rebuild, and a
 *    real tools/list_changed → toolsChanged round over Streamable HTTP.
 * 7. Streamable HTTP on loopback: connect + list tools, ours vs a bare SDK client; 20 concurrent
 *    200 ms calls vs one call.
 * 8. Conversations (bench/conversations.ts): open 2,000 entries (main side vs a bare SELECT, and
 *    until painted in Chromium), search 100,000 entries vs bare FTS5, per-chunk cost of saving
 *    streamed output, database bytes per 1,000 messages.
 * 9. Permission gate: 1,000 no-op calls through `gate.authorize` with the tool set to "Always
 *    allow", then host.callTool, vs host.callTool alone (permissions off).
 * 11. Sandbox (bench/sandbox.ts): start → ready and 1,000 no-op calls of a stdio server in
 *    bubblewrap vs unsandboxed.
 * 12. Pins (bench/pins.ts): re-listing 5,000 tools with pin checks (hash + compare, 1% changed).
 * 13. Protocol inspector (bench/inspector.ts): 1,000 no-op calls with the traffic recorder on
 *    (redacted, kept, batched) vs off.
 * 14. Tool discovery (bench/discovery.ts): 500 tools over 20 servers — pick and search per step
 *    (goal ≤ 5 ms); a 150-tool chat against a provider capped at 128 answers the first message.
 * 15. Long messages (bench/long-message.ts): click → newest entry in view for 40-entry conversations
 *    holding a 5 MB user message, answer or tool result, vs one of 40 short messages; unfolding the answer.
 * 16. Many conversations (bench/many-conversations.ts): 1,000 conversations and a 5,000-entry one —
 *    first paint vs one small conversation, long tasks while wheel-scrolling, the window's JS heap.
 * 10. Streaming (bench/streaming.ts): 10,000 markdown tokens at 200 tokens/s into a transcript of
 *    500 messages, in Chromium: renderer long tasks (> 50 ms) and last token → final paint.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchConversations } from './conversations.js';
import { benchStreaming } from './streaming.js';
import { benchApps } from './apps.js';
import { benchSandbox } from './sandbox.js';
import { benchPins } from './pins.js';
import { benchInspector } from './inspector.js';
import { benchDiscovery } from './discovery.js';
import { benchLongMessage } from './long-message.js';
import { benchManyConversations } from './many-conversations.js';
import {
  ROOT,
  cpuSnapshot,
  foreignCpuShare,
  fixtureEntry,
  fmtBytes,
  fmtMs,
  killPids,
  makeStateDir,
  median,
  newTag,
  removeDir,
  runBundleChild,
  runTsChild,
  table,
  waitNoTagged,
  type LocalEntry,
  type Row,
} from './util.js';

const READY_REPEATS = 5;
const READY_SERVERS = 10;
const READY_TARGET = 1.1;
const CALL_ROUNDS = 8;
const CALLS = 1000;
const BATCH = 50;
const CALL_TARGET = 1.2;
/** Permission gate with "Always allow" vs permissions off: rounds, and the target ratio. */
const PERM_ROUNDS = 8;
const PERM_TARGET = 1.05;
const IDLE_CONNECTIONS = 20;
const STARTUP_ROUNDS = 2;
const STARTUP_SERVERS = 20;
const STARTUP_DELAY_MS = 500;
/** Arms of the start-up bench: 0 = the host's default concurrency; `bare` = bare SDK clients, no bound. */
const STARTUP_ARMS = ['0', '4', '8', '20', 'bare'];
const STARTUP_TARGET = 2;
const SLEEP_ROUNDS = 7;
const SLEEP_CALLS = 100;
const SLEEP_MS = 100;
const SLEEP_TARGET = 3;
const REGISTRY_SERVERS = 50;
const REGISTRY_TOOLS = 100;
const REGISTRY_ROUNDS = 20;
const REGISTRY_TARGET_MS = 50;
const HTTP_CONNECT_ROUNDS = 60;
const HTTP_CALL_ROUNDS = 7;
const HTTP_BURST = 20;
const HTTP_SLEEP_MS = 200;
const HTTP_CONNECT_TARGET = 1.2;
/** "About one call's time", read as at most 1.2× one call. */
const HTTP_BURST_TARGET = 1.2;

interface ReadyResult {
  sinceProcessStartMs: number;
  loaderMs: number;
  importMs: number;
  shellStartMs: number;
  pageMs: number;
  wsListMs: number;
  shellCallToReadyMs: number;
  statuses: string[];
  shutdownMs?: number;
  spawnedBeforeShutdown?: number;
  leftAfterShutdown?: number[];
  lingering?: string[];
}

interface ReadySample extends ReadyResult {
  servers: number;
  variant: 'tsx' | 'bundle';
  wallMs: number;
  leftAfterExit: number[];
}

interface PerCall {
  ms: number;
  cpuUs: number;
}

interface CallsResult {
  oursSeq: PerCall[];
  bareSeq: PerCall[];
  bare2Seq: PerCall[];
  bareOptsSeq: PerCall[];
  oursConc: PerCall[];
  bareConc: PerCall[];
  bare2Conc: PerCall[];
  bareOptsConc: PerCall[];
  leftAfterShutdown: number[];
}

interface MemoryResult {
  mode: 'ours' | 'bare';
  n: number;
  layout: 'halves' | 'whole';
  ready: number;
  gcExposed: boolean;
  /** The last group's start until all ready, ms. */
  startMs: number;
  /** Readings (process.memoryUsage) before the connections and with all of them idle. */
  before: NodeJS.MemoryUsage;
  after: NodeJS.MemoryUsage;
  rssPerConn: number;
  rssAnonPerConn: number | null;
  fromZero: { rss: number; rssAnon: number | null; heapUsed: number };
  heapUsedPerConn: number;
  externalPerConn: number;
  /** With snapshots: what each connection holds (objects, code apart), and the kinds that grew most. */
  heap: { objects: number; code: number; top: Array<{ kind: string; count: number; bytes: number }> } | null;
  leftAfterShutdown: number[];
}

const rows: Row[] = [];
const report: Record<string, unknown> = {
  date: new Date().toISOString(),
  node: process.version,
  platform: `${process.platform} ${process.arch}`,
  cpus: os.cpus().length,
  cpuModel: os.cpus()[0]?.model ?? null,
};
const errors: string[] = [];

function mark(ratio: number, target: number): string {
  return ratio <= target ? 'OK' : 'OVER';
}

function log(msg: string): void {
  process.stderr.write(`[bench] ${msg}\n`);
}

function ensureRenderer(): void {
  if (existsSync(path.join(ROOT, 'out/renderer/index.html'))) return;
  log('out/renderer is missing; building it with electron-vite …');
  const r = spawnSync('npx', ['electron-vite', 'build'], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0 || !existsSync(path.join(ROOT, 'out/renderer/index.html'))) throw new Error('electron-vite build failed; cannot serve the UI');
}

type Variant = 'tsx' | 'bundle';

/**
 * Bundle one bench child (with all of main) to one plain-JS ESM file, dependencies external,
 * the way the Electron build loads main. Null when esbuild (a dependency of tsx) is unavailable.
 */
async function buildChildBundle(file: string): Promise<string | null> {
  const outfile = path.join(ROOT, '.tmp/bench', file.replace(/\.ts$/, '.mjs'));
  try {
    const esbuild = await import('esbuild');
    await esbuild.build({
      entryPoints: [path.join(ROOT, 'bench', file)],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      outfile,
      logLevel: 'warning',
    });
    return outfile;
  } catch (err) {
    log(`could not bundle ${file}, skipping the bundled variant: ${(err as Error).message}`);
    return null;
  }
}

async function readySample(servers: number, variant: Variant, bundle: string | null): Promise<ReadySample> {
  const tag = newTag();
  const entries: Record<string, LocalEntry> = {};
  if (servers > 0) {
    entries.hangs = fixtureEntry(tag, ['--hang'], 60);
    for (let i = 1; i < servers; i++) entries[`s${i}`] = fixtureEntry(tag);
  }
  const dir = await makeStateDir(entries);
  try {
    const args = [dir, String(servers), tag];
    const { result, wallMs } = variant === 'bundle' && bundle ? await runBundleChild<ReadyResult>(bundle, args) : await runTsChild<ReadyResult>('ready-child.ts', args);
    const leftAfterExit = await waitNoTagged(tag, 2000);
    if (leftAfterExit.length) killPids(leftAfterExit);
    return { ...result, servers, variant, wallMs, leftAfterExit };
  } finally {
    await removeDir(dir);
  }
}

async function benchReady(): Promise<void> {
  ensureRenderer();
  const bundle = await buildChildBundle('ready-child.ts');
  const variants: Variant[] = bundle ? ['tsx', 'bundle'] : ['tsx'];
  log('ready: warm-up (disk cache, tsx transform cache) …');
  for (const v of variants) {
    await readySample(READY_SERVERS, v, bundle);
    await readySample(0, v, bundle);
  }
  const arms = variants.flatMap((v) => [0, READY_SERVERS].map((n) => ({ v, n })));
  const samples: ReadySample[] = [];
  for (let i = 0; i < READY_REPEATS; i++) {
    // Rotate the arm order every round.
    const k = i % arms.length;
    for (const { v, n } of [...arms.slice(k), ...arms.slice(0, k)]) {
      const s = await readySample(n, v, bundle);
      log(`ready (${v}): ${n} servers → ${fmtMs(s.sinceProcessStartMs)} since process start (shell call→ready ${fmtMs(s.shellCallToReadyMs)}, shutdown ${fmtMs(s.shutdownMs ?? NaN)})`);
      samples.push(s);
    }
  }

  const out: Record<string, unknown> = { repeats: READY_REPEATS, servers: READY_SERVERS, target: READY_TARGET };
  for (const v of variants) {
    const vs = samples.filter((s) => s.variant === v);
    const of = (n: number, key: keyof ReadySample): number[] => vs.filter((s) => s.servers === n).map((s) => s[key] as number);
    const m = (n: number, key: keyof ReadySample): number => median(of(n, key));
    const range = (n: number, key: keyof ReadySample): string => `${fmtMs(Math.min(...of(n, key)))}–${fmtMs(Math.max(...of(n, key)))}`;
    const ratio = m(READY_SERVERS, 'sinceProcessStartMs') / m(0, 'sinceProcessStartMs');
    const coreRatio = m(READY_SERVERS, 'shellCallToReadyMs') / m(0, 'shellCallToReadyMs');
    // Process start → shell call (loader + imports) runs the same code whatever the config, so its
    // samples can be pooled over both arms; this removes most of the noise from the ratio.
    const preShell = median(vs.map((s) => s.sinceProcessStartMs - s.shellCallToReadyMs));
    const pooledRatio = (preShell + m(READY_SERVERS, 'shellCallToReadyMs')) / (preShell + m(0, 'shellCallToReadyMs'));
    const split = (n: number): string =>
      `${fmtMs(m(n, 'shellCallToReadyMs'))} median (shell ${fmtMs(m(n, 'shellStartMs'))}, GET ${fmtMs(m(n, 'pageMs'))}, WS ${fmtMs(m(n, 'wsListMs'))})`;
    const how = v === 'tsx' ? 'under tsx, as `npm run web`' : 'bundled JS, no loader, as the Electron build';
    rows.push(
      { bench: `Ready to serve UI (${how}), 0 servers`, measurement: `${fmtMs(m(0, 'sinceProcessStartMs'))} median (${range(0, 'sinceProcessStartMs')})`, target: '', mark: '' },
      { bench: `  ${READY_SERVERS} servers (1 hangs in initialize)`, measurement: `${fmtMs(m(READY_SERVERS, 'sinceProcessStartMs'))} median (${range(READY_SERVERS, 'sinceProcessStartMs')})`, target: '', mark: '' },
      { bench: `  ratio ${READY_SERVERS} / 0 servers (process start → GET + WS servers.list)`, measurement: `${ratio.toFixed(3)}×`, target: `≤ ${READY_TARGET}×`, mark: mark(ratio, READY_TARGET) },
      { bench: '  same, pre-shell part pooled over both arms (less noise)', measurement: `${pooledRatio.toFixed(3)}× (pre-shell median ${fmtMs(preShell)})`, target: `≤ ${READY_TARGET}×`, mark: mark(pooledRatio, READY_TARGET) },
      { bench: '  of which startBrowserShell() call → ready, 0 servers', measurement: split(0), target: '', mark: '' },
      { bench: `  of which startBrowserShell() call → ready, ${READY_SERVERS} servers`, measurement: split(READY_SERVERS), target: '', mark: '' },
    );
    out[v] = {
      medianMs: { zero: m(0, 'sinceProcessStartMs'), many: m(READY_SERVERS, 'sinceProcessStartMs') },
      ratio,
      shellCallToReady: { zero: m(0, 'shellCallToReadyMs'), many: m(READY_SERVERS, 'shellCallToReadyMs'), ratio: coreRatio },
      pooled: { preShellMedianMs: preShell, ratio: pooledRatio },
    };
  }
  const leftovers = samples.reduce((a, s) => a + (s.leftAfterShutdown?.length ?? 0) + s.leftAfterExit.length, 0);
  const lingering = samples.filter((s) => s.lingering).length;
  const maxShutdown = Math.max(...samples.filter((s) => s.servers > 0).map((s) => s.shutdownMs ?? 0));
  rows.push(
    { bench: `Shutdown with ${READY_SERVERS} servers (core.shutdown), slowest`, measurement: fmtMs(maxShutdown), target: '', mark: '' },
    { bench: 'Fixture processes left after shutdown (all samples)', measurement: String(leftovers), target: '0', mark: leftovers === 0 ? 'OK' : 'OVER' },
    { bench: 'Shell processes not exiting after shutdown', measurement: String(lingering), target: '0', mark: lingering === 0 ? 'OK' : 'OVER' },
  );
  report.ready = { ...out, leftovers, lingering, maxShutdownMs: maxShutdown, samples };
}

async function benchCalls(): Promise<void> {
  log(`tool calls: ${CALL_ROUNDS} rounds × ${CALLS} calls, sequential and in batches of ${BATCH} …`);
  const tag = newTag();
  const { result: r } = await runTsChild<CallsResult>('tool-calls-child.ts', [String(CALL_ROUNDS), String(CALLS), String(BATCH), tag]);
  const left = [...r.leftAfterShutdown, ...(await waitNoTagged(tag, 2000))];
  if (left.length) killPids(left);
  const ms = (xs: PerCall[]): number => median(xs.map((x) => x.ms));
  const cpu = (xs: PerCall[]): number => median(xs.map((x) => x.cpuUs));
  const seqRatio = ms(r.oursSeq) / ms(r.bareSeq);
  const concRatio = ms(r.oursConc) / ms(r.bareConc);
  const fmtCall = (xs: PerCall[]): string => `${fmtMs(ms(xs))}/call, CPU ${cpu(xs).toFixed(0)} µs/call (runs: ${xs.map((x) => x.ms.toFixed(3)).join(' ')})`;
  rows.push(
    { bench: `${CALLS} no-op calls, sequential — ours (host.callTool)`, measurement: fmtCall(r.oursSeq), target: '', mark: '' },
    { bench: `${CALLS} no-op calls, sequential — bare SDK Client`, measurement: fmtCall(r.bareSeq), target: '', mark: '' },
    { bench: '  diagnostic: bare SDK Client with our call options', measurement: fmtCall(r.bareOptsSeq), target: '', mark: '' },
    { bench: '  control: 2nd bare client / bare (noise floor)', measurement: `${(ms(r.bare2Seq) / ms(r.bareSeq)).toFixed(3)}× wall, ${(cpu(r.bare2Seq) / cpu(r.bareSeq)).toFixed(3)}× CPU`, target: '', mark: '' },
    { bench: 'Sequential ratio ours / bare (median wall ms/call)', measurement: `${seqRatio.toFixed(3)}×`, target: `≤ ${CALL_TARGET}×`, mark: mark(seqRatio, CALL_TARGET) },
    { bench: '  client CPU per call ratio ours / bare (info)', measurement: `${(cpu(r.oursSeq) / cpu(r.bareSeq)).toFixed(3)}×`, target: '', mark: '' },
    { bench: `${CALLS} no-op calls, batches of ${BATCH} — ours`, measurement: fmtCall(r.oursConc), target: '', mark: '' },
    { bench: `${CALLS} no-op calls, batches of ${BATCH} — bare SDK Client`, measurement: fmtCall(r.bareConc), target: '', mark: '' },
    { bench: '  diagnostic: bare SDK Client with our call options', measurement: fmtCall(r.bareOptsConc), target: '', mark: '' },
    { bench: '  control: 2nd bare client / bare (noise floor)', measurement: `${(ms(r.bare2Conc) / ms(r.bareConc)).toFixed(3)}× wall, ${(cpu(r.bare2Conc) / cpu(r.bareConc)).toFixed(3)}× CPU`, target: '', mark: '' },
    { bench: 'Concurrent ratio ours / bare (median wall ms/call)', measurement: `${concRatio.toFixed(3)}×`, target: `≤ ${CALL_TARGET}×`, mark: mark(concRatio, CALL_TARGET) },
    { bench: '  client CPU per call ratio ours / bare (info)', measurement: `${(cpu(r.oursConc) / cpu(r.bareConc)).toFixed(3)}×`, target: '', mark: '' },
  );
  if (left.length) rows.push({ bench: 'Fixture processes left after tool-call bench', measurement: String(left.length), target: '0', mark: 'OVER' });
  report.toolCalls = {
    rounds: CALL_ROUNDS,
    calls: CALLS,
    batch: BATCH,
    target: CALL_TARGET,
    perCall: r,
    medianMs: Object.fromEntries(Object.entries(r).filter(([k]) => k !== 'leftAfterShutdown').map(([k, v]) => [k, ms(v as PerCall[])])),
    medianCpuUs: Object.fromEntries(Object.entries(r).filter(([k]) => k !== 'leftAfterShutdown').map(([k, v]) => [k, cpu(v as PerCall[])])),
    seqRatio,
    concRatio,
    left,
  };
}

/** Idle servers of the large memory row (start-up to all ready, heap and RSS at idle). */
const MANY_IDLE = 100;
/** Goal for ours / bare SDK client: heap per idle connection (issue 28). */
const MEMORY_RATIO_TARGET = 2;

async function benchMemory(): Promise<void> {
  const bundle = await buildChildBundle('memory-child.ts');
  const flags = ['--expose-gc', '--max-semi-space-size=1'];
  /** One run of memory-child.ts for `mode`, bundled (as the Electron build) unless `tsx`. */
  const run = async (mode: 'ours' | 'bare', n: number, extra: string[], tsx = false): Promise<MemoryResult> => {
    const tag = newTag();
    const args = [mode, String(n), tag, ...extra];
    log(`memory: ${n} idle connections (${mode}, ${tsx || !bundle ? 'tsx' : 'bundled'}${extra.length ? `, ${extra.join(' ')}` : ''}) …`);
    const { result } = tsx || !bundle ? await runTsChild<MemoryResult>('memory-child.ts', args, flags, 300_000) : await runBundleChild<MemoryResult>(bundle, args, 300_000, flags);
    const left = await waitNoTagged(tag, 2000);
    if (left.length) killPids(left);
    if (result.ready !== n) throw new Error(`memory (${mode}): only ${result.ready}/${n} connections became ready`);
    return { ...result, leftAfterShutdown: [...result.leftAfterShutdown, ...left] };
  };
  const pair = async (n: number, extra: string[], tsx = false): Promise<{ ours: MemoryResult; bare: MemoryResult }> => ({ ours: await run('ours', n, extra, tsx), bare: await run('bare', n, extra, tsx) });
  const slope = await pair(IDLE_CONNECTIONS, ['halves']);
  const slopeTsx = await pair(IDLE_CONNECTIONS, ['halves'], true);
  // Snapshots in runs of their own: writing one grows RSS by far more than a connection.
  const snaps = await pair(IDLE_CONNECTIONS, ['halves', 'snapshots']);
  const many = await pair(MANY_IDLE, ['whole']);

  const anon = (x: number | null): string => (x === null ? 'n/a' : fmtBytes(x));
  const fig = (r: MemoryResult): string => `heapUsed ${fmtBytes(r.heapUsedPerConn)}, RSS ${fmtBytes(r.rssPerConn)}, anon RSS ${anon(r.rssAnonPerConn)}`;
  const ratio = (x: number, y: number): string => (y > 0 ? `${(x / y).toFixed(2)}×` : 'n/a');
  const half = IDLE_CONNECTIONS / 2;
  const o = snaps.ours.heap;
  const b = snaps.bare.heap;
  // The target is on what heap snapshots say a connection holds: heapUsed slopes also carry V8
  // compiling hot code and flushing cold bytecode meanwhile, which can swing them by tens of KiB.
  const heldRatio = o && b && b.objects > 0 ? o.objects / b.objects : Infinity;
  if (o && b) {
    const kinds = o.top.slice(0, 6).map((k) => `${k.kind} ${fmtBytes(k.bytes)}`).join(', ');
    rows.push(
      { bench: `Memory per idle connection — objects held (heap snapshots, ${half}→${IDLE_CONNECTIONS} servers, bundled as the Electron build), ours / bare SDK Client`, measurement: `${fmtBytes(o.objects)} / ${fmtBytes(b.objects)} = ${heldRatio.toFixed(2)}×`, target: `≤ ${MEMORY_RATIO_TARGET}×`, mark: mark(heldRatio, MEMORY_RATIO_TARGET) },
      { bench: '  code V8 compiled meanwhile, per connection (not held by it), ours / bare', measurement: `${fmtBytes(o.code)} / ${fmtBytes(b.code)}`, target: 'report only', mark: '' },
      { bench: '  ours, largest kinds per connection', measurement: kinds, target: 'report only', mark: '' },
    );
  }
  rows.push(
    { bench: `  heapUsed slope ${half}→${IDLE_CONNECTIONS} (code and GC timing included; noisy), ours`, measurement: fig(slope.ours), target: 'report only', mark: '' },
    { bench: '  bare SDK Client, same run', measurement: fig(slope.bare), target: 'report only', mark: '' },
    { bench: `  under tsx (as \`npm run web\`): heapUsed slope ours / bare`, measurement: `${fmtBytes(slopeTsx.ours.heapUsedPerConn)} / ${fmtBytes(slopeTsx.bare.heapUsedPerConn)}`, target: 'report only', mark: '' },
  );
  const mo = many.ours;
  const mb = many.bare;
  rows.push(
    { bench: `${MANY_IDLE} idle servers (bundled): start-up to all ready, ours / bare`, measurement: `${fmtMs(mo.startMs)} / ${fmtMs(mb.startMs)} = ${ratio(mo.startMs, mb.startMs)}`, target: 'report only', mark: '' },
    { bench: `  heapUsed at idle per server (0→${MANY_IDLE}), ours / bare`, measurement: `${fmtBytes(mo.fromZero.heapUsed)} / ${fmtBytes(mb.fromZero.heapUsed)} = ${ratio(mo.fromZero.heapUsed, mb.fromZero.heapUsed)}`, target: `≤ ${MEMORY_RATIO_TARGET}×`, mark: mark(mo.fromZero.heapUsed / mb.fromZero.heapUsed, MEMORY_RATIO_TARGET) },
    { bench: `  RSS at idle per server (0→${MANY_IDLE}), ours / bare`, measurement: `${fmtBytes(mo.fromZero.rss)} / ${fmtBytes(mb.fromZero.rss)} = ${ratio(mo.fromZero.rss, mb.fromZero.rss)}`, target: 'report only', mark: '' },
    { bench: `  the whole process at idle with ${MANY_IDLE} servers, ours / bare`, measurement: `heapUsed ${fmtBytes(mo.after.heapUsed)} / ${fmtBytes(mb.after.heapUsed)}, RSS ${fmtBytes(mo.after.rss)} / ${fmtBytes(mb.after.rss)}`, target: 'report only', mark: '' },
  );
  const all = [slope, slopeTsx, snaps, many].flatMap((p) => [p.ours, p.bare]);
  const left = all.reduce((k, r) => k + r.leftAfterShutdown.length, 0);
  if (left) rows.push({ bench: 'Fixture processes left after memory bench', measurement: String(left), target: '0', mark: 'OVER' });
  report.memory = { slope, slopeTsx, snapshots: snaps, many, ratioTarget: MEMORY_RATIO_TARGET };
}

interface StartupSample {
  arm: string;
  ms: number;
  perServerMs: number[];
  ready: number;
  cpu: { selfMs: number; childrenMs: number };
}

/** `median (min–max)` of a list of ms. */
function medRange(xs: number[]): string {
  return `${fmtMs(median(xs))} median (${fmtMs(Math.min(...xs))}–${fmtMs(Math.max(...xs))})`;
}

/** Run a bench child that starts tagged processes; afterwards kill and report any left behind. */
async function taggedChild<T>(file: string, args: (tag: string) => string[], what: string, timeoutMs = 180_000): Promise<T> {
  const tag = newTag();
  try {
    const { result } = await runTsChild<T>(file, args(tag), [], timeoutMs);
    return result;
  } finally {
    const left = await waitNoTagged(tag, 3000);
    if (left.length) {
      killPids(left);
      rows.push({ bench: `Processes left after the ${what} bench`, measurement: String(left.length), target: '0', mark: 'OVER' });
    }
  }
}

async function benchStartup(): Promise<void> {
  log(`start-up: 1 vs ${STARTUP_SERVERS} stdio servers with a ${STARTUP_DELAY_MS} ms init delay, ${STARTUP_ROUNDS} rounds (arms ${STARTUP_ARMS.join(', ')}) …`);
  const r = await taggedChild<{ samples: StartupSample[] }>(
    'startup-child.ts',
    (tag) => [String(STARTUP_ROUNDS), String(STARTUP_SERVERS), String(STARTUP_DELAY_MS), STARTUP_ARMS.join(','), tag],
    'start-up',
    300_000,
  );
  const of = (arm: string): StartupSample[] => r.samples.filter((s) => s.arm === arm);
  const wall = (arm: string): number[] => of(arm).map((s) => s.ms);
  const one = median(wall('one'));
  const perServer = (arm: string): number => median(of(arm).flatMap((s) => s.perServerMs));
  const cpus = os.cpus().length;
  rows.push({ bench: `1 stdio server, ${STARTUP_DELAY_MS} ms init delay: startAll → ready (McpHost)`, measurement: medRange(wall('one')), target: '', mark: '' });
  const out: Record<string, unknown> = { oneMs: one, servers: STARTUP_SERVERS, delayMs: STARTUP_DELAY_MS, target: STARTUP_TARGET, samples: r.samples };
  for (const a of STARTUP_ARMS) {
    const arm = a === 'bare' ? 'bare' : `c${a}`;
    if (!of(arm).length) continue;
    const ratio = median(wall(arm)) / one;
    const label =
      a === 'bare'
        ? `  for scale: ${STARTUP_SERVERS} bare SDK clients all at once (no bound)`
        : `${STARTUP_SERVERS} servers at once, ${a === '0' ? 'host default (CPU-aware admission)' : `fixed concurrency ${a}${a === '4' ? ' (the old default)' : ''}`}`;
    rows.push({
      bench: label,
      measurement: `${medRange(wall(arm))} = ${ratio.toFixed(2)}× one; each server start→ready ${fmtMs(perServer(arm))} median`,
      target: a === 'bare' ? '' : `≤ ${STARTUP_TARGET}×`,
      mark: a === 'bare' ? '' : mark(ratio, STARTUP_TARGET),
    });
    out[arm] = { medianMs: median(wall(arm)), ratio, perServerMedianMs: perServer(arm) };
  }
  // What the machine allows: every server spends CPU to start (node + SDK import); with `cpus`
  // cores, n servers cannot all be ready before n × that CPU / cores.
  const cpuOne = median(of('one').map((s) => s.cpu.childrenMs));
  const floorMs = Math.max(one, (STARTUP_SERVERS * cpuOne) / cpus);
  // Necessary (not sufficient) for the target even with no bound: n × CPU / cores ≤ target × one.
  const neededCpus = Math.ceil((STARTUP_SERVERS * cpuOne) / (STARTUP_TARGET * one));
  rows.push({
    bench: "  machine floor: servers' own start-up CPU / cores",
    measurement: `${fmtMs(cpuOne)} CPU per server × ${STARTUP_SERVERS} / ${cpus} CPUs ≥ ${fmtMs(floorMs)} = ${(floorMs / one).toFixed(2)}× one; ≤ ${STARTUP_TARGET}× needs ≥ ${neededCpus} CPUs`,
    target: '',
    mark: '',
  });
  if (of('c0').length) {
    const def = median(wall('c0'));
    rows.push({
      bench: '  host default against the machine floor',
      measurement: `${(def / one).toFixed(2)}× one vs floor ${(floorMs / one).toFixed(2)}× = ${(def / floorMs).toFixed(2)}× the floor`,
      target: '≤ 1.25× the floor',
      mark: mark(def / floorMs, 1.25),
    });
    out.defaultVsFloor = def / floorMs;
  }
  out.cpuPerServerMs = cpuOne;
  out.floorMs = floorMs;
  out.neededCpus = neededCpus;
  report.startup = out;
}

async function benchSleepCalls(): Promise<void> {
  log(`concurrent calls: ${SLEEP_CALLS} × sleep ${SLEEP_MS} ms on one stdio server, ${SLEEP_ROUNDS} rounds …`);
  const r = await taggedChild<{ one: number[]; ours: number[]; bare: number[]; leftAfterShutdown: number[] }>(
    'sleep-calls-child.ts',
    (tag) => [String(SLEEP_ROUNDS), String(SLEEP_CALLS), String(SLEEP_MS), tag],
    'concurrent-calls',
  );
  const m = median(r.ours);
  rows.push(
    { bench: `${SLEEP_CALLS} concurrent calls of sleep ${SLEEP_MS} ms, one stdio server (host.callTool)`, measurement: `${medRange(r.ours)} = ${(m / SLEEP_MS).toFixed(2)}× ${SLEEP_MS} ms`, target: `≤ ${SLEEP_TARGET * SLEEP_MS} ms (${SLEEP_TARGET}×)`, mark: mark(m / SLEEP_MS, SLEEP_TARGET) },
    { bench: '  one call alone (host.callTool)', measurement: medRange(r.one), target: '', mark: '' },
    { bench: '  for scale: bare SDK Client, same burst', measurement: medRange(r.bare), target: '', mark: '' },
  );
  if (r.leftAfterShutdown.length) rows.push({ bench: 'Fixture processes left after concurrent-calls bench', measurement: String(r.leftAfterShutdown.length), target: '0', mark: 'OVER' });
  report.sleepCalls = { calls: SLEEP_CALLS, ms: SLEEP_MS, target: SLEEP_TARGET, medianMs: m, ratio: m / SLEEP_MS, samples: r };
}

interface RegistryResult {
  pure: { tools: number; coldMs: number; ms: number[]; medianMs: number };
  real: {
    servers: number;
    tools: number;
    startAllMs: number;
    startupRebuilds: number;
    startupRebuildMs: number[];
    directMs: number[];
    listChanged: { e2eMs: number; callMs: number; refreshMs: number; rebuildMs: number; tools: number }[];
  };
}

interface PermissionCallsResult {
  gated: number[];
  plain: number[];
  pairedRatio: number[];
  gateOnlyUs: number[];
  leftAfterShutdown: number[];
}

/** 1,000 no-op calls through the permission gate set to "Always allow" vs without the gate. */
async function benchPermissions(): Promise<void> {
  log(`permission gate: ${PERM_ROUNDS} rounds × ${CALLS} no-op calls, always allow vs permissions off …`);
  const tag = newTag();
  const { result: r } = await runTsChild<PermissionCallsResult>('permission-calls-child.ts', [String(PERM_ROUNDS), String(CALLS), tag]);
  const left = [...r.leftAfterShutdown, ...(await waitNoTagged(tag, 2000))];
  if (left.length) killPids(left);
  const ratio = median(r.gated) / median(r.plain);
  const paired = median(r.pairedRatio);
  const runs = (xs: number[]): string => `${fmtMs(median(xs))}/call (runs: ${xs.map((x) => x.toFixed(3)).join(' ')})`;
  rows.push(
    { bench: `${CALLS} no-op calls — gate.authorize (always allow) + host.callTool`, measurement: runs(r.gated), target: '', mark: '' },
    { bench: `${CALLS} no-op calls — host.callTool, permissions off`, measurement: runs(r.plain), target: '', mark: '' },
    { bench: 'Permission ratio always-allow / off (median of per-round paired ratios)', measurement: `${paired.toFixed(3)}× (ratio of medians ${ratio.toFixed(3)}×)`, target: `≤ ${PERM_TARGET}×`, mark: mark(paired, PERM_TARGET) },
    { bench: '  gate.authorize alone (always allow), per call', measurement: `${median(r.gateOnlyUs).toFixed(2)} µs median`, target: '', mark: '' },
  );
  if (left.length) rows.push({ bench: 'Fixture processes left after permission bench', measurement: String(left.length), target: '0', mark: 'OVER' });
  report.permissions = { rounds: PERM_ROUNDS, calls: CALLS, target: PERM_TARGET, ratio, paired, perCallMs: r, left };
}

async function benchRegistry(): Promise<void> {
  const total = REGISTRY_SERVERS * REGISTRY_TOOLS;
  log(`tool registry: ${total} tools over ${REGISTRY_SERVERS} servers, ${REGISTRY_ROUNDS} list_changed rounds …`);
  const r = await taggedChild<RegistryResult>(
    'registry-child.ts',
    (tag) => [String(REGISTRY_SERVERS), String(REGISTRY_TOOLS), String(REGISTRY_ROUNDS), tag],
    'tool-registry',
  );
  const T = REGISTRY_TARGET_MS;
  const max = (xs: number[]): string => fmtMs(Math.max(...xs));
  const lc = r.real.listChanged;
  const e2e = lc.map((x) => x.e2eMs);
  const sum = r.real.startupRebuildMs.reduce((a, b) => a + b, 0);
  rows.push(
    { bench: `${total.toLocaleString('en')} tools / ${REGISTRY_SERVERS} servers: buildToolTable (pure), warm`, measurement: `${fmtMs(r.pure.medianMs)} median (max ${max(r.pure.ms)}, ${r.pure.ms.length} runs)`, target: `≤ ${T} ms`, mark: mark(r.pure.medianMs, T) },
    { bench: '  first call in a fresh process (cold)', measurement: fmtMs(r.pure.coldMs), target: `≤ ${T} ms`, mark: mark(r.pure.coldMs, T) },
    { bench: `  host's rebuildTools() over ${REGISTRY_SERVERS} live HTTP connections, warm`, measurement: `${fmtMs(median(r.real.directMs))} median (max ${max(r.real.directMs)})`, target: `≤ ${T} ms`, mark: mark(median(r.real.directMs), T) },
    { bench: `list_changed → host toolsChanged event (real host, ${REGISTRY_SERVERS} HTTP servers)`, measurement: `${fmtMs(median(e2e))} median (max ${max(e2e)}, ${e2e.length} runs)`, target: `≤ ${T} ms`, mark: mark(median(e2e), T) },
    {
      bench: "  of which: re-list that server's tools / registry rebuild",
      measurement: `${fmtMs(median(lc.map((x) => x.refreshMs)))} / ${fmtMs(median(lc.map((x) => x.rebuildMs)))} median (rest: the bump call and notification delivery)`,
      target: '',
      mark: '',
    },
    { bench: `  start-up of the ${REGISTRY_SERVERS} servers: one full rebuild per server ready`, measurement: `${r.real.startupRebuilds} rebuilds, ${fmtMs(sum)} in all (startAll → all ready ${fmtMs(r.real.startAllMs)})`, target: '', mark: '' },
  );
  report.registry = { target: T, ...r };
}

interface HttpResult {
  connect: { ours: number[]; bare: number[]; bare2: number[] };
  connectModern: { ours: number[]; bare: number[]; bare2: number[] };
  calls: { one: number[]; ours: number[]; bare: number[]; bareOpts: number[] };
}

async function benchHttp(): Promise<void> {
  log(`Streamable HTTP: connect + list ×${HTTP_CONNECT_ROUNDS} per arm; ${HTTP_BURST} concurrent ${HTTP_SLEEP_MS} ms calls ×${HTTP_CALL_ROUNDS} …`);
  const r = await taggedChild<HttpResult>(
    'http-child.ts',
    (tag) => [String(HTTP_CONNECT_ROUNDS), String(HTTP_CALL_ROUNDS), String(HTTP_BURST), String(HTTP_SLEEP_MS), tag],
    'Streamable HTTP',
  );
  const c = r.connect;
  const ratio = median(c.ours) / median(c.bare);
  const burstRatio = median(r.calls.ours) / median(r.calls.one);
  const cm = r.connectModern;
  const modernRatio = median(cm.ours) / median(cm.bare);
  rows.push(
    { bench: 'Connect + list tools, loopback Streamable HTTP — ours (McpConnection)', measurement: medRange(c.ours), target: '', mark: '' },
    { bench: '  bare SDK Client + StreamableHTTPClientTransport', measurement: medRange(c.bare), target: '', mark: '' },
    { bench: '  control: 2nd bare arm / bare (noise floor)', measurement: `${(median(c.bare2) / median(c.bare)).toFixed(3)}×`, target: '', mark: '' },
    { bench: 'Connect + list ratio ours / bare (medians)', measurement: `${ratio.toFixed(3)}×`, target: `≤ ${HTTP_CONNECT_TARGET}×`, mark: mark(ratio, HTTP_CONNECT_TARGET) },
    { bench: 'Connect + list tools, stateless 2026-07-28 server (server/discover) — ours', measurement: medRange(cm.ours), target: '', mark: '' },
    { bench: '  bare SDK v2 Client (versionNegotiation auto)', measurement: medRange(cm.bare), target: '', mark: '' },
    { bench: '  control: 2nd bare arm / bare (noise floor)', measurement: `${(median(cm.bare2) / median(cm.bare)).toFixed(3)}×`, target: '', mark: '' },
    { bench: 'Connect + list ratio ours / bare, 2026-07-28 (medians)', measurement: `${modernRatio.toFixed(3)}×`, target: `≤ ${HTTP_CONNECT_TARGET}×`, mark: mark(modernRatio, HTTP_CONNECT_TARGET) },
    { bench: `${HTTP_BURST} concurrent calls of sleep ${HTTP_SLEEP_MS} ms over Streamable HTTP (McpConnection)`, measurement: medRange(r.calls.ours), target: '', mark: '' },
    { bench: '  one call alone', measurement: medRange(r.calls.one), target: '', mark: '' },
    { bench: `  ratio ${HTTP_BURST} concurrent / one call`, measurement: `${burstRatio.toFixed(3)}×`, target: `≈ 1× (≤ ${HTTP_BURST_TARGET}×)`, mark: mark(burstRatio, HTTP_BURST_TARGET) },
    { bench: '  for scale: bare SDK Client, same burst', measurement: `${medRange(r.calls.bare)} = ${(median(r.calls.bare) / median(r.calls.one)).toFixed(3)}× one call`, target: '', mark: '' },
    { bench: '  diagnostic: bare SDK Client with our call options', measurement: `${medRange(r.calls.bareOpts)} = ${(median(r.calls.bareOpts) / median(r.calls.one)).toFixed(3)}× one call`, target: '', mark: '' },
  );
  report.http = { connectRatio: ratio, modernConnectRatio: modernRatio, burstRatio, connectTarget: HTTP_CONNECT_TARGET, burstTarget: HTTP_BURST_TARGET, ...r };
}

/** Share of CPU that processes outside this bench used, per benchmark. */
const foreign: Record<string, number | null> = {};

async function main(): Promise<void> {
  const t0 = performance.now();
  const cpus = os.cpus().length;
  // BENCH_ONLY=name,name runs a subset (names as in the CPU line at the end).
  const only = process.env.BENCH_ONLY?.split(',').map((x) => x.trim()).filter(Boolean);
  for (const [name, fn] of [
    ['ready', benchReady],
    ['toolCalls', benchCalls],
    ['permissions', benchPermissions],
    ['memory', benchMemory],
    ['startup', benchStartup],
    ['sleepCalls', benchSleepCalls],
    ['registry', benchRegistry],
    ['http', benchHttp],
    [
      'pins',
      async () => {
        const r = await benchPins(log);
        rows.push(...r.rows);
        report.pins = r.report;
      },
    ],
    [
      'inspector',
      async () => {
        const r = await benchInspector(log);
        rows.push(...r.rows);
        report.inspector = r.report;
      },
    ],
    [
      'sandbox',
      async () => {
        const r = await benchSandbox(log);
        rows.push(...r.rows);
        report.sandbox = r.report;
      },
    ],
    [
      'discovery',
      async () => {
        const r = await benchDiscovery(log);
        rows.push(...r.rows);
        report.discovery = r.report;
      },
    ],
    [
      'conversations',
      async () => {
        ensureRenderer();
        const r = await benchConversations(log);
        rows.push(...r.rows);
        report.conversations = r.report;
      },
    ],
    [
      'longMessage',
      async () => {
        ensureRenderer();
        const r = await benchLongMessage(log);
        rows.push(...r.rows);
        report.longMessage = r.report;
      },
    ],
    [
      'manyConversations',
      async () => {
        ensureRenderer();
        const r = await benchManyConversations(log);
        rows.push(...r.rows);
        report.manyConversations = r.report;
      },
    ],
    [
      'apps',
      async () => {
        ensureRenderer();
        const r = await benchApps(log);
        rows.push(...r.rows);
        report.apps = r.report;
      },
    ],
    [
      'streaming',
      async () => {
        ensureRenderer();
        const r = await benchStreaming(log);
        rows.push(...r.rows);
        report.streaming = r.report;
      },
    ],
  ] as const) {
    if (only?.length && !only.includes(name)) continue;
    const before = cpuSnapshot();
    try {
      await fn();
    } catch (err) {
      const msg = (err as Error).message ?? String(err);
      errors.push(`${name}: ${msg}`);
      rows.push({ bench: `${name}: could not run`, measurement: msg.split('\n')[0]!.slice(0, 100), target: '', mark: 'ERROR' });
    }
    foreign[name] = foreignCpuShare(before, cpuSnapshot(), cpus);
  }
  const totalS = (performance.now() - t0) / 1000;
  report.errors = errors;
  report.totalSeconds = totalS;
  report.rows = rows;

  process.stdout.write(`\nOpenProgram Desktop benchmarks — node ${process.version}, ${os.cpus().length} CPUs, ${process.platform}\n\n`);
  process.stdout.write(`${table(rows)}\n\n`);
  process.stdout.write(`Total bench time: ${totalS.toFixed(1)} s\n`);
  const busy = Object.entries(foreign).filter(([, v]) => v !== null);
  if (busy.length) {
    process.stdout.write(`CPU used by other processes meanwhile (share of all ${cpus} CPUs): ${busy.map(([k, v]) => `${k} ${(v! * 100).toFixed(0)}%`).join(', ')}\n`);
    const noisy = busy.filter(([, v]) => v! > 0.1).map(([k]) => k);
    if (noisy.length) process.stdout.write(`WARNING: other processes competed for the CPU during ${noisy.join(', ')}; those timings and ratios are unreliable — rerun on a quiet machine.\n`);
  }
  const dir = path.join(ROOT, 'artifacts');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'bench.json'), `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`Raw samples: ${path.relative(ROOT, path.join(dir, 'bench.json'))}\n`);
  if (errors.length) {
    for (const e of errors) process.stderr.write(`\n${e}\n`);
    process.exitCode = 1;
  }
}

main().catch((err) => {
  console.error((err as Error).stack ?? err);
  process.exit(1);
});
