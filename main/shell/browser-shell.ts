/**
 * The browser shell: runs the real app core under plain Node and carries the same contract over a
 * loopback WebSocket, so the renderer can run in any Chromium (for machines without the Electron
 * binary, and for end-to-end tests).
 *
 * Security: listens on 127.0.0.1 only; a random 256-bit token (given in the URL fragment, never
 * logged elsewhere) is required to open the socket; the `Origin` header must be this server's own
 * origin; messages are size-limited (an oversized request is refused by id, the socket goes on;
 * only a frame past `MAX_FRAME_BYTES` ends the socket) and validated by the same dispatcher as Electron's IPC. The
 * checks themselves are pure functions in ./guards.ts. Whatever a peer sends fails only that
 * request, message or socket: an unparsable target, an oversized frame, invalid UTF-8 or a reply
 * that cannot be encoded never ends the process.
 *
 * Run: `npm run web` (builds, then `tsx main/shell/browser-shell.ts`). Env: `OPENPROGRAM_PORT`
 * (default 0 = any free port), `OPENPROGRAM_VIEW_PORT` (the MCP App view origin's port, same
 * default), `OPENPROGRAM_STATE_DIR`.
 */
import http from 'node:http';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { WebSocketServer, type WebSocket } from 'ws';
import { AppCore, resolveStateDir } from '../core.js';
import { createDispatcher } from '../ipc/dispatch.js';
import { RENDERER_CSP, WORKER_CSP, rendererCspWithViews } from '../csp.js';
import { startViewOrigin, type ViewOrigin } from './view-origin.js';
import { redactConsole } from '../secrets/redact.js';
import { checkUpgrade, encodeEvent, encodeReply, isInside, oversizedMessageId, resolveStaticPath } from './guards.js';
import { BRIDGE_MESSAGE_BYTES } from '../../preload/contract/rules/index.js';


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

/**
 * Largest request accepted from the window, in bytes: a bigger one is refused with `too_large`
 * (to its sender, by id) and everything else on the socket goes on.
 */
export const MAX_MESSAGE_BYTES = BRIDGE_MESSAGE_BYTES;
/**
 * Largest WebSocket frame read at all, in bytes: past this the socket is closed (1009) so that a
 * runaway peer cannot take the memory. The window never sends one (it checks sizes first).
 */
export const MAX_FRAME_BYTES = 16 * MAX_MESSAGE_BYTES;
/** How long a socket that broke the protocol may stay to read its close frame, in ms. */
const SOCKET_ERROR_GRACE_MS = 2_000;

/** A running browser shell. */
export interface BrowserShell {
  /** `http://127.0.0.1:<port>/#token=<token>` — open this in a browser. */
  url: string;
  port: number;
  /** Where MCP App views are served: `http://*.localhost:<view port>`, one host per shown view (docs/ARCHITECTURE.md "MCP Apps: isolation"). */
  viewOrigin: string;
  core: AppCore;
  close(): Promise<void>;
}

/**
 * Start the browser shell.
 * @param opts.rendererDir built renderer (default `out/renderer`)
 * @param opts.viewPort the view origin's port (default 0 = any free port)
 * @param opts.redactConsole pass this process's console through the core's secret redaction
 *   (the `npm run web` process does; embedders that share the console may not want it)
 * @throws when the port cannot be bound.
 */
export async function startBrowserShell(opts: {
  stateDir: string;
  port?: number;
  viewPort?: number;
  rendererDir?: string;
  host?: string;
  redactConsole?: boolean;
}): Promise<BrowserShell> {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const rendererDir = path.resolve(opts.rendererDir ?? path.join(here, '../../out/renderer'));
  const token = randomBytes(32).toString('base64url');
  // Servers start once the page's first call was answered (or after a fallback delay).
  // MCP App views get origins of their own on the view listener (./view-origin.ts), which listens
  // before the core serves anything.
  let viewOrigin: ViewOrigin | null = null;
  const viewOrigins = { originFor: (label: string): string => viewOrigin!.originFor(label) };
  const core = new AppCore({ stateDir: opts.stateDir, shell: 'browser', startServers: 'after-ui', viewOrigins });
  if (opts.redactConsole) redactConsole(core.redactor);
  const dispatcher = createDispatcher(core, (channel, err) => console.error(`[ipc] ${channel} failed:`, (err as Error)?.stack ?? err));
  const bindHost = opts.host ?? '127.0.0.1';

  // Symlinks inside the folder may not lead out of it: compare real paths.
  const realRendererDir = await fs.realpath(rendererDir).catch(() => rendererDir);
  const server = http.createServer(async (req, res) => {
    try {
      const file = resolveStaticPath(rendererDir, req.url);
      const real = file ? await fs.realpath(file).catch(() => null) : null;
      if (!file || !real || !isInside(realRendererDir, real)) {
        res.writeHead(file ? 404 : 403, { 'content-type': 'text/plain' }).end(file ? 'Not found' : 'Forbidden');
        return;
      }
      const body = await fs.readFile(real);
      res.writeHead(200, {
        'content-type': MIME[path.extname(file)] ?? 'application/octet-stream',
        // Script files carry the worker's policy (a page's scripts are governed by the page's).
        'content-security-policy': path.extname(file) === '.js' ? WORKER_CSP : viewOrigin ? rendererCspWithViews(viewOrigin.frameSource) : RENDERER_CSP,
        'x-content-type-options': 'nosniff',
        'cache-control': 'no-store',
      });
      res.end(body);
    } catch {
      if (!res.headersSent) res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('Not found');
    }
  });
  // A malformed request must end only its own connection.
  server.on('clientError', (_err, socket) => socket.destroy());

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  const sockets = new Set<WebSocket>();
  server.on('upgrade', (req, socket, head) => {
    socket.on('error', () => socket.destroy());
    const port = (server.address() as { port: number }).port;
    const verdict = checkUpgrade({ url: req.url, origin: req.headers.origin }, { port, token });
    if (!verdict.ok) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      socket.destroy();
      return;
    }
    try {
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
    } catch {
      socket.destroy();
    }
  });

  wss.on('connection', (ws: WebSocket) => {
    sockets.add(ws);
    const send = (text: string | null): void => {
      if (text !== null && ws.readyState === ws.OPEN) ws.send(text);
    };
    const unsubscribe = core.subscribe((event, payload) => send(encodeEvent(event, payload)));
    // This page's lifetime: a reload or a dropped connection ends its requests still under way
    // (a view's tool call waiting for approval; main/mcp/apps/view-instances.ts).
    const page = new AbortController();
    // An oversized frame, invalid UTF-8 or a protocol violation closes this socket only (ws has
    // already sent the close frame with the right code); without a listener it would end the
    // process. The peer gets a moment to read that frame (destroying at once can turn it into a
    // reset while the peer is still sending), then the socket is ended whatever the peer does.
    let ending: NodeJS.Timeout | null = null;
    ws.on('error', () => {
      ending ??= setTimeout(() => ws.terminate(), SOCKET_ERROR_GRACE_MS);
      ending.unref();
    });
    ws.on('close', () => {
      page.abort();
      if (ending) clearTimeout(ending);
      unsubscribe();
      sockets.delete(ws);
    });
    ws.on('message', (data, isBinary) => {
      const bytes = Buffer.isBuffer(data) ? data : Buffer.concat(Array.isArray(data) ? data : [Buffer.from(data)]);
      if (bytes.length > MAX_MESSAGE_BYTES) {
        const mb = (n: number): string => (n / 1024 / 1024).toFixed(1);
        send(
          encodeReply(oversizedMessageId(bytes), {
            ok: false,
            error: { code: 'too_large', message: `The request was ${mb(bytes.length)} MB, over the ${mb(MAX_MESSAGE_BYTES)} MB one request may have; it was not read.` },
          }),
        );
        return;
      }
      void (async () => {
        let msg: unknown;
        try {
          if (isBinary) throw new Error('binary');
          msg = JSON.parse(data.toString());
        } catch {
          send(encodeReply(null, { ok: false, error: { code: 'invalid_input', message: 'Messages must be JSON text.' } }));
          return;
        }
        const m = (typeof msg === 'object' && msg !== null ? msg : {}) as { id?: unknown; channel?: unknown; input?: unknown };
        const id = typeof m.id === 'number' || (typeof m.id === 'string' && m.id.length <= 128) ? m.id : null;
        const envelope = await dispatcher.invoke(m.channel, m.input, { signal: page.signal });
        send(encodeReply(id, envelope));
      })().catch((err: unknown) => console.error('[shell] a message failed:', (err as Error)?.message ?? err));
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, bindHost, () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  const views = await startViewOrigin(`http://127.0.0.1:${port}`, (label) => core.apps.sandboxCsp(label), bindHost, opts.viewPort ?? 0);
  viewOrigin = views;
  await core.start();

  return {
    url: `http://127.0.0.1:${port}/#token=${token}`,
    port,
    viewOrigin: views.frameSource,
    core,
    async close() {
      for (const s of sockets) s.terminate();
      wss.close();
      await new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections?.();
      await viewOrigin?.close();
      await core.shutdown();
    },
  };
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const stateDir = resolveStateDir();
  const port = Number(process.env.OPENPROGRAM_PORT ?? 0) || 0;
  const viewPort = Number(process.env.OPENPROGRAM_VIEW_PORT ?? 0) || 0;
  startBrowserShell({ stateDir, port, viewPort, redactConsole: true })
    .then((shell) => {
      process.stdout.write(`OpenProgram browser shell ready\nstate dir: ${stateDir}\nopen: ${shell.url}\napp views: ${shell.viewOrigin} (forward this port too when you tunnel)\n`);
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
