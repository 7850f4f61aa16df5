/**
 * "100 concurrent calls of a 100 ms tool on one server: done in ≤ 3× 100 ms." One stdio fixture
 * server started by McpHost; each sample sends `calls` calls of `sleep {ms}` at once through
 * host.callTool (the chat agent's path) and times until the last answer. One call alone and a
 * bare SDK client sending the same burst are measured alongside, interleaved, for scale.
 * Usage: sleep-calls-child.ts <rounds> <calls> <ms> <tag>. Prints `RESULT {...}`.
 */
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { mergedEnv } from '../main/mcp/transports/environment.js';
import { fixtureArgs, removeDir, sleepBurst, startFixtureHost, waitNoTagged } from './util.js';

type Call = () => Promise<CallToolResult>;

async function main(): Promise<void> {
  const [roundsArg, callsArg, msArg, tag] = process.argv.slice(2);
  if (!tag) throw new Error('usage: sleep-calls-child.ts <rounds> <calls> <ms> <tag>');
  const rounds = Number(roundsArg);
  const calls = Number(callsArg);
  const ms = Number(msArg);

  const { host, stateDir } = await startFixtureHost(tag);
  const ours: Call = () => host.callTool('fx__sleep', { ms });

  const bareClient = new Client({ name: 'bare-bench', version: '0.0.0' }, { capabilities: {} });
  await bareClient.connect(new StdioClientTransport({ command: process.execPath, args: fixtureArgs(tag), env: mergedEnv({}), stderr: 'pipe' }));
  await bareClient.listTools();
  const bare: Call = async () => (await bareClient.callTool({ name: 'sleep', arguments: { ms } })) as CallToolResult;

  // Warm-up (JIT, pipes, the server's zod validation paths).
  for (let i = 0; i < 3; i++) {
    await sleepBurst(ours, calls, ms);
    await sleepBurst(bare, calls, ms);
  }
  const samples = { one: [] as number[], ours: [] as number[], bare: [] as number[] };
  for (let r = 0; r < rounds; r++) {
    samples.one.push(await sleepBurst(ours, 1, ms));
    if (r % 2) {
      samples.ours.push(await sleepBurst(ours, calls, ms));
      samples.bare.push(await sleepBurst(bare, calls, ms));
    } else {
      samples.bare.push(await sleepBurst(bare, calls, ms));
      samples.ours.push(await sleepBurst(ours, calls, ms));
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
