/**
 * The one place that decides what kind of failure ended a server's start (the `ErrorKind` the UI
 * shows, docs/ARCHITECTURE.md "Status") and the sentence shown with it. Decisions read types and
 * codes only — SDK v2's `SdkError` / `SdkHttpError` codes and statuses, `ProtocolError`, the
 * legacy transport's `SseError`, Node system error codes (`ECONNREFUSED`, `ENOENT`, …) and the
 * app's own error classes — never message text. Also the typed predicates the connection's
 * fallbacks use (legacy SSE, expired session, failed era probe).
 */
import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError, SseError, UnauthorizedError, UnsupportedProtocolVersionError } from '@modelcontextprotocol/client';
import type { ErrorKind } from '../../preload/contract/index.js';
import { findLegacySseHint } from './sse-detect.js';
import { CommandNotFoundError } from './transports.js';

/** The start deadline passed (thrown by the connection's own start timer). */
export class TimeoutError extends Error {
  override name = 'TimeoutError';
}

/** Where the start failed and what the sentence may name. */
export interface FailureContext {
  /** The server's transport. */
  type: 'local' | 'http' | 'sse';
  /** The remote URL (for `http`/`sse`). */
  url: string | null;
  /** The resolved command of a local server, when known. */
  command: string | null;
  /** What was running: the session handshake (probe/`initialize`) or the first listing. */
  phase: 'handshake' | 'listing';
  /** ` (the process exited with code N)` or '' (see McpConnection). */
  exit: string;
}

/** A classified failure: its kind and a sentence for the user (no validator output, ≤ ~600 chars). */
export interface ClassifiedFailure {
  kind: ErrorKind;
  message: string;
}

/** Longest piece of a peer's or library's message quoted in a sentence, in characters. */
const MAX_QUOTE = 300;

function quote(s: string): string {
  const line = s.split('\n')[0] ?? '';
  return line.length > MAX_QUOTE ? `${line.slice(0, MAX_QUOTE)}…` : line;
}

/** The error and its causes, outermost first (at most 6). */
function chain(err: unknown): unknown[] {
  const out: unknown[] = [];
  for (let e: unknown = err; e !== undefined && e !== null && out.length < 6; e = (e as { cause?: unknown }).cause) out.push(e);
  return out;
}

/** Node system error codes met when reaching a remote server. */
const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was reset',
  ENOTFOUND: 'the host name was not found',
  EAI_AGAIN: 'the host name could not be resolved',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  EPIPE: 'the connection was closed',
  UND_ERR_SOCKET: 'the connection was closed',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  CERT_HAS_EXPIRED: 'its TLS certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'its TLS certificate is not trusted',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its TLS certificate is not trusted',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its TLS certificate is for another host',
};

/** Node system error codes met when starting a local command. */
const SPAWN_CODES: Record<string, string> = {
  ENOENT: 'the command or its interpreter was not found',
  EACCES: 'permission denied (is it executable?)',
  EPERM: 'the operation was not permitted',
  ENOEXEC: 'it is not an executable the system can run',
  E2BIG: 'the command line or environment is too large',
};

/** The first Node system error code (a string `code` on an Error) in the chain, if any. */
function systemCode(err: unknown): string | null {
  for (const e of chain(err)) {
    if (e instanceof SdkError || e instanceof ProtocolError || e instanceof SseError) continue;
    const code = (e as { code?: unknown }).code;
    if (e instanceof Error && typeof code === 'string' && (code in NETWORK_CODES || code in SPAWN_CODES)) return code;
  }
  return null;
}

/** The first SDK error (SdkError / SdkHttpError) in the chain. */
function sdkError(err: unknown): SdkError | null {
  for (const e of chain(err)) if (e instanceof SdkError) return e;
  return null;
}

/**
 * The HTTP status carried by a transport error anywhere in the chain (SDK v2:
 * `SdkHttpError.status`; the legacy transport's `SseError.code`), or null.
 */
export function httpStatusOf(err: unknown): number | null {
  for (const e of chain(err)) {
    if (e instanceof SdkHttpError && typeof e.status === 'number') return e.status;
    if (e instanceof SseError && typeof e.code === 'number' && e.code >= 100 && e.code < 600) return e.code;
  }
  return null;
}

/**
 * Whether a Streamable HTTP start failure may mean a legacy HTTP+SSE server (MCP spec 2025-03-26
 * "Transports: Backwards Compatibility"): a 4xx other than 401/403, or a 2xx that was not MCP
 * (main/mcp/sse-detect.ts).
 */
export function isLegacySseCandidate(err: unknown): boolean {
  if (findLegacySseHint(err)) return true;
  const status = httpStatusOf(err);
  return status !== null && status >= 400 && status < 500 && status !== 401 && status !== 403;
}

/** A 404 on our session id (MCP spec "Streamable HTTP: Session Management"): the session expired. */
export function isSessionExpired(err: unknown): boolean {
  return err instanceof SdkHttpError && err.status === 404;
}

/** The JSON-RPC error code of "Unsupported protocol version" (MCP 2026-07-28 "Lifecycle: Version Negotiation"). */
const UNSUPPORTED_PROTOCOL_VERSION = -32022;

/**
 * Whether the server refused the 2025 `initialize` handshake because it speaks only newer
 * revisions: the SDK's UnsupportedProtocolVersionError, or a ProtocolError with code -32022
 * (MCP 2026-07-28 "Lifecycle: Version Negotiation"). A connection that fell back to `initialize`
 * (a probe that timed out, a remembered legacy verdict) then probes `server/discover` again.
 */
export function isLegacyHandshakeRefused(err: unknown): boolean {
  return chain(err).some((e) => e instanceof UnsupportedProtocolVersionError || (e instanceof ProtocolError && e.code === UNSUPPORTED_PROTOCOL_VERSION));
}

/**
 * The `server/discover` probe failed on a local server (its process ended or the channel broke
 * before an era was negotiated), as opposed to an HTTP or network failure inside the probe.
 */
export function isLocalProbeFailure(err: unknown): boolean {
  return err instanceof SdkError && err.code === SdkErrorCode.EraNegotiationFailed && systemCode(err) === null && httpStatusOf(err) === null;
}

/**
 * Classify why a server did not start — spawning (MCP spec "Transports: stdio"), reaching it
 * ("Transports: Streamable HTTP"), or the handshake and first listing ("Lifecycle:
 * Initialization", 2026-07-28 "Version Negotiation"). The OAuth states `needs_auth` /
 * `needs_reauth` are decided before, by the OAuth flow. One row per kind:
 * - `spawn_failed`: CommandNotFoundError; a spawn system error (ENOENT, EACCES, …);
 * - `timeout`: our TimeoutError; SdkError RequestTimeout;
 * - `auth_failed`: HTTP 401/403 (SdkHttpError, SseError), SdkError ClientHttpAuthentication /
 *   ClientHttpForbidden, UnauthorizedError;
 * - `connect_failed` (remote): a network system error, another HTTP status, an unexpected content
 *   type, a legacy-SSE hint that the SSE attempt did not confirm, the connection closing, a
 *   fetch TypeError anywhere in the chain (no HTTP answer at all);
 * - `exited` (local): the connection closed or could not send (SdkError ConnectionClosed,
 *   SendFailed, NotConnected) — the process ended;
 * - `protocol`: a JSON-RPC error answering the handshake (ProtocolError), a malformed answer
 *   (SdkError InvalidResult / UnsupportedResultType), no protocol era in common
 *   (EraNegotiationFailed without a network or HTTP cause), an untyped error the SDK raised while
 *   checking the handshake answer (e.g. an unsupported protocol version);
 * - `unknown`: anything else.
 */
export function classifyStartFailure(err: unknown, ctx: FailureContext): ClassifiedFailure {
  const remote = ctx.type !== 'local';
  const where = remote ? (ctx.url ?? 'the server') : (ctx.command ?? 'the server');
  const sdk = sdkError(err);
  const status = httpStatusOf(err);
  const code = systemCode(err);

  if (err instanceof CommandNotFoundError) return { kind: 'spawn_failed', message: err.message };
  if (err instanceof TimeoutError) return { kind: 'timeout', message: err.message };
  if (!remote && code && code in SPAWN_CODES) return { kind: 'spawn_failed', message: `Could not start ${where}: ${SPAWN_CODES[code]}.` };
  if (sdk?.code === SdkErrorCode.RequestTimeout) return { kind: 'timeout', message: `The server did not answer in time while ${ctx.phase === 'handshake' ? 'starting the session' : 'listing its tools'}.` };

  if (remote) {
    if (status === 401 || status === 403 || sdk?.code === SdkErrorCode.ClientHttpAuthentication || sdk?.code === SdkErrorCode.ClientHttpForbidden || chain(err).some((e) => e instanceof UnauthorizedError))
      return { kind: 'auth_failed', message: `The server rejected the credentials (HTTP ${status ?? (sdk?.code === SdkErrorCode.ClientHttpForbidden ? 403 : 401)}). Check the token, or sign in.` };
    if (code && code in NETWORK_CODES) return { kind: 'connect_failed', message: `Could not connect to ${where}: ${NETWORK_CODES[code]}.` };
    if (status !== null) return { kind: 'connect_failed', message: `Could not connect to ${where}: the server answered HTTP ${status}.` };
    const hint = findLegacySseHint(err);
    if (hint) return { kind: 'connect_failed', message: `Could not connect to ${where}: ${hint.what === 'endpoint_event' ? 'it looks like a legacy SSE server, but the SSE connection failed' : `it answered with ${hint.contentType || 'an untyped body'}, not MCP — check the URL`}.` };
    if (sdk?.code === SdkErrorCode.ClientHttpUnexpectedContent) return { kind: 'connect_failed', message: `Could not connect to ${where}: the answer was not an MCP response — check the URL.` };
    if (err instanceof SseError) return { kind: 'connect_failed', message: `Could not connect to ${where}: the SSE connection failed.` };
    if (sdk && (sdk.code === SdkErrorCode.ConnectionClosed || sdk.code === SdkErrorCode.SendFailed || sdk.code === SdkErrorCode.NotConnected))
      return { kind: 'connect_failed', message: `Could not connect to ${where}: the connection closed before the session started.` };
    // fetch rejects with a TypeError when no HTTP answer came (refused port, blocked port, bad URL).
    if (chain(err).some((e) => e instanceof TypeError)) return { kind: 'connect_failed', message: `Could not connect to ${where}: the request failed before the server answered.` };
  } else if (sdk && (sdk.code === SdkErrorCode.ConnectionClosed || sdk.code === SdkErrorCode.SendFailed || sdk.code === SdkErrorCode.NotConnected)) {
    return { kind: 'exited', message: `The server exited before it finished starting${ctx.exit}.` };
  }

  for (const e of chain(err)) {
    if (e instanceof ProtocolError) return { kind: 'protocol', message: `The server refused ${ctx.phase === 'handshake' ? 'to start the session' : 'to list its tools'}: ${quote(e.message)} (JSON-RPC error ${e.code}).` };
  }
  if (sdk?.code === SdkErrorCode.InvalidResult || sdk?.code === SdkErrorCode.UnsupportedResultType)
    return { kind: 'protocol', message: `The server's answer ${ctx.phase === 'handshake' ? 'to the session start' : 'listing its tools'} does not follow the MCP specification.` };
  if (sdk?.code === SdkErrorCode.EraNegotiationFailed) return { kind: 'protocol', message: 'The server and the app have no protocol version in common.' };
  // The SDK checks the `initialize` answer (protocol version, shape) with untyped errors.
  if (ctx.phase === 'handshake' && err instanceof Error && Object.getPrototypeOf(err) === Error.prototype)
    return { kind: 'protocol', message: `The server's answer to initialize was not accepted: ${quote(err.message)}.` };
  return { kind: 'unknown', message: `Could not start the server: ${quote(err instanceof Error ? err.message : String(err))}` };
}
