/**
 * "100 concurrent calls of a 100 ms tool on one server: done in ≤ 3× 100 ms." One stdio fixture
 * server started by McpHost; each sample sends `calls` calls of `sleep {ms}` at once through
 * host.callTool (the chat agent's path) and times until the last answer. One call alone and a
 * bare SDK client sending the same burst are measured alongside, interleaved, for scale.
 * Usage: sleep-calls-child.ts <rounds> <calls> <ms> <tag>. Prints `RESULT {...}`.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ConfigStore } from '../main/mcp/config.js';
import { McpHost } from '../main/mcp/host.js';
import { mergedEnv } from '../main/mcp/transports.js';
import { fixtureArgs, fixtureEntry, makeStateDir, removeDir, waitNoTagged } from './util.js';

type Call = () => Promise<CallToolResult>;

async function burst(call: Call, n: number, ms: number): Promise<number> {
  const t0 = performance.now();
  const rs = await Promise.all(Array.from({ length: n }, call));
  const wall = performance.now() - t0;
  for (const r of rs) {
    const first = r.content[0];
    if (r.isError || !first || first.type !== 'text' || first.text !== `slept ${ms}`) throw new Error(`unexpected result ${JSON.stringify(r).slice(0, 300)}`);
  }
  return wall;
}

async function main(): Promise<void> {
  const [roundsArg, callsArg, msArg, tag] = process.argv.slice(2);
  if (!tag) throw new Error('usage: sleep-calls-child.ts <rounds> <calls> <ms> <tag>');
  const rounds = Number(roundsArg);
  const calls = Number(callsArg);
  const ms = Number(msArg);

  const stateDir = await makeStateDir({ fx: fixtureEntry(tag) });
  const store = new ConfigStore(stateDir);
  await store.load();
  const host = new McpHost(store);
  host.startAll();
  await host.whenStarted();
  if (host.connection('fx')?.status !== 'ready') throw new Error(`fixture not ready: ${host.connection('fx')?.error}`);
  const ours: Call = () => host.callTool('fx__sleep', { ms });

  const bareClient = new Client({ name: 'bare-bench', version: '0.0.0' }, { capabilities: {} });
  await bareClient.connect(new StdioClientTransport({ command: process.execPath, args: fixtureArgs(tag), env: mergedEnv({}), stderr: 'pipe' }));
  await bareClient.listTools();
  const bare: Call = async () => (await bareClient.callTool({ name: 'sleep', arguments: { ms } })) as CallToolResult;

  // Warm-up (JIT, pipes, the server's zod validation paths).
  for (let i = 0; i < 3; i++) {
    await burst(ours, calls, ms);
    await burst(bare, calls, ms);
  }
  const samples = { one: [] as number[], ours: [] as number[], bare: [] as number[] };
  for (let r = 0; r < rounds; r++) {
    samples.one.push(await burst(ours, 1, ms));
    if (r % 2) {
      samples.ours.push(await burst(ours, calls, ms));
      samples.bare.push(await burst(bare, calls, ms));
    } else {
      samples.bare.push(await burst(bare, calls, ms));
      samples.ours.push(await burst(ours, calls, ms));
    }
  }
  await host.shutdown();
  await bareClient.close();
  const left = await waitNoTagged(tag, 3000);
  await removeDir(stateDir);
  process.stdout.write(`RESULT ${JSON.stringify({ ...samples, leftAfterShutdown: left })}\n`);
}

main().catch((err) => {
  console.error((err as Error).stack ?? err);
  process.exit(1);
});
