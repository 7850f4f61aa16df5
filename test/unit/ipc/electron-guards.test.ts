/**
 * Electron's own guards, as pure functions with stand-ins (docs/ARCHITECTURE.md "Security",
 * "MCP Apps: isolation"): the our-URL predicate, the permission handlers, the preload's event
 * list, and the packaging fuses in electron-builder.yml.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { eventNames, type EventName, type OpenProgramApi } from '../../../preload/contract/index.js';
import { ourUrlPredicate } from '../../../main/ipc/electron.js';
import { APP_INDEX_URL, APP_ORIGIN } from '../../../main/ipc/electron-app-origin.js';
import { limitViewWebRtc, viewOnlyPermissions, viewOriginFor } from '../../../main/ipc/electron-views.js';

/** Two shown views' origins (labels as main issues them). */
const VIEW_ORIGIN = viewOriginFor(`v${'1'.repeat(32)}`);
const OTHER_VIEW = viewOriginFor(`v${'2'.repeat(32)}`);
import { RENDERER_CSP } from '../../../main/csp.js';
import { ROOT } from '../helpers.js';

const INDEX = APP_INDEX_URL;

describe('ourUrlPredicate', () => {
  const isOur = ourUrlPredicate(INDEX);

  it('accepts the built index.html on the app origin (with query or hash)', () => {
    expect(isOur(INDEX)).toBe(true);
    expect(isOur(`${INDEX}#/settings`)).toBe(true);
    expect(isOur(`${INDEX}?x=1`)).toBe(true);
  });

  it.each([
    ['file:///etc/passwd'],
    [pathToFileURL('/opt/openprogram/resources/app.asar/out/renderer/index.html').href],
    [`${APP_ORIGIN}/other.html`],
    [`${APP_ORIGIN}/index.html.evil`],
    ['op-app://evil/index.html'],
    ['op-view://sandbox/index.html'],
    ['https://app/index.html'],
    ['not a url'],
    [''],
  ])('refuses %j', (url) => {
    expect(isOur(url)).toBe(false);
  });

  it('with a dev server: exactly its origin', () => {
    const dev = ourUrlPredicate(INDEX, 'http://localhost:5173/');
    expect(dev('http://localhost:5173/index.html')).toBe(true);
    expect(dev('http://localhost:5174/')).toBe(false);
    expect(dev('http://127.0.0.1:5173/')).toBe(false);
    expect(dev(INDEX)).toBe(false);
    expect(ourUrlPredicate(INDEX, 'garbage')('http://localhost:5173/')).toBe(false);
  });
});

describe('viewOnlyPermissions', () => {
  type Request = (wc: unknown, p: string, cb: (ok: boolean) => void, details: Record<string, unknown>) => void;
  type Check = (wc: unknown, p: string, origin: string, details: Record<string, unknown>) => boolean;
  const install = (): { request: Request; check: Check } => {
    let request: Request | null = null;
    let check: Check | null = null;
    viewOnlyPermissions({ setPermissionRequestHandler: (h: never) => void (request = h), setPermissionCheckHandler: (h: never) => void (check = h) } as never);
    return { request: request!, check: check! };
  };
  const ask = (request: Request, p: string, details: Record<string, unknown>): boolean => {
    let answer: boolean | null = null;
    request(null, p, (ok) => (answer = ok), details);
    return answer!;
  };

  it('grants a device permission to a view frame on the view origin', () => {
    const { request, check } = install();
    expect(ask(request, 'media', { requestingUrl: 'about:srcdoc', securityOrigin: `${VIEW_ORIGIN}/`, isMainFrame: false, mediaTypes: ['video'] })).toBe(true);
    expect(ask(request, 'geolocation', { requestingUrl: `${VIEW_ORIGIN}/sandbox.html`, isMainFrame: false })).toBe(true);
    expect(check(null, 'clipboard-sanitized-write', VIEW_ORIGIN, { requestingUrl: 'about:srcdoc', isMainFrame: false })).toBe(true);
    // Every view has its own origin on the scheme; each may be granted what its frame delegates.
    expect(ask(request, 'media', { requestingUrl: 'about:srcdoc', securityOrigin: OTHER_VIEW, isMainFrame: false, mediaTypes: ['audio'] })).toBe(true);
  });

  it('refuses the app window, other origins, unknown srcdoc askers and other permissions', () => {
    const { request, check } = install();
    // The app's own window (main frame), whatever it asks.
    for (const p of ['media', 'geolocation', 'clipboard-sanitized-write', 'notifications', 'clipboard-read']) {
      expect(ask(request, p, { requestingUrl: INDEX, securityOrigin: APP_ORIGIN, isMainFrame: true })).toBe(false);
      expect(check(null, p, APP_ORIGIN, { requestingUrl: INDEX, isMainFrame: true })).toBe(false);
    }
    // A view frame asking for something no view may declare.
    for (const p of ['notifications', 'clipboard-read', 'openExternal', 'fullscreen', 'pointerLock', 'hid', 'serial', 'usb']) {
      expect(ask(request, p, { requestingUrl: 'about:srcdoc', securityOrigin: VIEW_ORIGIN, isMainFrame: false })).toBe(false);
    }
    // A subframe of another origin, a srcdoc frame of unknown origin, the view origin claiming main frame.
    expect(ask(request, 'media', { requestingUrl: 'https://evil.example/', securityOrigin: 'https://evil.example', isMainFrame: false })).toBe(false);
    expect(ask(request, 'media', { requestingUrl: 'about:srcdoc', securityOrigin: APP_ORIGIN, isMainFrame: false })).toBe(false);
    expect(ask(request, 'geolocation', { requestingUrl: 'about:srcdoc', isMainFrame: false })).toBe(false);
    expect(ask(request, 'media', { requestingUrl: `${VIEW_ORIGIN}/sandbox.html`, securityOrigin: VIEW_ORIGIN, isMainFrame: true })).toBe(false);
    expect(ask(request, 'media', { requestingUrl: `${VIEW_ORIGIN}.evil/x`, isMainFrame: false })).toBe(false);
    // The scheme with a host that is no view label (the old shared host, or made up).
    expect(ask(request, 'media', { requestingUrl: 'about:srcdoc', securityOrigin: 'op-view://sandbox', isMainFrame: false })).toBe(false);
    expect(ask(request, 'geolocation', { requestingUrl: 'op-view://sandbox/sandbox.html', isMainFrame: false })).toBe(false);
    expect(check(null, 'clipboard-sanitized-write', 'https://evil.example', { requestingUrl: 'about:srcdoc', isMainFrame: false })).toBe(false);
    expect(check(null, 'media', VIEW_ORIGIN, { requestingUrl: 'about:srcdoc' })).toBe(false);
  });
});

describe('limitViewWebRtc', () => {
  it("sets the window's WebRTC IP handling policy to no UDP that bypasses a proxy", () => {
    const set: string[] = [];
    limitViewWebRtc({ setWebRTCIPHandlingPolicy: (p: string) => void set.push(p) } as never);
    expect(set).toEqual(['disable_non_proxied_udp']);
  });
});

describe('CSP', () => {
  it('allows no inline script and no eval', () => {
    const script = /script-src ([^;]*)/.exec(RENDERER_CSP)?.[1] ?? '';
    expect(script.trim()).toBe("'self'");
    expect(RENDERER_CSP).not.toMatch(/unsafe-eval|wasm-unsafe-eval|strict-dynamic/);
    const defaultSrc = /default-src ([^;]*)/.exec(RENDERER_CSP)?.[1] ?? '';
    expect(defaultSrc).not.toMatch(/unsafe/);
    expect(RENDERER_CSP).toMatch(/object-src 'none'/);
    expect(RENDERER_CSP).toMatch(/frame-ancestors 'none'/);
  });
});

describe('preload', () => {
  it('forwards every event of the contract and exposes only the contract', async () => {
    const subscribed: string[] = [];
    let exposed: OpenProgramApi | null = null;
    vi.doMock('electron', () => ({
      contextBridge: { exposeInMainWorld: (_k: string, api: OpenProgramApi) => (exposed = api) },
      ipcRenderer: { on: (e: string) => subscribed.push(e), removeListener: () => undefined, invoke: async () => ({ ok: true, value: null }) },
    }));
    await import('../../../preload/index.js');
    // Every key of EventPayloads (a missing one fails to compile here).
    const all: { [E in EventName]: 0 } = {
      'servers.changed': 0,
      'servers.removed': 0,
      'servers.renamed': 0,
      'inspector.messages': 0,
      'chat.event': 0,
      'tasks.changed': 0,
      'conversations.changed': 0,
      'conversations.removed': 0,
      'conversations.warning': 0,
      'app.warning': 0,
      'auth.openUrl': 0,
      'elicitation.request': 0,
      'elicitation.closed': 0,
      'sampling.request': 0,
      'sampling.closed': 0,
      'approvals.request': 0,
      'approvals.closed': 0,
      'context.resourceUpdated': 0,
      'servers.log': 0,
      'elicitation.urlRequest': 0,
      'elicitation.urlClosed': 0,
      'elicitation.urlComplete': 0,
    };
    for (const e of Object.keys(all)) exposed!.on(e as EventName, () => undefined);
    expect(subscribed.sort()).toEqual(Object.keys(all).sort());
    expect([...eventNames].sort()).toEqual(Object.keys(all).sort());
    exposed!.on('not.an.event' as EventName, () => undefined);
    expect(subscribed).not.toContain('not.an.event');
    vi.doUnmock('electron');
  });
});

describe('packaging fuses (electron-builder.yml)', () => {
  const yml = readFileSync(path.join(ROOT, 'electron-builder.yml'), 'utf8');
  const block = /^electronFuses:\n((?:[ \t]+.*\n?)+)/m.exec(yml)?.[1] ?? '';
  const fuse = (name: string): string | undefined => new RegExp(`^\\s+${name}:\\s*(\\S+)`, 'm').exec(block)?.[1];

  it.each([
    ['runAsNode', 'false'],
    ['enableNodeOptionsEnvironmentVariable', 'false'],
    ['enableNodeCliInspectArguments', 'false'],
    ['enableEmbeddedAsarIntegrityValidation', 'true'],
    ['onlyLoadAppFromAsar', 'true'],
  ])('%s is %s', (name, value) => {
    expect(fuse(name)).toBe(value);
  });
});
