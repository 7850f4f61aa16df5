/**
 * "1,000 no-op calls with Always allow against permissions off": the agent's path with the
 * permission gate (`gate.authorize` with the tool set to always allow, then `host.callTool`)
 * against `host.callTool` alone, on the same host and fixture server, interleaved in blocks with a
 * rotating order so machine noise hits both arms alike. Each run is checked: the gate must allow
 * via `always_allow` and never open a card.
 * Usage: permission-calls-child.ts <rounds> <calls> <tag>. Prints `RESULT {...}`.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import { Permissions } from '../main/chat/permissions/index.js';
import { removeDir, startFixtureHost, waitNoTagged } from './util.js';

function check(r: CallToolResult): void {
  const first = r.content[0];
  if (!first || first.type !== 'text' || first.text !== 'ok') throw new Error(`unexpected result ${JSON.stringify(r)}`);
}

async function main(): Promise<void> {
  const [roundsArg, callsArg, tag] = process.argv.slice(2);
  if (!tag) throw new Error('usage: permission-calls-child.ts <rounds> <calls> <tag>');
  const rounds = Number(roundsArg);
  const calls = Number(callsArg);
  const { host, stateDir } = await startFixtureHost(tag);
  let cards = 0;
  const perms = new Permissions(stateDir, host, { opened: () => cards++ });
  await host.setToolSettings('fx', 'noop', { approval: 'always_allow' });
  await perms.settings.mode();

  let seq = 0;
  const plain = async (): Promise<void> => check(await host.callTool('fx__noop', {}));
  const gated = async (): Promise<void> => {
    const args = {};
    const auth = await perms.gate.authorize({ conversation_id: 'bench', run_id: 'bench', call_id: `c${++seq}`, tool: host.tool('fx__noop')!, args });
    if (!auth.allowed || auth.via !== 'always_allow') throw new Error(`gate did not allow via always_allow: ${JSON.stringify(auth)}`);
    check(await host.callResolved(auth.resolved, args));
  };
  const run = async (fn: () => Promise<void>, n: number): Promise<number> => {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) await fn();
    return performance.now() - t0;
  };
  for (let w = 0; w < 3; w++) {
    await run(plain, 300);
    await run(gated, 300);
  }
  // Blocks of 50 calls alternate between the arms (order rotating), so drift and bursts of load
  // from elsewhere hit both alike; each round also gives a paired ratio.
  const BLOCK = 50;
  const samples = { gated: [] as number[], plain: [] as number[], pairedRatio: [] as number[], gateOnlyUs: [] as number[] };
  for (let r = 0; r < rounds; r++) {
    let g = 0;
    let p = 0;
    for (let b = 0, done = 0; done < calls; b++, done += BLOCK) {
      const n = Math.min(BLOCK, calls - done);
      if ((r + b) % 2 === 0) {
        g += await run(gated, n);
        p += await run(plain, n);
      } else {
        p += await run(plain, n);
        g += await run(gated, n);
      }
    }
    samples.gated.push(g / calls);
    samples.plain.push(p / calls);
    samples.pairedRatio.push(g / p);
    // The gate alone (no call): its absolute cost per call, in µs.
    const N = 20_000;
    const t0 = performance.now();
    for (let i = 0; i < N; i++) await perms.gate.authorize({ conversation_id: 'bench', run_id: 'bench', call_id: 'x', tool: host.tool('fx__noop')!, args: {} });
    samples.gateOnlyUs.push(((performance.now() - t0) * 1000) / N);
  }
  await host.shutdown();
  const left = await waitNoTagged(tag, 3000);
  await removeDir(stateDir);
  if (cards !== 0) throw new Error(`${cards} approval cards opened during the bench`);
  process.stdout.write(`RESULT ${JSON.stringify({ ...samples, leftAfterShutdown: left })}\n`);
}

main().catch((err) => {
  console.error((err as Error).stack ?? err);
  process.exit(1);
});
