/**
 * A Streamable HTTP process serving many MCP servers at once, one per path `/s<i>` (i < servers),
 * each offering `tools` tools: `tool_<j>` (j < tools − 1, with a small input schema) and `bump`,
 * which registers one more tool so the SDK sends `notifications/tools/list_changed` (on the
 * session's standalone GET stream). Stateful sessions, one McpServer per session.
 * Prints `URL http://127.0.0.1:<port>/` once listening; exits when stdin closes.
 * Usage: many-tools-server.ts --servers=N --tools=M [--bench-tag=TAG]
 */
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

const flags = Object.fromEntries(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, '').split('=');
    return [k, v ?? 'true'];
  }),
);
const SERVERS = Number(flags.servers ?? 50);
const TOOLS = Number(flags.tools ?? 100);

function makeServer(index: number): McpServer {
  const s = new McpServer({ name: `many-tools-${index}`, version: '1.0.0' });
  for (let j = 0; j < TOOLS - 1; j++) {
    s.registerTool(
      `tool_${j}`,
      {
        description: `Tool number ${j} of server ${index}: does one small thing with the text it is given and reports back.`,
        inputSchema: z.object({ text: z.string().describe('The text to work on'), count: z.number().int().optional().describe('How many times') }),
      },
      async ({ text }) => ({ content: [{ type: 'text', text }] }),
    );
  }
  let added = 0;
  s.registerTool('bump', { description: 'Register one more tool (sends tools/list_changed)', inputSchema: z.object({}) }, async () => {
    const name = `added_${added++}`;
    s.registerTool(name, { description: 'Added at run time', inputSchema: z.object({}) }, async () => ({ content: [{ type: 'text', text: 'ok' }] }));
    return { content: [{ type: 'text', text: name }] };
  });
  return s;
}

async function body(req: http.IncomingMessage): Promise<unknown> {
  let raw = '';
  for await (const c of req) raw += c;
  return raw ? JSON.parse(raw) : undefined;
}

async function main(): Promise<void> {
  const transports = new Map<string, NodeStreamableHTTPServerTransport>();
  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://x');
      const m = /^\/s(\d+)$/.exec(url.pathname);
      if (!m || Number(m[1]) >= SERVERS) return void res.writeHead(404).end();
      const session = req.headers['mcp-session-id'] as string | undefined;
      const parsed = req.method === 'POST' ? await body(req) : undefined;
      let t = session ? transports.get(session) : undefined;
      if (session && !t) return void res.writeHead(404).end();
      if (!t) {
        const fresh = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => void transports.set(id, fresh) });
        fresh.onclose = () => {
          if (fresh.sessionId) transports.delete(fresh.sessionId);
        };
        await makeServer(Number(m[1])).connect(fresh);
        t = fresh;
      }
      await t.handleRequest(req, res, parsed);
    } catch (err) {
      if (!res.headersSent) res.writeHead(500).end(String(err));
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  process.stdout.write(`URL http://127.0.0.1:${port}/\n`);
  process.stdin.on('end', () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
  process.stdin.resume();
}

main().catch((err) => {
  console.error((err as Error).stack ?? err);
  process.exit(1);
});
