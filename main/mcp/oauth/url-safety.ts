/**
 * URL rules for OAuth: which authorization URLs may be handed to the system browser, which
 * hosts count as loopback or private, and the checks we add on top of the SDK's own metadata
 * validation (RFC 8414 §3.3 issuer match; TLS for every authorization-server endpoint except on
 * loopback, as OAuth 2.1 §1.5 requires).
 */
import { isIP } from 'node:net';
import type { AuthorizationServerMetadata } from '@modelcontextprotocol/client';
import { isHttpsOrLoopbackHttp, isLoopbackHost } from '../../../preload/contract/rules/index.js';
import { UnsafeUrlError } from './errors.js';

/** Longest authorization URL we will hand to a browser, in characters. */
export const MAX_AUTHORIZATION_URL_LENGTH = 8192;

// C0 controls, DEL, C1 controls, and Unicode line/paragraph separators and bidi overrides.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** Where a host points. `public` covers every name that is not an IP literal (DNS is not resolved). */
export type HostClass = 'loopback' | 'private' | 'public';

function ipv4Class(a: number, b: number): HostClass {
  if (a === 10 || a === 0) return 'private';
  if (a === 172 && b >= 16 && b <= 31) return 'private';
  if (a === 192 && b === 168) return 'private';
  if (a === 169 && b === 254) return 'private'; // link-local, incl. cloud metadata 169.254.169.254
  if (a === 100 && b >= 64 && b <= 127) return 'private'; // CGNAT (RFC 6598)
  return 'public';
}

/**
 * Classify a hostname (`URL.hostname`, IPv6 with or without brackets): `loopback` by the one
 * loopback rule (`isLoopbackHost`: 127/8, ::1, IPv4-mapped 127/8, `localhost` names); other IP
 * literals by range: private (RFC 1918, link-local, CGNAT, ULA fc00::/7, fe80::/10,
 * unspecified). Any other name is `public`.
 */
export function classifyHost(hostname: string): HostClass {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (isLoopbackHost(h)) return 'loopback';
  const kind = isIP(h);
  if (kind === 4) {
    const [a, b] = h.split('.').map(Number) as [number, number];
    return ipv4Class(a, b);
  }
  if (kind === 6) {
    if (h === '::') return 'private';
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h);
    if (mapped) return classifyHost(mapped[1]!);
    const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(h);
    if (hex) {
      const hi = parseInt(hex[1]!, 16);
      return ipv4Class(hi >> 8, hi & 0xff);
    }
    const first = parseInt(h.split(':')[0] || '0', 16);
    if ((first & 0xfe00) === 0xfc00) return 'private'; // fc00::/7
    if ((first & 0xffc0) === 0xfe80) return 'private'; // fe80::/10
    return 'public';
  }
  return 'public';
}

function parseStrict(input: string | URL): URL | null {
  const raw = typeof input === 'string' ? input : input.href;
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_AUTHORIZATION_URL_LENGTH) return null;
  if (CONTROL_CHARS.test(raw) || raw !== raw.trim()) return null;
  try {
    return new URL(raw);
  } catch {
    return null;
  }
}

/**
 * Whether an authorization URL may be handed to the system browser: it parses as a WHATWG URL,
 * has no control characters or surrounding whitespace, carries no username/password, is at most
 * {@link MAX_AUTHORIZATION_URL_LENGTH} characters, and is `https:` — or `http:` to a loopback host
 * (the one loopback rule, `isLoopbackHost`). Every other scheme (`file:`, `javascript:`, `data:`,
 * custom schemes, …) is refused. We never pass URLs to a shell, so shell syntax is not checked.
 */
export function isSafeAuthorizationUrl(input: string | URL): boolean {
  const u = parseStrict(input);
  if (!u) return false;
  if (u.username || u.password) return false;
  if (!u.hostname) return false;
  return isHttpsOrLoopbackHttp(u);
}

/**
 * Whether an authorization-server endpoint (token, registration, revocation) may be called:
 * `https:`, or `http:` to loopback only (OAuth 2.1 §1.5); no credentials in the URL.
 */
export function isSafeEndpointUrl(input: string | URL): boolean {
  const u = parseStrict(input);
  if (!u || u.username || u.password || !u.hostname) return false;
  return isHttpsOrLoopbackHttp(u);
}

/** A short description of a URL for messages: scheme and host only (never path or query). */
export function describeUrl(input: string | URL): string {
  try {
    const u = new URL(String(input));
    return u.host ? `${u.protocol}//${u.host}` : `${u.protocol} URL`;
  } catch {
    return 'an unparsable URL';
  }
}

/** Compare two issuer identifiers, tolerating one trailing `/` (as the SDK does). */
export function issuersMatch(a: string, b: string): boolean {
  let [x, y] = [a, b];
  try {
    [x, y] = [new URL(a).href, new URL(b).href];
  } catch {
    // compared as written
  }
  return x === y || (x.endsWith('/') && x.slice(0, -1) === y) || (y.endsWith('/') && y.slice(0, -1) === x);
}

/**
 * Checks we add to the SDK's schema validation of authorization server metadata (the SDK already
 * refuses `javascript:`, `data:` and `vbscript:` URLs):
 * - `issuer` must equal the URL discovery used (RFC 8414 §3.3, OIDC Discovery §4.3) — checked
 *   when `checkIssuer` is true, i.e. when that URL came from the server's Protected Resource
 *   Metadata. In the 2025-03-26 fallback (no PRM; the MCP server's origin is taken as the
 *   authorization base URL) no issuer was ever advertised, so there is nothing to compare with;
 * - `authorization_endpoint` must pass {@link isSafeAuthorizationUrl};
 * - `token_endpoint`, `registration_endpoint`, `revocation_endpoint` must pass {@link isSafeEndpointUrl}.
 *
 * @throws UnsafeUrlError naming the field and the scheme/host only.
 */
export function assertSafeAuthorizationServerMetadata(meta: AuthorizationServerMetadata, authorizationServerUrl: string, checkIssuer = true): void {
  if (checkIssuer && typeof meta.issuer === 'string' && !issuersMatch(meta.issuer, authorizationServerUrl)) {
    throw new UnsafeUrlError(`The authorization server metadata names issuer ${describeUrl(meta.issuer)}, not ${describeUrl(authorizationServerUrl)} where it was found (RFC 8414 §3.3).`, 'issuer', null, describeUrl(meta.issuer));
  }
  if (!isSafeAuthorizationUrl(meta.authorization_endpoint)) {
    throw new UnsafeUrlError(`The authorization server's authorization_endpoint (${describeUrl(meta.authorization_endpoint)}) is not an https: or loopback http: URL; it will not be opened.`, 'authorization_endpoint', 'authorization_endpoint', describeUrl(meta.authorization_endpoint));
  }
  const endpoints: Array<[string, unknown]> = [
    ['token_endpoint', meta.token_endpoint],
    ['registration_endpoint', meta.registration_endpoint],
    ['revocation_endpoint', (meta as { revocation_endpoint?: unknown }).revocation_endpoint],
  ];
  for (const [field, value] of endpoints) {
    if (value === undefined) continue;
    if (typeof value !== 'string' || !isSafeEndpointUrl(value)) {
      throw new UnsafeUrlError(`The authorization server's ${field} (${describeUrl(String(value))}) must be https: (or http: on loopback).`, 'endpoint', field, describeUrl(String(value)));
    }
  }
}
