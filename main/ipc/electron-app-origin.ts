/**
 * Electron's app origin (docs/ARCHITECTURE.md "MCP Apps: isolation"): the built renderer is served
 * from the privileged `op-app:` scheme at `op-app://app/…` instead of `file://`. A `file:` page has
 * an opaque origin, which a view's sandbox page (on `op-view://<label>`) can neither name as the
 * only parent it talks to nor allow in `frame-ancestors`; `op-app://app` is a real origin.
 *
 * {@link rendererAsset} is the pure part (URL → file inside the renderer folder, or a refusal);
 * {@link serveAppOrigin} wires it to Electron's `protocol` (types only from electron here).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { CustomScheme, Protocol } from 'electron';
import { WORKER_CSP } from '../csp.js';

/** The scheme the renderer is served on. */
export const APP_SCHEME = 'op-app';
/** The renderer's origin in Electron. */
export const APP_ORIGIN = `${APP_SCHEME}://app`;
/** The URL the window loads. */
export const APP_INDEX_URL = `${APP_ORIGIN}/index.html`;

/**
 * Register before `app` is ready: standard (a real origin, relative URLs resolve), secure (a
 * secure context, like `https:`), `fetch` and module scripts (`crossorigin`) of its own assets — no
 * other origin may read them, no response carries `Access-Control-Allow-Origin` — and V8 code cache.
 */
export const APP_SCHEME_PRIVILEGES: CustomScheme = { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true, codeCache: true } };

/** Content types of the files the renderer build emits; anything else is not served. */
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
};

/** Where a request of the app origin leads: a file of the renderer folder, or a refusal. */
export type RendererAsset = { kind: 'file'; path: string; contentType: string } | { kind: 'refused'; status: 400 | 404 | 405 };

/**
 * Map a request on the app origin to a file inside `rendererDir` (`/` → `index.html`). Refused:
 * another host, a method other than GET/HEAD, a path that is not valid percent-encoding or holds
 * NUL or a backslash, any `..` segment (encoded or not), a path outside the folder, an unknown
 * file type. Pure: it does not touch the disk.
 * @param rendererDir absolute path of the built renderer folder
 * @param url the request URL (`op-app://app/assets/x.js`)
 */
export function rendererAsset(rendererDir: string, url: string, method = 'GET'): RendererAsset {
  if (method !== 'GET' && method !== 'HEAD') return { kind: 'refused', status: 405 };
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { kind: 'refused', status: 400 };
  }
  if (`${u.protocol}//${u.host}` !== APP_ORIGIN) return { kind: 'refused', status: 404 };
  let pathname: string;
  try {
    pathname = decodeURIComponent(u.pathname);
  } catch {
    return { kind: 'refused', status: 400 };
  }
  if (pathname.includes('\0') || pathname.includes('\\')) return { kind: 'refused', status: 400 };
  const segments = pathname.split('/').filter((s) => s !== '');
  if (segments.some((s) => s === '..' || s === '.')) return { kind: 'refused', status: 404 };
  if (segments.length === 0) segments.push('index.html');
  const root = path.resolve(rendererDir);
  const file = path.resolve(root, ...segments);
  if (!file.startsWith(root + path.sep)) return { kind: 'refused', status: 404 };
  const contentType = CONTENT_TYPES[path.extname(file).toLowerCase()];
  if (!contentType) return { kind: 'refused', status: 404 };
  return { kind: 'file', path: file, contentType };
}

/** A response of the app origin, as plain data. */
export interface AppOriginResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer | string;
}

/**
 * Answer one request of the app origin from the disk: the file {@link rendererAsset} names (the
 * folder is the app's own build output, inside its asar archive when packaged; plain `readFile`
 * is what reads from there); pages carry `csp`, scripts the worker policy (main/csp.ts `WORKER_CSP`). Never throws: a missing or unreadable file is a 404.
 */
export async function appOriginResponse(rendererDir: string, url: string, method: string, csp: string): Promise<AppOriginResponse> {
  const asset = rendererAsset(rendererDir, url, method);
  const refusal = (status: number): AppOriginResponse => ({ status, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: status === 405 ? 'Method not allowed' : status === 400 ? 'Bad request' : 'Not found' });
  if (asset.kind === 'refused') return refusal(asset.status);
  try {
    const body = await readFile(asset.path);
    const headers: Record<string, string> = { 'content-type': asset.contentType, 'x-content-type-options': 'nosniff', 'cache-control': 'no-cache' };
    if (asset.contentType.startsWith('text/html')) headers['content-security-policy'] = csp;
    // A script file carries the worker's policy: it governs the script only when a worker runs it.
    else if (asset.contentType.startsWith('text/javascript')) headers['content-security-policy'] = WORKER_CSP;
    return { status: 200, headers, body: method === 'HEAD' ? '' : body };
  } catch {
    return refusal(404);
  }
}

/**
 * Serve the built renderer on `op-app://app`. @param rendererDir the folder of `index.html`;
 * @param csp the renderer's policy (main/csp.ts), sent with each page.
 */
export function serveAppOrigin(protocol: Pick<Protocol, 'handle'>, rendererDir: string, csp: string): void {
  protocol.handle(APP_SCHEME, async (req) => {
    const r = await appOriginResponse(rendererDir, req.url, req.method, csp);
    return new Response(r.body.length ? new Uint8Array(typeof r.body === 'string' ? Buffer.from(r.body) : r.body) : null, { status: r.status, headers: r.headers });
  });
}
