/**
 * The pieces every transport's part of a config entry is parsed with (docs/ARCHITECTURE.md
 * "Config file", "Transports"): value checks against the contract's schemas, env/header maps,
 * `{"secret": key}` references, remote auth, URL secrets, secret arguments. A leaf module: the
 * transport descriptors (main/mcp/transports/) and config/schema.ts both build on it.
 */
import { headerValueSchema, envNameSchema, envValueSchema, headerNameSchema, type AuthInput, type ValidationIssue } from '../../../preload/contract/index.js';
import type { z } from 'zod';
import { ownIssue, validationIssue } from '../../util/validation-issue.js';
import type { AuthConfig, LocalServerConfig } from './schema.js';
import { detectSecretArgs, normalizePositions } from './secret-args.js';
import { isUrlPartName, joinUrl, splitUrl } from './url-parts.js';

/**
 * Thrown for a config entry (or an edit of one) that cannot be taken: `issue` says why by code
 * and path, for the window to word (docs/ARCHITECTURE.md "Languages"); the message is English for
 * logs. `field` names the offending field for a form, when one is meant.
 */
export class ConfigError extends Error {
  override name = 'ConfigError';
  constructor(
    message: string,
    readonly issue: ValidationIssue,
    readonly field?: string,
  ) {
    super(message);
  }
}

/** The {@link ConfigError} of a value schema's refusal of `field` (a dotted path): its first issue, by code. */
export function schemaRefusal(err: z.ZodError, field: string, message = `${field}: ${err.issues[0]?.message ?? 'invalid'}`): ConfigError {
  const first = err.issues[0];
  const at = field.split('.');
  return new ConfigError(message, first ? validationIssue(first, at) : ownIssue('other', at), field);
}

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

/** Whether `v` is a plain object (not null, not an array). */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * `v` checked against one of the contract's value schemas (the same definition the add/edit
 * forms pass: no control characters, bounded). @throws ConfigError naming `field`, never the value.
 */
export function checked(v: string, schema: z.ZodType<string>, field: string): string {
  const r = schema.safeParse(v);
  if (!r.success) throw schemaRefusal(r.error, field);
  return v;
}

/**
 * An `env` or `headers` object of an entry, names and values checked as the forms check them;
 * with `refs`, `{"secret": key}` values are collected (path `env:NAME` / `headers:NAME`) and left
 * empty. @throws ConfigError
 */
export function stringMap(v: unknown, what: 'env' | 'headers', refs?: RefCollector): Record<string, string> {
  if (v === undefined || v === null) return {};
  if (!isRecord(v)) throw new ConfigError(`${what} must be an object of strings`, ownIssue('invalid_type', [what]));
  const out: Record<string, string> = {};
  const names = what === 'env' ? envNameSchema : headerNameSchema;
  for (const [k, val] of Object.entries(v)) {
    // The same name rules as the add/edit forms (the contract), so nothing saved is dropped here.
    const named = names.safeParse(k);
    if (!named.success) throw schemaRefusal(named.error, what, `${what} name "${k.slice(0, 64)}": ${named.error.issues[0]?.message ?? 'invalid'}`);
    if (isSecretRef(val) && refs) {
      refs[`${what}:${k}`] = val.secret;
      out[k] = '';
      continue;
    }
    if (typeof val !== 'string' && typeof val !== 'number' && typeof val !== 'boolean') {
      throw new ConfigError(`${what}.${k} must be a string`, ownIssue('invalid_type', [what, k]), `${what}.${k}`);
    }
    out[k] = checked(String(val), what === 'env' ? envValueSchema : headerValueSchema, `${what}.${k}`);
  }
  return out;
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
export function withUrlSecrets(url: string, raw: unknown, refs: RefCollector | undefined): string {
  if (raw === undefined || raw === null) return url;
  if (!isRecord(raw)) throw new ConfigError('url_secrets must be an object', ownIssue('invalid_type', ['url_secrets']), 'url_secrets');
  const { base, parts } = splitUrl(url);
  for (const [part, v] of Object.entries(raw)) {
    if (!isUrlPartName(part)) throw new ConfigError(`url_secrets: "${part.slice(0, 64)}" is not a part of a URL`, ownIssue('unrecognized_keys', ['url_secrets']), 'url_secrets');
    if (isSecretRef(v) && refs) {
      refs[`url:${part}`] = v.secret;
      parts[part] = '';
    } else if (typeof v === 'string') parts[part] = checked(v, headerValueSchema, `url_secrets.${part}`);
    else throw new ConfigError(`url_secrets.${part} must be a string`, ownIssue('invalid_type', ['url_secrets', part]), `url_secrets.${part}`);
  }
  return joinUrl(base, parts);
}

function secretField(v: unknown, path: string, refs: RefCollector | undefined, what: string): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (isSecretRef(v) && refs) {
    refs[path] = v.secret;
    return '';
  }
  if (typeof v !== 'string') throw new ConfigError(`${what} must be a string`, ownIssue('invalid_type', what.split('.')));
  return checked(v, headerValueSchema, what);
}

function optionalString(v: unknown, what: string, max = 4096): string | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') throw new ConfigError(`${what} must be a string`, ownIssue('invalid_type', what.split('.')));
  if (v.length > max) throw new ConfigError(`${what} is longer than ${max} characters`, ownIssue('too_big', what.split('.'), { origin: 'string', maximum: max }));
  return checked(v, headerValueSchema, what);
}

/** Parse `auth` of a remote entry; absent → `{kind: 'none'}`. @throws ConfigError */
export function parseAuth(raw: unknown, refs?: RefCollector): AuthConfig {
  if (raw === undefined || raw === null) return { kind: 'none' };
  if (!isRecord(raw)) throw new ConfigError('auth must be an object', ownIssue('invalid_type', ['auth']));
  switch (raw.kind) {
    case undefined:
    case 'none':
      return { kind: 'none' };
    case 'bearer': {
      const token = secretField(raw.token, 'auth:token', refs, 'auth.token');
      if (token === undefined) throw new ConfigError('auth.token is required for bearer auth', ownIssue('custom', ['auth', 'token'], { rule: 'required' }));
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
      throw new ConfigError(`unknown auth kind "${String(raw.kind).slice(0, 32)}"`, ownIssue('invalid_value', ['auth']));
  }
}

/** The contract's auth input as stored auth (absent → none). */
export function authFromInput(a: AuthInput | undefined): AuthConfig {
  if (!a || a.kind === 'none') return { kind: 'none' };
  if (a.kind === 'bearer') return { kind: 'bearer', token: a.token };
  const out: AuthConfig = { kind: 'oauth' };
  if (a.client_id) out.client_id = a.client_id;
  if (a.client_secret) out.client_secret = a.client_secret;
  if (a.scope) out.scope = a.scope;
  return out;
}
