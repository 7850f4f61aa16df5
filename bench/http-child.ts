/**
 * Streamable HTTP, against the test suite's fixture (startHttpFixture) in its own process:
 *
 * 1. "Connect + list tools: ours vs a bare SDK client, ratio ≤ 1.2." Ours: a fresh McpConnection
 *    (type http) start() until ready (initialize + tools/list; resources/prompts only when the
 *    server declares them). Bare: a fresh Client + StreamableHTTPClientTransport, connect() +
 *    listTools(). A second bare arm is the control (noise floor). Arms interleave, order rotating;
 *    closing is not timed.
 *    The same against a stateless 2026-07-28 server (SDK v2 `createMcpHandler`): `server/discover`
 *    instead of `initialize`, no session. Both sides negotiate (`versionNegotiation: auto`).
 * 2. "Twenty concurrent calls to one remote server take about one call's time." `sleep {ms}`
 *    ×`burst` at once through one McpConnection, vs one call alone; a bare client's burst for
 *    scale, and (diagnostic) a bare client passing our call options. Burst arms rotate per round.
 * Usage: http-child.ts <connectRounds> <callRounds> <burst> <ms> <tag>. Prints `RESULT {...}`.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { RemoteServerConfig } from '../main/mcp/config.js';
import { McpConnection } from '../main/mcp/connection.js';
import { sleepBurst, startServerProcess } from './util.js';

/** How many tools each fixture lists (counted once by a bare client before the rounds). */
const TOOLS: Record<string, number> = {};

async function ours(url: string): Promise<number> {
  const cfg: RemoteServerConfig = { type: 'http', url, headers: {}, auth: { kind: 'none' }, enabled: true, timeout_seconds: 60 };
  const t0 = performance.now();
  const c = new McpConnection('remote', cfg);
  await c.start();
  const ms = performance.now() - t0;
  const ok = c.status === 'ready' && c.tools.length === TOOLS[url];
  const why = JSON.stringify(c.state);
  await c.close();
  if (!ok) throw new Error(`our connection: ${c.status} ${why ?? ''}`);
  return ms;
}

async function bare(url: string): Promise<number> {
  const t0 = performance.now();
  // Negotiating like ours (`server/discover` first, then `initialize` for 2025-era servers).
  const client = new Client({ name: 'bare-bench', version: '0.0.0' }, { capabilities: {}, versionNegotiation: { mode: 'auto' } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const { tools } = await client.listTools();
  const ms = performance.now() - t0;
  await client.close();
  if (tools.length !== TOOLS[url]) throw new Error(`bare: ${tools.length} tools`);
  return ms;
}

type Call = () => Promise<CallToolResult>;

async function main(): Promise<void> {
  const [connectArg, callArg, burstArg, msArg, tag] = process.argv.slice(2);
  if (!tag) throw new Error('usage: http-child.ts <connectRounds> <callRounds> <burst> <ms> <tag>');
  const connectRounds = Number(connectArg);
  const callRounds = Number(callArg);
  const n = Number(burstArg);
  const ms = Number(msArg);
  const server = await startServerProcess('http-fixture-server.ts', [`--bench-tag=${tag}`]);
  const modernServer = await startServerProcess('http-fixture-server.ts', ['--modern', `--bench-tag=${tag}`]);
  try {
    const url = server.url;
    // How many tools each fixture lists, as a bare client sees them; both arms must see as many.
    for (const u of [url, modernServer.url]) {
      const probe = new Client({ name: 'bare-bench', version: '0.0.0' }, { capabilities: {}, versionNegotiation: { mode: 'auto' } });
      await probe.connect(new StreamableHTTPClientTransport(new URL(u)));
      TOOLS[u] = (await probe.listTools()).tools.length;
      await probe.close();
    }
    // ---- 1. connect + list: the sessionful fixture, then the stateless 2026-07-28 one ----
    const arms: [string, (u: string) => Promise<number>][] = [
      ['ours', ours],
      ['bare', bare],
      ['bare2', bare],
    ];
    const connectAll = async (target: string): Promise<Record<string, number[]>> => {
      for (let i = 0; i < 10; i++) for (const [, f] of arms) await f(target);
      const out: Record<string, number[]> = { ours: [], bare: [], bare2: [] };
      for (let r = 0; r < connectRounds; r++) {
        const k = r % arms.length;
        for (const [name, f] of [...arms.slice(k), ...arms.slice(0, k)]) out[name]!.push(await f(target));
      }
      return out;
    };
    const connect = await connectAll(url);
    const connectModern = await connectAll(modernServer.url);

    // ---- 2. concurrent calls ----
    const cfg: RemoteServerConfig = { type: 'http', url, headers: {}, auth: { kind: 'none' }, enabled: true, timeout_seconds: 60 };
    const conn = new McpConnection('remote', cfg);
    await conn.start();
    if (conn.status !== 'ready') throw new Error(`our connection: ${conn.status} ${JSON.stringify(conn.state)}`);
    const bareClient = new Client({ name: 'bare-bench', version: '0.0.0' }, { capabilities: {} });
    await bareClient.connect(new StreamableHTTPClientTransport(new URL(url)));
    await bareClient.listTools();
    const oursCall: Call = () => conn.callTool('sleep', { ms });
    const bareCall: Call = async () => (await bareClient.callTool({ name: 'sleep', arguments: { ms } })) as CallToolResult;
    // Diagnostic: the bare client with the request options McpConnection.callTool passes
    // (progress token, timeouts), to tell SDK option costs apart from our own code.
    const bareOptsCall: Call = async () =>
      (await bareClient.callTool({ name: 'sleep', arguments: { ms } }, {
        timeout: 60_000,
        resetTimeoutOnProgress: true,
        maxTotalTimeout: 10 * 60 * 1000,
        onprogress: () => undefined,
      })) as CallToolResult;
    // Warm-up: opens the keep-alive sockets the burst needs.
    const burstArms: [keyof typeof calls, Call][] = [
      ['ours', oursCall],
      ['bare', bareCall],
      ['bareOpts', bareOptsCall],
    ];
    const calls = { one: [] as number[], ours: [] as number[], bare: [] as number[], bareOpts: [] as number[] };
    for (let i = 0; i < 2; i++) for (const [, c] of burstArms) await sleepBurst(c, n, ms);
    for (let r = 0; r < callRounds; r++) {
      calls.one.push(await sleepBurst(oursCall, 1, ms));
      const k = r % burstArms.length;
      for (const [name, c] of [...burstArms.slice(k), ...burstArms.slice(0, k)]) calls[name].push(await sleepBurst(c, n, ms));
    }
    await conn.close();
    await bareClient.close();
    process.stdout.write(`RESULT ${JSON.stringify({ connect, connectModern, calls })}\n`);
  } finally {
    await modernServer.close();
    await server.close();
  }
}

main().catch((err) => {
  console.error((err as Error).stack ?? err);
  process.exit(1);
});
