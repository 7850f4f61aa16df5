/**
 * The contract of the server list: what the user sends to add, edit, import and export servers
 * (zod schemas of the config, its PATCH, its secrets), those channels and the server events. The
 * masked view main sends back is in server-view.ts. docs/ARCHITECTURE.md "The IPC contract".
 */
import { z } from 'zod';
import { LIMITS, noControl, serverNameSchema } from './limits.js';
import type { LogEntry, ServerView } from './server-view.js';
import type { ValidationIssue } from './errors.js';
import { sandboxPatchSchema } from './sandbox.js';
import { toolSettingsPatchSchema } from './tools.js';

/**
 * A name that cannot be an own key of a plain object: `__proto__` would set the prototype instead
 * of an entry, and so be dropped silently by any object built from it (loading the file included).
 */
function isPlainKey(name: string): boolean {
  return name !== '__proto__';
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
  .refine(isPlainKey, { message: '"__proto__" cannot be used as a name', params: { rule: 'reserved_name' } });

/**
 * A name → secret map. zod strips an own `__proto__` key from records without a word, so it is
 * refused here, before parsing, with an error on that field.
 */
function secretMapSchema(names: z.ZodType<string>, values: z.ZodType<string>) {
  return z.preprocess(
    (v, ctx) => {
      if (typeof v === 'object' && v !== null && Object.prototype.hasOwnProperty.call(v, '__proto__')) {
        ctx.addIssue({ code: 'custom', message: '"__proto__" cannot be used as a name', path: ['__proto__'], input: v, params: { rule: 'reserved_name' } });
      }
      return v;
    },
    z.record(names, values).refine((m) => Object.keys(m).length <= LIMITS.envEntries, { message: `At most ${LIMITS.envEntries} entries`, params: { rule: 'too_many' } }),
  );
}

const envMapSchema = secretMapSchema(envNameSchema, envValueSchema);

/** An HTTP header name: an RFC 9110 token (not `__proto__`). */
export const headerNameSchema = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'Header names must be HTTP tokens')
  .refine(isPlainKey, { message: '"__proto__" cannot be used as a name', params: { rule: 'reserved_name' } });

/** A remote server's URL: absolute, `http:` or `https:` only. */
export const serverUrlSchema = noControl(z.string().max(LIMITS.shortText))
  .pipe(z.string().url())
  .refine((u) => /^https?:\/\//i.test(u), { message: 'The URL must start with http:// or https://', params: { rule: 'http_scheme' } });
const headerMapSchema = secretMapSchema(headerNameSchema, headerValueSchema);

const commandSchema = z
  .array(commandPartSchema)
  .min(1, 'Command is required')
  .max(LIMITS.commandParts)
  .refine((c) => typeof c[0] === 'string' && c[0].trim().length > 0, { message: 'Command is required', params: { rule: 'required' } });

const timeoutSchema = z.number().int().min(1).max(3600);

/** Remote-server authorization input: none, a bearer token, or OAuth 2.1 (optionally pre-registered client). */
export const authInputSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('none') }),
  z.strictObject({ kind: z.literal('bearer'), token: headerValueSchema.refine((t) => t.length > 0, { message: 'Enter the token', params: { rule: 'required' } }) }),
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
    /** Sandbox settings (docs/ARCHITECTURE.md "Sandbox"); absent fields take the defaults (sandboxed, nothing extra). */
    sandbox: sandboxPatchSchema.optional(),
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

/**
 * PATCH for a server (docs/ARCHITECTURE.md "Update semantics (PATCH)"): for `env`/`headers`, a name absent → preserve,
 * present with a value → replace, present with `""` → delete. `tools` → {@link toolSettingsPatchSchema}.
 */
export const serverPatchSchema = z.strictObject({
  /**
   * A remote server's transport: `http` (Streamable HTTP) or `sse` (the legacy HTTP+SSE transport).
   * Its URL parts, headers, authorization and OAuth sign-in are kept (docs/ARCHITECTURE.md
   * "Update semantics (PATCH)"). A stdio server cannot become a remote one, nor the other way.
   */
  type: z.enum(['http', 'sse']).optional(),
  /** A new command line; an argument `***` keeps the stored secret argument it stands for (the k-th `***` ↔ the view's k-th). */
  command: commandSchema.optional(),
  /** Positions of arguments to keep as secrets (of the new command, or of the stored one when `command` is absent). */
  secret_args: secretArgsSchema.optional(),
  /** A new URL; a userinfo part or query value `***` keeps the stored value of that part. */
  url: serverUrlSchema.optional(),
  /** The URL's secret parts by name, PATCH rules: absent → keep, `""` → delete, a value (as written in a URL) → replace. */
  url_secrets: z
    .record(urlPartNameSchema, headerValueSchema)
    .refine((m) => Object.keys(m).length <= LIMITS.envEntries, { message: `At most ${LIMITS.envEntries} entries`, params: { rule: 'too_many' } })
    .optional(),
  env: envMapSchema.optional(),
  headers: headerMapSchema.optional(),
  auth: authPatchSchema.optional(),
  enabled: z.boolean().optional(),
  timeout_seconds: timeoutSchema.optional(),
  tools: toolSettingsPatchSchema.optional(),
  /** A local server's sandbox settings: each field absent → keep, present → replace (docs/ARCHITECTURE.md "Sandbox"). */
  sandbox: sandboxPatchSchema.optional(),
  /** The server's own root folders (absolute paths, MCP "Roots"): absent → keep, a list → replace, `null` → follow the default. */
  roots: z.array(z.string().min(1).max(LIMITS.shortText)).max(64).nullable().optional(),
});
export type ServerPatch = z.infer<typeof serverPatchSchema>;

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

/**
 * Why the pasted text of an import cannot be read at all (an `IpcError` fact, errors.ts):
 * `not_json` (not valid JSON), `not_object` (valid JSON, but not an object: an array, a string, a
 * number), `servers_not_object` (its `servers` or `mcpServers` is not an object).
 */
export type ImportProblem = 'not_json' | 'not_object' | 'servers_not_object';

/**
 * Why one entry of an import is skipped, by code (the window words it; `reason` beside it is
 * main's English for logs):
 * - `invalid_name`: the entry's name is not a server name;
 * - `duplicate_name`: `other`, earlier in the text, has the same name but for case;
 * - `invalid_entry`: a field of the entry is refused (`issue`, worded like a form's refusal);
 * - `given_twice`: the entry gives the environment variable or header `key` twice;
 * - `name_taken`: a server already there takes the name (`same`: it differs only in case;
 *   `namespace`: its tools would be named alike; `adding`: it is being added right now);
 * - `exists`: a server of that name exists, and "replace" was not asked for;
 * - `command_not_found`: the entry's `command` is not on the PATH;
 * - `not_saved`: anything else (main's English `reason` has the detail).
 */
export type ImportSkip =
  | { code: 'invalid_name' }
  | { code: 'duplicate_name'; other: string }
  | { code: 'invalid_entry'; issue: ValidationIssue }
  | { code: 'given_twice'; map: 'env' | 'headers'; key: string }
  | { code: 'name_taken'; existing: string; why: 'same' | 'namespace' | 'adding' }
  | { code: 'exists' }
  | { code: 'command_not_found'; command: string }
  | { code: 'not_saved' };

/** One entry an import skips: its name, why (typed) and main's English reason. */
export interface ImportSkipped {
  name: string;
  why: ImportSkip;
  reason: string;
}

/**
 * What an import would do. `servers` and `unreadable` both empty: the text lists no servers
 * (`{}`, `[]`, an empty `mcpServers`) — nothing to import.
 */
export interface ImportPreview {
  servers: ImportPreviewItem[];
  /** Entries of the text that cannot be read (a bad name, a bad field), with why: they are skipped. */
  unreadable: ImportSkipped[];
  warning: string | null;
}

/** What an import did. */
export interface ImportResult {
  added: string[];
  replaced: string[];
  /** Not imported, with why. */
  skipped: ImportSkipped[];
}

const empty = z.strictObject({});
const byName = z.strictObject({ name: serverNameSchema });

/**
 * A record a rename moves (docs/ARCHITECTURE.md "Renaming a server"): the config entry and its
 * secrets (`settings`), pinned tool definitions (`pins`), the OAuth sign-in (`oauth`), the sandbox
 * folder (`sandbox`), the log (`log`), "Allow in this conversation" answers (`grants`),
 * conversations' tool picker choices (`tool_choices`), where it was installed from
 * (`install_record`), its log level (`log_level`), recorded inspector traffic (`traffic`).
 */
export type RenameRecord = 'settings' | 'pins' | 'oauth' | 'sandbox' | 'log' | 'grants' | 'tool_choices' | 'install_record' | 'log_level' | 'traffic';

/**
 * Why an OAuth sign-in did not finish (docs/ARCHITECTURE.md "OAuth"), by code; OAuth error codes
 * (`invalid_grant`, `access_denied`), URLs (scheme and host only) and an authorization server's
 * own words (`said`) are data, shown as sent:
 * - `cancelled`: the user (or the app) cancelled it; `timeout`: the browser did not come back
 *   within `seconds`; `port_in_use`: the loopback `port` the callback needs is taken;
 * - `denied`: the authorization server sent the browser back with `oauth_error` (the user
 *   declined, …) and perhaps its description (`said`);
 * - `refused`: the authorization server answered a request of the sign-in (`request`: the token
 *   exchange or another; `registration`: the client registration) with `oauth_error` (or an HTTP
 *   status, `HTTP 400`) and perhaps its description;
 * - `issuer_mismatch`: the metadata (`metadata`) or the answer (`authorization_response`) came from
 *   another authorization server than the one the sign-in started at; nothing was exchanged;
 * - `unsafe_url`: a URL was not opened or used: the issuer the metadata names is not where it was
 *   found (`issuer`), the `authorization_endpoint`, another endpoint named by `field`
 *   (`endpoint`), the sign-in page's address (`authorization_url`) is not https: (or http: to this
 *   computer), or the token endpoint is not https (`token_endpoint`);
 * - `fetch_refused`: a request of the sign-in was refused by the app: not http(s) (`scheme`), a URL
 *   with credentials (`credentials`), a private network address (`private_address`), a redirect to
 *   one (`private_redirect`), or an answer over `max_bytes` (`too_large`);
 * - `needs_browser`: a background sign-in needs the browser (`needs_auth`: never signed in;
 *   `needs_reauth`: the stored sign-in was rejected);
 * - `redirect_uri`: the pre-registered redirect URI is not `http://127.0.0.1:<port>/callback`;
 * - `browser_not_opened`: the sign-in page could not be opened; `no_tokens`: the authorization
 *   server issued no tokens; `moved`: the server moved to another authorization server meanwhile;
 * - `refresh_failed`: the stored sign-in could not be refreshed now (`said`: why, when known);
 * - `failed`: anything else, with what went wrong in the words it came in (`said`, scrubbed of secrets).
 */
export type SignInFailure =
  | { code: 'cancelled' }
  | { code: 'timeout'; seconds: number }
  | { code: 'port_in_use'; port: number }
  | { code: 'denied'; oauth_error: string; said: string | null }
  | { code: 'refused'; step: 'request' | 'registration'; oauth_error: string; said: string | null }
  | { code: 'issuer_mismatch'; where: 'metadata' | 'authorization_response' }
  | { code: 'unsafe_url'; what: 'issuer' | 'authorization_endpoint' | 'endpoint' | 'authorization_url' | 'token_endpoint'; field: string | null; url: string | null }
  | { code: 'fetch_refused'; why: 'scheme' | 'credentials' | 'private_address' | 'private_redirect' | 'too_large'; url: string; max_bytes: number | null }
  | { code: 'needs_browser'; reason: 'needs_auth' | 'needs_reauth' }
  | { code: 'redirect_uri' }
  | { code: 'browser_not_opened' }
  | { code: 'no_tokens' }
  | { code: 'moved' }
  | { code: 'refresh_failed'; said: string | null }
  | { code: 'failed'; said: string };

/** The server-list channels (spread into `channels`, channels.ts). */
export const serverChannels = {
  'servers.list': { input: empty },
  'servers.get': { input: byName },
  'servers.add': { input: z.strictObject({ name: serverNameSchema, config: serverInputSchema }) },
  'servers.update': { input: z.strictObject({ name: serverNameSchema, patch: serverPatchSchema }) },
  /**
   * Rename a server: every record kept under its name moves to `new_name`, or none does
   * (docs/ARCHITECTURE.md "Renaming a server"). Refused with `conflict` on the field `name` when
   * the new name is taken (ignoring case, or by a tool namespace).
   */
  'servers.rename': { input: z.strictObject({ name: serverNameSchema, new_name: serverNameSchema }) },
  'servers.setEnabled': { input: z.strictObject({ name: serverNameSchema, enabled: z.boolean() }) },
  'servers.restart': { input: byName },
  'servers.remove': { input: byName },
  'servers.logs': { input: byName },
  'servers.signIn': { input: byName },
  'servers.cancelSignIn': { input: byName },
  'servers.signOut': { input: byName },
  'servers.export': { input: z.strictObject({ include_secrets: z.boolean() }) },
  'servers.importPreview': { input: z.strictObject({ json: z.string().min(1).max(LIMITS.importJson) }) },
  'servers.import': { input: z.strictObject({ json: z.string().min(1).max(LIMITS.importJson), replace_existing: z.boolean() }) },
} as const;

/** What each of {@link serverChannels} returns (part of `ChannelOutputs`, channels.ts). */
export interface ServerChannelOutputs {
  'servers.list': ServerView[];
  'servers.get': ServerView;
  'servers.add': ServerView;
  'servers.update': ServerView;
  'servers.rename': ServerView;
  'servers.setEnabled': ServerView;
  'servers.restart': ServerView;
  'servers.remove': { removed: true };
  'servers.logs': LogEntry[];
  'servers.signIn': { opened_browser: boolean };
  'servers.cancelSignIn': { cancelled: boolean };
  'servers.signOut': ServerView;
  'servers.export': ExportResult;
  'servers.importPreview': ImportPreview;
  'servers.import': ImportResult;
}

/** The server events (part of `EventPayloads`, events.ts). */
export interface ServerEventPayloads {
  'servers.changed': ServerView;
  'servers.removed': { name: string };
  /** A server was renamed: `from` is gone, `view` is the server under its new name (docs/ARCHITECTURE.md "Renaming a server"). */
  'servers.renamed': { from: string; view: ServerView };
  /**
   * Open an OAuth authorization page (browser shell only; Electron opens the system browser from
   * main). Main sends only URLs that passed its safety check (https:, or http: to loopback).
   */
  'auth.openUrl': { server: string; url: string };
}
/** The names of {@link ServerEventPayloads}, one entry each (merged into `eventTable`, events.ts). */
export const serverEventTable: { [E in keyof ServerEventPayloads]: true } = { 'servers.changed': true, 'servers.removed': true, 'servers.renamed': true, 'auth.openUrl': true };
