/**
 * Electron's view origin for MCP Apps (docs/ARCHITECTURE.md "MCP Apps: isolation"): the
 * privileged `op-view:` scheme serves the sandbox page (main/mcp/apps/sandbox-page.ts) at
 * `op-view://sandbox/…`, an origin of its own — never the renderer's — whose frames get no
 * preload (Electron runs the preload in the main frame only) and so no `window.openprogram`.
 * Types only from electron: main/index.ts passes its `protocol` in.
 */
import type { CustomScheme, Protocol } from 'electron';
import { sandboxResponse } from '../mcp/apps/sandbox-page.js';

/** The scheme of the view origin. */
export const VIEW_SCHEME = 'op-view';
/** The view origin the renderer frames views from. */
export const VIEW_ORIGIN = `${VIEW_SCHEME}://sandbox`;

/** Register before `app` is ready: a standard, secure scheme (so it has a real origin). */
export const VIEW_SCHEME_PRIVILEGES: CustomScheme = { scheme: VIEW_SCHEME, privileges: { standard: true, secure: true } };

/** Whether a URL is on the view origin (its responses keep their own CSP). */
export function isViewUrl(url: string): boolean {
  return url.startsWith(`${VIEW_ORIGIN}/`);
}

/**
 * Serve the sandbox page on `op-view://sandbox`. @param hostOrigin the renderer's origin, the
 * only page allowed to frame it and the only one the relay talks to.
 */
export function serveViewOrigin(protocol: Pick<Protocol, 'handle'>, hostOrigin: string): void {
  protocol.handle(VIEW_SCHEME, (req) => {
    const u = new URL(req.url);
    if (u.host !== 'sandbox' || req.method !== 'GET') return new Response('Not found', { status: 404 });
    const r = sandboxResponse(u.pathname + u.search, hostOrigin);
    return new Response(r.body, { status: r.status, headers: r.headers });
  });
}
