/**
 * The loopback redirect receiver of a native-app sign-in (RFC 8252 §7.3, MCP spec
 * "Authorization"): an HTTP server on 127.0.0.1 that waits for the browser to come back to
 * `/callback?code=…&state=…`.
 *
 * Rules: only GET `/callback`; only from a loopback peer with a loopback `Host` header; `state`
 * must equal the expected value (constant-time compare) — a wrong one gets a 400 page and the
 * wait goes on; the first good callback wins and every later one (a replay) is refused; a timeout
 * or `cancel()` rejects the waiter. The listener is closed in every outcome. The pages are static
 * text (nothing from the request is reflected) with a CSP that forbids everything and no referrer.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { timingSafeEqual } from 'node:crypto';
import { AuthorizationDeniedError, CallbackTimeoutError, CancelledError, PortInUseError } from './errors.js';
import { classifyHost } from './url-safety.js';

/** Path the browser is sent back to. */
export const CALLBACK_PATH = '/callback';
/** Default time the user has to finish signing in: 5 minutes. */
export const DEFAULT_CALLBACK_TIMEOUT_MS = 5 * 60 * 1000;

/** What the authorization server sent back (RFC 6749 §4.1.2). Never log it. */
export interface CallbackResult {
  code: string;
  state: string;
  /** The `iss` parameter (RFC 9207 §2) when the authorization server sent one. */
  iss?: string;
}

/** Options of {@link startCallbackServer}. */
export interface CallbackServerOptions {
  /** The `state` value the callback must carry (RFC 6749 §10.12). */
  expectedState: string;
  /** Port to bind on 127.0.0.1; 0 (default) picks a free one. */
  port?: number;
  /** How long to wait for the browser, in ms (default {@link DEFAULT_CALLBACK_TIMEOUT_MS}). */
  timeoutMs?: number;
  /** Aborting it is the same as `cancel()`. */
  signal?: AbortSignal;
  /** Product name shown on the page (escaped). */
  appName?: string;
}

/** A listening callback server. */
export interface CallbackServer {
  /** The bound port. */
  readonly port: number;
  /** `http://127.0.0.1:<port>/callback`. */
  readonly redirectUri: string;
  /**
   * Resolves with the first callback carrying the expected state; rejects with
   * AuthorizationDeniedError (the AS returned `error=`), CallbackTimeoutError or CancelledError.
   * The listener is closed before it settles.
   */
  readonly result: Promise<CallbackResult>;
  /** Stop waiting: closes the socket and rejects `result` with CancelledError. Idempotent. */
  cancel(reason?: string): Promise<void>;
  /** Close the listener (after `result` settled, or to give up silently). Idempotent. */
  close(): Promise<void>;
  /** Whether the listener is still open. */
  readonly listening: boolean;
}

/** HTML-escape text for element content and attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"'`=/]/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, message: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>body{font:16px system-ui,sans-serif;margin:4rem auto;max-width:32rem;padding:0 1rem;color:#222}h1{font-size:1.3rem}</style></head><body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p></body></html>`;
}

const PAGE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  Connection: 'close',
} as const;

function statesEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

function isLoopbackPeer(req: IncomingMessage): boolean {
  const addr = req.socket.remoteAddress;
  return typeof addr === 'string' && classifyHost(addr) === 'loopback';
}

function hostHeaderOk(req: IncomingMessage, port: number): boolean {
  const host = (req.headers.host ?? '').toLowerCase();
  return host === `127.0.0.1:${port}` || host === `localhost:${port}` || host === `[::1]:${port}`;
}

const OAUTH_ERROR_CODE = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * Bind the loopback callback server and start waiting.
 * @throws PortInUseError when `port` is taken (EADDRINUSE); other listen errors as they are.
 */
export async function startCallbackServer(opts: CallbackServerOptions): Promise<CallbackServer> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_CALLBACK_TIMEOUT_MS;
  const app = opts.appName ?? 'OpenProgram Desktop';
  const sockets = new Set<Socket>();
  let settled = false;
  let closed = false;
  let boundPort = 0;
  let resolveResult!: (r: CallbackResult) => void;
  let rejectResult!: (e: Error) => void;
  const result = new Promise<CallbackResult>((res, rej) => {
    resolveResult = res;
    rejectResult = rej;
  });
  // The caller may never await `result` (e.g. cancel before waiting); that is not an unhandled rejection.
  result.catch(() => undefined);

  const server: Server = createServer((req, res) => handle(req, res));
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  const timer: { handle?: NodeJS.Timeout } = {};
  let onAbort: (() => void) | undefined;

  const closeServer = (): Promise<void> => {
    if (closed) return Promise.resolve();
    closed = true;
    clearTimeout(timer.handle);
    if (onAbort) opts.signal?.removeEventListener('abort', onAbort);
    return new Promise<void>((resolve) => {
      server.close(() => resolve());
      // Give an in-flight response a moment to flush, then drop every socket (keep-alive included).
      setImmediate(() => {
        for (const s of sockets) s.destroy();
        server.closeAllConnections?.();
      });
    });
  };

  const finish = (outcome: { ok: CallbackResult } | { err: Error }, after?: ServerResponse): Promise<void> => {
    if (settled) return closeServer();
    settled = true;
    const settle = (): Promise<void> =>
      closeServer().then(() => {
        if ('ok' in outcome) resolveResult(outcome.ok);
        else rejectResult(outcome.err);
      });
    if (!after || after.writableFinished) return settle();
    // Let the page reach the browser before the sockets are dropped.
    return new Promise<void>((resolve) => {
      after.once('close', () => void settle().then(resolve));
    });
  };

  function send(res: ServerResponse, status: number, title: string, message: string): void {
    res.writeHead(status, PAGE_HEADERS);
    res.end(page(title, message));
  }

  function handle(req: IncomingMessage, res: ServerResponse): void {
    if (!isLoopbackPeer(req)) return send(res, 403, 'Not allowed', 'This page only answers this computer.');
    if (!hostHeaderOk(req, boundPort)) return send(res, 400, 'Bad request', 'Unexpected host.');
    let url: URL;
    try {
      url = new URL(req.url ?? '/', `http://127.0.0.1:${boundPort}`);
    } catch {
      return send(res, 400, 'Bad request', 'The address could not be read.');
    }
    if (url.pathname !== CALLBACK_PATH) return send(res, 404, 'Not found', 'Nothing here.');
    if (req.method !== 'GET') {
      res.setHeader('Allow', 'GET');
      return send(res, 405, 'Not allowed', 'Only GET is accepted here.');
    }
    if (settled) return send(res, 400, 'Already used', 'This sign-in link was already used. Return to the app.');
    const state = url.searchParams.get('state');
    if (state === null || !statesEqual(state, opts.expectedState)) {
      return send(res, 400, 'Sign-in not recognised', `This sign-in response does not belong to the sign-in ${app} is waiting for. Return to the app and try again.`);
    }
    const error = url.searchParams.get('error');
    if (error !== null) {
      const code = OAUTH_ERROR_CODE.test(error) ? error : 'invalid_response';
      send(res, 200, 'Sign-in not completed', `The sign-in was not completed. You can close this tab and return to ${app}.`);
      // RFC 6749 §4.1.2.1: error_description is printable ASCII except `"` and `\`; anything
      // else is dropped, and it is cut to 300 characters. The flow checks `iss` (RFC 9207) before
      // showing any of it.
      const rawDesc = url.searchParams.get('error_description');
      const desc = rawDesc && /^[\x20-\x21\x23-\x5b\x5d-\x7e]+$/.test(rawDesc) ? rawDesc.slice(0, 300) : undefined;
      const iss = url.searchParams.get('iss') ?? undefined;
      void finish({ err: new AuthorizationDeniedError(code, desc, iss) }, res);
      return;
    }
    const code = url.searchParams.get('code');
    if (!code) return send(res, 400, 'Bad request', 'The sign-in response has no authorization code.');
    send(res, 200, 'Sign-in finished', `You are signed in. You can close this tab and return to ${app}.`);
    const iss = url.searchParams.get('iss');
    void finish({ ok: { code, state, ...(iss ? { iss } : {}) } }, res);
  }

  await new Promise<void>((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      closed = true;
      reject(err.code === 'EADDRINUSE' ? new PortInUseError(opts.port ?? 0) : err);
    };
    server.once('error', onError);
    server.listen({ port: opts.port ?? 0, host: '127.0.0.1', exclusive: true }, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const addr = server.address();
  boundPort = typeof addr === 'object' && addr ? addr.port : 0;
  server.on('error', () => undefined);

  timer.handle = setTimeout(() => void finish({ err: new CallbackTimeoutError(timeoutMs) }), timeoutMs);
  timer.handle.unref?.();

  const cancel = (reason?: string): Promise<void> => finish({ err: new CancelledError(reason) });
  if (opts.signal) {
    if (opts.signal.aborted) await cancel();
    else {
      onAbort = () => void cancel();
      opts.signal.addEventListener('abort', onAbort, { once: true });
    }
  }

  return {
    port: boundPort,
    redirectUri: `http://127.0.0.1:${boundPort}${CALLBACK_PATH}`,
    result,
    cancel,
    close: () => finish({ err: new CancelledError('The callback server was closed.') }),
    get listening() {
      return !closed;
    },
  };
}
