/**
 * URL-mode elicitation end to end in main (docs/ARCHITECTURE.md "Protocol features"): a real
 * server (test/fixtures/protocol-server.mjs) asks the user to open a URL during a tool call; the
 * request reaches the window as `elicitation.urlRequest`; decline goes back to the server as
 * decline; accept hands exactly that URL to the open-URL hook, then the server gets accept and
 * its completion notification reaches the window; unsafe URLs never reach the user or the hook.
 */
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppWarning, EventPayloads } from '../../../../preload/contract/index.js';
import { AppCore } from '../../../../main/core.js';
import { createDispatcher } from '../../../../main/ipc/dispatch.js';
import { checkElicitationUrl, UnsafeElicitationUrlError } from '../../../../main/mcp/protocol/url-elicitation.js';
import { MemorySecretStore } from '../../../../main/secrets/store.js';
import { descendantPids, makeTempDir, removeDir, ROOT, waitFor, waitNoChildren } from '../../helpers.js';

const FIXTURE = path.join(ROOT, 'test/fixtures/protocol-server.mjs');
let dir: string;
let core: AppCore;
let opened: Array<{ url: string; server: string }>;
let requests: EventPayloads['elicitation.urlRequest'][];
let completes: EventPayloads['elicitation.urlComplete'][];
let warnings: AppWarning[];

beforeEach(async () => {
  dir = makeTempDir('op-urlelicit-');
  opened = [];
  core = new AppCore({ stateDir: dir, shell: 'browser', secrets: new MemorySecretStore(), openUrl: (url, server) => void opened.push({ url: url.href, server }) });
  requests = [];
  completes = [];
  warnings = [];
  core.subscribe((event, payload) => {
    if (event === 'elicitation.urlRequest') requests.push(payload as EventPayloads['elicitation.urlRequest']);
    if (event === 'elicitation.urlComplete') completes.push(payload as EventPayloads['elicitation.urlComplete']);
    if (event === 'app.warning') warnings.push(payload as AppWarning);
  });
  await core.start();
  await core.host.add('fx', { type: 'local', command: [process.execPath, FIXTURE] });
  expect(await waitFor(() => core.host.view('fx').state.kind === 'ready', 10_000)).toBe(true);
});

afterEach(async () => {
  await core.shutdown();
  expect(await waitNoChildren(), `child processes left: ${descendantPids().join(', ')}`).toBe(true);
  await removeDir(dir);
});

const text = (r: unknown) => (r as { content: Array<{ text: string }> }).content[0]!.text;

describe('URL elicitation', () => {
  it('decline: the dialog names the server and the host; the server gets decline; nothing is opened', async () => {
    const d = createDispatcher(core);
    const call = core.host.callTool('fx__open_link', { url: 'https://pay.example.com:8443/checkout?order=7', message: 'Pay for order 7' });
    expect(await waitFor(() => requests.length === 1, 5000)).toBe(true);
    expect(requests[0]).toMatchObject({ server: 'fx', message: 'Pay for order 7', url: 'https://pay.example.com:8443/checkout?order=7', host: 'pay.example.com:8443' });
    expect(await d.invoke('elicitation.respondUrl', { id: requests[0]!.id, action: 'decline' })).toEqual({ ok: true, value: { ok: true, opened: false } });
    expect(JSON.parse(text(await call))).toEqual({ action: 'decline' });
    expect(opened).toEqual([]);
    // Answered once: a second answer is refused with a typed error.
    expect(await d.invoke('elicitation.respondUrl', { id: requests[0]!.id, action: 'accept' })).toMatchObject({ ok: false, error: { code: 'gone' } });
    expect(opened).toEqual([]);
  });

  it('accept: the open-URL hook receives exactly the URL, the server gets accept, then its completion arrives', async () => {
    const d = createDispatcher(core);
    const url = 'https://auth.example.org/authorize?state=a%20b&x=%E2%9C%93#frag';
    const call = core.host.callTool('fx__open_link', { url });
    expect(await waitFor(() => requests.length === 1, 5000)).toBe(true);
    expect(opened).toEqual([]); // nothing opens before the user agrees
    expect(await d.invoke('elicitation.respondUrl', { id: requests[0]!.id, action: 'accept' })).toEqual({ ok: true, value: { ok: true, opened: true } });
    expect(opened).toEqual([{ url, server: 'fx' }]);
    expect(JSON.parse(text(await call))).toEqual({ action: 'accept' });
    expect(await waitFor(() => completes.length === 1, 5000)).toBe(true);
    expect(completes[0]).toEqual({ server: 'fx', elicitation_id: 'e-1' });
  });

  it('http to loopback is allowed', async () => {
    const call = core.host.callTool('fx__open_link', { url: 'http://127.0.0.1:9999/cb' });
    expect(await waitFor(() => requests.length === 1, 5000)).toBe(true);
    await createDispatcher(core).invoke('elicitation.respondUrl', { id: requests[0]!.id, action: 'cancel' });
    expect(JSON.parse(text(await call))).toEqual({ action: 'cancel' });
  });

  for (const bad of ['javascript:alert(1)', 'file:///etc/passwd', 'http://example.com/login', 'https://user:pw@example.com/', 'data:text/html,<b>x</b>']) {
    it(`refuses ${bad.split(':')[0]} (${bad.slice(0, 30)}): no dialog, nothing opened, the server gets decline`, async () => {
      const r = await core.host.callTool('fx__open_link', { url: bad });
      expect(JSON.parse(text(r))).toEqual({ action: 'decline' });
      expect(requests).toEqual([]);
      expect(opened).toEqual([]);
      // The user is told by code, the window words it.
      expect(warnings).toContainEqual({ code: 'link_declined', server: 'fx' });
    });
  }

  it('checkElicitationUrl: typed error for unsafe URLs', () => {
    expect(() => checkElicitationUrl('javascript:alert(1)')).toThrow(UnsafeElicitationUrlError);
    expect(() => checkElicitationUrl(' https://example.com/')).toThrow(UnsafeElicitationUrlError);
    expect(checkElicitationUrl('https://example.com/a').host).toBe('example.com');
  });

  it('a withdrawn request (the server cancelled) cannot be answered', async () => {
    const closed: string[] = [];
    core.subscribe((event, payload) => {
      if (event === 'elicitation.urlClosed') closed.push((payload as { id: string }).id);
    });
    const ctl = new AbortController();
    const call = core.host.callTool('fx__open_link', { url: 'https://example.com/x' }, { signal: ctl.signal });
    expect(await waitFor(() => requests.length === 1, 5000)).toBe(true);
    ctl.abort();
    await call.catch(() => undefined);
    expect(await waitFor(() => closed.includes(requests[0]!.id), 5000)).toBe(true);
    expect(await createDispatcher(core).invoke('elicitation.respondUrl', { id: requests[0]!.id, action: 'accept' })).toMatchObject({ ok: false, error: { code: 'gone' } });
    expect(opened).toEqual([]);
  });
});

describe('URL elicitation with server-everything', () => {
  it('the server sees the url capability (it registers trigger-url-elicitation) and gets the user’s decline', async () => {
    const EVERYTHING = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
    await core.host.add('ev', { type: 'local', command: [process.execPath, EVERYTHING, 'stdio'] });
    expect(await waitFor(() => core.host.view('ev').state.kind === 'ready', 20_000)).toBe(true);
    expect(core.host.view('ev').tools.map((t) => t.original_name)).toContain('trigger-url-elicitation');
    const call = core.host.callTool('ev__trigger-url-elicitation', { url: 'https://example.com/approve', message: 'Approve it' });
    expect(await waitFor(() => requests.some((r) => r.server === 'ev'), 10_000)).toBe(true);
    const req = requests.find((r) => r.server === 'ev')!;
    expect(req).toMatchObject({ url: 'https://example.com/approve', host: 'example.com', message: 'Approve it' });
    await createDispatcher(core).invoke('elicitation.respondUrl', { id: req.id, action: 'decline' });
    const r = (await call) as { content: Array<{ text?: string }> };
    expect(r.content.map((c) => c.text ?? '').join(' ')).toMatch(/declin/i);
    expect(opened).toEqual([]);
  });
});

describe('URL elicitation, error path (-32042)', () => {
  it('a call that needs a URL interaction first asks the user, opens on accept, and the retry goes through', async () => {
    const EVERYTHING = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
    await core.host.add('ev', { type: 'local', command: [process.execPath, EVERYTHING, 'stdio'] });
    expect(await waitFor(() => core.host.view('ev').state.kind === 'ready', 20_000)).toBe(true);
    const d = createDispatcher(core);
    const args = { url: 'https://example.com/after', message: 'Then this', errorPath: true };
    const first = core.host.callTool('ev__trigger-url-elicitation', args);
    expect(await waitFor(() => requests.length === 1, 10_000)).toBe(true);
    expect(requests[0]).toMatchObject({ server: 'ev', url: 'https://modelcontextprotocol.io/', host: 'modelcontextprotocol.io' });
    await d.invoke('elicitation.respondUrl', { id: requests[0]!.id, action: 'accept' });
    await expect(first).rejects.toThrow(/browser-based authorization/);
    expect(opened).toEqual([{ url: 'https://modelcontextprotocol.io/', server: 'ev' }]);
    // The retry takes the request path: the tool's own URL, answered with decline.
    const retry = core.host.callTool('ev__trigger-url-elicitation', args);
    expect(await waitFor(() => requests.length === 2, 10_000)).toBe(true);
    expect(requests[1]).toMatchObject({ url: 'https://example.com/after' });
    await d.invoke('elicitation.respondUrl', { id: requests[1]!.id, action: 'decline' });
    await retry;
    expect(opened).toHaveLength(1);
  });
});
