/**
 * Which request an oversized stdout line answered. A line over the stdio message limit is not
 * parsed (main/mcp/stdio.ts keeps only its first and last bytes); when those bytes name the id
 * of a request this client is still waiting for, that one request fails at once with a clear
 * JSON-RPC error instead of waiting for its timeout (docs/ARCHITECTURE.md "Security").
 *
 * JSON-RPC 2.0 puts `id` at the top level of a response; serializers write it first
 * (`{"jsonrpc":"2.0","id":7,"result":…}`) or last (`{"result":…,"jsonrpc":"2.0","id":7}`, as the
 * TypeScript SDK does). Only an id this client actually sent and still waits for is accepted, so
 * a nested `"id"` inside the result cannot fail an unrelated request.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/client';

/** How many bytes of an oversized line's start and end are kept to find its id. */
export const OVERFLOW_EDGE_BYTES = 1024;

/** JSON-RPC "Internal error" (JSON-RPC 2.0 §5.1): the client could not take the server's reply. */
export const OVERSIZED_REPLY_CODE = -32603;

/** The `data` of the error an oversized reply turns into, for callers that classify it. */
export interface OversizedReplyData {
  reason: 'message_too_large';
  /** Size of the refused line, in bytes. */
  bytes: number;
  /** The limit it went over, in bytes. */
  limit: number;
}

const ID_FIRST = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d{1,16}|"(?:[^"\\]|\\.){0,512}")/;
const ID_LAST = /"id"\s*:\s*(-?\d{1,16}|"(?:[^"\\]|\\.){0,512}")\s*(?:,\s*"jsonrpc"\s*:\s*"2\.0"\s*)?\}\s*$/;

function parseId(token: string | undefined): string | number | null {
  if (token === undefined) return null;
  try {
    const v: unknown = JSON.parse(token);
    return typeof v === 'string' || typeof v === 'number' ? v : null;
  } catch {
    return null;
  }
}

/**
 * The id of the pending request an oversized line answers, or null when its edges name none.
 * @param head the line's first bytes (up to {@link OVERFLOW_EDGE_BYTES})
 * @param tail the line's last bytes (up to {@link OVERFLOW_EDGE_BYTES})
 * @param pending ids of requests sent and not yet answered
 */
export function oversizedReplyId(head: Buffer, tail: Buffer, pending: ReadonlySet<string | number>): string | number | null {
  for (const id of [parseId(ID_FIRST.exec(head.toString('utf8'))?.[1]), parseId(ID_LAST.exec(tail.toString('utf8'))?.[1])]) {
    if (id !== null && pending.has(id)) return id;
  }
  return null;
}

/** The JSON-RPC error response that stands in for an oversized reply to request `id`. */
export function oversizedReplyError(id: string | number, bytes: number, limit: number): JSONRPCMessage {
  const mb = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MB`;
  const data: OversizedReplyData = { reason: 'message_too_large', bytes, limit };
  return {
    jsonrpc: '2.0',
    id,
    error: { code: OVERSIZED_REPLY_CODE, message: `The server's reply was ${mb(bytes)}, over the ${mb(limit)} one message may have; it was not read (the server keeps running).`, data },
  } as JSONRPCMessage;
}
