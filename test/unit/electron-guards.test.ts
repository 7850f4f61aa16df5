/**
 * Electron's own guards, as pure functions with stand-ins (issue "Hardening", items 1 and 10 and
 * the test gaps): the our-URL predicate, the permission handlers, the preload's event list, and
 * the packaging fuses in electron-builder.yml.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { eventNames, type EventName, type OpenProgramApi } from '../../preload/contract/index.js';
import { denyAllPermissions, ourUrlPredicate } from '../../main/ipc/electron.js';
import { RENDERER_CSP } from '../../main/csp.js';
import { ROOT } from './helpers.js';

const INDEX = path.resolve('/opt/openprogram/resources/app.asar/out/renderer/index.html');

describe('ourUrlPredicate', () => {
  const isOur = ourUrlPredicate(INDEX);

  it('accepts the built index.html (with query or hash)', () => {
    const u = pathToFileURL(INDEX).href;
    expect(isOur(u)).toBe(true);
    expect(isOur(`${u}#/settings`)).toBe(true);
  });

  it.each([
    ['file:///etc/passwd'],
    [pathToFileURL(path.join(path.dirname(INDEX), 'other.html')).href],
    [pathToFileURL(`${INDEX}.evil`).href],
    [`file://evil-host${pathToFileURL(INDEX).pathname}`],
    ['https://example.com/out/renderer/index.html'],
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
    expect(dev(pathToFileURL(INDEX).href)).toBe(false);
    expect(ourUrlPredicate(INDEX, 'garbage')('http://localhost:5173/')).toBe(false);
  });
});

describe('denyAllPermissions', () => {
  it('installs a request handler that refuses and a check handler that answers false', () => {
    let request: ((wc: unknown, p: string, cb: (ok: boolean) => void) => void) | null = null;
    let check: ((...a: unknown[]) => boolean) | null = null;
    denyAllPermissions({
      setPermissionRequestHandler: (h: never) => void (request = h),
      setPermissionCheckHandler: (h: never) => void (check = h),
    } as never);
    const answers: boolean[] = [];
    request!(null, 'media', (ok) => answers.push(ok));
    request!(null, 'notifications', (ok) => answers.push(ok));
    expect(answers).toEqual([false, false]);
    for (const p of ['media', 'clipboard-read', 'notifications', 'geolocation']) expect(check!(null, p, 'file://', {})).toBe(false);
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
    await import('../../preload/index.js');
    // Every key of EventPayloads (a missing one fails to compile here).
    const all: { [E in EventName]: 0 } = {
      'servers.changed': 0,
      'servers.removed': 0,
      'chat.event': 0,
      'conversations.changed': 0,
      'conversations.removed': 0,
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
