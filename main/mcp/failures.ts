/**
 * The one place that decides what kind of failure ended a server's start and the typed facts the
 * window words it by (`ServerFailure`, docs/ARCHITECTURE.md "Status"). Decisions read types and
 * codes only — SDK v2's `SdkError` / `SdkHttpError` codes and statuses, `ProtocolError`, the
 * legacy transport's `SseError`, Node system error codes (`ECONNREFUSED`, `ENOENT`, …) and the
 * app's own error classes — never message text. Also the typed predicates the connection's
 * fallbacks use (legacy SSE, expired session, failed era probe).
 */
import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError, SseError, UnauthorizedError, UnsupportedProtocolVersionError } from '@modelcontextprotocol/client';
import type { NetworkCode, ServerFailure, SpawnCode, StartPhase } from '../../preload/contract/index.js';
import { findLegacySseHint } from './sse-detect.js';
import { CommandNotFoundError } from './transports/environment.js';
import type { TransportType } from './transports/kind.js';
import { transportOf } from './transports/registry.js';

/** The start deadline passed (thrown by the connection's own start timer). */
export class TimeoutError extends Error {
  override name = 'TimeoutError';
}

/** Where the start failed: the facts a {@link ServerFailure} may carry. */
export interface FailureContext {
  /** The server's transport (its config `type`, main/mcp/transports/registry.ts). */
  type: TransportType;
  /** The remote URL, masked (for `http`/`sse`). */
  url: string | null;
  /** The command of a local server (resolved when known, else as configured). */
  command: string | null;
  /** What was running: the session handshake (probe/`initialize`) or the first listing. */
  phase: StartPhase;
  /** How the process ended, when it did and that is known (see McpConnection). */
  exit: { code: number | null; signal: string | null } | null;
  /** The start timeout, in seconds. */
  seconds: number;
}

/** Longest piece of a peer's message kept as `server_message`, in characters. */
const MAX_QUOTE = 300;

/** The first line of a peer's message, cut to {@link MAX_QUOTE} characters (data, shown as sent). */
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
const NETWORK_CODES: ReadonlySet<string> = new Set<NetworkCode>([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** Node system error codes met when starting a local command. */
const SPAWN_CODES: ReadonlySet<string> = new Set<SpawnCode>(['ENOENT', 'EACCES', 'EPERM', 'ENOEXEC', 'E2BIG']);

function isNetworkCode(code: string | null): code is NetworkCode {
  return code !== null && NETWORK_CODES.has(code);
}

function isSpawnCode(code: string | null): code is SpawnCode {
  return code !== null && SPAWN_CODES.has(code);
}

/** The first Node system error code (a string `code` on an Error) in the chain, if any. */
function systemCode(err: unknown): string | null {
  for (const e of chain(err)) {
    if (e instanceof SdkError || e instanceof ProtocolError || e instanceof SseError) continue;
    const code = (e as { code?: unknown }).code;
    if (e instanceof Error && typeof code === 'string' && (NETWORK_CODES.has(code) || SPAWN_CODES.has(code))) return code;
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

/** The failure of a command that is not on the PATH (checked before a start, or met by one). */
export function commandNotFound(err: CommandNotFoundError): ServerFailure {
  return { kind: 'spawn_failed', command: err.command, code: 'not_on_path', server_message: null };
}

/**
 * Classify why a server did not start — spawning (MCP spec "Transports: stdio"), reaching it
 * ("Transports: Streamable HTTP"), or the handshake and first listing ("Lifecycle:
 * Initialization", 2026-07-28 "Version Negotiation") — as typed facts ({@link ServerFailure};
 * the window words them, main/mcp/failure-log.ts words them for the log). The OAuth states
 * `needs_auth` / `needs_reauth` are decided before, by the OAuth flow. One row per kind:
 * - `spawn_failed`: CommandNotFoundError (`not_on_path`); a spawn system error (ENOENT, EACCES, …);
 * - `timeout`: our TimeoutError; SdkError RequestTimeout;
 * - `auth_failed`: HTTP 401/403 (SdkHttpError, SseError), SdkError ClientHttpAuthentication /
 *   ClientHttpForbidden, UnauthorizedError;
 * - `connect_failed` (remote): a network system error, another HTTP status, an unexpected content
 *   type, a legacy-SSE hint that the SSE attempt did not confirm, the connection closing, a
 *   fetch TypeError anywhere in the chain (no HTTP answer at all);
 * - `exited` (local): the connection closed or could not send (SdkError ConnectionClosed,
 *   SendFailed, NotConnected) — the process ended;
 * - `protocol`: a JSON-RPC error answering the handshake (ProtocolError; its message is the
 *   `server_message`), a malformed answer (SdkError InvalidResult / UnsupportedResultType), no
 *   protocol era in common (EraNegotiationFailed without a network or HTTP cause), an untyped
 *   error the SDK raised while checking the handshake answer (e.g. an unsupported protocol version);
 * - `unknown`: anything else.
 * `server_message` is only ever a peer's own words (a JSON-RPC error message), never the app's.
 */
export function classifyStartFailure(err: unknown, ctx: FailureContext): ServerFailure {
  const remote = transportOf(ctx.type).remote;
  const url = ctx.url ?? '';
  const sdk = sdkError(err);
  const status = httpStatusOf(err);
  const code = systemCode(err);
  const said = { server_message: null };
  const connect = (reason: Extract<ServerFailure, { kind: 'connect_failed' }>['reason'], more: { system_code?: NetworkCode; http_status?: number; content_type?: string } = {}): ServerFailure => ({
    kind: 'connect_failed',
    url,
    reason,
    system_code: more.system_code ?? null,
    http_status: more.http_status ?? null,
    content_type: more.content_type || null,
    ...said,
  });

  if (err instanceof CommandNotFoundError) return commandNotFound(err);
  if (err instanceof TimeoutError) return { kind: 'timeout', phase: ctx.phase, seconds: ctx.seconds, ...said };
  if (!remote && isSpawnCode(code)) return { kind: 'spawn_failed', command: ctx.command ?? '', code, ...said };
  if (sdk?.code === SdkErrorCode.RequestTimeout) return { kind: 'timeout', phase: ctx.phase, seconds: ctx.seconds, ...said };

  if (remote) {
    if (status === 401 || status === 403 || sdk?.code === SdkErrorCode.ClientHttpAuthentication || sdk?.code === SdkErrorCode.ClientHttpForbidden || chain(err).some((e) => e instanceof UnauthorizedError))
      return { kind: 'auth_failed', http_status: status === 403 || (status === null && sdk?.code === SdkErrorCode.ClientHttpForbidden) ? 403 : 401, ...said };
    if (isNetworkCode(code)) return connect('network', { system_code: code });
    if (status !== null) return connect('http_status', { http_status: status });
    const hint = findLegacySseHint(err);
    if (hint) return hint.what === 'endpoint_event' ? connect('legacy_sse') : connect('not_mcp', { content_type: hint.contentType });
    if (sdk?.code === SdkErrorCode.ClientHttpUnexpectedContent) return connect('not_mcp');
    if (err instanceof SseError) return connect('sse_failed');
    if (sdk && (sdk.code === SdkErrorCode.ConnectionClosed || sdk.code === SdkErrorCode.SendFailed || sdk.code === SdkErrorCode.NotConnected)) return connect('closed');
    // fetch rejects with a TypeError when no HTTP answer came (refused port, blocked port, bad URL).
    if (chain(err).some((e) => e instanceof TypeError)) return connect('no_answer');
  } else if (sdk && (sdk.code === SdkErrorCode.ConnectionClosed || sdk.code === SdkErrorCode.SendFailed || sdk.code === SdkErrorCode.NotConnected)) {
    return { kind: 'exited', running: false, exit: ctx.exit, ...said };
  }

  for (const e of chain(err)) {
    if (e instanceof ProtocolError) return { kind: 'protocol', phase: ctx.phase, reason: 'refused', rpc_code: e.code, server_message: quote(e.message) };
  }
  if (sdk?.code === SdkErrorCode.InvalidResult || sdk?.code === SdkErrorCode.UnsupportedResultType) return { kind: 'protocol', phase: ctx.phase, reason: 'invalid_answer', rpc_code: null, ...said };
  if (sdk?.code === SdkErrorCode.EraNegotiationFailed) return { kind: 'protocol', phase: ctx.phase, reason: 'no_common_version', rpc_code: null, ...said };
  // The SDK checks the `initialize` answer (protocol version, shape) with untyped errors.
  if (ctx.phase === 'handshake' && err instanceof Error && Object.getPrototypeOf(err) === Error.prototype) return { kind: 'protocol', phase: ctx.phase, reason: 'initialize_rejected', rpc_code: null, ...said };
  return { kind: 'unknown', ...said };
}
