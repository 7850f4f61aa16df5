/**
 * The view sandbox page (docs/ARCHITECTURE.md "MCP Apps: isolation"): the outer frame of the
 * ext-apps "sandbox proxy" pattern. It is served from an origin of its own (the browser shell's
 * second loopback listener; Electron's `op-view:` scheme), never the app's. The page waits for
 * the host's `ui/notifications/sandbox-resource-ready`, puts the view's HTML in an inner sandboxed
 * `srcdoc` frame (which inherits this page's origin and its Content-Security-Policy), and relays
 * JSON-RPC messages between the host (only `hostOrigin`) and that inner frame — nothing else.
 *
 * {@link sandboxResponse} is a pure function of the request path: both shells serve it as is.
 */
import { buildViewCsp, decodeCspParam } from './csp.js';

/** The page's path on the sandbox origin. */
export const SANDBOX_PAGE_PATH = '/sandbox.html';
/** The relay script's path on the sandbox origin. */
export const SANDBOX_SCRIPT_PATH = '/sandbox.js';

// The relay. Plain browser JavaScript, served as a file so the page needs no inline script of its own.
const RELAY = `(() => {
  'use strict';
  const hostOrigin = document.querySelector('meta[name="op-host-origin"]').content;
  const FEATURES = { camera: 'camera', microphone: 'microphone', geolocation: 'geolocation', clipboardWrite: 'clipboard-write' };
  let inner = null;
  window.addEventListener('message', (e) => {
    if (e.source === window.parent) {
      if (e.origin !== hostOrigin) return;
      const m = e.data;
      if (m && m.method === 'ui/notifications/sandbox-resource-ready') {
        if (inner) return;
        const p = (m.params && typeof m.params === 'object') ? m.params : {};
        if (typeof p.html !== 'string') return;
        inner = document.createElement('iframe');
        inner.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms');
        const perms = (p.permissions && typeof p.permissions === 'object') ? p.permissions : {};
        const allow = Object.keys(FEATURES).filter((k) => perms[k]).map((k) => FEATURES[k]).join('; ');
        if (allow) inner.setAttribute('allow', allow);
        inner.title = 'view';
        inner.srcdoc = p.html;
        document.body.appendChild(inner);
        return;
      }
      if (inner && inner.contentWindow) inner.contentWindow.postMessage(m, location.origin);
      return;
    }
    // Only the view's own document: if the inner frame was navigated away (to a site the view may
    // frame, say, by a frame it embeds), the page there has another origin and is not heard.
    if (inner && e.source === inner.contentWindow && e.origin === location.origin) window.parent.postMessage(e.data, hostOrigin);
  });
  window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, hostOrigin);
})();
`;

const PAGE_STYLE = 'html,body{margin:0;padding:0;height:100%;overflow:hidden;background:transparent}iframe{border:0;width:100%;height:100%;display:block}';

/** A response of the sandbox origin. */
export interface SandboxResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function escapeAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/**
 * What the sandbox origin answers to a GET of `url` (path and query).
 * `/sandbox.html?csp=<base64url JSON>` → the page, with the view's CSP (./csp.ts) as a header;
 * `/sandbox.js` → the relay; anything else → 404.
 * @param hostOrigin the app's origin (`http://127.0.0.1:<port>`, `op-app://…`): the only parent
 *   the relay talks to, and the only page allowed to frame the sandbox (`frame-ancestors`)
 */
export function sandboxResponse(url: string | undefined, hostOrigin: string): SandboxResponse {
  let parsed: URL;
  try {
    parsed = new URL(url ?? '/', 'http://sandbox.invalid');
  } catch {
    return { status: 400, headers: { 'content-type': 'text/plain' }, body: 'Bad request' };
  }
  const common = { 'x-content-type-options': 'nosniff', 'cache-control': 'no-store', 'cross-origin-resource-policy': 'same-origin' };
  if (parsed.pathname === SANDBOX_SCRIPT_PATH) {
    return { status: 200, headers: { ...common, 'content-type': 'text/javascript; charset=utf-8' }, body: RELAY };
  }
  if (parsed.pathname === SANDBOX_PAGE_PATH) {
    const csp = buildViewCsp(decodeCspParam(parsed.searchParams.get('csp')), hostOrigin);
    const body = `<!doctype html><html><head><meta charset="utf-8"><meta name="op-host-origin" content="${escapeAttr(hostOrigin)}"><style>${PAGE_STYLE}</style><script src="${SANDBOX_SCRIPT_PATH}"></script></head><body></body></html>`;
    return { status: 200, headers: { ...common, 'content-type': 'text/html; charset=utf-8', 'content-security-policy': csp }, body };
  }
  return { status: 404, headers: { 'content-type': 'text/plain' }, body: 'Not found' };
}
