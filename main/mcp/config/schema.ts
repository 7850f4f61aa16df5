/**
 * The schema of `<state dir>/mcp_servers.json`: the server config types, parsing of one entry and
 * of a whole document (the file's `{"servers": …}` shape and, on import, other hosts'
 * `{"mcpServers": …}` shape), and contract input → stored config (docs/ARCHITECTURE.md
 * "Config file"). Adding, editing and loading go through this one schema.
 */
import { serverNameSchema, type ImportSkipped, type ServerInput } from '../../../preload/contract/index.js';
import { ownIssue } from '../../util/validation-issue.js';
import { toolSettingsOfEntry, ToolSettingsError, type ToolSettingsMap } from '../tool-settings.js';
import { ConfigError, isRecord, type RefCollector } from './entry-parts.js';
import { normalizeRoots, RootsInputError } from '../protocol/roots.js';
import { applySandboxPatch, parseSandboxEntry } from './sandbox-settings.js';
import type { SandboxSettings } from '../../../preload/contract/index.js';
import { transportFor, transportOf, typeNamed } from '../transports/registry.js';
import type { InputOf } from '../transports/kind.js';

export { ConfigError, withSecretArgs } from './entry-parts.js';

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

function timeoutOf(v: unknown): number {
  if (v === undefined || v === null) return DEFAULT_TIMEOUT_SECONDS;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new ConfigError('timeout_seconds must be a positive number', ownIssue('invalid_type', ['timeout_seconds']));
  if (v <= 0) throw new ConfigError('timeout_seconds must be a positive number', ownIssue('too_small', ['timeout_seconds'], { origin: 'number', minimum: 1 }));
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
    if (err instanceof ToolSettingsError) throw new ConfigError(err.message, ownIssue('other', ['tools']));
    throw err;
  }
  const out = withToolSettings(cfg, tools);
  const sandbox = (raw as { sandbox?: unknown }).sandbox;
  if (sandbox !== undefined && sandbox !== null) {
    if (out.type !== 'local') throw new ConfigError('sandbox applies to local servers only', ownIssue('custom', ['sandbox'], { rule: 'not_for_type' }), 'sandbox');
    const settings = parseSandboxEntry(sandbox);
    if (settings) out.sandbox = settings;
  }
  // The server's own root folders (main/mcp/protocol/roots.ts); absent = the default roots.
  const roots = (raw as { roots?: unknown }).roots;
  if (roots !== undefined && roots !== null) {
    if (!Array.isArray(roots)) throw new ConfigError('roots must be a list of folder paths', ownIssue('invalid_type', ['roots']), 'roots');
    try {
      out.roots = normalizeRoots(roots as string[]);
    } catch (err) {
      if (err instanceof RootsInputError) throw new ConfigError(`roots: ${err.message}`, ownIssue('other', ['roots']), 'roots');
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
  if (!isRecord(raw)) throw new ConfigError('server entry must be an object', ownIssue('invalid_type', ['entry']));
  const enabled = raw.enabled === undefined ? !(raw.disabled === true) : raw.enabled !== false;
  const timeout_seconds = timeoutOf(raw.timeout_seconds ?? raw.timeout);
  const named = typeof raw.type === 'string' && raw.type ? raw.type : raw.url !== undefined ? 'http' : 'local';
  // The transport's own part (main/mcp/transports/): its name or an alias such as `stdio`.
  const type = typeNamed(named);
  if (type) return transportOf(type).parse(raw, type, { enabled, timeout_seconds }, refs);
  throw new ConfigError(`unknown server type "${named}"`, ownIssue('invalid_value', ['type']));
}

/**
 * Refuse `***` where a new server's value belongs: it stands for a stored value, and a new server
 * has none. @throws ConfigError naming the field.
 */
export function assertNoPlaceholders(cfg: ServerConfig): void {
  transportFor(cfg).assertNoPlaceholders(cfg);
}

/**
 * Check that `cfg` would load back from the file exactly as given: the add/edit paths run this
 * before saving, so the file never holds what the next start would drop (one schema for both).
 * @throws ConfigError with `field` when it would not.
 */
export function assertLoadable(cfg: ServerConfig): void {
  const back = parseServerEntry(JSON.parse(JSON.stringify(cfg)) as unknown);
  // What a save could lose without an error: the destination and the names of secret values.
  const shape = (c: ServerConfig): string => JSON.stringify(transportFor(c).loadShape(c));
  if (shape(back) !== shape(cfg)) throw new ConfigError('The configuration would not load back as given.', ownIssue('other', []));
}

/**
 * Turn a validated contract input into a stored config with defaults applied (secret arguments:
 * those marked plus those that read as secrets).
 * @throws ConfigError for a `secret_args` position past the command.
 */
export function configFromInput(input: ServerInput): ServerConfig {
  const cfg = transportOf(input.type).fromInput(input as InputOf<ServerConfig['type']>, { enabled: input.enabled ?? true, timeout_seconds: input.timeout_seconds ?? DEFAULT_TIMEOUT_SECONDS });
  if (cfg.type === 'local' && input.type === 'local' && input.sandbox) {
    const sandbox = applySandboxPatch(undefined, input.sandbox);
    if (sandbox) cfg.sandbox = sandbox;
  }
  return cfg;
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
  /** Every entry that was skipped, in order, invalid names included (cut to 64 characters), with why. */
  unreadable: ImportSkipped[];
}

/**
 * A config document of neither shape: not a JSON object (`not_object`: an array, a string), or
 * one whose `servers` / `mcpServers` is not an object (`servers_not_object`).
 */
export class ConfigDocumentError extends ConfigError {
  override name = 'ConfigDocumentError';
  constructor(readonly problem: 'not_object' | 'servers_not_object') {
    super(problem === 'not_object' ? 'the file is not a JSON object' : '"servers" must be an object', ownIssue('invalid_type', problem === 'not_object' ? [] : ['servers']));
  }
}

/**
 * Parse a whole config document (`{"servers": …}` or `{"mcpServers": …}`).
 * Bad entries are skipped with a warning; a document that is not an object throws. With
 * `allowRefs: false` (imports), `{"secret": …}` values are rejected.
 * @throws ConfigDocumentError when the document has neither shape.
 */
export function parseConfigDocument(doc: unknown, opts: { allowRefs?: boolean } = {}): ParsedDocument {
  const allowRefs = opts.allowRefs ?? true;
  if (!isRecord(doc)) throw new ConfigDocumentError('not_object');
  const table = isRecord(doc.servers) ? doc.servers : isRecord(doc.mcpServers) ? doc.mcpServers : doc.servers === undefined && doc.mcpServers === undefined ? {} : null;
  if (table === null) throw new ConfigDocumentError('servers_not_object');
  const servers = new Map<string, ServerConfig>();
  const refs = new Map<string, RefCollector>();
  const skipped = new Map<string, SkippedEntry>();
  const problems: string[] = [];
  const unreadable: ImportSkipped[] = [];
  const folded = new Map<string, string>();
  for (const [name, raw] of Object.entries(table)) {
    if (!serverNameSchema.safeParse(name).success) {
      problems.push(`"${name.slice(0, 64)}": invalid server name`);
      unreadable.push({ name: name.slice(0, 64), why: { code: 'invalid_name' }, reason: 'invalid server name' });
      continue;
    }
    const first = folded.get(name.toLowerCase());
    if (first !== undefined) {
      const reason = `a server named "${first}" comes earlier (names that differ only in case are duplicates)`;
      problems.push(`"${name}": ${reason}`);
      skipped.set(name, { raw, reason });
      unreadable.push({ name, why: { code: 'duplicate_name', other: first }, reason });
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
      unreadable.push({ name, why: err instanceof ConfigError ? { code: 'invalid_entry', issue: err.issue } : { code: 'not_saved' }, reason: (err as Error).message });
    }
  }
  return { servers, refs, skipped, unreadable, warning: problems.length ? `Some servers in the config were skipped: ${problems.join('; ')}` : null };
}
