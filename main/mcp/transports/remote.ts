/**
 * What the two remote transports (Streamable HTTP, legacy HTTP+SSE) share (docs/ARCHITECTURE.md
 * "Transports"): the config `url` (userinfo and query values are secrets), `headers` (every value
 * a secret) and `auth` (none, bearer, OAuth), their secrets, identity and masked view. Each
 * transport's module spreads {@link remoteParts} and adds its own launch.
 */
import { serverUrlSchema } from '../../../preload/contract/index.js';
import type { RemoteServerConfig, ServerConfig } from '../config.js';
import { authFromInput, ConfigError, parseAuth, schemaRefusal, stringMap, withUrlSecrets } from '../config/entry-parts.js';
import { ownIssue } from '../../util/validation-issue.js';
import { describeUrlPart, joinUrl, maskUrl, splitUrl, urlSecretParts } from '../config/url-parts.js';
import { maskMap, SECRET_PLACEHOLDER } from '../../secrets/mask.js';
import type { TransportKind } from './kind.js';

/** Whether a stored config is a remote one (either remote transport). */
function isRemote(cfg: ServerConfig): cfg is RemoteServerConfig {
  return 'url' in cfg;
}

/** `origin + path` of a URL (its query and fragment left out); the text itself when it does not parse. */
function urlOriginAndPath(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return url;
  }
}

function destination(cfg: RemoteServerConfig): string | null {
  try {
    return `url:${new URL(cfg.url).origin}`;
  } catch {
    return null;
  }
}

/** The members both remote descriptors share (everything but `type`, `aliases`, `launch`, `legacyFallback`, `live`). */
export const remoteParts: Omit<TransportKind<RemoteServerConfig>, 'type' | 'aliases' | 'launch' | 'legacyFallback' | 'live'> = {
  remote: true,

  parse(raw, type, common, refs) {
    if (typeof raw.url !== 'string') throw new ConfigError('url is required for a remote server', raw.url === undefined || raw.url === null ? ownIssue('custom', ['url'], { rule: 'required' }) : ownIssue('invalid_type', ['url']), 'url');
    const url = serverUrlSchema.safeParse(raw.url);
    if (!url.success) throw schemaRefusal(url.error, 'url');
    return { type, url: withUrlSecrets(raw.url, raw.url_secrets, refs), headers: stringMap(raw.headers, 'headers', refs), auth: parseAuth(raw.auth, refs), ...common };
  },

  fromInput: (input, common) => ({ type: input.type, url: input.url, headers: { ...(input.headers ?? {}) }, auth: authFromInput(input.auth), ...common }),

  assertNoPlaceholders(cfg) {
    const { parts } = splitUrl(cfg.url);
    if (Object.values(parts).includes(SECRET_PLACEHOLDER)) throw new ConfigError(`The URL holds "${SECRET_PLACEHOLDER}", which stands for a stored secret; enter the value.`, ownIssue('custom', ['url'], { rule: 'secret_placeholder' }), 'url');
  },

  loadShape: (cfg) => [cfg.type, cfg.url, Object.keys(cfg.headers), cfg.auth.kind],
  markKnownSecrets: (cfg) => cfg,

  secrets(cfg) {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(cfg.headers)) out[`headers:${k}`] = v;
    if (cfg.auth.kind === 'bearer') out['auth:token'] = cfg.auth.token;
    if (cfg.auth.kind === 'oauth' && cfg.auth.client_secret !== undefined) out['auth:client_secret'] = cfg.auth.client_secret;
    for (const [part, v] of Object.entries(urlSecretParts(cfg.url))) out[`url:${part}`] = v;
    return out;
  },

  setSecret(cfg, p, value) {
    const i = p.indexOf(':');
    const field = p.slice(0, i);
    const name = p.slice(i + 1);
    if (field === 'headers') cfg.headers[name] = value;
    else if (field === 'url') {
      const { base, parts } = splitUrl(cfg.url);
      cfg.url = joinUrl(base, { ...parts, [name]: value });
    } else if (field === 'auth') {
      if (name === 'token' && cfg.auth.kind === 'bearer') cfg.auth.token = value;
      if (name === 'client_secret' && cfg.auth.kind === 'oauth') cfg.auth.client_secret = value;
    }
  },

  mapSecrets(cfg, replace, mode) {
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
  },

  sameSecretDestination(next, stored) {
    if (!isRemote(stored)) return false;
    const d = destination(next);
    return d !== null && d === destination(stored);
  },

  keptSecrets(next, stored, apply) {
    const kept: string[] = [];
    if (!isRemote(stored) || !remoteParts.sameSecretDestination(next, stored)) return kept;
    const { base, parts } = splitUrl(next.url);
    const before = splitUrl(stored.url).parts;
    let filled = false;
    for (const [part, v] of Object.entries(parts)) {
      if (v !== SECRET_PLACEHOLDER || before[part] === undefined) continue;
      kept.push(describeUrlPart(part));
      parts[part] = before[part]!;
      filled = true;
    }
    if (apply && filled) next.url = joinUrl(base, parts);
    for (const [k, v] of Object.entries(next.headers)) {
      if (v !== '' || !stored.headers[k]) continue;
      kept.push(`header ${k}`);
      if (apply) next.headers[k] = stored.headers[k]!;
    }
    if (next.auth.kind === 'bearer' && !next.auth.token && stored.auth.kind === 'bearer' && stored.auth.token) {
      kept.push('bearer token');
      if (apply) next.auth.token = stored.auth.token;
    }
    if (next.auth.kind === 'oauth' && !next.auth.client_secret && stored.auth.kind === 'oauth' && stored.auth.client_secret) {
      kept.push('OAuth client secret');
      if (apply) next.auth.client_secret = stored.auth.client_secret;
    }
    return kept;
  },

  namedValues: (cfg) => cfg.headers,
  destination,
  identity: (cfg) => ({ target: urlOriginAndPath(cfg.url), names: Object.keys(cfg.headers).map((h) => h.toLowerCase()) }),
  fingerprint: (cfg) => [cfg.url, cfg.headers],
  maskedTarget: (cfg) => ({ command: [], secret_args: [], url: maskUrl(cfg.url), url_secrets: maskMap(urlSecretParts(cfg.url)) }),
  maskedValues: (cfg) => ({ env: {}, headers: maskMap(cfg.headers) }),
  auth: (cfg) => cfg.auth,
  url: (cfg) => cfg.url,
  failureTarget: (cfg) => ({ url: maskUrl(cfg.url), command: null }),
  preflight: () => undefined,
  // Over HTTP silence is an outage: the probe has the whole start timeout (the SDK's default).
  probeTimeoutMs: () => null,
};

/**
 * The request headers of a remote server without OAuth: its configured headers, `Authorization:
 * Basic` from URL userinfo, and a bearer token (RFC 6750 §2.1) — sent with every request.
 */
export function staticAuthHeaders(cfg: RemoteServerConfig, headers: Record<string, string>): Record<string, string> {
  return cfg.auth.kind === 'bearer' ? { ...headers, Authorization: `Bearer ${cfg.auth.token}` } : headers;
}
