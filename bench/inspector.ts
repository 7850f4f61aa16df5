/**
 * The protocol inspector benchmark (docs/ARCHITECTURE.md "Protocol inspector"): 1,000 sequential
 * no-op tool calls through McpHost with the traffic recorder on (every message redacted by a
 * real `SecretRedactor` that knows a secret, encoded and kept in the ring, batched to a listener)
 * against the same fixture server with the recorder off — two hosts side by side, blocks of 50
 * calls alternating between the arms with a rotating order, so machine noise hits both alike.
 * The figure is the median of the rounds' paired ratios (target ≤ 1.05×).
 */
import { ConfigStore } from '../main/mcp/config.js';
import { McpHost } from '../main/mcp/host.js';
import { TrafficRecorder } from '../main/mcp/inspector/recorder.js';
import { SecretRedactor } from '../main/secrets/redact.js';
import { fixtureEntry, fmtMs, makeStateDir, median, newTag, removeDir, waitNoTagged, type Row } from './util.js';

const CALLS = 1000;
const ROUNDS = 8;
const BLOCK = 50;
const TARGET = 1.05;

async function startHost(tag: string, traffic: TrafficRecorder | null): Promise<{ host: McpHost; stateDir: string }> {
  const stateDir = await makeStateDir({ fx: fixtureEntry(tag) });
  const store = new ConfigStore(stateDir);
  await store.load();
  const host = new McpHost(store, traffic ? { traffic } : {});
  host.startAll();
  await host.whenStarted();
  if (host.view('fx').state.kind !== 'ready') throw new Error(`the fixture server did not start (${host.view('fx').state.kind})`);
  return { host, stateDir };
}

/** Run the inspector benchmark; returns table rows and the raw figures. */
export async function benchInspector(log: (m: string) => void): Promise<{ rows: Row[]; report: unknown }> {
  log(`protocol inspector: ${ROUNDS} rounds × ${CALLS} no-op calls, recorder on vs off …`);
  const redactor = new SecretRedactor();
  redactor.add('bench-secret-0123456789');
  let batched = 0;
  const recorder = new TrafficRecorder(redactor, (_server, messages) => (batched += messages.length));
  const tag = newTag();
  const on = await startHost(tag, recorder);
  const off = await startHost(tag, null);
  const call = async (host: McpHost, n: number): Promise<number> => {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) {
      const r = await host.callTool('fx__noop', {});
      if (r.content[0]?.type !== 'text') throw new Error(`unexpected result ${JSON.stringify(r)}`);
    }
    return performance.now() - t0;
  };
  try {
    for (let w = 0; w < 3; w++) {
      await call(off.host, 300);
      await call(on.host, 300);
    }
    const samples = { on: [] as number[], off: [] as number[], paired: [] as number[] };
    for (let r = 0; r < ROUNDS; r++) {
      let a = 0;
      let b = 0;
      for (let k = 0, done = 0; done < CALLS; k++, done += BLOCK) {
        if ((r + k) % 2 === 0) {
          a += await call(on.host, BLOCK);
          b += await call(off.host, BLOCK);
        } else {
          b += await call(off.host, BLOCK);
          a += await call(on.host, BLOCK);
        }
      }
      samples.on.push(a / CALLS);
      samples.off.push(b / CALLS);
      samples.paired.push(a / b);
    }
    recorder.flush();
    const ring = recorder.existing('fx');
    const paired = median(samples.paired);
    const runs = (xs: number[]): string => `${fmtMs(median(xs))}/call (runs: ${xs.map((x) => x.toFixed(3)).join(' ')})`;
    const rows: Row[] = [
      { bench: `${CALLS} no-op calls — recorder on (redacted, kept, batched)`, measurement: runs(samples.on), target: '', mark: '' },
      { bench: `${CALLS} no-op calls — recorder off`, measurement: runs(samples.off), target: '', mark: '' },
      { bench: 'Inspector ratio on / off (median of per-round paired ratios)', measurement: `${paired.toFixed(3)}× (ratio of medians ${(median(samples.on) / median(samples.off)).toFixed(3)}×)`, target: `≤ ${TARGET}×`, mark: paired <= TARGET ? 'OK' : 'OVER' },
      { bench: '  ring after the bench', measurement: `${ring?.size.messages ?? 0} messages, ${ring?.size.bytes ?? 0} bytes kept; ${ring?.dropped ?? 0} dropped; ${batched} batched`, target: '', mark: '' },
    ];
    return { rows, report: { calls: CALLS, rounds: ROUNDS, target: TARGET, paired, samples } };
  } finally {
    await Promise.all([on.host.shutdown(), off.host.shutdown()]);
    await waitNoTagged(tag, 3000);
    await Promise.all([removeDir(on.stateDir), removeDir(off.stateDir)]);
  }
}
