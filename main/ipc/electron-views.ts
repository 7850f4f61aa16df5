/**
 * Electron's view origins for MCP Apps (docs/ARCHITECTURE.md "MCP Apps: isolation"): the
 * privileged `op-view:` scheme serves the sandbox page (main/mcp/apps/sandbox-page.ts) at
 * `op-view://<label>/…`, one host — so one origin — per shown view, never the renderer's nor
 * another view's, and only for the label of a view shown now. Its frames get no preload (Electron
 * runs the preload in the main frame only) and so no `window.openprogram`.
 * Types only from electron: main/index.ts passes its `protocol` in.
 */
import type { CustomScheme, Protocol, Session, WebContents } from 'electron';
import type { McpUiResourceCsp } from '@modelcontextprotocol/ext-apps/app-bridge';
import { sandboxResponse } from '../mcp/apps/sandbox-page.js';
import { VIEW_LABEL } from '../mcp/apps/view-instances.js';

/** The scheme of the view origins. */
export const VIEW_SCHEME = 'op-view';
/** What the renderer's CSP lets it frame: the view scheme (each view is a host on it). */
export const VIEW_FRAME_SOURCE = `${VIEW_SCHEME}:`;

/** Register before `app` is ready: a standard, secure scheme (so each host is a real origin). */
export const VIEW_SCHEME_PRIVILEGES: CustomScheme = { scheme: VIEW_SCHEME, privileges: { standard: true, secure: true } };

/** The origin of the view with label `label`: `op-view://<label>`. */
export function viewOriginFor(label: string): string {
  return `${VIEW_SCHEME}://${label}`;
}

/** The view origin `origin` is (`op-view://<label>`, no path), or null. */
function viewLabelOfOrigin(origin: string): string | null {
  const m = /^op-view:\/\/([a-z0-9]+)$/.exec(origin);
  return m && VIEW_LABEL.test(m[1]!) ? m[1]! : null;
}

/** Whether a URL is on a view origin (its responses keep their own CSP). */
export function isViewUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === `${VIEW_SCHEME}:` && VIEW_LABEL.test(u.host);
  } catch {
    return false;
  }
}

/**
 * Serve the sandbox pages on `op-view://<label>`. @param hostOrigin the renderer's origin, the
 * only page allowed to frame them and the only one the relay talks to. @param cspFor the policy
 * of the view shown with a label, or null when none is (then nothing is served).
 */
export function serveViewOrigin(protocol: Pick<Protocol, 'handle'>, hostOrigin: string, cspFor: (label: string) => McpUiResourceCsp | null): void {
  protocol.handle(VIEW_SCHEME, (req) => {
    const u = new URL(req.url);
    if (!VIEW_LABEL.test(u.host) || req.method !== 'GET') return new Response('Not found', { status: 404 });
    const r = sandboxResponse(u.pathname + u.search, hostOrigin, cspFor(u.host));
    return new Response(r.body, { status: r.status, headers: r.headers });
  });
}

/**
 * Keep views' WebRTC off the network as far as Electron allows: no UDP that does not go through
 * a proxy (so no STUN/TURN packets to any host). TURN over TCP is not covered; README "Security".
 */
export function limitViewWebRtc(contents: Pick<WebContents, 'setWebRTCIPHandlingPolicy'>): void {
  contents.setWebRTCIPHandlingPolicy('disable_non_proxied_udp');
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
 * declare, only to a subframe on a view origin (the inner `srcdoc` frame inherits that origin;
 * its URL is `about:srcdoc`). Everything else — the app's own window, other permissions — is
 * refused, as before views existed; so is an `about:srcdoc` asker whose origin Electron does not
 * say (a geolocation prompt, in some versions). Which view gets which device is decided earlier:
 * the window sets the frame's `allow` attribute only after the user agreed, and Chromium refuses
 * a feature that `allow` does not delegate before it reaches this handler.
 */
export function mayGrantViewPermission(permission: string, asker: PermissionAsker): boolean {
  if (!VIEW_PERMISSIONS.has(permission) || asker.isMainFrame !== false) return false;
  const origin = asker.securityOrigin?.replace(/\/$/, '');
  if (origin !== undefined) return viewLabelOfOrigin(origin) !== null && (asker.requestingUrl === undefined || asker.requestingUrl === 'about:srcdoc' || isViewUrl(asker.requestingUrl));
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
