/**
 * The ONE definition of every IPC channel between the renderer and main.
 *
 * - `channels`: request/response channels (renderer → main). Each has a zod input schema
 *   (strict: unknown fields are rejected, strings are bounded) and an output type.
 * - `events`: push channels (main → renderer) with their payload types.
 * - `ErrorCode`: the typed error codes every handler may return.
 *
 * This module imports nothing of ours (layer rule in docs/ARCHITECTURE.md); main validates every
 * input against these schemas, the preload exposes only these channel names, and the browser
 * shell carries the same envelopes over a loopback WebSocket.
 */
import { z } from 'zod';
import { PERMISSION_MODES, SERVER_NAME_MAX_LENGTH, SERVER_NAME_PATTERN, TOOL_APPROVALS, isLoopbackHost, type PermissionMode, type ResourceLinkKind, type ToolApproval } from './rules/index.js';

export type { PermissionMode, ResourceLinkKind, ToolApproval };

// ---------------------------------------------------------------------------------------------
// Shared limits and primitives
// ---------------------------------------------------------------------------------------------

/** Upper bounds for every string the renderer may send (a compromised renderer gets a typed error). */
export const LIMITS = {
  name: 64,
  shortText: 4096,
  secretValue: 32 * 1024,
  chatText: 200_000,
  commandParts: 256,
  envEntries: 256,
  importJson: 1024 * 1024,
  conversationList: 1000,
  /** Characters of one MCP Apps view's model context (`apps.updateModelContext`). */
  viewContext: 16_384,
} as const;

/**
 * Whether a value's JSON text has at most `maxChars` characters. A value too deep to encode (the
 * encoder runs out of stack) or that cannot be encoded (a cycle, a BigInt) is not within.
 */
export function jsonWithin(value: unknown, maxChars: number): boolean {
  try {
    return (JSON.stringify(value) ?? '').length <= maxChars;
  } catch {
    return false;
  }
}

/** A server name (the rule: rules/server-name.ts): letters, digits, `_`, `-`, `.`; starts with a letter or digit; ≤ 64 chars. */
export const serverNameSchema = z
  .string()
  .min(1, 'Name is required')
  .max(SERVER_NAME_MAX_LENGTH, `Name is longer than ${SERVER_NAME_MAX_LENGTH} characters`)
  .regex(SERVER_NAME_PATTERN, 'Name may use letters, digits, "_", "-" and "." and must start with a letter or digit');

/**
 * A name that cannot be an own key of a plain object: `__proto__` would set the prototype instead
 * of an entry, and so be dropped silently by any object built from it (loading the file included).
 */
function isPlainKey(name: string): boolean {
  return name !== '__proto__';
}

/**
 * Control characters: C0 (U+0000–U+001F), DEL (U+007F) and C1 (U+0080–U+009F). A value holding
 * one cannot be launched or sent as given (Node refuses NUL in argv and env; HTTP refuses them in
 * headers) and error texts then quote it back in escaped forms (docs/ARCHITECTURE.md "Security").
 */
function isControl(code: number, allowWhitespace: boolean): boolean {
  if (allowWhitespace && (code === 0x09 || code === 0x0a || code === 0x0d)) return false;
  return code < 0x20 || (code >= 0x7f && code <= 0x9f);
}

/**
 * The first control character of `v` as `U+XXXX`, or null. `allowWhitespace` lets tab, LF and CR
 * pass (multi-line env values such as PEM keys, arguments).
 */
export function controlCharIn(v: string, allowWhitespace = false): string | null {
  for (let i = 0; i < v.length; i++) {
    const code = v.charCodeAt(i);
    if (isControl(code, allowWhitespace)) return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return null;
}

/**
 * A string without control characters (see {@link controlCharIn}); the error names the
 * character's code point, never the value (which may be a secret).
 */
function noControl(schema: z.ZodString, allowWhitespace = false): z.ZodType<string> {
  return schema.superRefine((v, ctx) => {
    const c = controlCharIn(v, allowWhitespace);
    if (c) ctx.addIssue({ code: 'custom', message: `Contains a control character (${c}); remove it` });
  });
}

/** An env value: a secret; no control characters but tab, LF and CR. */
export const envValueSchema = noControl(z.string().max(LIMITS.secretValue), true);
/** A header value (and bearer token, client secret): a secret; no control characters at all. */
export const headerValueSchema = noControl(z.string().max(LIMITS.secretValue));
/** One part of a stdio server's command line: no control characters but tab, LF and CR. */
export const commandPartSchema = noControl(z.string().max(LIMITS.shortText), true);

/** An environment variable name: a POSIX identifier (not `__proto__`). */
export const envNameSchema = z
  .string()
  .max(256)
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'Environment variable names must be identifiers (letters, digits, "_", not starting with a digit)')
  .refine(isPlainKey, '"__proto__" cannot be used as a name');

/**
 * A name → secret map. zod strips an own `__proto__` key from records without a word, so it is
 * refused here, before parsing, with an error on that field.
 */
function secretMapSchema(names: z.ZodType<string>, values: z.ZodType<string>) {
  return z.preprocess(
    (v, ctx) => {
      if (typeof v === 'object' && v !== null && Object.prototype.hasOwnProperty.call(v, '__proto__')) {
        ctx.addIssue({ code: 'custom', message: '"__proto__" cannot be used as a name', path: ['__proto__'], input: v });
      }
      return v;
    },
    z.record(names, values).refine((m) => Object.keys(m).length <= LIMITS.envEntries, `At most ${LIMITS.envEntries} entries`),
  );
}

const envMapSchema = secretMapSchema(envNameSchema, envValueSchema);

/** An HTTP header name: an RFC 9110 token (not `__proto__`). */
export const headerNameSchema = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'Header names must be HTTP tokens')
  .refine(isPlainKey, '"__proto__" cannot be used as a name');

/** A remote server's URL: absolute, `http:` or `https:` only. */
export const serverUrlSchema = noControl(z.string().max(LIMITS.shortText))
  .pipe(z.string().url())
  .refine((u) => /^https?:\/\//i.test(u), 'The URL must start with http:// or https://');
const headerMapSchema = secretMapSchema(headerNameSchema, headerValueSchema);

const commandSchema = z
  .array(commandPartSchema)
  .min(1, 'Command is required')
  .max(LIMITS.commandParts)
  .refine((c) => typeof c[0] === 'string' && c[0].trim().length > 0, 'Command is required');

const timeoutSchema = z.number().int().min(1).max(3600);

/** Remote-server authorization input: none, a bearer token, or OAuth 2.1 (optionally pre-registered client). */
export const authInputSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('none') }),
  z.strictObject({ kind: z.literal('bearer'), token: headerValueSchema.refine((t) => t.length > 0, 'Enter the token') }),
  z.strictObject({
    kind: z.literal('oauth'),
    client_id: noControl(z.string().max(512)).optional(),
    client_secret: headerValueSchema.optional(),
    scope: noControl(z.string().max(1024)).optional(),
  }),
]);
export type AuthInput = z.infer<typeof authInputSchema>;

/**
 * Auth PATCH: `token` / `client_secret` absent → keep, `""` → delete, value → replace; changing
 * `kind` drops the other kind's secrets.
 */
export const authPatchSchema = z.strictObject({
  kind: z.enum(['none', 'bearer', 'oauth']).optional(),
  token: headerValueSchema.optional(),
  client_id: noControl(z.string().max(512)).optional(),
  client_secret: headerValueSchema.optional(),
  scope: noControl(z.string().max(1024)).optional(),
});
export type AuthPatch = z.infer<typeof authPatchSchema>;

/**
 * Positions in `command` (1 = the first argument after the program) of arguments the user marked
 * secret: kept in the secret store, shown as `***` (docs/ARCHITECTURE.md "Masked views only").
 */
const secretArgsSchema = z.array(z.number().int().min(1).max(LIMITS.commandParts)).max(LIMITS.commandParts);

/**
 * A secret part of a remote server's URL: `username`, `password`, or `query:<name>`
 * (`query:<name>#<n>` for the n-th parameter of one name).
 */
export const urlPartNameSchema = z
  .string()
  .max(300)
  .regex(/^(username|password|query:[^&=#\s]{1,256}(#[2-9]\d{0,2})?)$/, 'Not a part of a URL (username, password or query:<name>)');

/** Input for a new server (the config file's shape, docs/ARCHITECTURE.md "Config file"; `local` = stdio). */
export const serverInputSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('local'),
    command: commandSchema,
    secret_args: secretArgsSchema.optional(),
    env: envMapSchema.optional(),
    enabled: z.boolean().optional(),
    timeout_seconds: timeoutSchema.optional(),
  }),
  z.strictObject({
    type: z.enum(['http', 'sse']),
    url: serverUrlSchema,
    headers: headerMapSchema.optional(),
    auth: authInputSchema.optional(),
    enabled: z.boolean().optional(),
    timeout_seconds: timeoutSchema.optional(),
  }),
]);
export type ServerInput = z.infer<typeof serverInputSchema>;

/** A tool's real name on its server, as a key of the per-tool settings (MCP: 1–128 characters). */
export const toolNameSchema = z.string().min(1).max(128);

/** Per-tool approval: ask every time, or always allow. Absent/null = follow the global mode. */
export const toolApprovalSchema = z.enum(TOOL_APPROVALS);

/**
 * PATCH of one tool's settings: a field absent → keep; a value → replace; `approval: null` →
 * remove the per-tool choice (follow the global mode again).
 */
export const toolSettingPatchSchema = z.strictObject({
  enabled: z.boolean().optional(),
  approval: toolApprovalSchema.nullable().optional(),
});
export type ToolSettingPatch = z.infer<typeof toolSettingPatchSchema>;

/**
 * PATCH of a server's `tools` map: a tool absent → keep its settings; present → its entry is
 * patched field by field ({@link toolSettingPatchSchema}); `null` → forget every choice for it.
 */
export const toolSettingsPatchSchema = z
  .record(toolNameSchema, toolSettingPatchSchema.nullable())
  .refine((m) => Object.keys(m).length <= 1024, 'At most 1024 tools');

/**
 * PATCH for a server (docs/ARCHITECTURE.md "Update semantics (PATCH)"): for `env`/`headers`, a name absent → preserve,
 * present with a value → replace, present with `""` → delete. `tools` → {@link toolSettingsPatchSchema}.
 */
export const serverPatchSchema = z.strictObject({
  /** A new command line; an argument `***` keeps the stored secret argument it stands for (the k-th `***` ↔ the view's k-th). */
  command: commandSchema.optional(),
  /** Positions of arguments to keep as secrets (of the new command, or of the stored one when `command` is absent). */
  secret_args: secretArgsSchema.optional(),
  /** A new URL; a userinfo part or query value `***` keeps the stored value of that part. */
  url: serverUrlSchema.optional(),
  /** The URL's secret parts by name, PATCH rules: absent → keep, `""` → delete, a value (as written in a URL) → replace. */
  url_secrets: z
    .record(urlPartNameSchema, headerValueSchema)
    .refine((m) => Object.keys(m).length <= LIMITS.envEntries, `At most ${LIMITS.envEntries} entries`)
    .optional(),
  env: envMapSchema.optional(),
  headers: headerMapSchema.optional(),
  auth: authPatchSchema.optional(),
  enabled: z.boolean().optional(),
  timeout_seconds: timeoutSchema.optional(),
  tools: toolSettingsPatchSchema.optional(),
  /** The server's own root folders (absolute paths, MCP "Roots"): absent → keep, a list → replace, `null` → follow the default. */
  roots: z.array(z.string().min(1).max(LIMITS.shortText)).max(64).nullable().optional(),
});
export type ServerPatch = z.infer<typeof serverPatchSchema>;

// ---------------------------------------------------------------------------------------------
// Views (what main sends; never a stored secret)
// ---------------------------------------------------------------------------------------------

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
 * A problem with part of what a ready server offers; the server keeps serving the rest.
 * - `tool_rejected`: the tool is left out — its input schema is not an object schema
 *   (`not_object`) or is malformed (`invalid_schema`) (MCP spec "Tools: Tool");
 * - `tool_schema_dropped`: the tool is offered without its schema, nested too deep to encode;
 * - `list_stopped`: listing stopped early — the server repeated a page cursor, or sent more
 *   pages than the app follows (MCP spec "Utilities: Pagination"); what was listed is kept.
 * Tool names are the server's (cut to 128 characters). docs/ARCHITECTURE.md "Tool schemas".
 */
export type ServerIssue =
  | { kind: 'tool_rejected'; tool: string; reason: 'not_object' | 'invalid_schema' | 'invalid_header' }
  | { kind: 'tool_schema_dropped'; tool: string; reason: 'too_deep' }
  | { kind: 'list_stopped'; list: 'tools' | 'resources' | 'prompts'; reason: 'repeated_cursor' | 'too_many_pages' };

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

/**
 * Tool annotations (MCP spec 2025-11-25 "Tool annotations"). They are hints the server declares
 * about its own tool — not verified by anyone — so the UI says so wherever it shows them.
 */
export interface ToolAnnotations {
  title?: string;
  /** The tool does not modify its environment. */
  readOnlyHint?: boolean;
  /** The tool may perform destructive updates (meaningful when not read-only). */
  destructiveHint?: boolean;
  /** Calling it again with the same arguments has no further effect. */
  idempotentHint?: boolean;
  /** The tool interacts with an open world of external entities. */
  openWorldHint?: boolean;
}

/**
 * Who may call a tool, from its `_meta.ui.visibility` (ext-apps spec "Tool metadata"; both
 * audiences when absent): `model_and_app` — offered to the model and callable from its server's
 * MCP App views; `model` — the model only (views are refused); `app` — only its server's views,
 * never offered to the model; `none` — an empty list: never offered, views refused.
 */
export type ToolAudience = 'model_and_app' | 'model' | 'app' | 'none';

/** A tool as offered to the model: namespaced name plus the server's real name. */
export interface ToolView {
  /** `{server}__{tool}`, sanitized, ≤ 64 chars, unique across servers. */
  name: string;
  /** The tool's name on its server. */
  original_name: string;
  /** Display title (`title`, else `annotations.title`), when the server gives one. */
  title: string | null;
  description: string;
  input_schema: Record<string, unknown>;
  /** The server's declared hints (may be empty). */
  annotations: ToolAnnotations;
  /** False: never offered to the model and refused if called (the user's per-tool choice). */
  enabled: boolean;
  /** The user's per-tool approval; null = follow the global mode. */
  approval: ToolApproval | null;
  /** Who may call it (MCP Apps visibility); `app` and `none` tools are never offered to the model. */
  audience: ToolAudience;
  /** The tool declares an MCP App view (`_meta.ui.resourceUri`, a `ui://` URI): its calls show it in the chat. */
  has_view: boolean;
}

/**
 * When tool calls need the user's approval (per-tool choices override it):
 * `ask_all` = every call; `ask_unless_read_only` = every call unless the tool declares
 * `readOnlyHint: true`; `never_ask` = no call.
 */
export const permissionModeSchema = z.enum(PERMISSION_MODES);

/** The user's answer to an approval card. */
export type ApprovalDecision = 'allow_once' | 'allow_conversation' | 'always_allow' | 'deny';
export const approvalDecisionSchema = z.enum(['allow_once', 'allow_conversation', 'always_allow', 'deny']);

/** A tool call waiting for the user's approval (main holds it; a reloaded window lists it again). */
export interface ApprovalView {
  /** Random, single-use id bound to this call and its exact arguments. */
  id: string;
  conversation_id: string;
  run_id: string;
  call_id: string;
  server: string;
  /** The tool's real name on its server. */
  tool: string;
  /** The namespaced name offered to the model. */
  namespaced_tool: string;
  title: string | null;
  annotations: ToolAnnotations;
  /** The exact arguments the call will run with. */
  args: unknown;
  /** SHA-256 (hex) of the canonical JSON of `args`; an answer may echo it to bind itself to them. */
  args_sha256: string;
  /** When it was asked (ms epoch). */
  created_at: number;
}

/** Why a pending approval closed. */
export type ApprovalClosedOutcome = 'answered' | 'cancelled' | 'timed_out';

/** One line of a server's log (stderr, lifecycle event, skipped stdout line). */
export interface LogEntry {
  /** Milliseconds since the Unix epoch. */
  ts: number;
  /**
   * `server`: the server's own log notification (MCP `notifications/message`), as `level logger: data`;
   * `view`: a log message from one of the server's MCP App views (the view's `notifications/message`
   * over the app bridge), in the same form.
   */
  source: 'stderr' | 'stdout' | 'lifecycle' | 'server' | 'view';
  text: string;
}

/** The masked view of one server: config (secrets masked) + live state. Produced only by `toView()`. */
export interface ServerView {
  name: string;
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
  /** Visible warnings, e.g. tool-name collisions. */
  warnings: string[];
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
  /** The server's `serverInfo`, and the protocol revision the connection negotiated (e.g. `2026-07-28`). */
  server_info: { name: string; version: string; protocol_version: string | null } | null;
  /** Transport, logging, roots and icons (see {@link ServerProtocolView}). */
  protocol: ServerProtocolView;
}

/** Model provider kinds: any OpenAI-compatible Chat Completions endpoint, or Anthropic's Messages API. */
export type ModelProvider = 'openai-compatible' | 'anthropic';

/** The masked model-provider settings. */
export interface ModelSettingsView {
  provider: ModelProvider;
  base_url: string;
  model: string;
  api_key: MaskedValue;
  configured: boolean;
}

export const modelSettingsInputSchema = z.strictObject({
  provider: z.enum(['openai-compatible', 'anthropic']),
  base_url: z.string().url().max(LIMITS.shortText),
  model: z.string().min(1).max(LIMITS.shortText),
  /** Absent → keep the stored key; `""` → delete it; a value → replace it. */
  api_key: z.string().max(LIMITS.secretValue).optional(),
});
export type ModelSettingsInput = z.infer<typeof modelSettingsInputSchema>;

/**
 * A saved model profile (masked: the API key is never sent, only whether one is stored). Each
 * profile has its own key in the secret store; a key is only ever sent to its own profile's
 * endpoint.
 */
export interface ModelProfileView {
  id: string;
  name: string;
  provider: ModelProvider;
  base_url: string;
  model: string;
  /** Extra instructions sent as the system prompt, or null. */
  system_prompt: string | null;
  /** The model's context window in tokens (the request is fitted to it). */
  context_window: number;
  /** Whether tool images are sent to this model as image parts (else a short text note). */
  accepts_images: boolean;
  api_key: MaskedValue;
  /** The profile new conversations (and sampling) use. */
  is_default: boolean;
  /** Base URL and model are set. */
  configured: boolean;
  /** A key is stored for an `http:` endpoint that is not this machine: it travels unencrypted. */
  key_in_clear: boolean;
}

/** Upper bound of a context window the user may enter (tokens). */
export const MAX_CONTEXT_WINDOW = 10_000_000;

/**
 * Create (`id` absent) or update a model profile. Non-secret fields are replaced as given (on
 * update, an absent optional field keeps its stored value). `api_key` follows PATCH rules: absent
 * → keep, `""` → delete, a value → replace. Changing the base URL's origin without a new key drops
 * the stored key, so a key never follows a profile to another server.
 */
export const profileInputSchema = z.strictObject({
  id: z.string().min(1).max(128).optional(),
  name: z.string().trim().min(1, 'Name is required').max(LIMITS.name),
  provider: z.enum(['openai-compatible', 'anthropic']),
  base_url: z.string().url().max(LIMITS.shortText),
  model: z.string().trim().min(1, 'Model is required').max(LIMITS.shortText),
  system_prompt: z.string().max(LIMITS.chatText).nullable().optional(),
  context_window: z.number().int().min(1024).max(MAX_CONTEXT_WINDOW).optional(),
  accepts_images: z.boolean().optional(),
  api_key: z.string().max(LIMITS.secretValue).optional(),
  /** Make this the default profile. The first profile saved always becomes the default. */
  make_default: z.boolean().optional(),
});
export type ProfileInput = z.infer<typeof profileInputSchema>;

/**
 * What "Test connection" tries: a saved profile by `id` (its own stored key), or a draft from the
 * form (`provider` + `base_url`, with a typed `api_key`, or — when `id` names a saved profile with
 * the same origin — that profile's stored key).
 */
export const profileTestSchema = z.strictObject({
  id: z.string().min(1).max(128).optional(),
  provider: z.enum(['openai-compatible', 'anthropic']).optional(),
  base_url: z.string().url().max(LIMITS.shortText).optional(),
  api_key: z.string().max(LIMITS.secretValue).optional(),
});
export type ProfileTestInput = z.infer<typeof profileTestSchema>;

/**
 * Why a model endpoint failed, for a plain message (main/chat/model-errors.ts):
 * `unreachable` (nothing answers / DNS), `timeout` (no answer in time), `unauthorized` (401/403),
 * `not_found` (404: wrong base URL or model), `html_page` (an HTML page instead of the API),
 * `not_streaming` (a plain body where a stream was asked for), `malformed_response` (bad JSON or
 * SSE), `context_length_exceeded`, `rate_limited` (429), `server_error` (5xx), `bad_request`
 * (other 4xx), `unknown`.
 */
export type ModelErrorCode =
  | 'unreachable'
  | 'timeout'
  | 'unauthorized'
  | 'not_found'
  | 'html_page'
  | 'not_streaming'
  | 'malformed_response'
  | 'context_length_exceeded'
  | 'rate_limited'
  | 'server_error'
  | 'bad_request'
  | 'unknown';

/** One model a provider lists. */
export interface ModelInfo {
  id: string;
  /** Whether the name is of a model known to accept images. */
  accepts_images: boolean;
}

/** The outcome of "Test connection": the provider's models, or why it failed, in plain words. */
export type ConnectionTestResult =
  | { ok: true; models: ModelInfo[]; warning: string | null }
  | { ok: false; code: ModelErrorCode; message: string };

/** A local model server that answered on this machine (first launch: offered as a ready profile). */
export interface LocalModelOffer {
  kind: 'ollama' | 'lmstudio';
  /** Display name, e.g. "Ollama". */
  label: string;
  /** The OpenAI-compatible base URL, e.g. `http://127.0.0.1:11434/v1`. */
  base_url: string;
  models: ModelInfo[];
}

/** Tool-result content as shown in the UI (images as data, resources as text). */
export type ContentView =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string };

// ---------------------------------------------------------------------------------------------
// Conversations (main owns the transcript; docs/ARCHITECTURE.md "Conversations")
// ---------------------------------------------------------------------------------------------

/** A conversation id: letters, digits, `_` and `-` (the renderer makes UUIDs for new chats). */
export const conversationIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Invalid conversation id');

/** How an assistant answer ended: still streaming, complete, stopped by the user, failed, or cut by an app exit. */
export type AnswerState = 'streaming' | 'done' | 'stopped' | 'failed' | 'interrupted';

/**
 * How a tool call stands: awaiting the user's approval, running, ok, error (the tool or the server
 * said so), denied (by the user or the permissions; it did not run), cancelled (by the user), or
 * interrupted (the app stopped before a result came; it may have taken effect).
 */
export type ToolCallState = 'awaiting_approval' | 'running' | 'ok' | 'error' | 'denied' | 'cancelled' | 'interrupted';

/**
 * How the permissions decided about a call (recorded in the conversation): `via` is the rule
 * (`always_allow`, `conversation_grant`, `mode_never_ask`, `read_only_hint`, `user`) or the
 * refusal (`disabled`, `denied`, `cancelled`, `timed_out`, `args_changed`, `unknown_tool`);
 * `decision` is the user's answer on the approval card, when there was one.
 */
export interface PermissionRecord {
  allowed: boolean;
  via: string;
  decision: ApprovalDecision | null;
}

/** Progress a server reported for a running call (MCP `notifications/progress`). */
export interface ToolProgress {
  progress: number;
  total: number | null;
  message: string | null;
}

/**
 * One entry of a saved transcript, exactly as the user saw it. `ts` is ms since the Unix epoch.
 * `run_id` names the run (one model turn with its tool calls) that produced the entry.
 */
export type TranscriptItem =
  | { kind: 'user'; id: string; ts: number; text: string; /** Prompts and resources sent with it. */ context?: ContextEntry[] }
  | { kind: 'assistant'; id: string; ts: number; run_id: string; text: string; state: AnswerState }
  | {
      kind: 'tool';
      id: string;
      ts: number;
      run_id: string;
      /** The model's tool-call id (unique within a run). */
      call_id: string;
      /** Namespaced name `{server}__{tool}` as offered to the model. */
      tool: string;
      server: string;
      original_name: string;
      args: unknown;
      state: ToolCallState;
      content: ContentView[];
      error: string | null;
      duration_ms: number | null;
      progress: ToolProgress | null;
      /** How the permissions decided (null until they have). */
      permission: PermissionRecord | null;
      /**
       * The result's `structuredContent` (MCP "Structured content"), kept for the tool's MCP App
       * view when it fits `MAX_STRUCTURED_CHARS` as JSON; absent otherwise and in older entries.
       */
      structured_content?: unknown;
    }
  | { kind: 'notice'; id: string; ts: number; run_id: string | null; tone: 'info' | 'error'; text: string };

/** A conversation in the list. Times are ms since the Unix epoch. */
export interface ConversationSummary {
  id: string;
  title: string;
  created_at: number;
  updated_at: number;
  message_count: number;
  /** A run is streaming in this conversation now. */
  running: boolean;
  /** The model profile this conversation uses (null: the default profile). */
  profile_id: string | null;
  /** The servers whose tools the model gets in this conversation (null: every ready server). */
  tool_servers: string[] | null;
}

/**
 * A whole conversation: its summary and every transcript item in order, as a JSON array text of
 * `TranscriptItem` (main forwards what it stored without parsing it; the window parses it once).
 */
export interface ConversationView extends ConversationSummary {
  items_json: string;
}

/**
 * A piece of a search snippet: `hit` marks the words the search engine matched. Which pieces are
 * hits comes from the engine alone, never from characters stored in the message (docs/ARCHITECTURE.md
 * "Conversations"); the window renders the pieces as text.
 */
export interface SnippetSegment {
  text: string;
  hit: boolean;
}

/** One full-text search hit: the entry and its snippet (the matched words and some around them, in pieces). */
export interface SearchHit {
  conversation_id: string;
  title: string;
  item_id: string;
  kind: TranscriptItem['kind'];
  snippet: SnippetSegment[];
  ts: number;
}

/** What a repair copied from a damaged conversation database into the new one. */
export interface ConversationsRecovered {
  conversations: number;
  entries: number;
  /** False when some rows could not be read (they are only in the kept file). */
  complete: boolean;
}

/** Why the conversation database file could not be used as it was. */
export type ConversationsDbProblem = 'damaged' | 'newer_schema' | 'not_writable' | 'unreadable';

/**
 * A warning about the conversation database (docs/ARCHITECTURE.md "Conversations", a damaged
 * database); the window words it by `code`:
 * - `index_rebuilt`: the search index was damaged and was rebuilt from the saved entries (nothing lost);
 * - `set_aside`: the file could not be used; it was kept as `kept_as` in `dir` and a new one
 *   started, with what could still be read copied into it (`recovered`, null when nothing could);
 * - `memory_only`: not even a new file could be made; conversations of this session are not
 *   saved (`kept_as` null: the file was left where it is).
 */
export type ConversationsWarning =
  | { code: 'index_rebuilt' }
  | { code: 'set_aside'; problem: ConversationsDbProblem; kept_as: string; dir: string; recovered: ConversationsRecovered | null }
  | { code: 'memory_only'; problem: ConversationsDbProblem; kept_as: string | null; dir: string; recovered: ConversationsRecovered | null };

/**
 * An export. Where main can ask the user for a path (Electron's save dialog) it writes the file
 * and returns `saved_to` (or `cancelled`); otherwise it returns `content` for the renderer to
 * download as `filename`.
 */
export type ConversationExport =
  | { kind: 'saved'; saved_to: string }
  | { kind: 'cancelled' }
  | { kind: 'content'; filename: string; mime: string; content: string };

/**
 * Events of the chat, per conversation (main → every window):
 * - `item`: an entry was added or changed (the whole entry; replaces one with the same id);
 * - `text-delta`: text appended to an assistant entry while it streams;
 * - `items-removed`: entries dropped by an edit-and-resend or a regenerate;
 * - `tool-input`: the input of a tool call the model is still writing (see {@link ToolInputEvent});
 * - `run-end`: the run ended (also announced through `conversations.changed`).
 */
export type ChatEvent =
  | { conversation_id: string; run_id: string; type: 'item'; item: TranscriptItem }
  | { conversation_id: string; run_id: string; type: 'text-delta'; item_id: string; text: string }
  | { conversation_id: string; run_id: string; type: 'items-removed'; item_ids: string[] }
  | ToolInputEvent
  | { conversation_id: string; run_id: string; type: 'run-end'; outcome: 'done' | 'stopped' | 'failed' };

/**
 * The input of a tool call while the model still streams it, for tools that declare an MCP App
 * view only (ext-apps `ui/notifications/tool-input-partial`; docs/ARCHITECTURE.md "MCP Apps").
 * Transient: never saved — the call's `tool` entry, which follows with the same `call_id`, holds
 * the final arguments. Sent at most every ~100 ms per call and once more when the input is
 * complete; none when the input text grows past 256 KB. `args` is the object parsed from the text
 * so far (unfinished strings and values completed or left out), so it may lack fields the final
 * input has; `tool` is the namespaced name, `server` and `original_name` where it lives.
 */
export interface ToolInputEvent {
  conversation_id: string;
  run_id: string;
  type: 'tool-input';
  call_id: string;
  tool: string;
  server: string;
  original_name: string;
  args: Record<string, unknown>;
}

/**
 * An export of the server list. Without secrets, `json` holds the document with every env/header
 * value empty. With secrets, the document is written by main to `path` (owner-only) and never
 * crosses IPC; `warning` says what the file contains.
 */
export interface ExportResult {
  json: string | null;
  path: string | null;
  warning: string | null;
}

/** One server of an import, as it would be added (secrets masked). */
export interface ImportPreviewItem extends Pick<ServerView, 'name' | 'type' | 'command' | 'url' | 'env' | 'headers' | 'enabled'> {
  /** A server of that name exists already. */
  exists: boolean;
  /**
   * The server (already there, or an earlier entry of this document) whose tools this entry's
   * would be named like (`my.fs` next to `my_fs`: "." becomes "_" in tool names): the entry is
   * refused and will not be imported. Null when it has a namespace of its own.
   */
  collides_with: string | null;
  /**
   * With "replace existing": the stored secrets that will be kept for values this entry leaves
   * empty (e.g. `env API_TOKEN`). Empty when the entry points at another command or URL origin:
   * stored secrets never follow a server to a new destination.
   */
  kept_secrets: string[];
  /** Tools that will be disabled (from `tools`, `disabledTools`, `excludeTools`, …). */
  disabled_tools: string[];
  /** Tools that will run without asking (from `tools`, `alwaysAllow`, `autoApprove`, …). */
  always_allow_tools: string[];
  /** Other hosts' permission keys that could not be mapped (nothing is granted for them). */
  unmapped_keys: string[];
}

/** What an import would do. */
export interface ImportPreview {
  servers: ImportPreviewItem[];
  warning: string | null;
}

/** What an import did. */
export interface ImportResult {
  added: string[];
  replaced: string[];
  /** Not imported, with the reason. */
  skipped: { name: string; reason: string }[];
}

/** Facts about the running app. */
export interface AppInfo {
  version: string;
  shell: 'electron' | 'browser';
  state_dir: string;
  /** A visible warning about the config file (e.g. it could not be parsed and was kept). */
  config_warning: string | null;
  /** The latest warning about the conversation database (e.g. it was damaged and set aside), or null. */
  conversations_warning: ConversationsWarning | null;
}

/**
 * How secrets are protected at rest (docs/ARCHITECTURE.md "Secrets at rest"): `keychain` = AES-256-GCM vault
 * whose key is in the OS keychain; `file` = owner-only (0600) unencrypted file because no keychain
 * is usable; `memory` = not persisted. `notice` is plain language for the UI (why, and what it
 * protects against); it never contains a secret. A `file` kind must be shown to the user.
 */
export interface SecretsInfo {
  kind: 'keychain' | 'file' | 'memory';
  notice: string;
}

// ---------------------------------------------------------------------------------------------
// Prompts and resources in the composer (docs/ARCHITECTURE.md "Prompts and resources in chat")
// ---------------------------------------------------------------------------------------------

/** A resource URI or URI template the renderer may send back (MCP URIs are RFC 3986 strings). */
const resourceUriSchema = z.string().min(1).max(8192);
/** One prompt argument or template variable value (bounded). */
const argumentValueSchema = z.string().max(LIMITS.shortText);
/** Prompt arguments / template variables by name (at most 64). */
const argumentMapSchema = z
  .record(z.string().min(1).max(256), argumentValueSchema)
  .refine((m) => Object.keys(m).length <= 64, 'At most 64 arguments');

/**
 * What the user attached to a message, by reference; main resolves it at send time from the
 * server that listed it (`prompts/get`, `resources/read`) and saves the result in the user entry.
 */
export const contextRefSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('prompt'), server: serverNameSchema, name: z.string().min(1).max(256), arguments: argumentMapSchema }),
  z.strictObject({ kind: z.literal('resource'), server: serverNameSchema, uri: resourceUriSchema }),
]);
export type ContextRef = z.infer<typeof contextRefSchema>;
/** Most attachments on one message. */
export const MAX_CONTEXT_REFS = 16;

/** One message of a prompt as saved (MCP `PromptMessage`, content already fitted). */
export interface PromptMessageView {
  role: 'user' | 'assistant';
  content: ContentView[];
}

/**
 * What a reference resolved to, saved in the user entry and sent to the model with it. Content
 * is already cut to the budgets (main/chat/context/budget.ts); `notice` says what was cut or
 * described instead of pasted, or is null.
 */
export type ContextEntry =
  | { kind: 'prompt'; server: string; name: string; title: string; arguments: Record<string, string>; messages: PromptMessageView[]; notice: string | null }
  | { kind: 'resource'; server: string; uri: string; title: string; mime_type: string | null; content: ContentView[]; notice: string | null };

/** A resource template of a ready server (MCP "Resource Templates"). */
export interface ResourceTemplateView {
  server: string;
  uri_template: string;
  name: string;
  title: string | null;
  description: string;
  mime_type: string | null;
  /** The template's variable names, in order (RFC 6570 expressions). */
  variables: string[];
}

/** What a completion request refers to (MCP "Completion": `ref/prompt` or `ref/resource`). */
export const completionRefSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('ref/prompt'), name: z.string().min(1).max(256) }),
  z.strictObject({ type: z.literal('ref/resource'), uri: resourceUriSchema }),
]);

/** Suggested values for one argument (at most 100, as the spec caps them). */
export interface CompletionView {
  values: string[];
  has_more: boolean;
}

/** One part of a resource read for the viewer (text cut to a budget, images as data). */
export type ResourcePartView =
  | { type: 'text'; uri: string; mime_type: string | null; text: string }
  | { type: 'image'; uri: string; mime_type: string; data: string }
  | { type: 'binary'; uri: string; mime_type: string | null; bytes: number };

/** A resource as the in-app viewer shows it; `notice` says what was cut. */
export interface ResourceReadView {
  server: string;
  uri: string;
  parts: ResourcePartView[];
  notice: string | null;
  /** Whether the server supports `resources/subscribe` (the viewer refreshes on updates). */
  can_subscribe: boolean;
}

/** A saved resource: written by main (Electron save dialog), cancelled, or data to download. */
export type ResourceSaveResult =
  | { kind: 'saved'; saved_to: string }
  | { kind: 'cancelled' }
  | { kind: 'content'; filename: string; mime: string; base64: string };

const byResource = z.strictObject({ server: serverNameSchema, uri: resourceUriSchema });

/** The composer's channels (spread into `channels`). */
const composerChannels = {
  /** Resource templates of every ready server (listed on demand). */
  'context.templates': { input: z.strictObject({}), output: null as unknown as ResourceTemplateView[] },
  /**
   * Completions for one prompt argument or template variable (MCP `completion/complete`);
   * `context_arguments` are the values already chosen for the other arguments.
   */
  'context.complete': {
    input: z.strictObject({
      server: serverNameSchema,
      ref: completionRefSchema,
      argument: z.strictObject({ name: z.string().min(1).max(256), value: argumentValueSchema }),
      context_arguments: argumentMapSchema.optional(),
    }),
    output: null as unknown as CompletionView,
  },
  /** Read a resource for the viewer, only from the server that listed it. */
  'context.read': { input: byResource, output: null as unknown as ResourceReadView },
  /** Save a resource's content to a file (Electron: save dialog; browser shell: download). */
  'context.save': { input: byResource, output: null as unknown as ResourceSaveResult },
  /** Subscribe to a resource's updates while it is open in the viewer (where supported). */
  'context.subscribe': { input: byResource, output: null as unknown as { subscribed: boolean } },
  'context.unsubscribe': { input: byResource, output: null as unknown as { unsubscribed: boolean } },
} as const;

/** The composer's events (merged into `EventPayloads`). */
export interface ComposerEventPayloads {
  /** A subscribed resource changed (MCP `notifications/resources/updated`). */
  'context.resourceUpdated': { server: string; uri: string };
}
const composerEventTable: { [E in keyof ComposerEventPayloads]: true } = { 'context.resourceUpdated': true };

// ---------------------------------------------------------------------------------------------
// Server catalog (the MCP Registry, bundles, catalog diff; docs/ARCHITECTURE.md "Server catalog")
// ---------------------------------------------------------------------------------------------

/** One value an install asks for (a registry `Input`: argument, variable, env var or header). */
export interface CatalogField {
  /** Stable id within its option, e.g. `env:API_KEY`, `header:X-Key`, `arg:package:0`, `url:tenant`. */
  id: string;
  kind: 'argument' | 'env' | 'header' | 'variable' | 'url_variable' | 'user_config';
  /** What to call it: the env/header name, the flag, the value hint or the variable name. */
  label: string;
  description: string | null;
  required: boolean;
  /** Goes to the secret store (never into mcp_servers.json, never shown again). */
  secret: boolean;
  format: 'string' | 'number' | 'boolean' | 'filepath';
  default: string | null;
  placeholder: string | null;
  /** The value must be one of these. */
  choices: string[] | null;
  /** Takes several values (each becomes its own argument). */
  repeated: boolean;
}

/** The runtimes the catalog knows how to advise on (a bundle's `python3` is reported as `python`). */
export const catalogRuntimes = ['npx', 'uvx', 'docker', 'node', 'python', 'uv'] as const;

/**
 * The most characters of a registry- or manifest-supplied string (a name, a status message, a
 * URL) that a {@link NotInstallableReason} carries; main cuts longer ones (ending them with `…`).
 */
export const REASON_TEXT_MAX = 200;
const reasonText = z.string().max(REASON_TEXT_MAX + 1);
const configType = z.enum(['local', 'http', 'sse']);

/**
 * Why something from the catalog cannot be installed or updated, by code, with the variable parts
 * as fields (docs/ARCHITECTURE.md "Server catalog"). Main makes these (main/mcp/catalog/reasons.ts);
 * the window renders `catalog.why.<code>` in its language. String fields are data from the
 * registry, a manifest or the request — text only, at most {@link REASON_TEXT_MAX} characters.
 *
 * Option refusals (`CatalogOption.reason`): `bundle_no_sha256`, `bundle_url_invalid`,
 * `bundle_not_https`, `bundle_not_stdio`, `package_type_unsupported`, `package_not_stdio`,
 * `package_registry_unsupported`, `package_name_invalid`, `version_inexact`, `no_version`,
 * `secret_argument`, `env_name_invalid`, `secret_url_variable`, `header_name_invalid`,
 * `runtime_env_refused` (an environment variable the runtime reads as its configuration, with a
 * value the entry fixes), `runtime_argument_refused` (a runtime argument npx/uvx/docker would
 * read as another package source, another package, or wider access; `argument` as written),
 * `package_argument_refused` (a fixed package-source flag among the package's arguments).
 * Install/update refusals (`not_installable` errors, `CatalogDiffItem` `blocked`): the above and
 * `no_such_option`, `bundle_download_first`, `server_json_invalid`, `new_version_invalid`,
 * `entry_removed` (with the registry's status message, if any), `not_a_bundle`, `no_server`,
 * `option_gone`, `bundle_update_unsupported`, `not_from_catalog`, `already_latest`,
 * `type_change`, `answer_invalid` (a kept answer no longer fits; `field` is its label).
 * Missing programs (`missing_runtime` errors): `runtime_missing` (one of {@link catalogRuntimes}),
 * `program_missing` (any other command, e.g. a bundle's).
 */
export const notInstallableReasonSchema = z.discriminatedUnion('code', [
  z.strictObject({ code: z.literal('bundle_no_sha256') }),
  z.strictObject({ code: z.literal('bundle_url_invalid') }),
  z.strictObject({ code: z.literal('bundle_not_https') }),
  z.strictObject({ code: z.literal('bundle_not_stdio'), transport: reasonText }),
  z.strictObject({ code: z.literal('package_type_unsupported'), registry_type: reasonText }),
  z.strictObject({ code: z.literal('package_not_stdio'), transport: reasonText }),
  z.strictObject({ code: z.literal('package_registry_unsupported'), registry_type: reasonText, registry_url: reasonText }),
  z.strictObject({ code: z.literal('package_name_invalid'), registry_type: reasonText, identifier: reasonText }),
  z.strictObject({ code: z.literal('version_inexact'), version: reasonText }),
  z.strictObject({ code: z.literal('no_version') }),
  z.strictObject({ code: z.literal('secret_argument'), label: reasonText }),
  z.strictObject({ code: z.literal('env_name_invalid'), name: reasonText }),
  z.strictObject({ code: z.literal('secret_url_variable'), name: reasonText }),
  z.strictObject({ code: z.literal('header_name_invalid'), name: reasonText }),
  z.strictObject({ code: z.literal('runtime_env_refused'), name: reasonText }),
  z.strictObject({ code: z.literal('runtime_argument_refused'), runtime: z.enum(['npx', 'uvx', 'docker']), argument: reasonText }),
  z.strictObject({ code: z.literal('package_argument_refused'), argument: reasonText }),
  z.strictObject({ code: z.literal('no_such_option'), option: reasonText }),
  z.strictObject({ code: z.literal('bundle_download_first') }),
  z.strictObject({ code: z.literal('server_json_invalid') }),
  z.strictObject({ code: z.literal('new_version_invalid') }),
  z.strictObject({ code: z.literal('entry_removed'), name: reasonText, message: reasonText.optional() }),
  z.strictObject({ code: z.literal('not_a_bundle') }),
  z.strictObject({ code: z.literal('no_server'), server: reasonText }),
  z.strictObject({ code: z.literal('option_gone') }),
  z.strictObject({ code: z.literal('bundle_update_unsupported') }),
  z.strictObject({ code: z.literal('not_from_catalog'), server: reasonText }),
  z.strictObject({ code: z.literal('already_latest'), server: reasonText, version: reasonText }),
  z.strictObject({ code: z.literal('type_change'), before: configType, after: configType }),
  z.strictObject({ code: z.literal('answer_invalid'), field: reasonText }),
  z.strictObject({ code: z.literal('runtime_missing'), runtime: z.enum(catalogRuntimes) }),
  z.strictObject({ code: z.literal('program_missing'), program: reasonText }),
]);
/** See {@link notInstallableReasonSchema}. */
export type NotInstallableReason = z.infer<typeof notInstallableReasonSchema>;

/**
 * Why the registry, or a bundle's download address, could not be used — by code, with the
 * variable parts as fields (docs/ARCHITECTURE.md "Server catalog"). Main makes these
 * (main/mcp/catalog/registry.ts, bundle-installer.ts, service.ts); the window renders
 * `catalog.why.<code>` in its language with what the user can do about it. `host` is the
 * registry's (or download's) host:port; `error` is the system error code (`ENOTFOUND`,
 * `ECONNREFUSED`, `ECONNRESET`, …), `timeout` when no answer came in time, or a short text when
 * there was no code.
 *
 * Registry: `registry_unreachable`, `registry_http_status`, `registry_not_json`,
 * `registry_too_large` (`mib`: the limit), `registry_not_a_list`, `registry_not_an_entry`,
 * `registry_wrong_entry`, `registry_paging_loops`, `registry_paging_empty` (`pages` read),
 * `registry_not_found` (no such server or version), `registry_unlisted` (an installed server the
 * registry no longer lists; update check). Bundle download: `bundle_unreachable`,
 * `bundle_http_status`, `bundle_too_large` (`mb`: the limit), `bundle_sha256_mismatch`.
 */
export const catalogProblemSchema = z.discriminatedUnion('code', [
  z.strictObject({ code: z.literal('registry_unreachable'), host: reasonText, error: reasonText }),
  z.strictObject({ code: z.literal('registry_http_status'), host: reasonText, status: z.number().int().min(100).max(999) }),
  z.strictObject({ code: z.literal('registry_not_json'), host: reasonText }),
  z.strictObject({ code: z.literal('registry_too_large'), host: reasonText, mib: z.number().positive() }),
  z.strictObject({ code: z.literal('registry_not_a_list'), host: reasonText }),
  z.strictObject({ code: z.literal('registry_not_an_entry'), host: reasonText }),
  z.strictObject({ code: z.literal('registry_wrong_entry'), host: reasonText }),
  z.strictObject({ code: z.literal('registry_paging_loops'), host: reasonText }),
  z.strictObject({ code: z.literal('registry_paging_empty'), host: reasonText, pages: z.number().int().positive() }),
  z.strictObject({ code: z.literal('registry_not_found'), host: reasonText }),
  z.strictObject({ code: z.literal('registry_unlisted'), name: reasonText }),
  z.strictObject({ code: z.literal('bundle_unreachable'), host: reasonText, error: reasonText }),
  z.strictObject({ code: z.literal('bundle_http_status'), host: reasonText, status: z.number().int().min(100).max(999) }),
  z.strictObject({ code: z.literal('bundle_too_large'), mb: z.number().int().positive() }),
  z.strictObject({ code: z.literal('bundle_sha256_mismatch') }),
]);
/** See {@link catalogProblemSchema}. */
export type CatalogProblem = z.infer<typeof catalogProblemSchema>;

/** Any structured catalog reason the window renders by code: a refusal or a registry/download problem. */
export const catalogReasonSchema = z.union([notInstallableReasonSchema, catalogProblemSchema]);
/** See {@link catalogReasonSchema}. */
export type CatalogReason = NotInstallableReason | CatalogProblem;

/**
 * A value a registry entry or a bundle sets without asking (docs/ARCHITECTURE.md "Server
 * catalog"): the install form lists every one before its Install button.
 */
export interface CatalogFixedValue {
  /**
   * `runtime_argument`: read by npx/uvx/docker (before the package); `package_argument`: passed
   * to the package or the bundle's program; `env`: an environment variable; `header`: an HTTP header.
   */
  kind: 'runtime_argument' | 'package_argument' | 'env' | 'header';
  /** The flag, variable or header name; null for a positional argument. */
  name: string | null;
  /**
   * The value as the entry writes it — `{name}` (registry) or `${…}` (bundle) parts are filled in
   * from the answers at install; null for a flag without a value.
   */
  value: string | null;
}

/** A way to install an entry: one of its packages or remotes. */
export type CatalogOption =
  | {
      id: string;
      kind: string;
      label: string;
      transport: 'stdio' | 'streamable-http' | 'sse';
      installable: true;
      /** The program the server runs with (`npx`, `uvx`, `docker`), or null for a remote. */
      runtime: string | null;
      fields: CatalogField[];
      /** Every argument, variable and header the entry fixes, in the order they are used. */
      fixed: CatalogFixedValue[];
    }
  | { id: string; kind: string; label: string; transport: 'stdio' | 'streamable-http' | 'sse'; installable: false; reason: NotInstallableReason };

/** A registry entry as the Catalog screen shows it. */
export interface CatalogEntryView {
  name: string;
  version: string;
  title: string | null;
  description: string;
  /** The entry's icon URL (https, or http on loopback; fetch it with `catalog.icon`), or null. */
  icon: string | null;
  repository: string | null;
  website: string | null;
  status: 'active' | 'deprecated' | 'deleted';
  status_message: string | null;
  updated_at: string | null;
  /** Transports offered, e.g. `npm`, `pypi`, `oci`, `streamable-http`. */
  transports: string[];
  /**
   * Whether its server.json validated; when not, why it cannot be installed: a reason code the UI
   * translates (`server_json_invalid`: the registry's description is incomplete or invalid), the
   * path of the first bad field as segments (numbers are 0-based array indexes; [] for the whole
   * document), and the validator's English detail for a "Details" fold.
   */
  state: { kind: 'valid'; options: CatalogOption[] } | { kind: 'invalid'; reason: 'server_json_invalid'; path: (string | number)[]; detail: string };
  /** Servers installed from this entry (any version). */
  installed_as: string[];
}

/** A page of the catalog: live from the registry, or from the disk cache when it could not be reached. */
export interface CatalogPage {
  registry_url: string;
  /** Where the entries come from; when not live, why the registry could not be used (rendered by code). */
  source: { kind: 'registry' } | { kind: 'cache'; reason: CatalogProblem } | { kind: 'none'; reason: CatalogProblem };
  /** When the shown data was fetched (ms since the epoch), or null with nothing to show. */
  fetched_at: number | null;
  entries: CatalogEntryView[];
  next_cursor: string | null;
  /** Entries the registry sent that had no usable name (not shown). */
  skipped: number;
}

/** What an update would change (never a secret value). */
export type CatalogChange =
  | { kind: 'type'; before: string; after: string }
  | { kind: 'command'; before: string; after: string }
  | { kind: 'url'; before: string; after: string }
  | { kind: 'env'; added: string[]; removed: string[] }
  | { kind: 'headers'; added: string[]; removed: string[] };

/** One installed catalog server compared with its registry entry. */
export interface CatalogDiffItem {
  server: string;
  registry_name: string;
  installed_version: string;
  status: 'active' | 'deprecated' | 'deleted' | 'unknown';
  /** The registry's own note on the entry's status (its text, shown as data), or null. */
  status_message: string | null;
  /**
   * Why the status could not be checked (`unknown`: the registry could not be used) or why it is
   * `deleted` without an entry (`registry_unlisted`); rendered by code. Null otherwise.
   */
  problem: CatalogProblem | null;
  update:
    | { kind: 'none' }
    | { kind: 'available'; version: string; changes: CatalogChange[]; needs: CatalogField[] }
    | { kind: 'blocked'; version: string; reason: NotInstallableReason };
}

/** A bundle looked at before install: its manifest's name, version, and what it asks for. */
export interface BundlePreview {
  token: string;
  name: string;
  display_name: string | null;
  version: string;
  description: string;
  runtime: string;
  fields: CatalogField[];
  /** The arguments and environment variables the manifest sets for this platform (`${…}` filled at install). */
  fixed: CatalogFixedValue[];
}

const catalogValuesSchema = z
  .record(z.string().max(256), z.union([z.string().max(LIMITS.secretValue), z.array(z.string().max(LIMITS.shortText)).max(64)]))
  .refine((m) => Object.keys(m).length <= 512, 'Too many values');
/** A registry server name (`namespace/name`). */
export const registryNameSchema = z.string().min(3).max(200).regex(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/, 'Not a registry server name');
/** Whether `u` is https, or http without credentials to a loopback host (rules/loopback.ts). */
function isRegistryUrl(u: string): boolean {
  try {
    const p = new URL(u);
    return p.protocol === 'https:' || (p.protocol === 'http:' && !p.username && !p.password && isLoopbackHost(p.hostname));
  } catch {
    return false;
  }
}
/** The registry's base URL: https, or http to a loopback address. */
export const registryUrlSchema = z
  .string()
  .max(2048)
  .url()
  .refine(isRegistryUrl, 'The registry URL must use https (or http to this computer)');

// ---------------------------------------------------------------------------------------------
// Protocol features beyond tools: server logs, URL elicitation, roots, icons
// (docs/ARCHITECTURE.md "Protocol features")
// ---------------------------------------------------------------------------------------------

/** MCP log severities, lowest first (MCP spec "Utilities: Logging", RFC 5424 names). */
export const loggingLevels = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
export type LoggingLevel = (typeof loggingLevels)[number];

/**
 * An icon a server declares for itself, a tool, a prompt or a resource (MCP spec 2025-11-25
 * "Icons"). Main keeps only `https:` URLs and `data:` images, so `src` is one of those.
 */
export interface IconView {
  src: string;
  mime_type: string | null;
}

/** How a session is carried: stdio, Streamable HTTP, or the legacy HTTP+SSE transport. */
export type TransportKind = 'stdio' | 'streamable_http' | 'legacy_sse';

/** A server's protocol features as the window shows them. */
export interface ServerProtocolView {
  /** The transport of the live session; null while not connected. */
  transport: TransportKind | null;
  /** An `http` server that answered only the legacy HTTP+SSE transport (MCP spec "Backwards Compatibility"). */
  sse_fallback: boolean;
  /** Whether the server declares `logging`, and the level last set on this session (null: the server's own). */
  logging: { supported: boolean; level: LoggingLevel | null };
  /** The server's own folders (null: it follows the default) and the folders it is given now. */
  roots: { own: string[] | null; effective: string[] };
  /** The server's icon (from its `serverInfo`), when it declares a usable one. */
  icon: IconView | null;
  /** Icons by tool name, prompt name and resource URI (only items that declare a usable one). */
  tool_icons: Record<string, IconView>;
  prompt_icons: Record<string, IconView>;
  resource_icons: Record<string, IconView>;
}

/** A server asks the user to open a URL (MCP spec 2025-11-25 "Elicitation", URL mode). */
export interface UrlElicitationRequest {
  id: string;
  server: string;
  message: string;
  /** The full URL (already checked: https:, or http: to loopback). */
  url: string;
  /** The URL's host (with port), shown prominently. */
  host: string;
}

/** A root folder as the user gives it: an absolute path. */
export const rootPathSchema = z.string().min(1).max(LIMITS.shortText);

/** Channels of the protocol features (spread into {@link channels}). */
export const protocolChannels = {
  /** Send `logging/setLevel` to a ready server that declares `logging`. */
  'servers.setLogLevel': {
    input: z.strictObject({ name: serverNameSchema, level: z.enum(loggingLevels) }),
    output: null as unknown as ServerView,
  },
  /** Answer a URL elicitation: `accept` opens the URL in the system browser, then tells the server. */
  'elicitation.respondUrl': {
    input: z.strictObject({ id: z.string().min(1).max(128), action: z.enum(['accept', 'decline', 'cancel']) }),
    output: null as unknown as { ok: true; opened: boolean },
  },
  /** The default root folders (for servers without their own); `can_pick`: a folder picker exists. */
  'roots.getDefault': { input: z.strictObject({}), output: null as unknown as { roots: string[]; can_pick: boolean } },
  /** Replace the default root folders; servers that follow it are told (`notifications/roots/list_changed`). */
  'roots.setDefault': { input: z.strictObject({ roots: z.array(rootPathSchema).max(64) }), output: null as unknown as { roots: string[] } },
  /** Ask the user for a folder (Electron's folder picker); `path: null` when cancelled. */
  'roots.pickFolder': { input: z.strictObject({}), output: null as unknown as { path: string | null } },
} as const;

/** Events of the protocol features (part of {@link EventPayloads}). */
export interface ProtocolEventPayloads {
  /**
   * New entries of a server's log, oldest first, pushed as they happen (batched at most every
   * 50 ms; server log notifications are rate-limited, see docs/ARCHITECTURE.md "Protocol features").
   */
  'servers.log': { name: string; entries: LogEntry[] };
  /** A server asks the user to open a URL; answer with `elicitation.respondUrl`. */
  'elicitation.urlRequest': UrlElicitationRequest;
  /** A pending URL request was withdrawn (the server cancelled, the connection ended, or it timed out). */
  'elicitation.urlClosed': { id: string };
  /** A server says an out-of-band interaction finished (`notifications/elicitation/complete`). */
  'elicitation.urlComplete': { server: string; elicitation_id: string };
}

const protocolEventTable: { [E in keyof ProtocolEventPayloads]: true } = {
  'servers.log': true,
  'elicitation.urlRequest': true,
  'elicitation.urlClosed': true,
  'elicitation.urlComplete': true,
};

// ---------------------------------------------------------------------------------------------
// MCP Apps (docs/ARCHITECTURE.md "MCP Apps"): a tool's interactive view beside its call
// ---------------------------------------------------------------------------------------------

/** A view's declared network origins, as main accepted them (ext-apps `McpUiResourceCsp`). */
export interface AppViewCsp {
  connectDomains?: string[];
  resourceDomains?: string[];
  frameDomains?: string[];
  baseUriDomains?: string[];
}

/** A device permission a view may ask for (ext-apps `McpUiResourcePermissions`). */
export type AppViewPermission = 'camera' | 'microphone' | 'geolocation' | 'clipboardWrite';

/**
 * The view of one tool call. `none`: the tool declares no view. `unavailable`: it cannot be shown
 * now (`not_a_call`: the conversation holds no call of that tool on that server under these ids;
 * `not_connected`: the server is not running; `unknown_tool`: the server no longer lists the
 * tool; `no_sandbox`: this shell serves no view origin; `read_failed` / `bad_resource`: the
 * server's `ui://` resource could not be read or is not `text/html;profile=mcp-app`). `closed`:
 * the user closed this call's view ("Close view", saved with the conversation; nothing was read —
 * `apps.setViewClosed` with `closed: false` and a new `apps.view` bring it back). `ready`: the
 * document, and the sandbox page (on its own origin) that will hold it.
 */
export type AppViewLoad =
  | { kind: 'none' }
  | { kind: 'closed' }
  | { kind: 'unavailable'; reason: 'not_a_call' | 'not_connected' | 'unknown_tool' | 'no_sandbox' | 'read_failed' | 'bad_resource' }
  | {
      kind: 'ready';
      /** The view instance main issued for this showing: every request of the view names it. */
      view_instance: string;
      resource_uri: string;
      html: string;
      sandbox_url: string;
      sandbox_origin: string;
      csp: AppViewCsp;
      permissions: AppViewPermission[];
      prefers_border: boolean | null;
      tool: { name: string; title: string | null; description: string | null; input_schema: Record<string, unknown> };
    };

/** One tool call's view: its conversation, the run that made the call, the model's call id. */
const viewCallShape = {
  conversation_id: conversationIdSchema,
  run_id: z.string().min(1).max(128),
  call_id: z.string().min(1).max(256),
};

/**
 * One shown view instance, as main issued it in `apps.view` (`ready.view_instance`): its requests
 * reach only the server and the conversation it was issued for, and end when it is released
 * (`apps.releaseView`) or the page that loaded it goes away.
 */
const viewInstanceSchema = z.string().min(8).max(128).regex(/^[A-Za-z0-9_-]+$/, 'A view instance id is letters, digits, - and _.');

/** MCP Apps channels (spread into `channels`). The results are MCP JSON as the server sent it. */
const appsChannels = {
  /**
   * The view of a tool call (reads the tool's `ui://` resource from its server), unless the user
   * closed it: then `closed`, before anything is read. The call is named by its conversation, run
   * and call id (call ids are unique per run only).
   */
  'apps.view': { input: z.strictObject({ ...viewCallShape, server: serverNameSchema, tool: toolNameSchema }), output: null as unknown as AppViewLoad },
  /**
   * Save the user's Close view (`closed: true`) or Show app view (`false`) for one tool call's
   * view, with the conversation, so it holds across reloads, conversation switches and restarts.
   * Fails with `not_found` for a conversation that does not exist (nothing written).
   */
  'apps.setViewClosed': { input: z.strictObject({ ...viewCallShape, closed: z.boolean() }), output: null as unknown as { closed: boolean } },
  /**
   * A view's `tools/call`: to the server its instance was issued for only (never one the request
   * names), tools with "app" visibility, through the permissions; its approval card shows in that view.
   */
  'apps.callTool': {
    input: z.strictObject({
      view_instance: viewInstanceSchema,
      tool: toolNameSchema,
      arguments: z.record(z.string().max(256), z.unknown()).refine((v) => jsonWithin(v, 1_000_000), 'Arguments too large or nested too deeply'),
    }),
    output: null as unknown as Record<string, unknown>,
  },
  /**
   * A view's `ui/update-model-context`: text the model gets in later turns of the view's
   * conversation (saved with the conversation per view — its tool call — each update replacing
   * the last; empty text removes it). Fails with `forbidden` when the instance is not shown, and
   * `not_found` when its conversation no longer exists.
   */
  'apps.updateModelContext': {
    input: z.strictObject({ view_instance: viewInstanceSchema, text: z.string().max(LIMITS.viewContext) }),
    output: null as unknown as { kept: boolean },
  },
  /** A view's `resources/read`: its own server only; released with its view instance. */
  'apps.readResource': { input: z.strictObject({ view_instance: viewInstanceSchema, uri: resourceUriSchema }), output: null as unknown as Record<string, unknown> },
  /**
   * A view's log message (ext-apps: the view's `notifications/message`, its `data` as sent): written
   * to its server's log as a `view` entry (`level logger: data`), rate-limited with the server's
   * own messages. `kept`: false when the server is gone; `forbidden` when the instance is not shown.
   */
  'apps.log': {
    input: z.strictObject({
      view_instance: viewInstanceSchema,
      level: z.enum(loggingLevels),
      logger: z.string().max(128).optional(),
      data: z.unknown().refine((v) => jsonWithin(v, 65_536), 'Log data too large or nested too deeply'),
    }),
    output: null as unknown as { kept: boolean },
  },
  /**
   * A shown view was torn down: its tool calls and resource reads still under way are withdrawn
   * (pending approval cards close as cancelled, server requests are cancelled) and later requests
   * of that instance are refused. `aborted`: how many were under way.
   */
  'apps.releaseView': { input: z.strictObject({ view_instance: viewInstanceSchema }), output: null as unknown as { aborted: number } },
} as const;

// ---------------------------------------------------------------------------------------------
// Channels
// ---------------------------------------------------------------------------------------------

const empty = z.strictObject({});
const byName = z.strictObject({ name: serverNameSchema });

/** Every invoke channel: its input schema and (type-level) output. */
export const channels = {
  ...composerChannels,
  ...appsChannels,
  'app.info': { input: empty, output: null as unknown as AppInfo },
  'app.secretsInfo': { input: empty, output: null as unknown as SecretsInfo },
  'servers.list': { input: empty, output: null as unknown as ServerView[] },
  'servers.get': { input: byName, output: null as unknown as ServerView },
  'servers.add': {
    input: z.strictObject({ name: serverNameSchema, config: serverInputSchema }),
    output: null as unknown as ServerView,
  },
  'servers.update': {
    input: z.strictObject({ name: serverNameSchema, patch: serverPatchSchema }),
    output: null as unknown as ServerView,
  },
  'servers.setEnabled': {
    input: z.strictObject({ name: serverNameSchema, enabled: z.boolean() }),
    output: null as unknown as ServerView,
  },
  'servers.restart': { input: byName, output: null as unknown as ServerView },
  'servers.remove': { input: byName, output: null as unknown as { removed: true } },
  'servers.logs': { input: byName, output: null as unknown as LogEntry[] },
  'servers.signIn': { input: byName, output: null as unknown as { opened_browser: boolean } },
  'servers.cancelSignIn': { input: byName, output: null as unknown as { cancelled: boolean } },
  'servers.signOut': { input: byName, output: null as unknown as ServerView },
  'servers.export': { input: z.strictObject({ include_secrets: z.boolean() }), output: null as unknown as ExportResult },
  'servers.importPreview': { input: z.strictObject({ json: z.string().min(1).max(LIMITS.importJson) }), output: null as unknown as ImportPreview },
  'servers.import': {
    input: z.strictObject({ json: z.string().min(1).max(LIMITS.importJson), replace_existing: z.boolean() }),
    output: null as unknown as ImportResult,
  },
  'settings.getModel': { input: empty, output: null as unknown as ModelSettingsView },
  'settings.setModel': { input: modelSettingsInputSchema, output: null as unknown as ModelSettingsView },
  'profiles.list': { input: empty, output: null as unknown as ModelProfileView[] },
  'profiles.save': { input: profileInputSchema, output: null as unknown as ModelProfileView },
  'profiles.remove': { input: z.strictObject({ id: z.string().min(1).max(128) }), output: null as unknown as { removed: true } },
  'profiles.setDefault': { input: z.strictObject({ id: z.string().min(1).max(128) }), output: null as unknown as ModelProfileView[] },
  'profiles.test': { input: profileTestSchema, output: null as unknown as ConnectionTestResult },
  'profiles.detectLocal': { input: empty, output: null as unknown as LocalModelOffer[] },
  /** Send a message; `profile_id` (optional) sets the conversation's model profile first. */
  'chat.send': {
    input: z.strictObject({
      conversation_id: conversationIdSchema,
      /** May be empty when `context` carries the message (a prompt). */
      text: z.string().max(LIMITS.chatText),
      profile_id: z.string().min(1).max(128).optional(),
      /** For a new conversation: the servers whose tools the model gets (absent: all). */
      tool_servers: z.array(serverNameSchema).max(256).optional(),
      /** Prompts and resources attached to the message (resolved by main). */
      context: z.array(contextRefSchema).max(MAX_CONTEXT_REFS).optional(),
    }).refine((v) => v.text.trim().length > 0 || (v.context?.length ?? 0) > 0, { message: 'Type a message or attach something', path: ['text'] }),
    output: null as unknown as { run_id: string },
  },
  /** Choose which servers' tools the model gets in a conversation (`null`: every ready server). */
  'conversations.setToolServers': {
    input: z.strictObject({ id: conversationIdSchema, servers: z.array(serverNameSchema).max(256).nullable() }),
    output: null as unknown as ConversationSummary,
  },
  /** Choose the model profile of an existing conversation (`null`: follow the default profile). */
  'conversations.setProfile': {
    input: z.strictObject({ id: conversationIdSchema, profile_id: z.string().min(1).max(128).nullable() }),
    output: null as unknown as ConversationSummary,
  },
  /** Replace the last user message's text, drop what followed it, and run again. */
  'chat.editResend': {
    input: z.strictObject({ conversation_id: conversationIdSchema, item_id: z.string().min(1).max(128), text: z.string().min(1).max(LIMITS.chatText) }),
    output: null as unknown as { run_id: string },
  },
  /** Drop the last answer (everything after the last user message) and run again. */
  'chat.regenerate': { input: z.strictObject({ conversation_id: conversationIdSchema }), output: null as unknown as { run_id: string } },
  'chat.stop': { input: z.strictObject({ conversation_id: conversationIdSchema }), output: null as unknown as { stopped: boolean } },
  'chat.cancelTool': {
    input: z.strictObject({ conversation_id: conversationIdSchema, call_id: z.string().min(1).max(256) }),
    output: null as unknown as { cancelled: boolean },
  },
  /** Newest first (at most `LIMITS.conversationList`), and the one the user had open last. */
  'conversations.list': { input: empty, output: null as unknown as { conversations: ConversationSummary[]; last_opened: string | null } },
  /** Open one conversation (it becomes the one reopened at the next start). */
  'conversations.get': { input: z.strictObject({ id: conversationIdSchema }), output: null as unknown as ConversationView },
  'conversations.rename': {
    input: z.strictObject({ id: conversationIdSchema, title: z.string().max(LIMITS.shortText) }),
    output: null as unknown as ConversationSummary,
  },
  /** Delete a conversation (its run is stopped first). */
  'conversations.remove': { input: z.strictObject({ id: conversationIdSchema }), output: null as unknown as { removed: true } },
  /** Full-text search over every saved message, tool arguments and results included. */
  'conversations.search': { input: z.strictObject({ query: z.string().max(1000) }), output: null as unknown as SearchHit[] },
  'conversations.export': {
    input: z.strictObject({ id: conversationIdSchema, format: z.enum(['markdown', 'json']) }),
    output: null as unknown as ConversationExport,
  },
  'elicitation.respond': {
    input: z.strictObject({
      id: z.string().min(1).max(128),
      action: z.enum(['accept', 'decline', 'cancel']),
      content: z
        .record(z.string().max(256), z.union([z.string().max(LIMITS.shortText), z.number(), z.boolean(), z.array(z.string().max(LIMITS.shortText)).max(256)]))
        .refine((m) => Object.keys(m).length <= 256, 'Too many fields')
        .optional(),
    }),
    output: null as unknown as { ok: true },
  },
  'sampling.respond': {
    input: z.strictObject({ id: z.string().min(1).max(128), approve: z.boolean() }),
    output: null as unknown as { ok: true },
  },
  'permissions.getMode': { input: empty, output: null as unknown as { mode: PermissionMode } },
  'permissions.setMode': { input: z.strictObject({ mode: permissionModeSchema }), output: null as unknown as { mode: PermissionMode } },
  /** Change one tool's settings (PATCH rules of {@link toolSettingPatchSchema}); no restart. */
  'servers.setToolSettings': {
    input: z.strictObject({ name: serverNameSchema, tool: toolNameSchema, settings: toolSettingPatchSchema }),
    output: null as unknown as ServerView,
  },
  /**
   * Bulk per-server actions over the tools the server lists now: `enable_all`, `disable_all`, or
   * `allow_read_only` (always allow the tools that declare `readOnlyHint: true`).
   */
  'servers.bulkToolSettings': {
    input: z.strictObject({ name: serverNameSchema, action: z.enum(['enable_all', 'disable_all', 'allow_read_only']) }),
    output: null as unknown as ServerView,
  },
  'approvals.list': { input: empty, output: null as unknown as ApprovalView[] },
  /**
   * Answer a pending approval. `args_sha256`, when given, must equal the pending call's (so the
   * answer binds to the arguments shown). An unknown, answered or withdrawn id → `approval_invalid`.
   */
  'approvals.respond': {
    input: z.strictObject({
      id: z.string().min(1).max(128),
      decision: approvalDecisionSchema,
      reason: z.string().max(LIMITS.shortText).optional(),
      args_sha256: z.string().regex(/^[0-9a-f]{64}$/).optional(),
    }),
    output: null as unknown as { ok: true },
  },
  'catalog.getSettings': { input: empty, output: null as unknown as { registry_url: string } },
  'catalog.setSettings': { input: z.strictObject({ registry_url: registryUrlSchema }), output: null as unknown as { registry_url: string } },
  /** Search the registry (empty query: browse). Falls back to the disk cache when it cannot be reached. */
  'catalog.search': {
    input: z.strictObject({ query: z.string().max(200), cursor: z.string().max(2048).optional(), include_deprecated: z.boolean().optional() }),
    output: null as unknown as CatalogPage,
  },
  /** A registry icon that a catalog answer named, fetched by main: a `data:` URL, or null. */
  'catalog.icon': { input: z.strictObject({ url: z.string().min(1).max(2048) }), output: null as unknown as { data_url: string | null } },
  /** Install one option of a registry entry as a server; `values` answer its fields (secrets go to the store). */
  'catalog.install': {
    input: z.strictObject({ name: registryNameSchema, version: z.string().min(1).max(255), option: z.string().min(1).max(64), server_name: serverNameSchema, values: catalogValuesSchema }),
    output: null as unknown as ServerView,
  },
  /** Installed catalog servers against their registry entries. */
  'catalog.diff': { input: empty, output: null as unknown as CatalogDiffItem[] },
  /** Update an installed catalog server to its entry's latest version, keeping secrets whose names are unchanged. */
  'catalog.update': { input: z.strictObject({ server_name: serverNameSchema, values: catalogValuesSchema.optional() }), output: null as unknown as ServerView },
  /** Look at a `.mcpb` bundle (base64 of the file, ≤ 64 MB) before installing it. */
  'catalog.bundleInspect': { input: z.strictObject({ data_base64: z.string().min(1).max(90_000_000) }), output: null as unknown as BundlePreview },
  /** Download the bundle of an entry's `mcpb` package, check its SHA-256 and contents, and look at it like a file. */
  'catalog.fetchBundle': { input: z.strictObject({ name: registryNameSchema, version: z.string().min(1).max(255), option: z.string().min(1).max(64) }), output: null as unknown as BundlePreview },
  /** Install an inspected bundle under `server_name` with its `user_config` answers. */
  'catalog.bundleInstall': {
    input: z.strictObject({ token: z.string().min(1).max(128), server_name: serverNameSchema, values: catalogValuesSchema }),
    output: null as unknown as ServerView,
  },
  ...protocolChannels,
} as const;

export type ChannelName = keyof typeof channels;
export type ChannelInput<C extends ChannelName> = z.input<(typeof channels)[C]['input']>;
export type ChannelOutput<C extends ChannelName> = (typeof channels)[C]['output'];
export const channelNames = Object.keys(channels) as ChannelName[];

/** Every event channel (main → renderer) and its payload type. */
export interface EventPayloads extends ComposerEventPayloads, ProtocolEventPayloads {
  'servers.changed': ServerView;
  'servers.removed': { name: string };
  'chat.event': ChatEvent;
  /** A conversation was created, renamed, or got new entries, or a run started or ended in it. */
  'conversations.changed': ConversationSummary;
  'conversations.removed': { id: string };
  /** The conversation database was healed while the app ran (search index rebuilt, or file set aside). */
  'conversations.warning': ConversationsWarning;
  'app.warning': { message: string };
  /**
   * Open an OAuth authorization page (browser shell only; Electron opens the system browser from
   * main). Main sends only URLs that passed its safety check (https:, or http: to loopback).
   */
  'auth.openUrl': { server: string; url: string };
  /** A server asks the user for input (form elicitation); answer with `elicitation.respond`. */
  'elicitation.request': { id: string; server: string; message: string; requested_schema: Record<string, unknown> };
  /** A pending form was withdrawn (the server cancelled, the connection ended, or it timed out). */
  'elicitation.closed': { id: string };
  /** A server asks the host's model for a completion; approve or decline with `sampling.respond`. */
  'sampling.request': { id: string; server: string; system_prompt: string | null; messages: { role: 'user' | 'assistant'; text: string }[]; max_tokens: number };
  /** A pending sampling approval was withdrawn. */
  'sampling.closed': { id: string };
  /** A tool call waits for the user's approval; answer with `approvals.respond`. */
  'approvals.request': ApprovalView;
  /** A pending approval closed (answered, cancelled by Stop/shutdown, or timed out). */
  'approvals.closed': { id: string; outcome: ApprovalClosedOutcome };
}
export type EventName = keyof EventPayloads;
/**
 * One entry per event of {@link EventPayloads}: the type makes a missing or extra name a compile
 * error, so the list the preload and the browser shell forward cannot drift from the contract.
 */
const eventTable: { [E in EventName]: true } = {
  ...composerEventTable,
  'servers.changed': true,
  'servers.removed': true,
  'chat.event': true,
  'conversations.changed': true,
  'conversations.removed': true,
  'conversations.warning': true,
  'app.warning': true,
  'auth.openUrl': true,
  'elicitation.request': true,
  'elicitation.closed': true,
  'sampling.request': true,
  'sampling.closed': true,
  'approvals.request': true,
  'approvals.closed': true,
  ...protocolEventTable,
};
/** Every event name, derived from {@link EventPayloads} (see `eventTable`). */
export const eventNames = Object.keys(eventTable) as EventName[];

// ---------------------------------------------------------------------------------------------
// Errors and the envelope every invoke returns
// ---------------------------------------------------------------------------------------------

/** Typed error codes. */
export type ErrorCode =
  | 'invalid_input'
  | 'unknown_channel'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'command_not_found'
  | 'not_configured'
  | 'start_failed'
  | 'sign_in_cancelled'
  | 'sign_in_timeout'
  | 'sign_in_denied'
  | 'unsafe_authorization_url'
  | 'port_in_use'
  | 'oauth_failed'
  | 'gone'
  | 'busy'
  | 'write_failed'
  | 'approval_invalid'
  | 'registry_unavailable'
  | 'missing_runtime'
  | 'not_installable'
  | 'bundle_invalid'
  | 'too_large'
  | 'internal';

/**
 * A typed error: `field` names the offending input path when known (for inline form errors).
 * `not_installable` and `missing_runtime` errors from the catalog carry `reason` (a
 * {@link NotInstallableReason}); `registry_unavailable`, `not_found` from the registry and
 * `bundle_invalid` from a bundle download carry theirs too (a {@link CatalogProblem}). The window
 * renders a reason in its language (validate it with {@link catalogReasonSchema}); `message` is
 * main's English text for logs.
 */
export interface IpcError {
  code: ErrorCode;
  message: string;
  field?: string;
  reason?: CatalogReason;
}

/** What every invoke resolves to (errors are values, so they survive Electron's IPC intact). */
export type Envelope<T> = { ok: true; value: T } | { ok: false; error: IpcError };

/** The API the preload (or the browser-shell bridge) exposes as `window.openprogram`. */
export interface OpenProgramApi {
  invoke<C extends ChannelName>(channel: C, input: ChannelInput<C>): Promise<Envelope<ChannelOutput<C>>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayloads[E]) => void): () => void;
}
