/**
 * Electron's app origin (main/ipc/electron-app-origin.ts): the built renderer is served on
 * `op-app://app` from its folder on disk, nothing outside it, nothing but the build's file types.
 * Real files in a temporary folder, and the real build output when it exists.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { APP_INDEX_URL, APP_ORIGIN, appOriginResponse, rendererAsset, serveAppOrigin } from '../../../main/ipc/electron-app-origin.js';
import { rendererCspWithViews, WORKER_CSP } from '../../../main/csp.js';
import { serveViewOrigin, viewOriginFor, VIEW_FRAME_SOURCE } from '../../../main/ipc/electron-views.js';
import { ROOT } from '../helpers.js';

const base = mkdtempSync(path.join(tmpdir(), 'op-app-origin-'));
const dir = path.join(base, 'renderer');
mkdirSync(path.join(dir, 'assets'), { recursive: true });
writeFileSync(path.join(dir, 'index.html'), '<!doctype html><p>app</p>');
writeFileSync(path.join(dir, 'assets', 'main.js'), 'console.log(1)');
writeFileSync(path.join(dir, 'notes.txt'), 'not a build file type');
writeFileSync(path.join(base, 'secret.html'), 'SECRET');
afterAll(() => rmSync(base, { recursive: true, force: true }));
const CSP = rendererCspWithViews(VIEW_FRAME_SOURCE);

describe('app origin', () => {
  it('serves index.html (also for /) with the renderer policy, and assets with their type', async () => {
    for (const url of [APP_INDEX_URL, `${APP_ORIGIN}/`, `${APP_ORIGIN}`]) {
      const r = await appOriginResponse(dir, url, 'GET', CSP);
      expect(r.status).toBe(200);
      expect(String(r.body)).toContain('<p>app</p>');
      expect(r.headers['content-type']).toMatch(/^text\/html/);
      expect(r.headers['content-security-policy']).toBe(CSP);
      expect(r.headers['x-content-type-options']).toBe('nosniff');
    }
    const js = await appOriginResponse(dir, `${APP_ORIGIN}/assets/main.js?v=1#x`, 'GET', CSP);
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toMatch(/^text\/javascript/);
    // A script carries the worker policy (it governs a script only when a worker runs it).
    expect(js.headers['content-security-policy']).toBe(WORKER_CSP);
    const head = await appOriginResponse(dir, APP_INDEX_URL, 'HEAD', CSP);
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
  });

  it.each([
    ['parent folder, plain (the URL parser folds it to /secret.html, which is not there)', `${APP_ORIGIN}/../secret.html`, 404],
    ['parent folder, percent-encoded dots', `${APP_ORIGIN}/%2e%2e/secret.html`, 404],
    ['parent folder, encoded slash', `${APP_ORIGIN}/assets/..%2f..%2fsecret.html`, 404],
    ['backslash', `${APP_ORIGIN}/..%5csecret.html`, 400],
    ['NUL', `${APP_ORIGIN}/index.html%00.js`, 400],
    ['broken percent-encoding', `${APP_ORIGIN}/%E0%A4%A.js`, 400],
    ['another host of the scheme', 'op-app://evil/index.html', 404],
    ['another scheme', 'op-view://app/index.html', 404],
    ['a file type the build does not emit', `${APP_ORIGIN}/notes.txt`, 404],
    ['a missing file', `${APP_ORIGIN}/assets/missing.js`, 404],
    ['a folder', `${APP_ORIGIN}/assets`, 404],
    ['not a URL', 'not a url', 400],
    ['an empty host', 'op-app://', 404],
  ])('refuses %s', async (_what, url, status) => {
    const r = await appOriginResponse(dir, url, 'GET', CSP);
    expect(r.status).toBe(status);
    expect(String(r.body)).not.toContain('SECRET');
    expect(String(r.body)).not.toContain('not a build file type');
  });

  it('refuses methods other than GET and HEAD', async () => {
    for (const m of ['POST', 'PUT', 'DELETE', 'OPTIONS']) expect((await appOriginResponse(dir, APP_INDEX_URL, m, CSP)).status).toBe(405);
  });

  it('never names a path outside the folder, whatever the URL', () => {
    const root = path.resolve(dir);
    for (const p of ['/..', '/%2e%2e', '/a/%2e%2e/%2e%2e/b.js', '/%2F..%2F..%2Fx.js', '//x.js', '/./x.js', '/assets/.%2e/x.js']) {
      const a = rendererAsset(dir, `${APP_ORIGIN}${p}`);
      if (a.kind === 'file') expect(a.path.startsWith(root + path.sep)).toBe(true);
    }
  });

  it.skipIf(!existsSync(path.join(ROOT, 'out/renderer/index.html')))('serves every script and stylesheet the real build links (relative URLs on the app origin; skipped until `npm run build` has made out/renderer, which npm test does first)', async () => {
    const real = path.join(ROOT, 'out/renderer');
    const html = readFileSync(path.join(real, 'index.html'), 'utf8');
    const refs = [...html.matchAll(/(?:src|href)="(\.\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      const r = await appOriginResponse(real, new URL(ref, APP_INDEX_URL).href, 'GET', CSP);
      expect(r.status, ref).toBe(200);
    }
  });
});

describe('the Electron protocol handlers (with a stand-in protocol object)', () => {
  type Handler = (req: Request) => Response | Promise<Response>;
  const capture = (): { protocol: { handle: (scheme: string, h: Handler) => void }; handlers: Map<string, Handler> } => {
    const handlers = new Map<string, Handler>();
    return { protocol: { handle: (scheme, h) => void handlers.set(scheme, h) }, handlers };
  };

  it('op-app serves the renderer page with its policy, and nothing outside its folder', async () => {
    const { protocol, handlers } = capture();
    serveAppOrigin(protocol as never, dir, CSP);
    const h = handlers.get('op-app')!;
    const page = await h(new Request(APP_INDEX_URL));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(CSP);
    expect(await page.text()).toContain('<p>app</p>');
    expect((await h(new Request(`${APP_ORIGIN}/%2e%2e/secret.html`))).status).toBe(404);
    expect((await h(new Request(APP_INDEX_URL, { method: 'POST', body: 'x' }))).status).toBe(405);
  });

  it('op-view serves each shown view its sandbox page on a host of its own, for the app origin only as its parent; nothing for other hosts', async () => {
    const { protocol, handlers } = capture();
    const label = `v${'a'.repeat(32)}`;
    const shown: Record<string, { connectDomains?: string[] }> = { [label]: { connectDomains: ['https://api.example.com'] } };
    serveViewOrigin(protocol as never, APP_ORIGIN, (l) => shown[l] ?? null);
    const h = handlers.get('op-view')!;
    const origin = viewOriginFor(label);
    expect(origin).toBe(`op-view://${label}`);
    const page = await h(new Request(`${origin}/sandbox.html`));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain(`frame-ancestors ${APP_ORIGIN}`);
    expect(page.headers.get('content-security-policy')).toContain('connect-src https://api.example.com');
    expect(await page.text()).toContain(`content="${APP_ORIGIN}"`);
    // Another view's label that is not shown, the old shared host, a made-up host: nothing.
    for (const url of [`${viewOriginFor(`v${'b'.repeat(32)}`)}/sandbox.html`, 'op-view://sandbox/sandbox.html', 'op-view://other/sandbox.html']) expect((await h(new Request(url))).status, url).toBe(404);
    expect((await h(new Request(`${origin}/index.html`))).status).toBe(404);
  });
});
