/**
 * The browser shell's view origins (docs/ARCHITECTURE.md "MCP Apps: isolation"): a second loopback
 * HTTP listener, on a port of its own, that gives every shown MCP App view an origin of its own —
 * the host `<label>.localhost` on this port (browsers resolve every `*.localhost` name to
 * loopback and keep each host's documents, storage and cookies apart; a cookie for the shared
 * parent `localhost` is refused). Views never run on the app's origin nor on each other's. It
 * serves only the sandbox page and its relay (main/mcp/apps/sandbox-page.ts) — no renderer files,
 * no WebSocket — and only for the label of a view that is shown now; everything else is 404.
 */
import http from 'node:http';
import type { McpUiResourceCsp } from '@modelcontextprotocol/ext-apps/app-bridge';
import { sandboxResponse } from '../mcp/apps/sandbox-page.js';
import { VIEW_LABEL } from '../mcp/apps/view-instances.js';

/** A running view origin listener. */
export interface ViewOrigin {
  /** The port views are served on. */
  port: number;
  /** The origin of the view with label `label`: `http://<label>.localhost:<port>`. */
  originFor(label: string): string;
  /** What the window's CSP allows to frame: every view host on this port. */
  frameSource: string;
  close(): Promise<void>;
}

/**
 * The origin label a request's `Host` header names, or null when it is not exactly
 * `<label>.localhost:<port>` (other names, ports, or the bare `localhost`).
 */
export function labelOfHost(host: string | undefined, port: number): string | null {
  const m = /^([a-z0-9]+)\.localhost:(\d{1,5})$/.exec((host ?? '').toLowerCase());
  if (!m || Number(m[2]) !== port || !VIEW_LABEL.test(m[1]!)) return null;
  return m[1]!;
}

/**
 * Start the view origin's listener on `port` of `bindHost` (0: any free port).
 * @param hostOrigin the app's origin, the only page allowed to frame a sandbox page
 * @param cspFor the policy of the view shown with a label, or null when none is (nothing served)
 * @throws when the port cannot be bound.
 */
export async function startViewOrigin(hostOrigin: string, cspFor: (label: string) => McpUiResourceCsp | null, bindHost = '127.0.0.1', port = 0): Promise<ViewOrigin> {
  let bound = 0;
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { 'content-type': 'text/plain' }).end('Method not allowed');
      return;
    }
    const label = labelOfHost(req.headers.host, bound);
    const r = sandboxResponse(req.url, hostOrigin, label ? cspFor(label) : null);
    res.writeHead(r.status, r.headers).end(req.method === 'HEAD' ? undefined : r.body);
  });
  server.on('clientError', (_err, socket) => socket.destroy());
  // No upgrades: the view origin carries no WebSocket.
  server.on('upgrade', (_req, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, bindHost, () => resolve());
  });
  bound = (server.address() as { port: number }).port;
  return {
    port: bound,
    originFor: (label) => `http://${label}.localhost:${bound}`,
    frameSource: `http://*.localhost:${bound}`,
    async close() {
      const closed = new Promise<void>((r) => server.close(() => r()));
      // Keep-alive connections of the frames would hold close() open.
      server.closeAllConnections?.();
      await closed;
    },
  };
}
