/**
 * A `fetch` for model endpoints that turns the silent failures of a misconfigured endpoint into
 * typed errors (./model-errors.ts `ModelEndpointError`): no response headers within a deadline
 * (`timeout`), a successful response that is an HTML page (`html_page`), a plain body where a
 * stream was asked for (`not_streaming`), and a stream that stops sending (`timeout`). Given to
 * the AI SDK providers (./providers.ts), so a hang or a wrong URL ends the run with a message
 * instead of a stuck spinner or an empty answer.
 */
import { ModelEndpointError } from './model-errors.js';

/** Deadlines of a checked fetch, in milliseconds. */
export interface CheckedFetchOptions {
  /** Until the response headers arrive (a model may think before its first byte). Default 120 s. */
  headersTimeoutMs?: number;
  /** Longest silence between two chunks of a streamed body. Default 120 s. */
  idleTimeoutMs?: number;
  /** The fetch to wrap (default: global fetch). */
  fetch?: typeof fetch;
}

/** Default deadline for response headers (ms). */
export const HEADERS_TIMEOUT_MS = 120_000;
/** Default longest silence inside a streamed answer (ms). */
export const IDLE_TIMEOUT_MS = 120_000;

function asksForStream(init: RequestInit | undefined): boolean {
  const body = init?.body;
  if (typeof body !== 'string') return false;
  try {
    return (JSON.parse(body) as { stream?: unknown }).stream === true;
  } catch {
    return false;
  }
}

/** A body that errors with `ModelEndpointError('timeout')` when no chunk arrives for `idleMs`. */
function withIdleTimeout(body: ReadableStream<Uint8Array>, idleMs: number, abort: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let timer: NodeJS.Timeout | undefined;
      const idle = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new ModelEndpointError('timeout', `No data from the model endpoint for ${Math.round(idleMs / 1000)} s.`)), idleMs);
      });
      try {
        const r = await Promise.race([reader.read(), idle]);
        if (r.done) controller.close();
        else controller.enqueue(r.value);
      } catch (err) {
        abort();
        reader.cancel().catch(() => undefined);
        controller.error(err);
      } finally {
        clearTimeout(timer);
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

/**
 * Create a checked fetch. Abort signals from the caller still work (the caller's abort is an
 * ordinary abort, not a timeout).
 */
export function createCheckedFetch(opts: CheckedFetchOptions = {}): typeof fetch {
  const inner = opts.fetch ?? fetch;
  const headersMs = opts.headersTimeoutMs ?? HEADERS_TIMEOUT_MS;
  const idleMs = opts.idleTimeoutMs ?? IDLE_TIMEOUT_MS;
  return async (input, init) => {
    const ctrl = new AbortController();
    const callerSignal = init?.signal ?? undefined;
    const onAbort = (): void => ctrl.abort(callerSignal?.reason);
    if (callerSignal?.aborted) onAbort();
    else callerSignal?.addEventListener('abort', onAbort, { once: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      ctrl.abort();
    }, headersMs);
    let res: Response;
    try {
      // No redirects: a provider's key header must never be carried to another address.
      res = await inner(input, { ...init, signal: ctrl.signal, redirect: 'manual' });
    } catch (err) {
      if (timedOut) throw new ModelEndpointError('timeout', `The model endpoint sent no response within ${Math.round(headersMs / 1000)} s.`);
      throw err;
    } finally {
      clearTimeout(timer);
    }
    if (!res.ok) return res; // the provider turns it into an APICallError with status, headers and body
    const type = res.headers.get('content-type') ?? '';
    if (/text\/html/i.test(type)) {
      await res.body?.cancel().catch(() => undefined);
      throw new ModelEndpointError('html_page', 'The model endpoint answered with an HTML page.', res.status);
    }
    if (asksForStream(init) && !/text\/event-stream/i.test(type)) {
      await res.body?.cancel().catch(() => undefined);
      throw new ModelEndpointError('not_streaming', 'The model endpoint did not answer with a stream.', res.status);
    }
    if (!res.body) return res;
    return new Response(withIdleTimeout(res.body, idleMs, () => ctrl.abort()), { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}
