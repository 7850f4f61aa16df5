/**
 * The Content-Security-Policy of an MCP App view (docs/ARCHITECTURE.md "MCP Apps"): built in main
 * from the resource's declared `_meta.ui.csp` (ext-apps spec "UI Resource Format: csp") on top of
 * a restrictive default — no network at all unless the resource declared the origins it needs.
 * Only plain origins survive the check (`https://host[:port]`, `https://*.host`, or `http:` to
 * this machine); anything else (keywords, paths, quotes, `;`) is dropped, so the policy is never
 * looser than declared.
 */
import type { McpUiResourceCsp } from '@modelcontextprotocol/ext-apps/app-bridge';

/** Most origins kept per directive. */
export const MAX_CSP_ORIGINS = 32;
/** Longest origin kept, in characters. */
const MAX_ORIGIN_CHARS = 253;

const REMOTE = /^https:\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$/i;
const LOCAL = /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/i;

/** Whether `origin` may appear in a view's CSP (see the file header). */
export function isAllowedCspOrigin(origin: unknown): origin is string {
  return typeof origin === 'string' && origin.length <= MAX_ORIGIN_CHARS && (REMOTE.test(origin) || LOCAL.test(origin));
}

/** The declared origins of one directive that pass {@link isAllowedCspOrigin}, unique, capped. */
function keep(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return [...new Set(list.filter(isAllowedCspOrigin).map((o) => o.toLowerCase()))].slice(0, MAX_CSP_ORIGINS);
}

/** A declared `_meta.ui.csp` reduced to what this host accepts (unknown keys dropped). */
export function sanitizeCsp(declared: unknown): McpUiResourceCsp {
  const d = (typeof declared === 'object' && declared !== null ? declared : {}) as Record<string, unknown>;
  const out: McpUiResourceCsp = {};
  const connect = keep(d.connectDomains);
  const resource = keep(d.resourceDomains);
  const frame = keep(d.frameDomains);
  const base = keep(d.baseUriDomains);
  if (connect.length) out.connectDomains = connect;
  if (resource.length) out.resourceDomains = resource;
  if (frame.length) out.frameDomains = frame;
  if (base.length) out.baseUriDomains = base;
  return out;
}

/**
 * The policy header of a view's sandbox page. The view's own inline scripts and styles run
 * (views are single HTML documents); `'self'` is the sandbox origin, which serves only the proxy
 * page and its script. Network (`connect-src`) is `'none'` unless declared.
 * @param csp an already sanitized declaration ({@link sanitizeCsp})
 * @param hostOrigin the app's origin: the only page allowed to frame the sandbox page
 */
export function buildViewCsp(csp: McpUiResourceCsp, hostOrigin: string): string {
  const res = (csp.resourceDomains ?? []).join(' ');
  const sp = (s: string): string => (s ? ` ${s}` : '');
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline'${sp(res)}`,
    `style-src 'self' 'unsafe-inline'${sp(res)}`,
    `img-src 'self' data: blob:${sp(res)}`,
    `font-src 'self' data:${sp(res)}`,
    `media-src 'self' data: blob:${sp(res)}`,
    `connect-src ${csp.connectDomains?.length ? csp.connectDomains.join(' ') : "'none'"}`,
    `frame-src ${csp.frameDomains?.length ? csp.frameDomains.join(' ') : "'none'"}`,
    `base-uri ${csp.baseUriDomains?.length ? csp.baseUriDomains.join(' ') : "'none'"}`,
    "form-action 'none'",
    "object-src 'none'",
    `frame-ancestors ${hostOrigin}`,
  ].join('; ');
}
