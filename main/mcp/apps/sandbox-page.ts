/**
 * The view sandbox page (docs/ARCHITECTURE.md "MCP Apps: isolation"): the outer frame of the
 * ext-apps "sandbox proxy" pattern. Each shown view gets it on an origin of its own (the browser
 * shell: a host `<label>.localhost` on the view port; Electron: a host `<label>` on the `op-view:`
 * scheme), never the app's and never another view's. The page waits for the host's
 * `ui/notifications/sandbox-resource-ready`, puts the view's HTML in an inner sandboxed `srcdoc`
 * frame (which inherits this page's origin and its Content-Security-Policy), and relays JSON-RPC
 * messages between the host (only `hostOrigin`) and that inner frame — nothing else.
 *
 * {@link sandboxResponse} is a pure function of the request path and the view's policy: both
 * shells serve it as is, for the labels of shown views only.
 */
import type { McpUiResourceCsp } from '@modelcontextprotocol/ext-apps/app-bridge';
import { buildViewCsp } from './csp.js';

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
  // No WebRTC in this page's realm nor in the view's (a peer connection sends STUN/TURN packets
  // that no CSP governs; the view shares this origin, so it could borrow this page's), nor in a
  // child frame reached through its element. A speed bump, not a wall: a child frame reached
  // otherwise (window[0]) still has it (README "Security").
  function lockWebRtc() {
    const names = ['RTCPeerConnection', 'webkitRTCPeerConnection'];
    const scrub = function (w) {
      for (const n of names) { try { Object.defineProperty(w, n, { value: undefined, writable: false, configurable: false }); } catch (e) { /* already locked */ } }
    };
    scrub(window);
    const wrap = function (C, prop, toWindow) {
      const d = C && Object.getOwnPropertyDescriptor(C.prototype, prop);
      if (!d || !d.get) return;
      Object.defineProperty(C.prototype, prop, { configurable: false, enumerable: d.enumerable, get: function () { const v = d.get.call(this); try { if (v) scrub(toWindow(v)); } catch (e) { /* cross-origin */ } return v; } });
    };
    wrap(window.HTMLIFrameElement, 'contentWindow', function (v) { return v; });
    wrap(window.HTMLIFrameElement, 'contentDocument', function (v) { return v.defaultView; });
  }
  lockWebRtc();
  // The same, first thing in the view's document (after a doctype, so it keeps its standards mode).
  const PREAMBLE = '<script>(' + String(lockWebRtc) + ')();</' + 'script>';
  const withPreamble = (html) => {
    const m = /^\\uFEFF?\\s*<!doctype[^>]*>/i.exec(html);
    return m ? m[0] + PREAMBLE + html.slice(m[0].length) : PREAMBLE + html;
  };
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
        inner.srcdoc = withPreamble(p.html);
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

/** The answer for anything that is not the page or its relay. */
const NOT_FOUND: SandboxResponse = { status: 404, headers: { 'content-type': 'text/plain' }, body: 'Not found' };

/**
 * What a shown view's origin answers to a GET of `url` (path and query): `/sandbox.html` → the
 * page, with the view's CSP (./csp.ts) as a header; `/sandbox.js` → the relay; anything else →
 * 404. A host with no shown view (`csp` null) serves nothing at all.
 * @param hostOrigin the app's origin (`http://127.0.0.1:<port>`, `op-app://…`): the only parent
 *   the relay talks to, and the only page allowed to frame the sandbox (`frame-ancestors`)
 * @param csp the sanitized policy of the view this origin belongs to, or null when none is shown
 */
export function sandboxResponse(url: string | undefined, hostOrigin: string, csp: McpUiResourceCsp | null): SandboxResponse {
  let parsed: URL;
  try {
    parsed = new URL(url ?? '/', 'http://sandbox.invalid');
  } catch {
    return { status: 400, headers: { 'content-type': 'text/plain' }, body: 'Bad request' };
  }
  if (!csp) return NOT_FOUND;
  // No document.domain games: each view's origin is its own agent cluster.
  const common = { 'x-content-type-options': 'nosniff', 'cache-control': 'no-store', 'cross-origin-resource-policy': 'same-origin', 'origin-agent-cluster': '?1' };
  if (parsed.pathname === SANDBOX_SCRIPT_PATH) {
    return { status: 200, headers: { ...common, 'content-type': 'text/javascript; charset=utf-8' }, body: RELAY };
  }
  if (parsed.pathname === SANDBOX_PAGE_PATH) {
    const body = `<!doctype html><html><head><meta charset="utf-8"><meta name="op-host-origin" content="${escapeAttr(hostOrigin)}"><style>${PAGE_STYLE}</style><script src="${SANDBOX_SCRIPT_PATH}"></script></head><body></body></html>`;
    return { status: 200, headers: { ...common, 'content-type': 'text/html; charset=utf-8', 'content-security-policy': buildViewCsp(csp, hostOrigin) }, body };
  }
  return NOT_FOUND;
}

