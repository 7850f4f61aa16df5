/**
 * The pins benchmark (docs/ARCHITECTURE.md "Pinned tool definitions"): re-listing 5,000 tools
 * over 50 servers with pin checks — every tool hashed (canonical JSON, SHA-256) and compared with
 * its pin, 1% of them changed so their diffs are made too — as `ToolPins.check` runs on each
 * re-list. Each round gets fresh tool objects, as a real `tools/list` answer would. Pins live in a
 * real temp state folder. Target: ≤ 50 ms per whole re-list (median of rounds). For scale on a
 * busy machine, the same run times a bare JSON.stringify of the same tools.
 */
import type { Tool } from '@modelcontextprotocol/client';
import { PinStore, ToolPins } from '../main/mcp/pins/index.js';
import { fmtMs, makeStateDir, median, removeDir, type Row } from './util.js';

const SERVERS = 50;
const PER_SERVER = 100;
const ROUNDS = 15;
const TARGET_MS = 50;
const IDENTITY = 'f'.repeat(64);

function listing(server: number, round: number, changedEvery: number): Tool[] {
  return Array.from({ length: PER_SERVER }, (_, i) => {
    const changed = changedEvery > 0 && (server * PER_SERVER + i) % changedEvery === 0;
    return {
      name: `tool_${i}`,
      title: `Tool ${i} of server ${server}`,
      description: `Does thing number ${i} for server ${server}. ${'It has a description of ordinary length. '.repeat(4)}${changed ? `Changed in round ${round}.` : ''}`,
      inputSchema: {
        type: 'object',
        properties: { path: { type: 'string', description: 'A path' }, count: { type: 'integer', minimum: 0 }, options: { type: 'object', properties: { mode: { type: 'string', enum: ['a', 'b', changed ? 'c' : 'b'] } } } },
        required: ['path'],
      },
      annotations: { readOnlyHint: !changed, destructiveHint: changed },
    } as Tool;
  });
}

/** Runs the pins benchmark; returns its rows and raw samples. */
export async function benchPins(log: (s: string) => void): Promise<{ rows: Row[]; report: unknown }> {
  const dir = await makeStateDir({});
  try {
    const store = new PinStore(dir);
    const pins = new ToolPins(store);
    const t0 = performance.now();
    for (let s = 0; s < SERVERS; s++) pins.check(`server${s}`, IDENTITY, listing(s, 0, 0));
    const firstMs = performance.now() - t0;
    await store.flush();
    const samples: number[] = [];
    const bare: number[] = [];
    let changed = 0;
    for (let r = 1; r <= ROUNDS; r++) {
      const lists = Array.from({ length: SERVERS }, (_, s) => listing(s, r, 100));
      // Same-run scale: serialising the same listing once, the least any content comparison costs.
      const b = performance.now();
      for (const l of lists) for (const t of l) JSON.stringify(t);
      bare.push(performance.now() - b);
      const t = performance.now();
      for (let s = 0; s < SERVERS; s++) for (const c of pins.check(`server${s}`, IDENTITY, lists[s]!).values()) if (c.status.kind === 'changed') changed++;
      samples.push(performance.now() - t);
    }
    const bareMed = median(bare);
    const med = median(samples);
    const ratio = med / TARGET_MS;
    log(`pins: re-list of ${SERVERS * PER_SERVER} tools with pin checks: median ${fmtMs(med)} (${ratio.toFixed(2)}× the ${TARGET_MS} ms target); first listing ${fmtMs(firstMs)}; ${changed / ROUNDS} changed per round`);
    return {
      rows: [
        { bench: `pins: re-list ${SERVERS * PER_SERVER} tools, pin checks (1% changed)`, measurement: `${fmtMs(med)} (${ratio.toFixed(2)}× target)`, target: `≤ ${TARGET_MS} ms`, mark: med <= TARGET_MS ? 'OK' : 'OVER' },
        { bench: `pins: bare JSON.stringify of the same tools (scale)`, measurement: `${fmtMs(bareMed)} (check = ${(med / bareMed).toFixed(1)}× this)`, target: 'report', mark: '' },
        { bench: `pins: first listing of ${SERVERS * PER_SERVER} tools (pin all)`, measurement: fmtMs(firstMs), target: 'report', mark: '' },
      ],
      report: { samplesMs: samples, bareStringifyMs: bare, firstMs, changedPerRound: changed / ROUNDS },
    };
  } finally {
    await removeDir(dir);
  }
}
