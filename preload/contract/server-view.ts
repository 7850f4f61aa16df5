/**
 * The masked view of one server that main sends (never a stored secret): its config with secrets
 * masked, its state as one typed union (`ServerState`, with `ServerFailure` and `ServerRetry`),
 * its issues and its log lines. docs/ARCHITECTURE.md "Status".
 */
import type { ServerProtocolView } from './protocol.js';
import type { SandboxDenial, SandboxSettings, SandboxState } from './sandbox.js';
import type { ToolView } from './tools.js';

/** A masked secret value: whether one is stored, and a mask that reveals no usable part of it. */
export interface MaskedValue {
  has_value: boolean;
  masked: string;
}

/**
 * A Node system error code met when starting a local command (as the OS reported it):
 * `ENOENT` the command or its interpreter is missing, `EACCES` permission denied, `EPERM` not
 * permitted, `ENOEXEC` not an executable the system can run, `E2BIG` command line or
 * environment too large.
 */
export type SpawnCode = 'ENOENT' | 'EACCES' | 'EPERM' | 'ENOEXEC' | 'E2BIG';

/**
 * A Node system error code met when reaching a remote server (refused, reset, DNS, unreachable,
 * timed out, closed, or a TLS certificate problem).
 */
export type NetworkCode =
  | 'ECONNREFUSED'
  | 'ECONNRESET'
  | 'ENOTFOUND'
  | 'EAI_AGAIN'
  | 'ETIMEDOUT'
  | 'EHOSTUNREACH'
  | 'ENETUNREACH'
  | 'EPIPE'
  | 'UND_ERR_SOCKET'
  | 'UND_ERR_CONNECT_TIMEOUT'
  | 'CERT_HAS_EXPIRED'
  | 'DEPTH_ZERO_SELF_SIGNED_CERT'
  | 'SELF_SIGNED_CERT_IN_CHAIN'
  | 'UNABLE_TO_VERIFY_LEAF_SIGNATURE'
  | 'ERR_TLS_CERT_ALTNAME_INVALID';

/** What a start was doing when it failed: the session handshake (probe / `initialize`) or the first listing. */
export type StartPhase = 'handshake' | 'listing';

/**
 * Why a server is in `error`, as typed facts the window words by `kind` (docs/ARCHITECTURE.md
 * "Status"). Nothing here is a sentence of the app's; strings are data: a command or URL (masked)
 * as configured, a content type the server sent, and `server_message` — the server's (or the
 * OS's) own words, cut to 300 characters of its first line, or null — which the window shows as
 * sent and marked as the server's.
 * - `spawn_failed`: the command could not be started (MCP "Transports: stdio"). `code`:
 *   `not_on_path` (the program is not on the PATH / not at the given path), or the system code;
 * - `timeout`: the server did not answer within `seconds` during `phase`;
 * - `exited`: the process ended or the connection closed — while starting (`running: false`)
 *   or after it was ready (`running: true`); `exit` when the process's exit is known;
 * - `auth_failed`: a remote server rejected the credentials (HTTP 401/403);
 * - `connect_failed`: a remote server could not be reached at `url` (MCP "Transports: Streamable
 *   HTTP"): `reason` `network` (`system_code`), `http_status` (another HTTP status), `legacy_sse`
 *   (it looked like a legacy SSE server but the SSE connection failed), `not_mcp` (answered with
 *   `content_type`, not MCP), `sse_failed`, `closed` (closed before the session started),
 *   `no_answer` (the request failed before any answer);
 * - `protocol`: the handshake or listing broke the protocol (MCP "Lifecycle"): `reason`
 *   `refused` (a JSON-RPC error `rpc_code`, the server's message in `server_message`),
 *   `invalid_answer` (the answer does not follow the spec), `no_common_version` (no protocol
 *   era in common), `initialize_rejected` (the app did not accept the `initialize` answer);
 * - `unknown`: anything else (the server's log has the details).
 */
export type ServerFailure = (
  | { kind: 'spawn_failed'; command: string; code: 'not_on_path' | SpawnCode }
  | { kind: 'timeout'; phase: StartPhase; seconds: number }
  | { kind: 'exited'; running: boolean; exit: { code: number | null; signal: string | null } | null }
  | { kind: 'auth_failed'; http_status: 401 | 403 }
  | {
      kind: 'connect_failed';
      url: string;
      reason: 'network' | 'http_status' | 'legacy_sse' | 'not_mcp' | 'sse_failed' | 'closed' | 'no_answer';
      system_code: NetworkCode | null;
      http_status: number | null;
      content_type: string | null;
    }
  | { kind: 'protocol'; phase: StartPhase; reason: 'refused' | 'invalid_answer' | 'no_common_version' | 'initialize_rejected'; rpc_code: number | null }
  | { kind: 'unknown' }
) & { server_message: string | null };

/** The kinds of {@link ServerFailure}. */
export type ErrorKind = ServerFailure['kind'];

/**
 * Automatic restarts of a server that crashed after it was ready (docs/ARCHITECTURE.md
 * "Status"): `scheduled` — restart number `attempt` runs at `at` (ms epoch); `gave_up` —
 * `restarts` restarts in a row failed, so it is no longer restarted automatically.
 */
export type ServerRetry = { kind: 'scheduled'; attempt: number; at: number } | { kind: 'gave_up'; restarts: number };

/**
 * The state of one server, rendered by the window as is (docs/ARCHITECTURE.md "Status").
 * Exactly one of:
 */
export type ServerState =
  /** The user turned the server off; nothing runs. */
  | { kind: 'disabled' }
  /** Spawning / connecting, handshake and first listing. `restart`: the number of the automatic restart after a crash, else null. */
  | { kind: 'starting'; restart: number | null }
  /** The session is up and its tools are listed (`ServerView.tools`, `server_info`). */
  | { kind: 'ready' }
  /** A remote OAuth server needs a sign-in: none yet (`needs_auth`), or the stored one was rejected or revoked (`needs_reauth`). */
  | { kind: 'needs_auth'; reason: 'needs_auth' | 'needs_reauth' }
  /** The server failed ({@link ServerFailure}); `retry`: automatic restarts after a crash, or null when none are made. */
  | { kind: 'error'; failure: ServerFailure; retry: ServerRetry | null };

/** The kinds of {@link ServerState}. */
export type ServerStateKind = ServerState['kind'];

/**
 * A provider family, by the JSON Schema subset it accepts in tool input schemas: `openai` (any
 * OpenAI-compatible endpoint; OpenAI's own API in strict mode falls back to it per tool),
 * `gemini` (Google's Gemini, an OpenAPI 3.0 subset), `anthropic` (Anthropic's Messages API).
 */
export type SchemaFamily = 'openai' | 'gemini' | 'anthropic';

/**
 * Why a family cannot take a tool's input schema: `not_object` (the top level is not an object
 * schema), `recursive` (a `$ref` cycle, where the family has no references), `untyped_value` (a
 * required value of any type, where every schema needs a `type`), `free_form_object` (a required
 * object without `properties`, a map), `too_large` (more schemas, nesting or properties than the
 * family takes, also after inlining `$ref`s).
 */
export type SchemaFitReason = 'not_object' | 'recursive' | 'untyped_value' | 'free_form_object' | 'too_large';

/**
 * A problem with part of what a ready server offers; the server keeps serving the rest.
 * - `tool_rejected`: the tool is left out — its input schema is not an object schema
 *   (`not_object`) or is malformed (`invalid_schema`) (MCP spec "Tools: Tool");
 * - `tool_schema_dropped`: the tool is offered without its schema, nested too deep to encode;
 * - `list_stopped`: listing stopped early — the server repeated a page cursor, or sent more
 *   pages than the app follows (MCP spec "Utilities: Pagination"); what was listed is kept.
 * - `tool_left_out_for_provider`: the tool is offered to the other provider families but left out
 *   of requests to `family`, whose accepted subset of JSON Schema cannot express its input schema
 *   ({@link SchemaFitReason}; docs/ARCHITECTURE.md "Schemas every provider accepts");
 * - `tool_renamed`: the tool's namespaced name was already taken by `like` of `like_server` (names
 *   that sanitize alike, or cut to the same 64 characters): it is offered as `offered_as`.
 * Tool names are the server's (cut to 128 characters). docs/ARCHITECTURE.md "Tool schemas".
 */
export type ServerIssue =
  | { kind: 'tool_rejected'; tool: string; reason: 'not_object' | 'invalid_schema' | 'invalid_header' }
  | { kind: 'tool_schema_dropped'; tool: string; reason: 'too_deep' }
  | { kind: 'tool_left_out_for_provider'; tool: string; family: SchemaFamily; reason: SchemaFitReason }
  | { kind: 'list_stopped'; list: 'tools' | 'resources' | 'prompts'; reason: 'repeated_cursor' | 'too_many_pages' }
  | { kind: 'tool_renamed'; tool: string; like: string; like_server: string; offered_as: string };

/** The masked authorization of a remote server (never a token or secret). */
export interface AuthView {
  kind: 'none' | 'bearer' | 'oauth';
  /** Bearer: a token is stored. OAuth: tokens from a sign-in are stored. */
  has_token: boolean;
  masked_token: string;
  has_client_secret: boolean;
  masked_client_secret: string;
  /** OAuth: the pre-registered client id (not a secret), if any. */
  client_id: string | null;
  scope: string | null;
  /** OAuth sign-in state. */
  state: 'authorized' | 'needs_auth' | 'needs_reauth' | 'signing_in' | 'unknown' | null;
  /** OAuth: when the access token expires (ms epoch), when known. */
  expires_at: number | null;
}

/** One line of a server's log (stderr, lifecycle event, skipped stdout line). */
export interface LogEntry {
  /** Milliseconds since the Unix epoch. */
  ts: number;
  /**
   * `server`: the server's own log notification (MCP `notifications/message`), as `level logger: data`;
   * `view`: a log message from one of the server's MCP App views (the view's `notifications/message`
   * over the app bridge), in the same form; `protocol`: what the SDK client reported about the
   * session without failing it (a response to no request, a dropped oversized message, an optional
   * stream the server does not offer).
   */
  source: 'stderr' | 'stdout' | 'lifecycle' | 'protocol' | 'server' | 'view';
  text: string;
}

/** The masked view of one server: config (secrets masked) + live state. Produced only by `toView()`. */
export interface ServerView {
  name: string;
  /**
   * When main produced this view: a counter of the app core's run, shared by every server, so a
   * higher `seq` is a newer view. A reply's view and an event's view of one server can reach the
   * window in either order; the window keeps the one with the higher `seq` (docs/ARCHITECTURE.md
   * "Status").
   */
  seq: number;
  type: 'local' | 'http' | 'sse';
  /** The command line with every secret argument shown as `***`. */
  command: string[];
  /** Positions in `command` shown as `***` (secret arguments). */
  secret_args: number[];
  /** The URL with its userinfo and query values shown as `***` (`https://***@host/mcp?token=***`). */
  url: string | null;
  /** The URL's secret parts (`username`, `password`, `query:<name>`), masked. */
  url_secrets: Record<string, MaskedValue>;
  env: Record<string, MaskedValue>;
  headers: Record<string, MaskedValue>;
  auth: AuthView;
  enabled: boolean;
  timeout_seconds: number;
  /** What the server is doing, or why it failed (see {@link ServerState}). */
  state: ServerState;
  /** The absolute path the command resolved to, when known. */
  resolved_command: string | null;
  /** Every tool the server lists, disabled ones included (see `ToolView.enabled`). */
  tools: ToolView[];
  /** How many of them are offered to the model (enabled), when ready. */
  tool_count: number;
  /** Resources the server lists (MCP "Resources"), when ready. */
  resources: { uri: string; name: string; description: string; mime_type: string | null }[];
  /** Prompts the server offers (MCP "Prompts"), when ready. */
  prompts: { name: string; description: string; arguments: { name: string; description: string; required: boolean }[] }[];
  /** Problems with parts of what the server lists (see {@link ServerIssue}); empty unless ready. */
  issues: ServerIssue[];
  /**
   * Other configured servers whose tools are offered under this one's namespace (a config file
   * written before names were checked: `my_fs` and `my.fs`; "." becomes "_" in tool names). Both
   * load; tool names that collide get a stable hash suffix. Whatever the status; usually empty.
   */
  shares_namespace_with: string[];
  /** Last stderr lines (bounded). */
  stderr_tail: string[];
  /** A local server: whether it runs sandboxed, and under which policy (docs/ARCHITECTURE.md "Sandbox"); null for a remote server. */
  sandbox: SandboxState | null;
  /** A local server: the user's sandbox settings (defaults when the entry says nothing); null for a remote server. */
  sandbox_settings: SandboxSettings | null;
  /** What the sandbox stopped since the server last started, one entry per target (oldest first, at most 20). */
  sandbox_denials: SandboxDenial[];
  /** The server's `serverInfo`, and the protocol revision the connection negotiated (e.g. `2026-07-28`). */
  server_info: { name: string; version: string; protocol_version: string | null } | null;
  /** Transport, logging, roots and icons (see {@link ServerProtocolView}). */
  protocol: ServerProtocolView;
}
