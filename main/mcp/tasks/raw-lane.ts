/**
 * The raw request lane — this file's one job: carry the requests of the 2026-07-28 Tasks extension
 * (`io.modelcontextprotocol/tasks`) whose answers SDK 2.4's `Client` cannot receive, over the
 * connection's own transport, for the official requester library (docs/ARCHITECTURE.md "Tasks",
 * its point on the raw request lane).
 *
 * Why it exists: the SDK's `Client` decodes every 2026-07-28 result before any caller schema and
 * refuses `resultType: "task"` (its `UnsupportedResultType` error carries no task id), so a
 * `tools/call` that a server answers with a task cannot go through `Client.request`
 * (typescript-sdk#2189). `@modelcontextprotocol/ext-tasks` asks the host for exactly this seam —
 * its `rawDispatch`, a host-owned request coordinator for when the SDK's wire codecs reject task
 * traffic. The library builds and frames each request (method, params, the per-request
 * `_meta` capabilities) and checks each result with its own schemas; this lane only gives a
 * request an id of its own, hands it to the transport (whose framing, standard headers and auth
 * stay the SDK's), and takes the response with that id before the SDK's handler would see it (the
 * SDK would drop an id it did not issue as unknown). Progress notifications for tokens the lane
 * issued go back to their caller. Every other message passes through untouched.
 *
 * Remove it when the SDK carries 2026-07-28 task results: test/unit/mcp/tasks/tasks-v2.test.ts's
 * gap test fails then, and `rawDispatch` becomes the SDK's own request.
 */
import type { Client, JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { DispatchError, type DispatchOptions, type JsonRpcResponse, type RawClientDispatch } from '@modelcontextprotocol/ext-tasks/client';
import { wrapTransport } from '../transports/wrap.js';

/** Prefix of the request ids and progress tokens the lane issues (the SDK's own ids are numbers). */
const PREFIX = 'openprogram-raw-';

/** How long a raw request waits for its answer when the caller sets no timeout (ms; the SDK's default). */
const DEFAULT_TIMEOUT_MS = 60_000;

/** One progress notification's payload (MCP spec "Utilities: Progress"). */
export interface RawProgress {
  progress: number;
  total?: number;
  message?: string;
}

/** A request sent on the lane and not answered yet. */
interface Waiting {
  settle(outcome: JsonRpcResponse | Error): void;
  /** The progress token the request carries (`_meta.progressToken`), when it is one of the lane's. */
  token: string | null;
  /** Re-arm the timeout (progress on {@link token} with `resetTimeoutOnProgress`); null = not reset. */
  rearm: (() => void) | null;
}

/**
 * The raw request lane of one transport. {@link wrap} the transport before the SDK client
 * connects; then {@link dispatcher} gives the library its `rawDispatch`.
 */
export class RawRequestLane {
  private inner: Transport | null = null;
  private readonly waiting = new Map<string, Waiting>();
  private readonly listeners = new Map<string, (p: RawProgress) => void>();
  private seq = 0;
  private closed = false;

  /**
   * `transport`, with the lane's responses and progress taken out of what it delivers
   * (../transports/wrap.ts: everything else the SDK reads of it stays the transport's own). When
   * the transport closes, every waiting request fails with a `DispatchError`.
   */
  wrap<T extends Transport>(transport: T): T {
    this.inner = transport;
    return wrapTransport(transport, {
      inbound: (message, extra, deliver) => {
        if (!this.take(message)) deliver(message, extra);
      },
      closed: () => this.close(),
    });
  }

  /**
   * The library's `rawDispatch` for `client` (the client connected over the wrapped transport;
   * it sends the cancellation notice of an aborted request on transports without a stream per
   * request). Resolves with the server's result or JSON-RPC error.
   * @throws DispatchError when the transport is closed or closes, the request is not an object
   *   with a method, sending fails, or no answer comes within the timeout
   *   (`options.context.requestTimeoutMs`, re-armed by progress with `resetTimeoutOnProgress`);
   *   the signal's reason when `options.signal` aborts.
   */
  dispatcher(client: Client): RawClientDispatch {
    return (request, options = {}) => this.dispatch(client, request, options);
  }

  /**
   * A progress token for one raw request's `_meta.progressToken`: the server's
   * `notifications/progress` with it go to `listener`. `release` when the request is over.
   */
  progressToken(listener: (p: RawProgress) => void): { token: string; release: () => void } {
    const token = `${PREFIX}progress-${++this.seq}`;
    this.listeners.set(token, listener);
    return { token, release: () => this.listeners.delete(token) };
  }

  /** Fail every waiting request (the transport closed); later dispatches fail at once. */
  close(): void {
    this.closed = true;
    for (const w of [...this.waiting.values()]) w.settle(new DispatchError('The connection to the server closed.', false));
    this.listeners.clear();
  }

  private dispatch(client: Client, request: unknown, options: DispatchOptions): Promise<JsonRpcResponse> {
    const transport = this.inner;
    if (!transport || this.closed) return Promise.reject(new DispatchError('The connection to the server is closed.', false));
    if (!isRecord(request) || typeof request.method !== 'string') return Promise.reject(new DispatchError('A request must be an object with a method.', false));
    const signal = options.signal;
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    const method = request.method;
    const id = `${PREFIX}${++this.seq}`;
    const timeoutMs = options.context?.requestTimeoutMs ?? DEFAULT_TIMEOUT_MS;
    const meta = isRecord(request.params) && isRecord(request.params._meta) ? request.params._meta : null;
    const token = typeof meta?.progressToken === 'string' && this.listeners.has(meta.progressToken) ? meta.progressToken : null;
    // A transport with a stream per request (Streamable HTTP on 2026-07-28) cancels by ending it.
    const stream = transport.hasPerRequestStream === true ? new AbortController() : null;
    return new Promise<JsonRpcResponse>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const arm = (): void => {
        clearTimeout(timer);
        timer = setTimeout(() => settle(new DispatchError(`The server did not answer ${method} within ${Math.round(timeoutMs / 1000)} s.`, false)), timeoutMs);
      };
      const onAbort = (): void => {
        const reason = abortReason(signal!);
        if (stream) stream.abort(reason);
        else void client.notification({ method: 'notifications/cancelled', params: { requestId: id, reason: String(reason.message) } }).catch(() => undefined);
        settle(reason);
      };
      const settle = (outcome: JsonRpcResponse | Error): void => {
        if (!this.waiting.delete(id)) return;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (outcome instanceof Error) reject(outcome);
        else resolve(outcome);
      };
      this.waiting.set(id, { settle, token, rearm: options.context?.resetTimeoutOnProgress ? arm : null });
      arm();
      signal?.addEventListener('abort', onAbort, { once: true });
      const message = { ...request, jsonrpc: '2.0', id } as JSONRPCMessage;
      transport
        .send(message, {
          ...(options.context?.headers ? { headers: options.context.headers } : {}),
          ...(stream ? { requestSignal: stream.signal } : {}),
        } as Parameters<Transport['send']>[1])
        .catch((err: unknown) => settle(new DispatchError(`Sending ${method} failed.`, false, { cause: err })));
    });
  }

  /** Whether `message` is the lane's (a response to one of its ids, or progress on one of its tokens); handles it if so. */
  private take(message: unknown): boolean {
    if (!isRecord(message)) return false;
    const id = message.id;
    if (typeof id === 'string' && id.startsWith(PREFIX) && !('method' in message)) {
      // A late answer to a request the lane gave up on is still the lane's: the SDK never issued it.
      this.waiting.get(id)?.settle(responseOf(message));
      return true;
    }
    if (message.method !== 'notifications/progress' || !isRecord(message.params)) return false;
    const token = message.params.progressToken;
    if (typeof token !== 'string' || !token.startsWith(PREFIX)) return false;
    const p = message.params;
    if (typeof p.progress === 'number') {
      this.listeners.get(token)?.({
        progress: p.progress,
        ...(typeof p.total === 'number' ? { total: p.total } : {}),
        ...(typeof p.message === 'string' ? { message: p.message } : {}),
      });
    }
    for (const w of this.waiting.values()) if (w.token === token) w.rearm?.();
    return true;
  }
}

/** A JSON-RPC response as the library's `JsonRpcResponse` (a malformed error object keeps a generic code). */
function responseOf(message: Record<string, unknown>): JsonRpcResponse {
  if (!('error' in message)) return { kind: 'result', result: (message.result ?? null) as never };
  const e = isRecord(message.error) ? message.error : {};
  return {
    kind: 'error',
    error: {
      code: typeof e.code === 'number' ? e.code : -32603,
      message: typeof e.message === 'string' ? e.message : 'The server answered with an error.',
      ...(e.data !== undefined ? { data: e.data as never } : {}),
    },
  };
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new DOMException('The request was aborted.', 'AbortError');
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
