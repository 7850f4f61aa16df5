/**
 * The sandbox benchmark (docs/ARCHITECTURE.md "Sandbox"): the cost of running a stdio server in
 * bubblewrap, as same-run ratios against the same server unsandboxed, both through McpHost with
 * the SDK fixture server: (1) start → ready of one server (alternating arms, median of rounds);
 * (2) 1,000 sequential no-op tool calls. Report-only (a row says so) where bubblewrap cannot run.
 */
import { ConfigStore } from '../main/mcp/config.js';
import { McpHost } from '../main/mcp/host.js';
import { SandboxLauncher } from '../main/mcp/sandbox/launcher.js';
import { SandboxSupport } from '../main/mcp/sandbox/support.js';
import { fixtureEntry, fmtMs, makeStateDir, median, newTag, removeDir, type Row } from './util.js';

const START_ROUNDS = 9;
const START_TARGET = 1.15;
const CALLS = 1000;
const CALL_ROUNDS = 5;
const CALL_TARGET = 1.05;

async function withHost<T>(sandboxed: boolean, support: SandboxSupport, fn: (host: McpHost) => Promise<T>): Promise<T> {
  const stateDir = await makeStateDir({ s: fixtureEntry(newTag()) });
  const store = new ConfigStore(stateDir);
  await store.load();
  const host = new McpHost(store, sandboxed ? { sandbox: new SandboxLauncher({ stateDir, support }) } : {});
  try {
    return await fn(host);
  } finally {
    await host.shutdown();
    await removeDir(stateDir);
  }
}

async function untilReady(host: McpHost): Promise<number> {
  const t0 = performance.now();
  host.startAll();
  await host.whenStarted();
  const state = host.view('s').state;
  if (state.kind !== 'ready') throw new Error(`the fixture server did not start (${state.kind})`);
  return performance.now() - t0;
}

/** Run the sandbox benchmark; returns table rows and the raw figures. */
export async function benchSandbox(log: (m: string) => void): Promise<{ rows: Row[]; report: unknown }> {
  const support = new SandboxSupport();
  const verdict = await support.verdict();
  if (!verdict.ok) {
    return { rows: [{ bench: 'Sandbox', measurement: `not measured: bubblewrap cannot run here (${verdict.state.reason})`, target: '', mark: '' }], report: { skipped: verdict.state } };
  }
  const start = { plain: [] as number[], sandboxed: [] as number[] };
  for (let i = 0; i < START_ROUNDS; i++) {
    for (const arm of i % 2 ? (['sandboxed', 'plain'] as const) : (['plain', 'sandboxed'] as const)) {
      start[arm].push(await withHost(arm === 'sandboxed', support, untilReady));
    }
  }
  log(`sandbox start: plain ${fmtMs(median(start.plain))}, sandboxed ${fmtMs(median(start.sandboxed))}`);
  const calls = { plain: [] as number[], sandboxed: [] as number[] };
  for (let i = 0; i < CALL_ROUNDS; i++) {
    for (const arm of i % 2 ? (['sandboxed', 'plain'] as const) : (['plain', 'sandboxed'] as const)) {
      calls[arm].push(
        await withHost(arm === 'sandboxed', support, async (host) => {
          await untilReady(host);
          for (let k = 0; k < 50; k++) await host.callTool('s__noop', {});
          const t0 = performance.now();
          for (let k = 0; k < CALLS; k++) await host.callTool('s__noop', {});
          return performance.now() - t0;
        }),
      );
    }
  }
  const startRatio = median(start.sandboxed) / median(start.plain);
  const callRatio = median(calls.sandboxed) / median(calls.plain);
  const rows: Row[] = [
    {
      bench: 'Sandbox: start → ready, one stdio server',
      measurement: `${fmtMs(median(start.sandboxed))} sandboxed vs ${fmtMs(median(start.plain))} = ${startRatio.toFixed(2)}×`,
      target: `≤ ${START_TARGET}×`,
      mark: startRatio <= START_TARGET ? 'OK' : 'OVER',
    },
    {
      bench: `Sandbox: ${CALLS} no-op calls`,
      measurement: `${fmtMs(median(calls.sandboxed))} sandboxed vs ${fmtMs(median(calls.plain))} = ${callRatio.toFixed(2)}×`,
      target: `≤ ${CALL_TARGET}×`,
      mark: callRatio <= CALL_TARGET ? 'OK' : 'OVER',
    },
  ];
  return { rows, report: { start, calls, startRatio, callRatio } };
}
