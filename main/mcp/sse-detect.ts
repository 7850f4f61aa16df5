/**
 * Recognizing a legacy HTTP+SSE server (protocol revision 2024-11-05) behind a URL configured as
 * Streamable HTTP (MCP spec 2025-03-26 "Transports: Backwards Compatibility"). The spec names a
 * 4xx answer to the first POST as the sign; in the wild such servers also answer it with a 2xx
 * that is not MCP: a web page or other non-MCP body, or the SSE stream of the old transport whose
 * first event is `endpoint`. {@link withLegacySseDetection} turns those 2xx answers into a
 * {@link LegacySseHintError}; the connection then tries the legacy transport once
 * (docs/ARCHITECTURE.md "Transports").
 */
import type { FetchLike } from '@modelcontextprotocol/client';

/** Most bytes read while looking for the first SSE event of a session-opening answer. */
const MAX_PEEK_BYTES = 64 * 1024;
/** The requests that open a session: the 2025 handshake and the 2026-07-28 probe. */
const OPENING_METHODS = new Set(['initialize', 'server/discover']);

/** A session-opening POST was answered with a 2xx that is not Streamable HTTP. */
export class LegacySseHintError extends Error {
  override name = 'LegacySseHintError';
  /**
   * @param status the HTTP status (2xx)
   * @param what `endpoint_event` (an old-style SSE stream) or `content_type` (a non-MCP body)
   * @param contentType the answer's media type, lower case, without parameters ('' when absent)
   */
  constructor(
    readonly status: number,
    readonly what: 'endpoint_event' | 'content_type',
    readonly contentType: string,
  ) {
    super(
      what === 'endpoint_event'
        ? `The server answered with an HTTP+SSE endpoint event (HTTP ${status}), as a legacy SSE server does.`
        : `The server answered with ${contentType || 'an untyped body'} (HTTP ${status}), not an MCP response.`,
    );
  }
}

/** Whether `err` is, or was caused by, a {@link LegacySseHintError}. */
export function findLegacySseHint(err: unknown): LegacySseHintError | null {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof LegacySseHintError) return e;
  }
  return null;
}

/** Whether a POST body carries a session-opening JSON-RPC request. */
function opensSession(body: unknown): boolean {
  if (typeof body !== 'string' || body.length > 1_000_000) return false;
  try {
    const parsed: unknown = JSON.parse(body);
    const messages = Array.isArray(parsed) ? parsed : [parsed];
    return messages.some((m) => typeof m === 'object' && m !== null && OPENING_METHODS.has(String((m as { method?: unknown }).method)) && 'id' in m);
  } catch {
    return false;
  }
}

/** The `event` field of the first complete SSE event in `text`, '' when it has none, null when incomplete. */
function firstEventName(text: string): string | null {
  const end = text.search(/\r?\n\r?\n/);
  if (end < 0) return null;
  const field = /^event:[ \t]?(.*)$/m.exec(text.slice(0, end));
  return field ? field[1]!.trim() : '';
}

/**
 * Wrap a fetch so that a 2xx answer to a session-opening POST (`initialize`, `server/discover`)
 * that is not Streamable HTTP rejects with {@link LegacySseHintError}: a media type other than
 * `application/json` / `text/event-stream`, or an event stream whose first event is `endpoint`.
 * Other requests and answers pass untouched; a peeked event stream is handed on byte for byte.
 */
export function withLegacySseDetection(base: FetchLike = fetch): FetchLike {
  return async (url, init) => {
    const res = await base(url, init);
    if ((init?.method ?? 'GET').toUpperCase() !== 'POST' || res.status < 200 || res.status > 299 || res.status === 202 || !opensSession(init?.body)) return res;
    const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (type === 'application/json') return res;
    if (type !== 'text/event-stream' || !res.body) {
      await res.body?.cancel().catch(() => undefined);
      throw new LegacySseHintError(res.status, 'content_type', type);
    }
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    const chunks: Uint8Array[] = [];
    let text = '';
    let size = 0;
    let name: string | null = null;
    while (name === null && size < MAX_PEEK_BYTES) {
      const { value, done } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
      text += decoder.decode(value, { stream: true });
      name = firstEventName(text);
    }
    if (name === 'endpoint') {
      await reader.cancel().catch(() => undefined);
      throw new LegacySseHintError(res.status, 'endpoint_event', type);
    }
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const c of chunks) controller.enqueue(c);
      },
      async pull(controller) {
        const { value, done } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    });
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}
