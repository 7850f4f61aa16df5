/**
 * Secret references of the config file: every env/header value, bearer token and OAuth client
 * secret is written to mcp_servers.json as `{"secret": "<key>"}`, a reference to a value in the
 * secret store. Paths of secrets in a config, fresh keys, and finding our keys in any text
 * (docs/ARCHITECTURE.md "Secrets at rest").
 */
import { randomBytes } from 'node:crypto';
import type { ServerConfig } from './schema.js';
import { describeUrlPart, joinUrl, splitUrl, urlSecretParts } from './url-parts.js';

/** A reference to a value held in the secret store, as written in mcp_servers.json. */
export interface SecretRef {
  secret: string;
}

/** Whether `v` is exactly `{"secret": key}` with a key of 1–256 characters. */
export function isSecretRef(v: unknown): v is SecretRef {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const r = v as Record<string, unknown>;
  return typeof r.secret === 'string' && Object.keys(r).length === 1 && r.secret.length > 0 && r.secret.length <= 256;
}

/**
 * Secret references met while parsing one entry: secret path → store key. Paths are `env:NAME`,
 * `headers:NAME`, `auth:token`, `auth:client_secret` (`:` occurs in neither env nor header names),
 * `args:<position>` (a secret command argument) and `url:<part>` (`url:username`,
 * `url:password`, `url:query:<name>`; see ./url-parts.ts).
 */
export type RefCollector = Record<string, string>;

/** Every secret of a config, by path (see {@link RefCollector}). */
export function secretsOf(cfg: ServerConfig): Record<string, string> {
  const out: Record<string, string> = {};
  if (cfg.type === 'local') {
    for (const [k, v] of Object.entries(cfg.env)) out[`env:${k}`] = v;
    for (const i of cfg.secret_args ?? []) if (i > 0 && i < cfg.command.length) out[`args:${i}`] = cfg.command[i]!;
  } else {
    for (const [k, v] of Object.entries(cfg.headers)) out[`headers:${k}`] = v;
    if (cfg.auth.kind === 'bearer') out['auth:token'] = cfg.auth.token;
    if (cfg.auth.kind === 'oauth' && cfg.auth.client_secret !== undefined) out['auth:client_secret'] = cfg.auth.client_secret;
    for (const [part, v] of Object.entries(urlSecretParts(cfg.url))) out[`url:${part}`] = v;
  }
  return out;
}

/** Put a secret value back at its path in a (cloned) config. */
export function setSecretAt(cfg: ServerConfig, p: string, value: string): void {
  const i = p.indexOf(':');
  const field = p.slice(0, i);
  const name = p.slice(i + 1);
  if (field === 'env' && cfg.type === 'local') cfg.env[name] = value;
  else if (field === 'args' && cfg.type === 'local') {
    const at = Number(name);
    if (Number.isInteger(at) && at > 0 && at < cfg.command.length) cfg.command[at] = value;
  } else if (field === 'headers' && cfg.type !== 'local') cfg.headers[name] = value;
  else if (field === 'url' && cfg.type !== 'local') {
    const { base, parts } = splitUrl(cfg.url);
    cfg.url = joinUrl(base, { ...parts, [name]: value });
  } else if (field === 'auth' && cfg.type !== 'local') {
    if (name === 'token' && cfg.auth.kind === 'bearer') cfg.auth.token = value;
    if (name === 'client_secret' && cfg.auth.kind === 'oauth') cfg.auth.client_secret = value;
  }
}

/**
 * The config with every secret replaced by `replace(path, value)`.
 * - `file` (mcp_servers.json): a secret argument is replaced in place in `command`; the URL is
 *   written without its secrets (`url`, see ./url-parts.ts `splitUrl`) and its parts as
 *   `url_secrets: {part: replace(…)}`.
 * - `inline` (exports): `replace` returns strings, put back in place — in `command` and inside
 *   the URL.
 */
export function mapSecrets(cfg: ServerConfig, replace: (path: string, value: string) => unknown, mode: 'file' | 'inline' = 'file'): Record<string, unknown> {
  if (cfg.type === 'local') {
    const secretArgs = new Set(cfg.secret_args ?? []);
    const command = cfg.command.map((a, i) => (secretArgs.has(i) && i > 0 ? replace(`args:${i}`, a) : a));
    return { ...cfg, command, env: Object.fromEntries(Object.entries(cfg.env).map(([k, v]) => [k, replace(`env:${k}`, v)])) };
  }
  const headers = Object.fromEntries(Object.entries(cfg.headers).map(([k, v]) => [k, replace(`headers:${k}`, v)]));
  let auth: Record<string, unknown> = { ...cfg.auth };
  if (cfg.auth.kind === 'bearer') auth = { kind: 'bearer', token: replace('auth:token', cfg.auth.token) };
  if (cfg.auth.kind === 'oauth' && cfg.auth.client_secret !== undefined) auth = { ...cfg.auth, client_secret: replace('auth:client_secret', cfg.auth.client_secret) };
  let url: string = cfg.url;
  let urlSecrets: Record<string, unknown> | undefined;
  try {
    const { base, parts } = splitUrl(cfg.url);
    if (mode === 'inline') url = joinUrl(base, Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, String(replace(`url:${k}`, v))])));
    else if (Object.keys(parts).length) {
      url = base;
      urlSecrets = Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, replace(`url:${k}`, v)]));
    }
  } catch {
    // Not a URL (cannot happen for a parsed config): written as it is.
  }
  return { ...cfg, url, ...(urlSecrets ? { url_secrets: urlSecrets } : {}), headers, auth };
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

/** A fresh store key for one secret value of a server: `mcp:<server>:<path>:<12 hex digits>`. */
export function newSecretKey(server: string, secretPath: string): string {
  // A URL part may name a query parameter with any character: only safe ones go into the key.
  return `${SERVER_SECRET_PREFIX}${server}:${secretPath.replace(/[^A-Za-z0-9_.:#-]/g, '_').slice(0, 300)}:${randomBytes(6).toString('hex')}`;
}

/** Words for a secret path in a warning (`environment variable X`, `header Y`, …). */
export function describePath(p: string): string {
  const [field, name] = [p.slice(0, p.indexOf(':')), p.slice(p.indexOf(':') + 1)];
  if (field === 'env') return `environment variable ${name}`;
  if (field === 'headers') return `header ${name}`;
  if (field === 'args') return `argument ${name}`;
  if (field === 'url') return describeUrlPart(name);
  return name === 'token' ? 'bearer token' : 'OAuth client secret';
}
