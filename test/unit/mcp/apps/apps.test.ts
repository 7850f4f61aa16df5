/**
 * MCP Apps pieces that need no browser (main/mcp/apps/, main/shell/view-origin.ts): the view's
 * Content-Security-Policy is never looser than declared, malformed declarations fall back to the
 * default, the tool metadata is read as the ext-apps spec says, and the view origins — a real
 * loopback listener, one host per shown view — serve the sandbox page only, for shown views only.
 */
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { buildViewCsp, sanitizeCsp } from '../../../../main/mcp/apps/csp.js';
import { sandboxResponse } from '../../../../main/mcp/apps/sandbox-page.js';
import { toolAudience, toolUiResourceUri, visibleToApp, visibleToModel } from '../../../../main/mcp/apps/tool-ui.js';
import { labelOfHost, startViewOrigin, type ViewOrigin } from '../../../../main/shell/view-origin.js';
import { styleVariables } from '../../../../renderer/src/apps/host-styles.js';

const HOST = 'http://127.0.0.1:4000';

describe('view CSP', () => {
  it('defaults to no network, no frames, no base and only the host as framer', () => {
    const csp = buildViewCsp({}, HOST);
    expect(csp).toContain("connect-src 'none'");
    expect(csp).toContain("frame-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain(`frame-ancestors ${HOST}`);
  });

  it('keeps declared https origins, wildcard subdomains and loopback http', () => {
    const s = sanitizeCsp({ connectDomains: ['https://api.example.com', 'https://*.tiles.example.org:8443', 'http://localhost:3000'], resourceDomains: ['https://cdn.example.com'] });
    expect(s).toEqual({ connectDomains: ['https://api.example.com', 'https://*.tiles.example.org:8443', 'http://localhost:3000'], resourceDomains: ['https://cdn.example.com'] });
    const csp = buildViewCsp(s, HOST);
    expect(csp).toContain('connect-src https://api.example.com https://*.tiles.example.org:8443 http://localhost:3000');
    expect(csp).toContain("script-src 'self' 'unsafe-inline' https://cdn.example.com");
  });

  it('drops anything that would loosen the policy or inject a directive', () => {
    const s = sanitizeCsp({
      connectDomains: ['*', "'unsafe-eval'", 'https:', 'http://evil.example.com', 'https://a.example.com; script-src *', 'https://a.example.com/path', 'data:', 42, null],
      frameDomains: 'https://x.example.com',
      unknownKey: ['https://y.example.com'],
    });
    expect(s).toEqual({});
    expect(buildViewCsp(s, HOST)).toContain("connect-src 'none'");
  });

  it('caps the number of origins and removes duplicates', () => {
    const many = Array.from({ length: 100 }, (_, i) => `https://h${i}.example.com`);
    expect(sanitizeCsp({ connectDomains: [...many, ...many] }).connectDomains).toHaveLength(32);
  });
});

describe('tool metadata', () => {
  it('reads the view URI (nested and flat keys), only ui:// ones', () => {
    expect(toolUiResourceUri({ _meta: { ui: { resourceUri: 'ui://a/b.html' } } })).toBe('ui://a/b.html');
    expect(toolUiResourceUri({ _meta: { 'ui/resourceUri': 'ui://flat' } })).toBe('ui://flat');
    expect(toolUiResourceUri({ _meta: { ui: { resourceUri: 'https://evil.example.com/x.html' } } })).toBeNull();
    expect(toolUiResourceUri({})).toBeNull();
  });

  it('visibility: both when absent, as declared otherwise', () => {
    expect([visibleToModel({}), visibleToApp({})]).toEqual([true, true]);
    const appOnly = { _meta: { ui: { visibility: ['app'] } } };
    expect([visibleToModel(appOnly), visibleToApp(appOnly)]).toEqual([false, true]);
    const modelOnly = { _meta: { ui: { visibility: ['model'] } } };
    expect([visibleToModel(modelOnly), visibleToApp(modelOnly)]).toEqual([true, false]);
    expect(visibleToApp({ _meta: { ui: { visibility: 'app' } } })).toBe(true); // malformed → default
  });

  it('audience: who may call the tool, as the server card shows it', () => {
    expect(toolAudience({})).toBe('model_and_app');
    expect(toolAudience({ _meta: { ui: { resourceUri: 'ui://a/b.html' } } })).toBe('model_and_app');
    expect(toolAudience({ _meta: { ui: { visibility: ['model', 'app'] } } })).toBe('model_and_app');
    expect(toolAudience({ _meta: { ui: { visibility: ['app'] } } })).toBe('app');
    expect(toolAudience({ _meta: { ui: { visibility: ['model'] } } })).toBe('model');
    expect(toolAudience({ _meta: { ui: { visibility: [] } } })).toBe('none');
    expect(toolAudience({ _meta: { ui: { visibility: 'app' } } })).toBe('model_and_app'); // malformed → default
  });
});

describe('sandbox page', () => {
  it('serves the page with the view CSP, the relay, and 404 for anything else', () => {
    const csp = { connectDomains: ['https://api.example.com'] };
    const page = sandboxResponse('/sandbox.html', HOST, csp);
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain('connect-src https://api.example.com');
    // Each view origin is its own agent cluster (no document.domain relaxing).
    expect(page.headers['origin-agent-cluster']).toBe('?1');
    expect(page.body).toContain(`content="${HOST}"`);
    // The query is not the policy's source: a crafted ?csp= changes nothing.
    const crafted = Buffer.from(JSON.stringify({ connectDomains: ['https://evil.example.com'] })).toString('base64url');
    expect(sandboxResponse(`/sandbox.html?csp=${crafted}`, HOST, {}).headers['content-security-policy']).toContain("connect-src 'none'");
    expect(sandboxResponse('/sandbox.js', HOST, csp).headers['content-type']).toMatch(/javascript/);
    expect(sandboxResponse('/index.html', HOST, csp).status).toBe(404);
    expect(sandboxResponse('/../main/core.ts', HOST, csp).status).toBe(404);
  });

  it('serves nothing for an origin that holds no shown view', () => {
    expect(sandboxResponse('/sandbox.html', HOST, null).status).toBe(404);
    expect(sandboxResponse('/sandbox.js', HOST, null).status).toBe(404);
  });

  it('escapes the host origin in the page', () => {
    expect(sandboxResponse('/sandbox.html', 'http://x"><script>', {}).body).not.toContain('"><script>');
  });
});

const LABEL = `v${'ab'.repeat(16)}`;
const OTHER = `v${'cd'.repeat(16)}`;

/** GET `path` of the view listener with the Host header `host` (fetch cannot set Host). */
function get(port: number, host: string, path = '/sandbox.html', method = 'GET'): Promise<{ status: number; csp: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method, headers: { host } }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, csp: res.headers['content-security-policy'] as string | undefined });
    });
    req.on('error', reject);
    req.end(method === 'POST' ? 'x' : undefined);
  });
}

describe('view origin listener', () => {
  let origin: ViewOrigin | null = null;
  afterEach(async () => {
    await origin?.close();
    origin = null;
  });

  it('gives each shown view its own host under localhost and serves only those hosts, only the sandbox page; refuses upgrades and writes', async () => {
    const shown: Record<string, { connectDomains?: string[] }> = { [LABEL]: { connectDomains: ['https://a.example.com'] } };
    origin = await startViewOrigin(HOST, (label) => shown[label] ?? null);
    const port = origin.port;
    expect(origin.originFor(LABEL)).toBe(`http://${LABEL}.localhost:${port}`);
    expect(origin.frameSource).toBe(`http://*.localhost:${port}`);
    expect(labelOfHost(`${LABEL}.localhost:${port}`, port)).toBe(LABEL);
    const page = await get(port, `${LABEL}.localhost:${port}`);
    expect(page.status).toBe(200);
    expect(page.csp).toContain(`frame-ancestors ${HOST}`);
    expect(page.csp).toContain('connect-src https://a.example.com');
    // A host of no shown view, the bare names, another port, a label of the wrong shape: nothing.
    for (const host of [`${OTHER}.localhost:${port}`, `localhost:${port}`, `127.0.0.1:${port}`, `${LABEL}.localhost:${port + 1}`, `${LABEL}.localhost`, `x.${LABEL}.localhost:${port}`, `${LABEL.slice(0, -1)}.localhost:${port}`])
      expect((await get(port, host)).status, host).toBe(404);
    expect((await get(port, `${LABEL}.localhost:${port}`, '/index.html')).status).toBe(404);
    expect((await get(port, `${LABEL}.localhost:${port}`, '/sandbox.html', 'POST')).status).toBe(405);
    // A WebSocket upgrade is dropped without an answer (the view origin carries no socket).
    const ws = await new Promise<string>((resolve) => {
      const req = http.request({ host: '127.0.0.1', port, path: '/', headers: { host: `${LABEL}.localhost:${port}`, connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' } });
      req.on('upgrade', () => resolve('upgraded'));
      req.on('response', (r) => resolve(`answered ${r.statusCode}`));
      req.on('error', () => resolve('refused'));
      req.end();
    });
    expect(ws).toBe('refused');
  });

  it('listens on the port asked for (OPENPROGRAM_VIEW_PORT), so it can be forwarded', async () => {
    const free = await new Promise<number>((resolve) => {
      const probe = http.createServer().listen(0, '127.0.0.1', () => {
        const p = (probe.address() as { port: number }).port;
        probe.close(() => resolve(p));
      });
    });
    origin = await startViewOrigin(HOST, () => ({}), '127.0.0.1', free);
    expect(origin.port).toBe(free);
    expect((await get(free, `${LABEL}.localhost:${free}`)).status).toBe(200);
  });
});

describe('host style variables', () => {
  it("map the window's own custom properties to the spec's names, leave out unset ones, and keep the fixed scale", () => {
    const own: Record<string, string> = { '--bg': ' #111418 ', '--text': '#e6e9ee', '--border': '#2c333d', '--accent': '#4f8cff' };
    const v = styleVariables((name) => own[name] ?? '') as Record<string, string | undefined>;
    expect(v['--color-background-primary']).toBe('#111418');
    expect(v['--color-text-primary']).toBe('#e6e9ee');
    expect(v['--color-text-inverse']).toBe('#111418');
    expect(v['--color-border-primary']).toBe('#2c333d');
    expect(v['--color-ring-primary']).toBe('#4f8cff');
    expect('--color-background-secondary' in v).toBe(false);
    expect(v['--font-sans']).toMatch(/system-ui/);
    expect(v['--border-radius-md']).toBe('6px');
    for (const key of Object.keys(v)) expect(key).toMatch(/^--(color|font|border)-[a-z0-9-]+$/);
  });
});
