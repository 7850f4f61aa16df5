/**
 * The browser shell survives whatever a peer sends (docs/ARCHITECTURE.md "Security"): the pure
 * guards (upgrade check, static path resolution, reply encoding) one by one, then a real shell
 * process attacked over real sockets — a request target that does not parse, wrong origin/token,
 * an oversized request (refused by id; a frame past the hard cap closes its socket), invalid
 * UTF-8, a tool schema too deep to encode — after which it still serves.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { checkUpgrade, encodeReply, isInside, resolveStaticPath, UNENCODABLE_REPLY } from '../../../main/shell/guards.js';
import { startBrowserShell, type BrowserShell } from '../../../main/shell/browser-shell.js';
import { RENDERER_CSP, WORKER_CSP } from '../../../main/csp.js';
import { makeTempDir, removeDir, ROOT, waitFor } from '../helpers.js';

const RAW = path.join(ROOT, 'test', 'fixtures', 'raw-server.mjs');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');

function deepValue(depth: number): unknown {
  let v: unknown = 'leaf';
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

describe('checkUpgrade (pure)', () => {
  const expected = { port: 4321, token: 'a'.repeat(43) };
  const good = { url: `/ipc?token=${'a'.repeat(43)}`, origin: 'http://127.0.0.1:4321' };

  it('lets exactly our page in', () => {
    expect(checkUpgrade(good, expected)).toEqual({ ok: true });
    expect(checkUpgrade({ ...good, origin: 'http://localhost:4321' }, expected)).toEqual({ ok: true });
  });

  it.each([['//['], ['http://['], ['//evil.example/ipc'], ['/ipc/'], ['/IPC'], ['/other'], ['']])('refuses the target %j without throwing', (url) => {
    expect(checkUpgrade({ ...good, url: url === '' ? url : `${url}?token=${'a'.repeat(43)}` }, expected)).toMatchObject({ ok: false, reason: 'bad_path' });
  });

  it.each([[undefined], ['null'], ['http://127.0.0.1:4322'], ['http://evil.example'], ['https://127.0.0.1:4321']])('refuses the origin %j', (origin) => {
    expect(checkUpgrade({ ...good, origin }, expected)).toEqual({ ok: false, reason: 'bad_origin' });
  });

  it('refuses a repeated Origin header', () => {
    expect(checkUpgrade({ ...good, origin: ['http://127.0.0.1:4321', 'http://127.0.0.1:4321'] }, expected)).toEqual({ ok: false, reason: 'bad_origin' });
  });

  it.each([['/ipc'], ['/ipc?token='], [`/ipc?token=${'a'.repeat(42)}`], [`/ipc?token=${'a'.repeat(42)}b`], [`/ipc?token=${'a'.repeat(44)}`]])('refuses the token in %j', (url) => {
    expect(checkUpgrade({ ...good, url }, expected)).toEqual({ ok: false, reason: 'bad_token' });
  });

  it('an empty expected token admits nobody', () => {
    expect(checkUpgrade({ ...good, url: '/ipc?token=' }, { port: 4321, token: '' })).toEqual({ ok: false, reason: 'bad_token' });
  });
});

describe('resolveStaticPath (pure)', () => {
  const root = path.resolve('/srv/renderer');

  it('maps / to index.html and plain paths inside the folder', () => {
    expect(resolveStaticPath(root, '/')).toBe(path.join(root, 'index.html'));
    expect(resolveStaticPath(root, '/assets/app.js?x=1')).toBe(path.join(root, 'assets', 'app.js'));
    expect(resolveStaticPath(root, '/a%20b.css')).toBe(path.join(root, 'a b.css'));
  });

  it.each([
    ['/assets/..%2f..%2f..%2fetc/passwd'],
    ['/..%2f..%2fetc%2fpasswd'],
    ['/%2e%2e%5c..%5cwindows'],
    ['/index.html%00.js'],
    ['/%E0%A4%A'],
    ['//['],
    ['http://evil.example/index.html'],
  ])('refuses %j', (url) => {
    expect(resolveStaticPath(root, url)).toBeNull();
  });

  it('dot segments of the URL itself never climb above the folder', () => {
    expect(resolveStaticPath(root, '/../secrets.json')).toBe(path.join(root, 'secrets.json'));
    expect(resolveStaticPath(root, '/%2e%2e/%2e%2e/secrets.json')).toBe(path.join(root, 'secrets.json'));
  });

  it('isInside is strict', () => {
    expect(isInside(root, path.join(root, 'a'))).toBe(true);
    expect(isInside(root, root)).toBe(false);
    expect(isInside(root, `${root}-other/a`)).toBe(false);
    expect(isInside(root, path.dirname(root))).toBe(false);
  });
});

describe('encodeReply (pure)', () => {
  it('turns an unencodable reply into an internal error for that request only', () => {
    const text = encodeReply(7, { ok: true, value: deepValue(200_000) });
    expect(JSON.parse(text)).toEqual({ id: 7, envelope: { ok: false, error: { code: 'internal', message: UNENCODABLE_REPLY } } });
    expect(JSON.parse(encodeReply(8, { ok: true, value: [1] }))).toEqual({ id: 8, envelope: { ok: true, value: [1] } });
  });
});

describe('static files', () => {
  let dir: string;
  let shell: BrowserShell;
  beforeAll(async () => {
    process.env.OPENPROGRAM_DISABLE_KEYCHAIN = '1';
    dir = makeTempDir('op-shell-static-');
    const renderer = path.join(dir, 'renderer');
    mkdirSync(renderer);
    writeFileSync(path.join(renderer, 'index.html'), '<!doctype html><title>ok</title>');
    writeFileSync(path.join(renderer, 'worker.js'), 'postMessage(1)');
    writeFileSync(path.join(dir, 'outside.txt'), 'OUTSIDE-SECRET');
    symlinkSync(path.join(dir, 'outside.txt'), path.join(renderer, 'link.txt'));
    mkdirSync(path.join(dir, 'state'));
    shell = await startBrowserShell({ stateDir: path.join(dir, 'state'), rendererDir: renderer });
  });
  afterAll(async () => {
    await shell?.close();
    await removeDir(dir);
  });

  const get = (target: string): Promise<{ status: number; body: string; head: string }> =>
    new Promise((resolve, reject) => {
      const s = net.connect(shell.port, '127.0.0.1', () => s.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`));
      let out = '';
      s.on('data', (c) => (out += c.toString('latin1')));
      s.on('end', () => resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(out)?.[1] ?? 0), body: out.slice(out.indexOf('\r\n\r\n') + 4), head: out.slice(0, out.indexOf('\r\n\r\n')).toLowerCase() }));
      s.on('error', reject);
    });

  it('serves the renderer with the CSP', async () => {
    const r = await get('/');
    expect(r.status).toBe(200);
    expect(r.body).toContain('<title>ok</title>');
    expect(r.head).toContain(`content-security-policy: ${RENDERER_CSP}`);
    expect(r.head).toContain('x-content-type-options: nosniff');
  });

  it('serves script files with the worker policy: own modules only, no connections, no eval', async () => {
    const r = await get('/worker.js');
    expect(r.status).toBe(200);
    expect(r.head).toContain('content-type: text/javascript');
    expect(r.head).toContain(`content-security-policy: ${WORKER_CSP}`.toLowerCase());
    expect(WORKER_CSP).toBe("default-src 'none'; script-src 'self'");
  });

  it('does not follow a symlink out of the renderer folder', async () => {
    const r = await get('/link.txt');
    expect(r.status).toBe(404);
    expect(r.body).not.toContain('OUTSIDE-SECRET');
  });

  it.each([['/../outside.txt'], ['/%2e%2e/outside.txt'], ['/..%2foutside.txt'], ['/..%5coutside.txt'], ['/%E0%A4%A'], ['//[']])('refuses %j', async (target) => {
    const r = await get(target);
    expect([400, 403, 404]).toContain(r.status);
    expect(r.body).not.toContain('OUTSIDE-SECRET');
  });
});

describe('a real shell process under attack', () => {
  let dir: string;
  let child: ChildProcess;
  let port = 0;
  let token = '';
  let output = '';

  beforeAll(async () => {
    dir = makeTempDir('op-shell-attack-');
    writeFileSync(
      path.join(dir, 'mcp_servers.json'),
      JSON.stringify({ servers: { deep: { type: 'local', command: [process.execPath, RAW, 'deep-schema'], env: {}, enabled: true, timeout_seconds: 20 } } }),
    );
    child = spawn(TSX, [path.join(ROOT, 'main', 'shell', 'browser-shell.ts')], {
      env: { ...process.env, OPENPROGRAM_STATE_DIR: dir, OPENPROGRAM_PORT: '0', OPENPROGRAM_DISABLE_KEYCHAIN: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    expect(await waitFor(() => /open: http:\/\/127\.0\.0\.1:\d+\/#token=/.test(output), 30_000)).toBe(true);
    const m = /open: http:\/\/127\.0\.0\.1:(\d+)\/#token=([\w-]+)/.exec(output)!;
    port = Number(m[1]);
    token = m[2]!;
  }, 40_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await gone;
    }
    await removeDir(dir);
  });

  const alive = (): boolean => child.exitCode === null && child.signalCode === null;

  const rawUpgrade = (target: string, origin = `http://127.0.0.1:${port}`): Promise<string> =>
    new Promise((resolve) => {
      const s = net.connect(port, '127.0.0.1', () =>
        s.write(
          `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nOrigin: ${origin}\r\n\r\n`,
        ),
      );
      let out = '';
      s.on('data', (c) => (out += c.toString('latin1')));
      s.on('close', () => resolve(out));
      s.on('error', () => resolve(out));
      setTimeout(() => s.destroy(), 3000).unref();
    });

  const open = (): Promise<WebSocket> =>
    new Promise((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/ipc?token=${token}`, { origin: `http://127.0.0.1:${port}` });
      ws.once('open', () => resolve(ws));
      ws.once('error', reject);
    });

  const request = (ws: WebSocket, id: number, channel: string, input: unknown = {}): Promise<{ id: unknown; envelope: { ok: boolean; value?: unknown; error?: { code: string } } }> =>
    new Promise((resolve) => {
      const onMsg = (data: WebSocket.RawData): void => {
        const msg = JSON.parse(data.toString()) as { id?: unknown; envelope?: never };
        if (msg.id === id) {
          ws.off('message', onMsg);
          resolve(msg as never);
        }
      };
      ws.on('message', onMsg);
      ws.send(JSON.stringify({ id, channel, input }));
    });

  const closed = (ws: WebSocket): Promise<number> => new Promise((resolve) => ws.once('close', (code) => resolve(code)));

  it('an upgrade whose target does not parse gets 403 and the core lives on', async () => {
    for (const target of ['//[', 'http://[', '/%', '*']) {
      const reply = await rawUpgrade(target);
      expect(reply).toMatch(/^HTTP\/1\.1 (403|400)/);
    }
    await new Promise((r) => setTimeout(r, 200));
    expect(alive(), output).toBe(true);
  });

  it('a wrong token or origin is refused', async () => {
    expect(await rawUpgrade(`/ipc?token=${token.slice(0, -1)}x`)).toMatch(/^HTTP\/1\.1 403/);
    expect(await rawUpgrade(`/ipc?token=${token}`, 'http://evil.example')).toMatch(/^HTTP\/1\.1 403/);
    expect(await rawUpgrade(`/ipc?token=${token}`)).toMatch(/^HTTP\/1\.1 101/);
  });

  it('an oversized request is refused alone, by its id: the socket and the next request go on', async () => {
    const ws = await open();
    const refused = new Promise<{ id: unknown; envelope: { ok: boolean; error?: { code: string; message: string } } }>((resolve) =>
      ws.once('message', (data) => resolve(JSON.parse(data.toString()))),
    );
    ws.send(JSON.stringify({ id: 77, channel: 'servers.list', input: { pad: 'x'.repeat(5 * 1024 * 1024) } }));
    const reply = await refused;
    expect(reply.id).toBe(77);
    expect(reply.envelope.ok).toBe(false);
    expect(reply.envelope.error?.code).toBe('too_large');
    expect(reply.envelope.error?.message).toMatch(/5\.0 MB, over the 4\.0 MB/);
    expect(ws.readyState).toBe(WebSocket.OPEN);
    const next = await request(ws, 78, 'servers.list');
    expect(next.envelope.ok).toBe(true);
    ws.close();
  });

  it('a frame past the hard cap closes only that socket', async () => {
    const ws = await open();
    ws.on('error', () => undefined);
    const code = closed(ws);
    ws.send('x'.repeat(65 * 1024 * 1024));
    expect(await code).toBe(1009);
    expect(alive(), output).toBe(true);
  });

  it('a frame of invalid UTF-8 closes only that socket', async () => {
    const ws = await open();
    ws.on('error', () => undefined);
    const code = closed(ws);
    ws.send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), { binary: false });
    expect(await code).toBe(1007);
    expect(alive(), output).toBe(true);
  });

  it('a tool schema too deep to encode neither ends the core nor breaks the server list', async () => {
    const ws = await open();
    let list: Awaited<ReturnType<typeof request>> | null = null;
    let ready = false;
    for (let i = 0; i < 200 && !ready; i++) {
      list = await request(ws, 100 + i, 'servers.list');
      const v = list.envelope.value as Array<{ state: { kind: string } }> | undefined;
      ready = v?.[0]?.state.kind === 'ready';
      if (!ready) await new Promise((r) => setTimeout(r, 100));
    }
    expect(ready, JSON.stringify(list)?.slice(0, 300)).toBe(true);
    const view = (list!.envelope.value as Array<{ tools: Array<{ original_name: string; input_schema: unknown }>; issues: unknown[] }>)[0]!;
    expect(view.tools.map((t) => t.original_name)).toEqual(['deep']);
    expect(view.tools[0]!.input_schema).toEqual({ type: 'object', properties: {} });
    expect(view.issues).toEqual([{ kind: 'tool_schema_dropped', tool: 'deep', reason: 'too_deep' }]);
    ws.close();
    expect(alive(), output).toBe(true);
  }, 30_000);

  it('after all that, a fresh socket is served', async () => {
    const ws = await open();
    const r = await request(ws, 1, 'app.info');
    expect(r.envelope.ok).toBe(true);
    ws.close();
    expect(alive(), output).toBe(true);
  });
});
