/**
 * Server configuration: the schema of `<state dir>/mcp_servers.json`, load/save, masking
 * (`toView`'s config half) and PATCH merge. Compatible with the source design
 * (the source design's shape, docs/ARCHITECTURE.md "Config file": `{"servers": {name: {type, command, env, enabled, timeout_seconds}}}`)
 * and, on import, with the common `{"mcpServers": {…}}` shape of other hosts.
 */
import { promises as fs } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { envNameSchema, headerNameSchema, serverNameSchema, serverUrlSchema, type AuthInput, type AuthPatch, type MaskedValue, type ServerInput, type ServerPatch } from '../../preload/contract/index.js';
import { Mutex, writeFileAtomic } from '../util/atomic-write.js';
import { MemorySecretStore, type SecretStore } from '../secrets/store.js';
import { applyToolSettingsPatch, toolSettingsOfEntry, ToolSettingsError, type ToolSetting, type ToolSettingsMap } from './tool-settings.js';

/** A stdio server launched as a child process. `command[0]` is the program, the rest its args. */
export interface LocalServerConfig {
  type: 'local';
  command: string[];
  /** Merged over the inherited environment (never replacing it). Every value is a secret. */
  env: Record<string, string>;
  enabled: boolean;
  /** Startup wait and per-call read timeout, in seconds. */
  timeout_seconds: number;
  /** Per-tool choices (enabled, approval), by the tool's real name; absent = all defaults. */
  tools?: ToolSettingsMap;
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
  url: string;
  /** Extra request headers. Every value is a secret. */
  headers: Record<string, string>;
  auth: AuthConfig;
  enabled: boolean;
  timeout_seconds: number;
  /** Per-tool choices (enabled, approval), by the tool's real name; absent = all defaults. */
  tools?: ToolSettingsMap;
}

/** One server's stored configuration (full values; never sent to the renderer). */
export type ServerConfig = LocalServerConfig | RemoteServerConfig;

/** Default startup/call timeout in seconds (source design). */
export const DEFAULT_TIMEOUT_SECONDS = 60;

/** Name of the config file inside the state dir. */
export const CONFIG_FILE = 'mcp_servers.json';

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

/** A reference to a value held in the secret store, as written in mcp_servers.json. */
export interface SecretRef {
  secret: string;
}

function isSecretRef(v: unknown): v is SecretRef {
  return isRecord(v) && typeof v.secret === 'string' && Object.keys(v).length === 1 && v.secret.length > 0 && v.secret.length <= 256;
}

/**
 * Secret references met while parsing one entry: secret path → store key. Paths are `env:NAME`,
 * `headers:NAME`, `auth:token`, `auth:client_secret` (`:` occurs in neither env nor header names).
 */
export type RefCollector = Record<string, string>;

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
    out[k] = String(val);
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
 * - source design: `{type, command: string[], env, enabled, timeout_seconds}` / `{type, url, headers}`
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
  return withToolSettings(cfg, tools);
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
    if (Array.isArray(raw.command)) {
      command = raw.command.map((c) => {
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
    return { type: 'local', command, env: stringMap(raw.env, 'env', refs), enabled, timeout_seconds };
  }
  if (type === 'http' || type === 'sse') {
    if (typeof raw.url !== 'string') throw new ConfigError('url is required for a remote server', 'url');
    const url = serverUrlSchema.safeParse(raw.url);
    if (!url.success) throw new ConfigError(`url: ${url.error.issues[0]?.message ?? 'invalid'}`, 'url');
    return { type, url: raw.url, headers: stringMap(raw.headers, 'headers', refs), auth: parseAuth(raw.auth, refs), enabled, timeout_seconds };
  }
  throw new ConfigError(`unknown server type "${String(type)}"`);
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
    JSON.stringify(c.type === 'local' ? [c.type, c.command, Object.keys(c.env)] : [c.type, c.url, Object.keys(c.headers), c.auth.kind]);
  if (shape(back) !== shape(cfg)) throw new ConfigError('The configuration would not load back as given.');
}

function secretField(v: unknown, path: string, refs: RefCollector | undefined, what: string): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (isSecretRef(v) && refs) {
    refs[path] = v.secret;
    return '';
  }
  if (typeof v !== 'string') throw new ConfigError(`${what} must be a string`);
  return v;
}

function optionalString(v: unknown, what: string, max = 4096): string | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string' || v.length > max) throw new ConfigError(`${what} must be a string`);
  return v;
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

/** Every secret of a config, by path (see {@link RefCollector}). */
export function secretsOf(cfg: ServerConfig): Record<string, string> {
  const out: Record<string, string> = {};
  if (cfg.type === 'local') for (const [k, v] of Object.entries(cfg.env)) out[`env:${k}`] = v;
  else {
    for (const [k, v] of Object.entries(cfg.headers)) out[`headers:${k}`] = v;
    if (cfg.auth.kind === 'bearer') out['auth:token'] = cfg.auth.token;
    if (cfg.auth.kind === 'oauth' && cfg.auth.client_secret !== undefined) out['auth:client_secret'] = cfg.auth.client_secret;
  }
  return out;
}

/** Put a secret value back at its path in a (cloned) config. */
function setSecretAt(cfg: ServerConfig, p: string, value: string): void {
  const i = p.indexOf(':');
  const field = p.slice(0, i);
  const name = p.slice(i + 1);
  if (field === 'env' && cfg.type === 'local') cfg.env[name] = value;
  else if (field === 'headers' && cfg.type !== 'local') cfg.headers[name] = value;
  else if (field === 'auth' && cfg.type !== 'local') {
    if (name === 'token' && cfg.auth.kind === 'bearer') cfg.auth.token = value;
    if (name === 'client_secret' && cfg.auth.kind === 'oauth') cfg.auth.client_secret = value;
  }
}

/** The config as written to the file: every secret replaced by `replace(path, value)`. */
function mapSecrets(cfg: ServerConfig, replace: (path: string, value: string) => unknown): Record<string, unknown> {
  if (cfg.type === 'local') return { ...cfg, env: Object.fromEntries(Object.entries(cfg.env).map(([k, v]) => [k, replace(`env:${k}`, v)])) };
  const headers = Object.fromEntries(Object.entries(cfg.headers).map(([k, v]) => [k, replace(`headers:${k}`, v)]));
  let auth: Record<string, unknown> = { ...cfg.auth };
  if (cfg.auth.kind === 'bearer') auth = { kind: 'bearer', token: replace('auth:token', cfg.auth.token) };
  if (cfg.auth.kind === 'oauth' && cfg.auth.client_secret !== undefined) auth = { ...cfg.auth, client_secret: replace('auth:client_secret', cfg.auth.client_secret) };
  return { ...cfg, headers, auth };
}

/** Turn a validated contract input into a stored config with defaults applied. */
export function configFromInput(input: ServerInput): ServerConfig {
  if (input.type === 'local') {
    return {
      type: 'local',
      command: [...input.command],
      env: { ...(input.env ?? {}) },
      enabled: input.enabled ?? true,
      timeout_seconds: input.timeout_seconds ?? DEFAULT_TIMEOUT_SECONDS,
    };
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

/**
 * Apply an auth PATCH: `token` / `client_secret` follow the secret rules (absent → keep, `""` →
 * delete, value → replace); `client_id` / `scope` are replaced when present (`""` clears them).
 * Changing `kind` drops the other kind's secrets (they can be neither read back nor used).
 * @throws ConfigError when switching to bearer without a token.
 */
export function applyAuthPatch(stored: AuthConfig, patch: AuthPatch | undefined): AuthConfig {
  if (!patch) return structuredClone(stored);
  const kind = patch.kind ?? stored.kind;
  const base: AuthConfig = kind === stored.kind ? structuredClone(stored) : kind === 'bearer' ? { kind: 'bearer', token: '' } : kind === 'oauth' ? { kind: 'oauth' } : { kind: 'none' };
  if (base.kind === 'bearer') {
    if (patch.token !== undefined) base.token = patch.token;
    if (!base.token) throw new ConfigError('A bearer token is required.');
  } else if (base.kind === 'oauth') {
    if (patch.client_secret === '') delete base.client_secret;
    else if (patch.client_secret !== undefined) base.client_secret = patch.client_secret;
    if (patch.client_id === '') delete base.client_id;
    else if (patch.client_id !== undefined) base.client_id = patch.client_id;
    if (patch.scope === '') delete base.scope;
    else if (patch.scope !== undefined) base.scope = patch.scope;
  }
  return base;
}

/**
 * Merge a secret map by PATCH rules (docs/ARCHITECTURE.md "Update semantics (PATCH)"):
 * name absent → preserve; present with a value → replace; present with `""` → delete.
 */
export function mergeSecretMap(stored: Record<string, string>, patch: Record<string, string> | undefined): Record<string, string> {
  if (!patch) return { ...stored };
  const out = { ...stored };
  for (const [k, v] of Object.entries(patch)) {
    if (v === '') delete out[k];
    else out[k] = v;
  }
  return out;
}

/**
 * Apply a PATCH to a stored config, returning a new object (the input is not modified).
 * @throws ConfigError when the patch does not fit the server's type (e.g. `url` on a local server).
 */
export function applyPatch(cfg: ServerConfig, patch: ServerPatch): ServerConfig {
  const common = {
    enabled: patch.enabled ?? cfg.enabled,
    timeout_seconds: patch.timeout_seconds ?? cfg.timeout_seconds,
  };
  // `tools` follows the tool-settings PATCH rules (main/mcp/tool-settings.ts applyToolSettingsPatch).
  let tools: ToolSettingsMap;
  try {
    tools = applyToolSettingsPatch(cfg.tools, patch.tools);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
  if (cfg.type === 'local') {
    if (patch.url !== undefined || patch.headers !== undefined || patch.auth !== undefined) throw new ConfigError('url, headers and auth apply to remote servers only');
    return withToolSettings({ type: 'local', command: patch.command ? [...patch.command] : [...cfg.command], env: mergeSecretMap(cfg.env, patch.env), ...common }, tools);
  }
  if (patch.command !== undefined || patch.env !== undefined) throw new ConfigError('command and env apply to local servers only');
  return withToolSettings({ type: cfg.type, url: patch.url ?? cfg.url, headers: mergeSecretMap(cfg.headers, patch.headers), auth: applyAuthPatch(cfg.auth, patch.auth), ...common }, tools);
}

/**
 * Mask one secret. Short secrets (< 16 chars) reveal nothing; longer ones show only their
 * last 4 characters, which is not enough to use or guess them.
 */
export function maskSecret(value: string | undefined | null): MaskedValue {
  if (!value) return { has_value: false, masked: '' };
  if (value.length < 16) return { has_value: true, masked: '••••••••' };
  return { has_value: true, masked: `••••••••${value.slice(-4)}` };
}

/** Mask every value of a secret map; names are kept. */
export function maskMap(m: Record<string, string>): Record<string, MaskedValue> {
  const out: Record<string, MaskedValue> = {};
  for (const [k, v] of Object.entries(m)) out[k] = maskSecret(v);
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

/** Prefix of every secret-store key that holds a server's env/header value. */
export const SERVER_SECRET_PREFIX = 'mcp:';

/**
 * Every secret-store key of ours mentioned anywhere in `text` — JSON or not (an unparsable file,
 * a skipped entry). Keys have the shape `mcp:<server>:<path>:<12 hex digits>`.
 */
export function secretKeysIn(text: string): string[] {
  return [...text.matchAll(/mcp:[A-Za-z0-9][^\s"'\\]{0,400}?:[0-9a-f]{12}(?![0-9a-f])/g)].map((m) => m[0]);
}

function newSecretKey(server: string, secretPath: string): string {
  return `${SERVER_SECRET_PREFIX}${server}:${secretPath}:${randomBytes(6).toString('hex')}`;
}

function describePath(p: string): string {
  const [field, name] = [p.slice(0, p.indexOf(':')), p.slice(p.indexOf(':') + 1)];
  if (field === 'env') return `environment variable ${name}`;
  if (field === 'headers') return `header ${name}`;
  return name === 'token' ? 'bearer token' : 'OAuth client secret';
}

/**
 * Owns `<state dir>/mcp_servers.json` and the server secrets in the `SecretStore`.
 *
 * - The file never holds a secret: every env/header value, bearer token and client secret is
 *   written as `{"secret": "<key>"}`, a
 *   reference to the secret store (keys are fresh per value, so an edit never overwrites a value
 *   the file still points to).
 * - Saving order is crash-safe: new values go into the store first, then the file is replaced
 *   atomically (temp 0600 + fsync + rename), then values no longer referenced are deleted. A crash
 *   at any point leaves a file whose references all resolve.
 * - Plaintext values (the source design's format, or pasted `{"mcpServers": …}`) are accepted on
 *   load and migrated: stored as secrets, then the file is rewritten without them.
 * - An unreadable file is never overwritten unseen: before the first save it is moved aside to
 *   `mcp_servers.json.corrupt-<timestamp>`.
 */
export class ConfigStore {
  readonly file: string;
  private servers = new Map<string, ServerConfig>();
  /** Per server: field → name → store key, as in the file. */
  private refs = new Map<string, Record<string, string>>();
  private corrupt = false;
  /** Entries of the file that could not be used: written back unchanged on every save. */
  private skipped = new Map<string, SkippedEntry>();
  /**
   * Store keys referenced by what could not be used (an unparsable file, set-aside copies of one,
   * skipped entries): never garbage-collected, so a config problem never deletes a secret.
   */
  private keep = new Set<string>();
  private readonly mutex = new Mutex();
  /** Visible warning from the last load (null when the file was fine or missing). */
  warning: string | null = null;

  /**
   * @param stateDir folder of mcp_servers.json
   * @param secrets where env/header values live (default: in memory only, for tests)
   */
  constructor(
    readonly stateDir: string,
    private readonly secrets: SecretStore = new MemorySecretStore(),
  ) {
    this.file = path.join(stateDir, CONFIG_FILE);
  }

  /**
   * Load the file and resolve secret references. Missing → empty list. Unreadable/invalid JSON →
   * empty list, `warning` set, and the file is kept. Plaintext secrets are migrated into the store.
   * Never throws for file content; throws only for unexpected I/O errors.
   */
  async load(): Promise<LoadResult> {
    return this.mutex.run(() => this.loadLocked());
  }

  /** Keys mentioned by set-aside copies of an unparsable config (`mcp_servers.json.corrupt-*`). */
  private async keysInSetAsideCopies(): Promise<string[]> {
    const base = path.basename(this.file);
    const names = await fs.readdir(this.stateDir).catch(() => [] as string[]);
    const out: string[] = [];
    for (const n of names) {
      if (!n.startsWith(`${base}.corrupt-`)) continue;
      const text = await fs.readFile(path.join(this.stateDir, n), 'utf8').catch(() => '');
      out.push(...secretKeysIn(text));
    }
    return out;
  }

  private async loadLocked(): Promise<LoadResult> {
    this.skipped = new Map();
    this.keep = new Set(await this.keysInSetAsideCopies());
    let text: string;
    try {
      text = await fs.readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        this.servers = new Map();
        this.refs = new Map();
        this.warning = null;
        return { servers: new Map(), warning: null };
      }
      this.corrupt = true;
      this.warning = `Could not read ${this.file}: ${(err as Error).message}. The file was kept; no servers were loaded.`;
      return { servers: new Map(), warning: this.warning };
    }
    let parsed: ParsedDocument;
    try {
      parsed = parseConfigDocument(JSON.parse(text));
    } catch (err) {
      this.corrupt = true;
      this.servers = new Map();
      this.refs = new Map();
      for (const k of secretKeysIn(text)) this.keep.add(k);
      const why = err instanceof SyntaxError ? 'it is not valid JSON' : (err as Error).message;
      this.warning = `${this.file} could not be used: ${why}. The file was kept and will be moved aside, not overwritten, on the next save; no servers were loaded.`;
      return { servers: new Map(), warning: this.warning };
    }
    const problems: string[] = parsed.warning ? [parsed.warning] : [];
    let plaintext = false;
    const refs = new Map<string, Record<string, string>>();
    for (const [name, cfg] of parsed.servers) {
      const collected = parsed.refs.get(name) ?? {};
      for (const [p, key] of Object.entries(collected)) {
        const v = await this.secrets.get(key);
        if (v === undefined) problems.push(`The stored value of the ${describePath(p)} of server "${name}" is missing from the secret store; enter it again.`);
        setSecretAt(cfg, p, v ?? '');
      }
      if (Object.keys(secretsOf(cfg)).some((p) => !(p in collected))) plaintext = true;
      refs.set(name, collected);
    }
    this.servers = parsed.servers;
    this.refs = refs;
    this.skipped = parsed.skipped;
    for (const { raw } of parsed.skipped.values()) for (const k of secretKeysIn(JSON.stringify(raw) ?? '')) this.keep.add(k);
    this.warning = problems.length ? problems.join(' ') : null;
    if (plaintext) {
      // Move plaintext values into the secret store and rewrite the file without them.
      await this.writeLocked(new Map(this.servers));
    }
    return { servers: new Map(this.servers), warning: this.warning };
  }

  /** The persisted config of one server (a copy, secrets included), or undefined. */
  get(name: string): ServerConfig | undefined {
    const c = this.servers.get(name);
    return c ? structuredClone(c) : undefined;
  }

  /**
   * One tool's stored setting (enabled, approval) without copying the whole config — the
   * permission check runs on every tool call. Undefined = defaults (or no such server).
   */
  toolSetting(server: string, tool: string): Readonly<ToolSetting> | undefined {
    const t = this.servers.get(server)?.tools;
    return t && Object.prototype.hasOwnProperty.call(t, tool) ? t[tool] : undefined;
  }

  /** Names in file order. */
  names(): string[] {
    return [...this.servers.keys()];
  }

  /** Whether a server of that name is persisted. */
  has(name: string): boolean {
    return this.servers.has(name);
  }

  /**
   * The name of an entry in the file — loaded or skipped — that equals `name` ignoring case
   * (names that differ only in case are duplicates), or undefined.
   */
  entryNamed(name: string): string | undefined {
    const n = name.toLowerCase();
    for (const k of [...this.servers.keys(), ...this.skipped.keys()]) if (k.toLowerCase() === n) return k;
    return undefined;
  }

  /** Entries of the file that were skipped at load, with the reason (kept in the file). */
  skippedEntries(): { name: string; reason: string }[] {
    return [...this.skipped].map(([name, e]) => ({ name, reason: e.reason }));
  }

  /** Persist `cfg` under `name` (add or replace). Resolves once the store and file are on disk. */
  put(name: string, cfg: ServerConfig): Promise<void> {
    return this.mutex.run(async () => {
      const next = new Map(this.servers);
      next.set(name, structuredClone(cfg));
      await this.writeLocked(next);
    });
  }

  /**
   * Read-modify-write one server under the store's lock, so concurrent edits (two "Always allow"
   * answers for tools of one server) cannot overwrite each other. `fn` gets a copy; its result is
   * persisted and returned. Undefined (and nothing written) when no server has that name.
   * @throws whatever `fn` throws (nothing is written then).
   */
  modify(name: string, fn: (cfg: ServerConfig) => ServerConfig): Promise<ServerConfig | undefined> {
    return this.mutex.run(async () => {
      const cur = this.servers.get(name);
      if (!cur) return undefined;
      const next = fn(structuredClone(cur));
      const all = new Map(this.servers);
      all.set(name, structuredClone(next));
      await this.writeLocked(all);
      return structuredClone(next);
    });
  }

  /** Remove `name` (and its secrets). Resolves once the file is on disk; no-op when absent. */
  delete(name: string): Promise<void> {
    return this.mutex.run(async () => {
      if (!this.servers.has(name)) return;
      const next = new Map(this.servers);
      next.delete(name);
      await this.writeLocked(next);
    });
  }

  /**
   * Persist `servers`: store changed secret values under fresh keys, replace the file, delete
   * keys no longer referenced (including orphans left by an earlier crash).
   */
  private async writeLocked(servers: Map<string, ServerConfig>): Promise<void> {
    const nextRefs = new Map<string, Record<string, string>>();
    const toSet: Record<string, string> = {};
    for (const [name, cfg] of servers) {
      const old = this.refs.get(name) ?? {};
      const oldCfg = this.servers.get(name);
      const oldValues = oldCfg ? secretsOf(oldCfg) : {};
      const r: Record<string, string> = {};
      for (const [p, v] of Object.entries(secretsOf(cfg))) {
        if (old[p] && oldValues[p] === v) r[p] = old[p]!;
        else {
          const key = newSecretKey(name, p);
          toSet[key] = v;
          r[p] = key;
        }
      }
      nextRefs.set(name, r);
    }
    if (Object.keys(toSet).length) await this.secrets.update(toSet, []);
    if (this.corrupt) {
      const aside = `${this.file}.corrupt-${Date.now()}`;
      await fs.rename(this.file, aside).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
      });
      this.corrupt = false;
      this.warning = `The unreadable config was moved to ${aside}.`;
    }
    const doc: Record<string, unknown> = {};
    for (const [name, cfg] of servers) {
      const r = nextRefs.get(name)!;
      doc[name] = mapSecrets(cfg, (p) => ({ secret: r[p]! }) satisfies SecretRef);
    }
    // Skipped entries stay in the file as they were (the user can fix them by hand), unless a
    // server of that name was saved since.
    for (const [name, e] of this.skipped) if (!servers.has(name)) doc[name] = e.raw;
    for (const name of servers.keys()) this.skipped.delete(name);
    await writeFileAtomic(this.file, JSON.stringify({ servers: doc }, null, 2) + '\n');
    this.servers = servers;
    this.refs = nextRefs;
    // Garbage: keys of ours that nothing references any more (never those of skipped entries or
    // of an unparsable file, see `keep`).
    const live = new Set([...nextRefs.values()].flatMap((r) => Object.values(r)));
    for (const k of this.keep) live.add(k);
    const stale = (await this.secrets.keys()).filter((k) => k.startsWith(SERVER_SECRET_PREFIX) && !live.has(k));
    if (stale.length) await this.secrets.update({}, stale).catch(() => undefined);
  }

  /**
   * The document as stored but with every secret value replaced: by `""` (default), or by the
   * real value when `includeSecrets` is true. For exports.
   */
  exportDocument(includeSecrets = false): { servers: Record<string, unknown> } {
    const out: Record<string, unknown> = {};
    for (const [name, cfg] of this.servers) out[name] = mapSecrets(cfg, (_p, v) => (includeSecrets ? v : ''));
    return { servers: out };
  }
}
