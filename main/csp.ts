/**
 * The renderer's Content-Security-Policy, used by the Electron session and the browser shell:
 * only our own scripts, no inline script, no eval, no plugins, no framing, connections to our own
 * origin only (the browser shell's WebSocket). Images: our own, `data:`, and `https:` — for the
 * icons MCP servers declare (main/mcp/protocol/icons.ts keeps only https: and data: images; the
 * window loads them without credentials or referrer). Markdown images are never loaded.
 */
export const RENDERER_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";

/**
 * The policy every script file of the renderer is served with. A page's script ignores it (the
 * page's own policy governs it); it governs a script that starts a worker — the code highlighter
 * (docs/ARCHITECTURE.md "Code highlighting off the main thread"), which gets no policy from the
 * page: it may load only our own modules, and reach nothing (no fetch, no WebSocket, no images),
 * and no eval. The page needs no change to start it: `worker-src` falls back to `script-src 'self'`.
 */
export const WORKER_CSP = "default-src 'none'; script-src 'self'";

/**
 * The renderer's policy when MCP App views are served (docs/ARCHITECTURE.md "MCP Apps:
 * isolation"): the same, plus frames from the views' origins only — `viewSource` is the CSP
 * source that covers them (`http://*.localhost:<view port>` in the browser shell, `op-view:` in
 * Electron).
 */
export function rendererCspWithViews(viewSource: string): string {
  return `${RENDERER_CSP}; frame-src ${viewSource}`;
}
