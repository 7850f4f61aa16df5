/**
 * "1,000 no-op tool calls": our host (McpHost.callTool with the namespaced name, i.e. the path the
 * chat agent uses) against a bare SDK Client + StdioClientTransport, each on its own process of
 * the same stdio fixture server, with the same environment. A second bare client is the control
 * (noise floor) and a bare client with our request options is a diagnostic. Arms are interleaved.
 * Usage: tool-calls-child.ts <rounds> <calls> <batch> <tag>. Prints `RESULT {...}`.
 */
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { mergedEnv } from '../main/mcp/transports/environment.js';
import { fixtureArgs, removeDir, startFixtureHost, waitNoTagged } from './util.js';

type Call = () => Promise<CallToolResult>;

function check(r: CallToolResult): void {
  const first = r.content[0];
  if (!first || first.type !== 'text' || first.text !== 'ok') throw new Error(`unexpected result ${JSON.stringify(r)}`);
}

/** Wall-clock ms per call and this process's CPU µs per call (user + system) of one run. */
interface PerCall {
  ms: number;
  cpuUs: number;
}

async function timed(n: number, run: () => Promise<void>): Promise<PerCall> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await run();
  const ms = (performance.now() - t0) / n;
  const c = process.cpuUsage(c0);
  return { ms, cpuUs: (c.user + c.system) / n };
}

/** `n` calls one after another. */
function sequential(call: Call, n: number): Promise<PerCall> {
  return timed(n, async () => {
    for (let i = 0; i < n; i++) check(await call());
  });
}

/** `n` calls in batches of `batch` sent at once. */
function batched(call: Call, n: number, batch: number): Promise<PerCall> {
  return timed(n, async () => {
    for (let done = 0; done < n; done += batch) {
      const rs = await Promise.all(Array.from({ length: Math.min(batch, n - done) }, call));
      rs.forEach(check);
    }
  });
}

async function main(): Promise<void> {
  const [roundsArg, callsArg, batchArg, tag] = process.argv.slice(2);
  if (!tag) throw new Error('usage: tool-calls-child.ts <rounds> <calls> <batch> <tag>');
  const rounds = Number(roundsArg);
  const calls = Number(callsArg);
  const batch = Number(batchArg);

  // Ours: the full host path.
  const { host, stateDir } = await startFixtureHost(tag);
  const ours: Call = () => host.callTool('fx__noop', {});

  // Bare: the SDK as documented, same server script and environment; tools listed as ours are.
  const bareClient = new Client({ name: 'bare-bench', version: '0.0.0' }, { capabilities: {} });
  const transport = new StdioClientTransport({ command: process.execPath, args: fixtureArgs(tag), env: mergedEnv({}), stderr: 'pipe' });
  await bareClient.connect(transport);
  await bareClient.listTools();
  const bare: Call = async () => (await bareClient.callTool({ name: 'noop', arguments: {} })) as CallToolResult;
  // Control arm: a second bare client on its own server process; bare2 / bare is the noise floor
  // of the wall-clock ratio (process placement and scheduling, not code).
  const bareClient2 = new Client({ name: 'bare-bench', version: '0.0.0' }, { capabilities: {} });
  await bareClient2.connect(new StdioClientTransport({ command: process.execPath, args: fixtureArgs(tag), env: mergedEnv({}), stderr: 'pipe' }));
  await bareClient2.listTools();
  const bare2: Call = async () => (await bareClient2.callTool({ name: 'noop', arguments: {} })) as CallToolResult;
  // Diagnostic arm: the bare client with the request options McpConnection.callTool passes, to
  // tell SDK option costs (progress token, timeouts) apart from our own code.
  const bareOpts: Call = async () =>
    (await bareClient.callTool({ name: 'noop', arguments: {} }, {
      timeout: 60_000,
      resetTimeoutOnProgress: true,
      maxTotalTimeout: 10 * 60 * 1000,
      onprogress: () => undefined,
    })) as CallToolResult;

  // Warm up every path (JIT, pipes, the servers' own warm-up).
  for (const c of [ours, bare, bare2, bareOpts, ours, bare, bare2, bareOpts]) {
    await sequential(c, 300);
    await batched(c, 300, batch);
  }

  type Arm = 'ours' | 'bare' | 'bare2' | 'bareOpts';
  const arms: [Arm, Call][] = [
    ['ours', ours],
    ['bare', bare],
    ['bare2', bare2],
    ['bareOpts', bareOpts],
  ];
  // Each round gives every arm `calls` sequential calls and `calls` batched calls. They run
  // interleaved in blocks of BLOCK calls (arm order rotating per block), so a burst of load from
  // elsewhere on the machine hits every arm alike instead of whichever ran at that moment.
  const BLOCK = 100;
  const samples = {} as Record<`${Arm}${'Seq' | 'Conc'}`, PerCall[]>;
  for (const [who] of arms) samples[`${who}Seq`] = [];
  for (const [who] of arms) samples[`${who}Conc`] = [];
  for (let r = 0; r < rounds; r++) {
    for (const kind of ['Seq', 'Conc'] as const) {
      const acc = new Map<Arm, PerCall>(arms.map(([who]) => [who, { ms: 0, cpuUs: 0 }]));
      for (let b = 0, done = 0; done < calls; b++, done += BLOCK) {
        const n = Math.min(BLOCK, calls - done);
        const k = (r + b) % arms.length;
        for (const [who, c] of [...arms.slice(k), ...arms.slice(0, k)]) {
          const t = kind === 'Seq' ? await sequential(c, n) : await batched(c, n, batch);
          const a = acc.get(who)!;
          a.ms += (t.ms * n) / calls;
          a.cpuUs += (t.cpuUs * n) / calls;
        }
      }
      for (const [who, v] of acc) samples[`${who}${kind}`].push(v);
    }
  }

  await host.shutdown();
  await bareClient.close();
  await bareClient2.close();
  const left = await waitNoTagged(tag, 3000);
  await removeDir(stateDir);
  process.stdout.write(`RESULT ${JSON.stringify({ ...samples, leftAfterShutdown: left })}\n`);
}

main().catch((err) => {
  console.error((err as Error).stack ?? err);
  process.exit(1);
});
