/**
 * Secret references of the config file: every env/header value, bearer token and OAuth client
 * secret is written to mcp_servers.json as `{"secret": "<key>"}`, a reference to a value in the
 * secret store. Paths of secrets in a config, fresh keys, and finding our keys in any text
 * (docs/ARCHITECTURE.md "Secrets at rest").
 */
import { randomBytes } from 'node:crypto';
import type { SecretPlace } from '../../../preload/contract/index.js';
import type { ServerConfig } from './schema.js';
import { describeUrlPart } from './url-parts.js';
import { transportFor } from '../transports/registry.js';

export { isSecretRef, type RefCollector, type SecretRef } from './entry-parts.js';

/** Every secret of a config, by path (see {@link RefCollector}). */
export function secretsOf(cfg: ServerConfig): Record<string, string> {
  return transportFor(cfg).secrets(cfg);
}

/** Put a secret value back at its path in a (cloned) config; a path the transport lacks is ignored. */
export function setSecretAt(cfg: ServerConfig, p: string, value: string): void {
  transportFor(cfg).setSecret(cfg, p, value);
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
  return transportFor(cfg).mapSecrets(cfg, replace, mode);
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

/** A secret path as the contract's {@link SecretPlace}, for the window to word (`env:X` → the environment variable X, …). */
export function secretPlace(p: string): SecretPlace {
  const [field, name] = [p.slice(0, p.indexOf(':')), p.slice(p.indexOf(':') + 1)];
  if (field === 'env') return { kind: 'env', name };
  if (field === 'headers') return { kind: 'header', name };
  if (field === 'args') return { kind: 'argument', name };
  if (field === 'url') return name === 'username' ? { kind: 'url_user' } : name === 'password' ? { kind: 'url_password' } : { kind: 'url_query', name: name.slice('query:'.length) };
  return { kind: name === 'token' ? 'token' : 'client_secret' };
}
