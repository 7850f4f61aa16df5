/**
 * "5,000 tools over 50 servers: rebuilding the tool registry after a list_changed ≤ 50 ms."
 *
 * 1. Pure: buildToolTable (main/mcp/adapter.ts) over 50 servers × 100 tools built in memory,
 *    with descriptions and small input schemas — the first call in this fresh process (cold) and
 *    warm repeats.
 * 2. Real: an McpHost connected over Streamable HTTP to 50 servers of 100 tools each (all served
 *    by one separate process, bench/many-tools-server.ts). The host runtime's rebuildTools() is
 *    wrapped to time every rebuild, and each connection's refreshTools() to time the re-listing.
 *    A sample calls `bump` on one server, which registers a tool, so the server sends
 *    tools/list_changed; it is timed from the call until the host's toolsChanged event, split
 *    into the re-listing of that server and the registry rebuild. The rebuild is also called
 *    directly, warm, for its own distribution.
 * Usage: registry-child.ts <servers> <toolsPerServer> <rounds> <tag>. Prints `RESULT {...}`.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { buildToolTable, type RegisteredTool, type ServerTool } from '../main/mcp/adapter.js';
import { ConfigStore } from '../main/mcp/config.js';
import { McpHost } from '../main/mcp/host.js';
import { makeStateDir, median, removeDir, startServerProcess } from './util.js';

function syntheticTools(servers: number, perServer: number): ServerTool[] {
  const out: ServerTool[] = [];
  for (let s = 0; s < servers; s++) {
    for (let j = 0; j < perServer; j++) {
      out.push({
        server: `s${s}`,
        name: `tool_${j}`,
        description: `Tool number ${j} of server ${s}: does one small thing with the text it is given and reports back.`,
        inputSchema: {
          type: 'object',
          properties: { text: { type: 'string', description: 'The text to work on' }, count: { type: 'integer', description: 'How many times' } },
          required: ['text'],
          additionalProperties: false,
          $schema: 'http://json-schema.org/draft-07/schema#',
        },
      });
    }
  }
  return out;
}

function timeIt(fn: () => void): number {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
}

async function main(): Promise<void> {
  const [serversArg, toolsArg, roundsArg, tag] = process.argv.slice(2);
  if (!tag) throw new Error('usage: registry-child.ts <servers> <toolsPerServer> <rounds> <tag>');
  const servers = Number(serversArg);
  const perServer = Number(toolsArg);
  const rounds = Number(roundsArg);

  // ---- 1. pure ----
  const list = syntheticTools(servers, perServer);
  let table = buildToolTable([]);
  const pureColdMs = timeIt(() => (table = buildToolTable(list)));
  if (table.tools.length !== servers * perServer || table.renames.size) throw new Error('pure: unexpected table');
  for (let i = 0; i < 10; i++) buildToolTable(list);
  const pureMs: number[] = [];
  for (let i = 0; i < 30; i++) pureMs.push(timeIt(() => buildToolTable(list)));

  // ---- 2. real host over Streamable HTTP ----
  const server = await startServerProcess('many-tools-server.ts', [`--servers=${servers}`, `--tools=${perServer}`, `--bench-tag=${tag}`]);
  const dir = await makeStateDir({});
  try {
    const entries: Record<string, unknown> = {};
    for (let s = 0; s < servers; s++) entries[`s${s}`] = { type: 'http', url: new URL(`s${s}`, server.url).href, headers: {}, enabled: true, timeout_seconds: 60 };
    await fs.writeFile(path.join(dir, 'mcp_servers.json'), JSON.stringify({ servers: entries }));
    const store = new ConfigStore(dir);
    await store.load();
    let onToolsChanged: ((tools: RegisteredTool[]) => void) | null = null;
    const host = new McpHost(store, { events: { toolsChanged: (tools) => onToolsChanged?.(tools) } });

    // Time every registry rebuild the host does (main/mcp/host/runtime.ts: onConnectionChange →
    // this.rebuildTools()).
    const rebuilds: { at: number; ms: number }[] = [];
    const h = (host as unknown as { rt: { rebuildTools: () => void } }).rt;
    const realRebuild = h.rebuildTools.bind(h);
    h.rebuildTools = () => {
      const t0 = performance.now();
      realRebuild();
      rebuilds.push({ at: t0, ms: performance.now() - t0 });
    };

    const t0 = performance.now();
    host.startAll();
    await host.whenStarted();
    const startAllMs = performance.now() - t0;
    const ready = host.list().filter((v) => v.state.kind === 'ready').length;
    if (ready !== servers) throw new Error(`real: only ${ready}/${servers} servers became ready: ${JSON.stringify(host.list().find((v) => v.state.kind !== 'ready')?.state)}`);
    if (host.tools().length !== servers * perServer) throw new Error(`real: ${host.tools().length} tools registered, expected ${servers * perServer}`);
    const startupRebuildMs = rebuilds.map((r) => r.ms);

    // Time each connection's re-listing of tools (the list_changed handler calls its lists' refreshTools()).
    const refreshes: { server: string; at: number; ms: number }[] = [];
    for (let s = 0; s < servers; s++) {
      const c = host.connection(`s${s}`)!.lists as unknown as { refreshTools: () => Promise<void> };
      const real = c.refreshTools.bind(c);
      c.refreshTools = async () => {
        const t = performance.now();
        await real();
        refreshes.push({ server: `s${s}`, at: t, ms: performance.now() - t });
      };
    }

    const bump = async (s: number): Promise<{ e2eMs: number; callMs: number; refreshMs: number; rebuildMs: number; tools: number }> => {
      rebuilds.length = 0;
      refreshes.length = 0;
      const changed = new Promise<RegisteredTool[]>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no toolsChanged within 10 s after bump on s${s}`)), 10_000);
        onToolsChanged = (tools) => {
          clearTimeout(timer);
          onToolsChanged = null;
          resolve(tools);
        };
      });
      const t = performance.now();
      const called = host.callTool(`s${s}__bump`, {}).then(() => performance.now() - t);
      const tools = await changed;
      const e2eMs = performance.now() - t;
      const callMs = await called;
      return { e2eMs, callMs, refreshMs: refreshes.find((r) => r.server === `s${s}`)?.ms ?? NaN, rebuildMs: rebuilds.at(-1)?.ms ?? NaN, tools: tools.length };
    };
    // Warm-up on a few servers, then the samples on others.
    for (let i = 0; i < 3; i++) await bump((i * 17 + 5) % servers);
    const e2e: Awaited<ReturnType<typeof bump>>[] = [];
    for (let i = 0; i < rounds; i++) e2e.push(await bump((i * 7 + 1) % servers));
    const expectedTools = servers * perServer + 3 + rounds;
    if (host.tools().length !== expectedTools) throw new Error(`real: ${host.tools().length} tools after bumps, expected ${expectedTools}`);

    // The host's rebuild called directly, warm, over the live connections.
    const directMs: number[] = [];
    for (let i = 0; i < 30; i++) directMs.push(timeIt(realRebuild));

    await host.shutdown();
    process.stdout.write(
      `RESULT ${JSON.stringify({
        pure: { tools: list.length, coldMs: pureColdMs, ms: pureMs, medianMs: median(pureMs) },
        real: { servers, tools: expectedTools, startAllMs, startupRebuilds: startupRebuildMs.length, startupRebuildMs, directMs, listChanged: e2e },
      })}\n`,
    );
  } finally {
    await server.close();
    await removeDir(dir);
  }
}

main().catch((err) => {
  console.error((err as Error).stack ?? err);
  process.exit(1);
});
