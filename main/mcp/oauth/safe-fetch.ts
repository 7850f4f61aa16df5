/**
 * Guarded fetch for OAuth traffic (discovery, registration, token requests). The SDK's `auth()`
 * takes a `fetchFn`; we give it one that
 * - refuses responses larger than a bound (1 MiB by default) — metadata and token responses are
 *   small, so a huge body is an attack or a mistake;
 * - never follows redirects itself (the SDK follows same-origin ones through this function again,
 *   so every hop is checked), and refuses a redirect to a private, non-loopback address;
 * - refuses requests to private, non-loopback IP literals other than the MCP server's own host
 *   (so metadata cannot point us at e.g. 169.254.169.254);
 * - applies a per-request timeout and an optional cancellation signal;
 * - sends at most one refresh-token grant per refresh token (see {@link REFRESH_REUSE_MS}).
 *
 * Limits: host names are not resolved, so a public name that resolves to a private address is not
 * caught here.
 */
import { createHash } from 'node:crypto';
import { extractWWWAuthenticateParams } from '@modelcontextprotocol/client';
import type { FetchLike } from '@modelcontextprotocol/client';
import { OAuthFetchRefusedError } from './errors.js';
import { classifyHost, describeUrl } from './url-safety.js';

/** Default bound on one OAuth response body: 1 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;
/** Default per-request timeout: 30 s. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/** Options of {@link createGuardedFetch}. */
export interface GuardedFetchOptions {
  /** The fetch to wrap (default: global `fetch`). */
  base?: FetchLike;
  /** Largest accepted response body in bytes (default {@link DEFAULT_MAX_RESPONSE_BYTES}). */
  maxResponseBytes?: number;
  /** Per-request timeout in ms (default {@link DEFAULT_REQUEST_TIMEOUT_MS}). */
  timeoutMs?: number;
  /** Aborts every request made through this fetch (sign-in cancellation). */
  signal?: AbortSignal;
  /** Host names allowed even though they are private addresses (the MCP server's own host). */
  allowPrivateHosts?: Iterable<string>;
  /** The server's refresh-grant cache (its provider's); default: one for this fetch only. */
  refreshGrants?: RefreshGrantCache;
}

const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);

/**
 * How long a successful refresh-token grant's response is handed to later requests for the same
 * refresh token, in ms (capped at half the new access token's lifetime).
 *
 * Why: the SDK refreshes on its own whenever the MCP endpoint answers 401 (once per failed
 * request), and our background refresh runs on a timer. After a sleep, or when the model makes
 * parallel tool calls with an expired access token, several refreshes with the *same* rotating
 * refresh token would reach the authorization server; servers with reuse detection (OAuth 2.1
 * §4.3.1; oidc-provider, Auth0, Okta) then revoke the whole grant and the user must sign in
 * again. So concurrent requests share one request, and a request that arrives just after with the
 * refresh token that was just rotated gets the same answer instead of a reuse.
 */
export const REFRESH_REUSE_MS = 10_000;

interface GrantResult {
  res: Response;
  url: string;
}

function refreshGrantKey(url: URL, init: RequestInit | undefined): string | null {
  if ((init?.method ?? 'GET').toUpperCase() !== 'POST') return null;
  const body = init?.body;
  const params = body instanceof URLSearchParams ? body : typeof body === 'string' ? new URLSearchParams(body) : null;
  const token = params?.get('grant_type') === 'refresh_token' ? params.get('refresh_token') : null;
  return token ? createHash('sha256').update(`${url.href}\n${token}`).digest('base64url') : null;
}

function reuseMs(res: Response, body: string): number {
  if (!res.ok) return 0;
  try {
    const exp = (JSON.parse(body) as { expires_in?: unknown }).expires_in;
    return typeof exp === 'number' && exp > 0 ? Math.min(REFRESH_REUSE_MS, (exp * 1000) / 2) : REFRESH_REUSE_MS;
  } catch {
    return 0;
  }
}

/**
 * In-flight and just-finished refresh grants by hash(token endpoint, refresh token), so one
 * refresh token is sent at most once (see {@link REFRESH_REUSE_MS}). One per server: its OAuth
 * provider owns it, and every guarded fetch of that server (transports, sign-in, background
 * refresh) is given it.
 */
export class RefreshGrantCache {
  private readonly grants = new Map<string, Promise<GrantResult>>();

  /** Run `send` once per refresh-token key; every caller gets its own copy of the response. */
  async once(key: string, send: () => Promise<Response>): Promise<Response> {
    let pending = this.grants.get(key);
    if (!pending) {
      const p = send().then((res) => ({ res, url: res.url }));
      this.grants.set(key, p);
      p.then(
        async ({ res }) => {
          const keep = reuseMs(res, await res.clone().text());
          const t = setTimeout(() => this.grants.get(key) === p && this.grants.delete(key), keep);
          t.unref?.();
        },
        () => this.grants.get(key) === p && this.grants.delete(key),
      );
      pending = p;
    }
    const { res, url } = await pending;
    const copy = res.clone();
    Object.defineProperty(copy, 'url', { value: url });
    return copy;
  }
}

function checkTarget(url: URL, allowed: Set<string>): void {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new OAuthFetchRefusedError(`Refused to fetch a ${url.protocol} URL during sign-in.`, 'scheme', describeUrl(url));
  if (url.username || url.password) throw new OAuthFetchRefusedError(`Refused to fetch ${describeUrl(url)}: the URL carries credentials.`, 'credentials', describeUrl(url));
  if (classifyHost(url.hostname) === 'private' && !allowed.has(url.hostname.toLowerCase())) {
    throw new OAuthFetchRefusedError(`Refused to contact ${describeUrl(url)} during sign-in: it is a private network address.`, 'private_address', describeUrl(url));
  }
}

async function limitBody(res: Response, max: number, what: string): Promise<Response> {
  const declared = res.headers.get('content-length');
  if (declared !== null && Number(declared) > max) {
    await res.body?.cancel().catch(() => undefined);
    throw new OAuthFetchRefusedError(`The response from ${what} is larger than ${max} bytes; refused.`, 'too_large', what, max);
  }
  let body: ArrayBuffer | null = null;
  if (res.body) {
    const reader = res.body.getReader();
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > max) {
        await reader.cancel().catch(() => undefined);
        throw new OAuthFetchRefusedError(`The response from ${what} is larger than ${max} bytes; refused.`, 'too_large', what, max);
      }
      chunks.push(value);
    }
    const joined = Buffer.concat(chunks);
    body = joined.buffer.slice(joined.byteOffset, joined.byteOffset + joined.byteLength) as ArrayBuffer;
  }
  const out = new Response(NULL_BODY_STATUS.has(res.status) ? null : body, { status: res.status, statusText: res.statusText, headers: res.headers });
  Object.defineProperty(out, 'url', { value: res.url });
  return out;
}

/**
 * Wrap a fetch with the OAuth guards described in this module's header.
 * The returned function throws {@link OAuthFetchRefusedError} for a refused request or response,
 * and rejects with the abort reason when `signal` is aborted.
 */
export function createGuardedFetch(opts: GuardedFetchOptions = {}): FetchLike {
  const base = opts.base ?? ((url, init) => fetch(url, init));
  const max = opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const allowed = new Set([...(opts.allowPrivateHosts ?? [])].map((h) => h.toLowerCase()));
  const send: FetchLike = async (input, init) => {
    const url = new URL(String(input));
    checkTarget(url, allowed);
    const signals = [AbortSignal.timeout(timeoutMs)];
    if (opts.signal) signals.push(opts.signal);
    if (init?.signal) signals.push(init.signal);
    const signal = AbortSignal.any(signals);
    const res = await base(url, { ...init, redirect: init?.redirect === 'error' ? 'error' : 'manual', signal });
    if (res.status >= 300 && res.status < 400) {
      const location = res.headers.get('location');
      let target: URL | undefined;
      try {
        target = location ? new URL(location, url) : undefined;
      } catch {
        target = undefined;
      }
      if (target && classifyHost(target.hostname) === 'private' && !allowed.has(target.hostname.toLowerCase())) {
        await res.body?.cancel().catch(() => undefined);
        throw new OAuthFetchRefusedError(`Refused a redirect from ${describeUrl(url)} to a private network address.`, 'private_redirect', describeUrl(url));
      }
    }
    return limitBody(res, max, describeUrl(url));
  };
  const grants = opts.refreshGrants ?? new RefreshGrantCache();
  return async (input, init) => {
    const key = refreshGrantKey(new URL(String(input)), init);
    return key ? grants.once(key, () => send(input, init)) : send(input, init);
  };
}

/** What a 401/403 from the MCP endpoint said in `WWW-Authenticate` (RFC 6750 §3, RFC 9728 §5.1). */
export interface OAuthChallenge {
  /** `resource_metadata` parameter, if any. */
  resourceMetadataUrl?: string;
  /** `scope` parameter, if any. */
  scope?: string;
  /** `error` parameter, e.g. `invalid_token`, `insufficient_scope`. */
  error?: string;
  /** HTTP status: 401 or 403. */
  status: number;
}

/** Options of {@link createTransportFetch}. */
export interface TransportFetchOptions extends GuardedFetchOptions {
  /** The MCP endpoint URL the transport talks to. */
  serverUrl: string | URL;
  /** Called with the parsed challenge of every 401/403 from the MCP endpoint. */
  onChallenge?: (challenge: OAuthChallenge) => void;
  /**
   * Header names (case-insensitive) removed from every request that is not to the MCP endpoint:
   * the server's own configured headers (often secrets), which the SDK would otherwise also send
   * to the authorization server.
   */
  stripHeaders?: Iterable<string>;
}

function withoutHeaders(init: RequestInit | undefined, names: Set<string>): RequestInit | undefined {
  if (!init?.headers || names.size === 0) return init;
  const h = new Headers(init.headers);
  for (const n of names) h.delete(n);
  return { ...init, headers: h };
}

function sameEndpoint(a: URL, b: URL): boolean {
  return a.origin === b.origin && a.pathname === b.pathname && a.search === b.search;
}

/**
 * The `fetch` to give a Streamable HTTP / SSE client transport that has an `authProvider`. The
 * SDK uses the transport's fetch both for MCP traffic and for the `auth()` calls it makes on a 401,
 * so this passes requests to the MCP endpoint itself through unchanged (streams must not be
 * buffered) and reports their `WWW-Authenticate` challenge, and sends every other request (PRM,
 * authorization-server metadata, registration, token) through {@link createGuardedFetch}; the MCP
 * server's own host is allowed even when it is a private address.
 */
export function createTransportFetch(opts: TransportFetchOptions): FetchLike {
  const server = new URL(String(opts.serverUrl));
  const base = opts.base ?? ((url, init) => fetch(url, init));
  const guarded = createGuardedFetch({ ...opts, base, allowPrivateHosts: [server.hostname, ...(opts.allowPrivateHosts ?? [])] });
  const strip = new Set([...(opts.stripHeaders ?? [])].map((n) => n.toLowerCase()));
  return async (input, init) => {
    const url = new URL(String(input));
    if (!sameEndpoint(url, server)) return guarded(input, withoutHeaders(init, strip));
    const res = await base(input, init);
    if ((res.status === 401 || res.status === 403) && opts.onChallenge) {
      const p = extractWWWAuthenticateParams(res);
      opts.onChallenge({ status: res.status, resourceMetadataUrl: p.resourceMetadataUrl?.href, scope: p.scope, error: p.error });
    }
    return res;
  };
}
