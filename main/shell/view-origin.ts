/**
 * The browser shell's view origin (docs/ARCHITECTURE.md "MCP Apps: isolation"): a second loopback
 * HTTP listener, on a port of its own, so MCP App views never run on the app's origin. It serves
 * only the sandbox page and its relay (main/mcp/apps/sandbox-page.ts) — no renderer files, no
 * WebSocket — and answers everything else with 404.
 */
import http from 'node:http';
import { sandboxResponse } from '../mcp/apps/sandbox-page.js';

/** A running view origin. */
export interface ViewOrigin {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  close(): Promise<void>;
}

/**
 * Start the view origin's listener on `port` of `bindHost` (0: any free port).
 * @param hostOrigin the app's origin, the only page allowed to frame the sandbox page
 * @throws when the port cannot be bound.
 */
export async function startViewOrigin(hostOrigin: string, bindHost = '127.0.0.1', port = 0): Promise<ViewOrigin> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { 'content-type': 'text/plain' }).end('Method not allowed');
      return;
    }
    const r = sandboxResponse(req.url, hostOrigin);
    res.writeHead(r.status, r.headers).end(req.method === 'HEAD' ? undefined : r.body);
  });
  server.on('clientError', (_err, socket) => socket.destroy());
  // No upgrades: the view origin carries no WebSocket.
  server.on('upgrade', (_req, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, bindHost, () => resolve());
  });
  const bound = (server.address() as { port: number }).port;
  return {
    origin: `http://127.0.0.1:${bound}`,
    async close() {
      const closed = new Promise<void>((r) => server.close(() => r()));
      // Keep-alive connections of the frames would hold close() open.
      server.closeAllConnections?.();
      await closed;
    },
  };
}
