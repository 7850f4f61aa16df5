/**
 * Electron's view origin for MCP Apps (docs/ARCHITECTURE.md "MCP Apps: isolation"): the
 * privileged `op-view:` scheme serves the sandbox page (main/mcp/apps/sandbox-page.ts) at
 * `op-view://sandbox/…`, an origin of its own — never the renderer's — whose frames get no
 * preload (Electron runs the preload in the main frame only) and so no `window.openprogram`.
 * Types only from electron: main/index.ts passes its `protocol` in.
 */
import type { CustomScheme, Protocol, Session } from 'electron';
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

/**
 * The device permissions a view may be granted (ext-apps `McpUiResourcePermissions`) as Electron
 * names them: `media` (camera: video, microphone: audio), `geolocation`, and the clipboard write
 * Electron calls `clipboard-sanitized-write`.
 */
const VIEW_PERMISSIONS = new Set(['media', 'geolocation', 'clipboard-sanitized-write']);

/** What a permission request or check says about who asks (Electron's handler details). */
export interface PermissionAsker {
  /** The asking frame's URL (`about:srcdoc` for a view's inner frame). */
  requestingUrl?: string;
  /** The asking frame's origin, when Electron gives it (media requests, checks). */
  securityOrigin?: string;
  /** Whether the asker is the window's main frame. */
  isMainFrame?: boolean;
}

/**
 * Whether Electron may grant `permission` to the asker: only a device permission a view can
 * declare, only to a subframe on the view origin (the inner `srcdoc` frame inherits that origin;
 * its URL is `about:srcdoc`). Everything else — the app's own window, other permissions — is
 * refused, as before views existed; so is an `about:srcdoc` asker whose origin Electron does not
 * say (a geolocation prompt, in some versions). Which view gets which device is decided earlier:
 * the window sets the frame's `allow` attribute only after the user agreed, and Chromium refuses
 * a feature that `allow` does not delegate before it reaches this handler.
 */
export function mayGrantViewPermission(permission: string, asker: PermissionAsker): boolean {
  if (!VIEW_PERMISSIONS.has(permission) || asker.isMainFrame !== false) return false;
  const origin = asker.securityOrigin?.replace(/\/$/, '');
  if (origin !== undefined) return origin === VIEW_ORIGIN && (asker.requestingUrl === undefined || asker.requestingUrl === 'about:srcdoc' || isViewUrl(asker.requestingUrl));
  // No origin given: only a frame whose own URL is on the view origin (not `about:srcdoc`, whose
  // origin could be anyone's).
  return isViewUrl(asker.requestingUrl ?? '');
}

/**
 * Install the session's permission handlers: {@link mayGrantViewPermission} for prompts and
 * synchronous checks; every other asker gets `false` (the app itself needs no permission).
 */
export function viewOnlyPermissions(session: Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler'>): void {
  session.setPermissionRequestHandler((_wc, permission, callback, details) => {
    const d = details as PermissionAsker & { mediaTypes?: string[] };
    callback(mayGrantViewPermission(permission, { requestingUrl: d.requestingUrl, securityOrigin: d.securityOrigin, isMainFrame: d.isMainFrame }));
  });
  session.setPermissionCheckHandler((_wc, permission, requestingOrigin, details) =>
    mayGrantViewPermission(permission, { requestingUrl: details.requestingUrl, securityOrigin: details.securityOrigin ?? requestingOrigin, isMainFrame: details.isMainFrame }),
  );
}
