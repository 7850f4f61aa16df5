/**
 * The schema of `<state dir>/mcp_servers.json`: the server config types, parsing of one entry and
 * of a whole document (the file's `{"servers": …}` shape and, on import, other hosts'
 * `{"mcpServers": …}` shape), and contract input → stored config (docs/ARCHITECTURE.md
 * "Config file"). Adding, editing and loading go through this one schema.
 */
import { commandPartSchema, envNameSchema, envValueSchema, headerNameSchema, headerValueSchema, serverNameSchema, serverUrlSchema, type AuthInput, type ServerInput } from '../../../preload/contract/index.js';
import type { z } from 'zod';
import { toolSettingsOfEntry, ToolSettingsError, type ToolSettingsMap } from '../tool-settings.js';
import { isSecretRef, type RefCollector } from './secret-refs.js';
import { detectSecretArgs, normalizePositions } from './secret-args.js';
import { isUrlPartName, joinUrl, splitUrl } from './url-parts.js';
import { SECRET_PLACEHOLDER } from '../../secrets/mask.js';
import { normalizeRoots, RootsInputError } from '../protocol/roots.js';
import { applySandboxPatch, parseSandboxEntry } from './sandbox-settings.js';
import type { SandboxSettings } from '../../../preload/contract/index.js';

/** A stdio server launched as a child process. `command[0]` is the program, the rest its args. */
export interface LocalServerConfig {
  type: 'local';
  command: string[];
  /** Merged over the inherited environment (never replacing it). Every value is a secret. */
  env: Record<string, string>;
  /**
   * Positions in `command` (≥ 1) of secret arguments: kept in the secret store, shown as `***`
   * (./secret-args.ts). Absent = none.
   */
  secret_args?: number[];
  enabled: boolean;
  /** Startup wait and per-call read timeout, in seconds. */
  timeout_seconds: number;
  /** Per-tool choices (enabled, approval), by the tool's real name; absent = all defaults. */
  tools?: ToolSettingsMap;
  /** The server's own root folders (absolute paths, MCP "Roots"); absent = the default roots. */
  roots?: string[];
  /** Sandbox settings (./sandbox-settings.ts); absent = the defaults: sandboxed, nothing extra. */
  sandbox?: SandboxSettings;
}

/**
 * How a remote server is authorized: nothing, a static bearer token (RFC 6750), or OAuth 2.1 with
 * PKCE (MCP spec 2025-06-18 "Authorization"), optionally with a client the user registered
 * themselves (client_id / client_secret) instead of dynamic client registration (RFC 7591).
 * `token` and `client_secret` are secrets.
 */
export type AuthConfig =
  | { kind: 'none' }
  | { kind: 'bearer'; token: string }
  | { kind: 'oauth'; client_id?: string; client_secret?: string; scope?: string };

/** A remote server over Streamable HTTP (`http`) or legacy HTTP+SSE (`sse`). */
export interface RemoteServerConfig {
  type: 'http' | 'sse';
  /** The full URL. Its userinfo and query values are secrets (./url-parts.ts). */
  url: string;
  /** Extra request headers. Every value is a secret. */
  headers: Record<string, string>;
  auth: AuthConfig;
  enabled: boolean;
  timeout_seconds: number;
  /** Per-tool choices (enabled, approval), by the tool's real name; absent = all defaults. */
  tools?: ToolSettingsMap;
  /** The server's own root folders (absolute paths, MCP "Roots"); absent = the default roots. */
  roots?: string[];
}

/** One server's stored configuration (full values; never sent to the renderer). */
export type ServerConfig = LocalServerConfig | RemoteServerConfig;

/** Default startup/call timeout in seconds (docs/ARCHITECTURE.md "Config file"). */
export const DEFAULT_TIMEOUT_SECONDS = 60;

/** Thrown for a config document that cannot be understood; `field` names the offending field. */
export class ConfigError extends Error {
  override name = 'ConfigError';
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * `v` checked against one of the contract's value schemas (the same definition the add/edit
 * forms pass: no control characters, bounded). @throws ConfigError naming `field`, never the value.
 */
function checked(v: string, schema: z.ZodType<string>, field: string): string {
  const r = schema.safeParse(v);
  if (!r.success) throw new ConfigError(`${field}: ${r.error.issues[0]?.message ?? 'invalid'}`, field);
  return v;
}

function stringMap(v: unknown, what: 'env' | 'headers', refs?: RefCollector): Record<string, string> {
  if (v === undefined || v === null) return {};
  if (!isRecord(v)) throw new ConfigError(`${what} must be an object of strings`);
  const out: Record<string, string> = {};
  const names = what === 'env' ? envNameSchema : headerNameSchema;
  for (const [k, val] of Object.entries(v)) {
    // The same name rules as the add/edit forms (the contract), so nothing saved is dropped here.
    const named = names.safeParse(k);
    if (!named.success) throw new ConfigError(`${what} name "${k.slice(0, 64)}": ${named.error.issues[0]?.message ?? 'invalid'}`, what);
    if (isSecretRef(val) && refs) {
      refs[`${what}:${k}`] = val.secret;
      out[k] = '';
      continue;
    }
    if (typeof val !== 'string' && typeof val !== 'number' && typeof val !== 'boolean') {
      throw new ConfigError(`${what}.${k} must be a string`, `${what}.${k}`);
    }
    out[k] = checked(String(val), what === 'env' ? envValueSchema : headerValueSchema, `${what}.${k}`);
  }
  return out;
}

function timeoutOf(v: unknown): number {
  if (v === undefined || v === null) return DEFAULT_TIMEOUT_SECONDS;
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) throw new ConfigError('timeout_seconds must be a positive number');
  return Math.min(Math.round(v), 3600);
}

/**
 * Parse one server entry in either shape (with `refs`, `{"secret": key}` values are collected
 * there and left empty in the result):
 * - ours (docs/ARCHITECTURE.md "Config file"): `{type, command: string[], env, enabled, timeout_seconds}` / `{type, url, headers}`
 * - other hosts: `{command: "npx", args: [...], env}` / `{url, headers}` (type inferred; `transport`/`type` honoured).
 *
 * @throws ConfigError with a human-readable reason.
 */
export function parseServerEntry(raw: unknown, refs?: RefCollector): ServerConfig {
  const cfg = parseServerEntryBase(raw, refs);
  let tools: ToolSettingsMap;
  try {
    tools = toolSettingsOfEntry(raw as Record<string, unknown>).tools;
  } catch (err) {
    if (err instanceof ToolSettingsError) throw new ConfigError(err.message);
    throw err;
  }
  const out = withToolSettings(cfg, tools);
  const sandbox = (raw as { sandbox?: unknown }).sandbox;
  if (sandbox !== undefined && sandbox !== null) {
    if (out.type !== 'local') throw new ConfigError('sandbox applies to local servers only', 'sandbox');
    const settings = parseSandboxEntry(sandbox);
    if (settings) out.sandbox = settings;
  }
  // The server's own root folders (main/mcp/protocol/roots.ts); absent = the default roots.
  const roots = (raw as { roots?: unknown }).roots;
  if (roots !== undefined && roots !== null) {
    if (!Array.isArray(roots)) throw new ConfigError('roots must be a list of folder paths', 'roots');
    try {
      out.roots = normalizeRoots(roots as string[]);
    } catch (err) {
      if (err instanceof RootsInputError) throw new ConfigError(`roots: ${err.message}`, 'roots');
      throw err;
    }
  }
  return out;
}

/** `cfg` with `tools` set, or without the key when the map is empty (the file stays minimal). */
export function withToolSettings<T extends ServerConfig>(cfg: T, tools: ToolSettingsMap | undefined): T {
  const out = { ...cfg };
  if (tools && Object.keys(tools).length) out.tools = tools;
  else delete out.tools;
  return out;
}

function parseServerEntryBase(raw: unknown, refs?: RefCollector): ServerConfig {
  if (!isRecord(raw)) throw new ConfigError('server entry must be an object');
  const enabled = raw.enabled === undefined ? !(raw.disabled === true) : raw.enabled !== false;
  const timeout_seconds = timeoutOf(raw.timeout_seconds ?? raw.timeout);
  let type = typeof raw.type === 'string' ? raw.type : undefined;
  if (type === 'stdio') type = 'local';
  if (type === 'streamable-http' || type === 'streamableHttp' || type === 'remote') type = 'http';
  if (!type) type = raw.url !== undefined ? 'http' : 'local';
  if (type === 'local') {
    let command: string[];
    const refArgs: number[] = [];
    if (Array.isArray(raw.command)) {
      command = raw.command.map((c, i) => {
        // A secret argument in the file is a reference in place (docs/ARCHITECTURE.md "Config file").
        if (i > 0 && isSecretRef(c) && refs) {
          refs[`args:${i}`] = c.secret;
          refArgs.push(i);
          return '';
        }
        if (typeof c !== 'string') throw new ConfigError('command must be a list of strings');
        return c;
      });
    } else if (typeof raw.command === 'string') {
      const args = raw.args === undefined ? [] : raw.args;
      if (!Array.isArray(args) || args.some((a) => typeof a !== 'string')) throw new ConfigError('args must be a list of strings');
      command = [raw.command, ...(args as string[])];
    } else {
      throw new ConfigError('command is required for a local server');
    }
    if (command.length === 0 || !command[0]!.trim()) throw new ConfigError('command is empty');
    command.forEach((c, i) => checked(c, commandPartSchema, `command.${i}`));
    const env = stringMap(raw.env, 'env', refs);
    const marked = raw.secret_args === undefined || raw.secret_args === null ? [] : raw.secret_args;
    if (!Array.isArray(marked) || marked.some((i) => !Number.isInteger(i) || i < 1 || i >= command.length)) throw new ConfigError('secret_args must list argument positions (1 … the number of arguments)', 'secret_args');
    return withSecretArgs({ type: 'local', command, env, enabled, timeout_seconds }, [...(marked as number[]), ...refArgs]);
  }
  if (type === 'http' || type === 'sse') {
    if (typeof raw.url !== 'string') throw new ConfigError('url is required for a remote server', 'url');
    const url = serverUrlSchema.safeParse(raw.url);
    if (!url.success) throw new ConfigError(`url: ${url.error.issues[0]?.message ?? 'invalid'}`, 'url');
    return { type, url: withUrlSecrets(raw.url, raw.url_secrets, refs), headers: stringMap(raw.headers, 'headers', refs), auth: parseAuth(raw.auth, refs), enabled, timeout_seconds };
  }
  throw new ConfigError(`unknown server type "${String(type)}"`);
}

/**
 * `cfg` with `secret_args` set to `marked` plus every argument that reads as a secret
 * (./secret-args.ts `detectSecretArgs`, env values included), or without the key when none.
 */
export function withSecretArgs(cfg: LocalServerConfig, marked: Iterable<number>, known: Iterable<string> = []): LocalServerConfig {
  const positions = normalizePositions([...marked, ...detectSecretArgs(cfg.command, [...Object.values(cfg.env), ...known])], cfg.command.length);
  const out: LocalServerConfig = { ...cfg };
  if (positions.length) out.secret_args = positions;
  else delete out.secret_args;
  return out;
}

/**
 * A URL from the file with its `url_secrets` put back (./url-parts.ts): references are collected
 * into `refs` (the part stays empty until the store resolves it), plain strings are put in place.
 * @throws ConfigError for a malformed `url_secrets`.
 */
function withUrlSecrets(url: string, raw: unknown, refs: RefCollector | undefined): string {
  if (raw === undefined || raw === null) return url;
  if (!isRecord(raw)) throw new ConfigError('url_secrets must be an object', 'url_secrets');
  const { base, parts } = splitUrl(url);
  for (const [part, v] of Object.entries(raw)) {
    if (!isUrlPartName(part)) throw new ConfigError(`url_secrets: "${part.slice(0, 64)}" is not a part of a URL`, 'url_secrets');
    if (isSecretRef(v) && refs) {
      refs[`url:${part}`] = v.secret;
      parts[part] = '';
    } else if (typeof v === 'string') parts[part] = checked(v, headerValueSchema, `url_secrets.${part}`);
    else throw new ConfigError(`url_secrets.${part} must be a string`, `url_secrets.${part}`);
  }
  return joinUrl(base, parts);
}

/**
 * Refuse `***` where a new server's value belongs: it stands for a stored value, and a new server
 * has none. @throws ConfigError naming the field.
 */
export function assertNoPlaceholders(cfg: ServerConfig): void {
  if (cfg.type === 'local') {
    const at = cfg.command.indexOf(SECRET_PLACEHOLDER, 1);
    if (at > 0) throw new ConfigError(`Argument ${at} is "${SECRET_PLACEHOLDER}", which stands for a stored secret; enter its value.`, `command.${at}`);
    return;
  }
  const { parts } = splitUrl(cfg.url);
  if (Object.values(parts).includes(SECRET_PLACEHOLDER)) throw new ConfigError(`The URL holds "${SECRET_PLACEHOLDER}", which stands for a stored secret; enter the value.`, 'url');
}

/**
 * Check that `cfg` would load back from the file exactly as given: the add/edit paths run this
 * before saving, so the file never holds what the next start would drop (one schema for both).
 * @throws ConfigError with `field` when it would not.
 */
export function assertLoadable(cfg: ServerConfig): void {
  const back = parseServerEntry(JSON.parse(JSON.stringify(cfg)) as unknown);
  // What a save could lose without an error: the destination and the names of secret values.
  const shape = (c: ServerConfig): string =>
    JSON.stringify(c.type === 'local' ? [c.type, c.command, Object.keys(c.env), c.secret_args ?? []] : [c.type, c.url, Object.keys(c.headers), c.auth.kind]);
  if (shape(back) !== shape(cfg)) throw new ConfigError('The configuration would not load back as given.');
}

function secretField(v: unknown, path: string, refs: RefCollector | undefined, what: string): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (isSecretRef(v) && refs) {
    refs[path] = v.secret;
    return '';
  }
  if (typeof v !== 'string') throw new ConfigError(`${what} must be a string`);
  return checked(v, headerValueSchema, what);
}

function optionalString(v: unknown, what: string, max = 4096): string | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string' || v.length > max) throw new ConfigError(`${what} must be a string`);
  return checked(v, headerValueSchema, what);
}

/** Parse `auth` of a remote entry; absent → `{kind: 'none'}`. @throws ConfigError */
function parseAuth(raw: unknown, refs?: RefCollector): AuthConfig {
  if (raw === undefined || raw === null) return { kind: 'none' };
  if (!isRecord(raw)) throw new ConfigError('auth must be an object');
  switch (raw.kind) {
    case undefined:
    case 'none':
      return { kind: 'none' };
    case 'bearer': {
      const token = secretField(raw.token, 'auth:token', refs, 'auth.token');
      if (token === undefined) throw new ConfigError('auth.token is required for bearer auth');
      return { kind: 'bearer', token };
    }
    case 'oauth': {
      const out: AuthConfig = { kind: 'oauth' };
      const id = optionalString(raw.client_id, 'auth.client_id', 512);
      const secret = secretField(raw.client_secret, 'auth:client_secret', refs, 'auth.client_secret');
      const scope = optionalString(raw.scope, 'auth.scope', 1024);
      if (id !== undefined) out.client_id = id;
      if (secret !== undefined) out.client_secret = secret;
      if (scope !== undefined) out.scope = scope;
      return out;
    }
    default:
      throw new ConfigError(`unknown auth kind "${String(raw.kind).slice(0, 32)}"`);
  }
}

/**
 * Turn a validated contract input into a stored config with defaults applied (secret arguments:
 * those marked plus those that read as secrets).
 * @throws ConfigError for a `secret_args` position past the command.
 */
export function configFromInput(input: ServerInput): ServerConfig {
  if (input.type === 'local') {
    const cfg: LocalServerConfig = {
      type: 'local',
      command: [...input.command],
      env: { ...(input.env ?? {}) },
      enabled: input.enabled ?? true,
      timeout_seconds: input.timeout_seconds ?? DEFAULT_TIMEOUT_SECONDS,
    };
    const sandbox = input.sandbox ? applySandboxPatch(undefined, input.sandbox) : undefined;
    if (sandbox) cfg.sandbox = sandbox;
    const marked = input.secret_args ?? [];
    const bad = marked.find((i) => i >= cfg.command.length);
    if (bad !== undefined) throw new ConfigError(`secret_args: there is no argument ${bad}`, 'secret_args');
    return withSecretArgs(cfg, marked);
  }
  return {
    type: input.type,
    url: input.url,
    headers: { ...(input.headers ?? {}) },
    auth: authFromInput(input.auth),
    enabled: input.enabled ?? true,
    timeout_seconds: input.timeout_seconds ?? DEFAULT_TIMEOUT_SECONDS,
  };
}

function authFromInput(a: AuthInput | undefined): AuthConfig {
  if (!a || a.kind === 'none') return { kind: 'none' };
  if (a.kind === 'bearer') return { kind: 'bearer', token: a.token };
  const out: AuthConfig = { kind: 'oauth' };
  if (a.client_id) out.client_id = a.client_id;
  if (a.client_secret) out.client_secret = a.client_secret;
  if (a.scope) out.scope = a.scope;
  return out;
}

/** Result of loading the config file. */
export interface LoadResult {
  servers: Map<string, ServerConfig>;
  /** Human-readable warning when the file (or some entries) could not be used; null when fine. */
  warning: string | null;
}

/** An entry of the file that could not be used: its raw JSON (kept in the file) and why. */
export interface SkippedEntry {
  raw: unknown;
  reason: string;
}

/** A parsed document: configs (secret refs left empty) plus the refs per server. */
export interface ParsedDocument extends LoadResult {
  refs: Map<string, RefCollector>;
  /** Entries that were skipped, by name (invalid names are not kept). */
  skipped: Map<string, SkippedEntry>;
}

/**
 * Parse a whole config document (`{"servers": …}` or `{"mcpServers": …}`).
 * Bad entries are skipped with a warning; a document that is not an object throws. With
 * `allowRefs: false` (imports), `{"secret": …}` values are rejected.
 * @throws ConfigError when the document has neither shape.
 */
export function parseConfigDocument(doc: unknown, opts: { allowRefs?: boolean } = {}): ParsedDocument {
  const allowRefs = opts.allowRefs ?? true;
  if (!isRecord(doc)) throw new ConfigError('the file is not a JSON object');
  const table = isRecord(doc.servers) ? doc.servers : isRecord(doc.mcpServers) ? doc.mcpServers : doc.servers === undefined && doc.mcpServers === undefined ? {} : null;
  if (table === null) throw new ConfigError('"servers" must be an object');
  const servers = new Map<string, ServerConfig>();
  const refs = new Map<string, RefCollector>();
  const skipped = new Map<string, SkippedEntry>();
  const problems: string[] = [];
  const folded = new Map<string, string>();
  for (const [name, raw] of Object.entries(table)) {
    if (!serverNameSchema.safeParse(name).success) {
      problems.push(`"${name.slice(0, 64)}": invalid server name`);
      continue;
    }
    const first = folded.get(name.toLowerCase());
    if (first !== undefined) {
      const reason = `a server named "${first}" comes earlier (names that differ only in case are duplicates)`;
      problems.push(`"${name}": ${reason}`);
      skipped.set(name, { raw, reason });
      continue;
    }
    folded.set(name.toLowerCase(), name);
    try {
      // Imports must not carry store references: a pasted document could otherwise point a
      // server it controls at another server's stored secret.
      const r: RefCollector = {};
      servers.set(name, parseServerEntry(raw, allowRefs ? r : undefined));
      refs.set(name, r);
    } catch (err) {
      problems.push(`"${name}": ${(err as Error).message}`);
      skipped.set(name, { raw, reason: (err as Error).message });
    }
  }
  return { servers, refs, skipped, warning: problems.length ? `Some servers in the config were skipped: ${problems.join('; ')}` : null };
}
