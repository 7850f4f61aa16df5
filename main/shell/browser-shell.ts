/**
 * The browser shell: runs the real app core under plain Node and carries the same contract over a
 * loopback WebSocket, so the renderer can run in any Chromium (for machines without the Electron
 * binary, and for end-to-end tests).
 *
 * Security: listens on 127.0.0.1 only; a random 256-bit token (given in the URL fragment, never
 * logged elsewhere) is required to open the socket; the `Origin` header must be this server's own
 * origin; messages are size-limited and validated by the same dispatcher as Electron's IPC.
 *
 * Run: `npm run web` (builds, then `tsx main/shell/browser-shell.ts`). Env: `OPENPROGRAM_PORT`
 * (default 0 = any free port), `OPENPROGRAM_STATE_DIR`.
 */
import http from 'node:http';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { WebSocketServer, type WebSocket } from 'ws';
import { AppCore, resolveStateDir } from '../core.js';
import { createDispatcher } from '../ipc/dispatch.js';
import { RENDERER_CSP } from '../csp.js';


const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

/** Largest WebSocket message accepted from the renderer, in bytes. */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/** A running browser shell. */
export interface BrowserShell {
  /** `http://127.0.0.1:<port>/#token=<token>` — open this in a browser. */
  url: string;
  port: number;
  core: AppCore;
  close(): Promise<void>;
}

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Start the browser shell.
 * @param opts.rendererDir built renderer (default `out/renderer`)
 * @throws when the port cannot be bound.
 */
export async function startBrowserShell(opts: { stateDir: string; port?: number; rendererDir?: string; host?: string }): Promise<BrowserShell> {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const rendererDir = path.resolve(opts.rendererDir ?? path.join(here, '../../out/renderer'));
  const token = randomBytes(32).toString('base64url');
  const core = new AppCore({ stateDir: opts.stateDir, shell: 'browser' });
  const dispatcher = createDispatcher(core, (channel, err) => console.error(`[ipc] ${channel} failed:`, (err as Error)?.stack ?? err));
  const bindHost = opts.host ?? '127.0.0.1';

  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://x');
      let rel = decodeURIComponent(url.pathname);
      if (rel === '/' || rel === '') rel = '/index.html';
      const file = path.resolve(rendererDir, `.${rel}`);
      if (!file.startsWith(rendererDir + path.sep)) {
        res.writeHead(403).end();
        return;
      }
      const body = await fs.readFile(file);
      res.writeHead(200, {
        'content-type': MIME[path.extname(file)] ?? 'application/octet-stream',
        'content-security-policy': RENDERER_CSP,
        'x-content-type-options': 'nosniff',
        'cache-control': 'no-store',
      });
      res.end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
    }
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  const sockets = new Set<WebSocket>();
  server.on('upgrade', (req, socket, head) => {
    const port = (server.address() as { port: number }).port;
    const url = new URL(req.url ?? '/', 'http://x');
    const origin = req.headers.origin ?? '';
    const allowed = [`http://127.0.0.1:${port}`, `http://localhost:${port}`];
    const given = url.searchParams.get('token') ?? '';
    if (url.pathname !== '/ipc' || !allowed.includes(origin) || !sameToken(given, token)) {
      socket.write('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  wss.on('connection', (ws: WebSocket) => {
    sockets.add(ws);
    const unsubscribe = core.subscribe((event, payload) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ event, payload }));
    });
    ws.on('close', () => {
      unsubscribe();
      sockets.delete(ws);
    });
    ws.on('message', async (data, isBinary) => {
      let msg: unknown;
      try {
        if (isBinary) throw new Error('binary');
        msg = JSON.parse(data.toString());
      } catch {
        ws.send(JSON.stringify({ id: null, envelope: { ok: false, error: { code: 'invalid_input', message: 'Messages must be JSON text.' } } }));
        return;
      }
      const m = (typeof msg === 'object' && msg !== null ? msg : {}) as { id?: unknown; channel?: unknown; input?: unknown };
      const id = typeof m.id === 'number' || typeof m.id === 'string' ? m.id : null;
      const envelope = await dispatcher.invoke(m.channel, m.input);
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ id, envelope }));
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, bindHost, () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  await core.start();

  return {
    url: `http://127.0.0.1:${port}/#token=${token}`,
    port,
    core,
    async close() {
      for (const s of sockets) s.terminate();
      wss.close();
      await new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections?.();
      await core.shutdown();
    },
  };
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const stateDir = resolveStateDir();
  const port = Number(process.env.OPENPROGRAM_PORT ?? 0) || 0;
  startBrowserShell({ stateDir, port })
    .then((shell) => {
      process.stdout.write(`OpenProgram browser shell ready\nstate dir: ${stateDir}\nopen: ${shell.url}\n`);
      let closing = false;
      const stop = (): void => {
        if (closing) return;
        closing = true;
        shell.close().finally(() => process.exit(0));
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    })
    .catch((err) => {
      console.error(`Could not start the browser shell: ${(err as Error).message}`);
      process.exit(1);
    });
}
