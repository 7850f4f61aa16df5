/**
 * A secret never comes back inside an error message (README "Security"), in two layers tested
 * apart:
 * 1. Input: control characters in env/header values, command arguments, URLs and auth secrets are
 *    refused with a per-field error that names the character, never the value — by the contract's
 *    schemas (the dispatcher) and by main's config schema (the file, imports, `host.add` callers)
 *    alike; nothing is saved.
 * 2. Redaction: a value that does get into an error text by another route is still removed in
 *    the escaped form the text holds it in — Node's real spawn error (`Received '…\x00…'`) and a
 *    real server that prints its secret in every escaped form it might.
 */
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppCore } from '../../../main/core.js';
import { createDispatcher } from '../../../main/ipc/dispatch.js';
import { McpConnection } from '../../../main/mcp/connection.js';
import { parseConfigDocument } from '../../../main/mcp/config.js';
import { REDACTED, SecretRedactor } from '../../../main/secrets/redact.js';
import { MemorySecretStore } from '../../../main/secrets/store.js';
import { localServer, makeTempDir, removeDir, ROOT, sdkCommand, waitFor } from '../helpers.js';

const RAW = path.join(ROOT, 'test', 'fixtures', 'raw-server.mjs');
const NUL_SECRET = 'nul-secret-\u0000-5e4d3c2b1a09';

let dir: string;
let core: AppCore;
const events: Array<{ event: string; text: string }> = [];

beforeAll(async () => {
  dir = makeTempDir('op-ctrl-');
  core = new AppCore({ stateDir: dir, shell: 'browser', secrets: new MemorySecretStore() });
  core.subscribe((event, payload) => events.push({ event, text: JSON.stringify(payload) }));
  await core.start();
});

afterAll(async () => {
  await core?.shutdown();
  await removeDir(dir);
});

describe('input refuses control characters, per field', () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['an env value (NUL)', { type: 'local', command: sdkCommand(), env: { TOKEN: NUL_SECRET } }, 'config.env.TOKEN'],
    ['an env value (ESC)', { type: 'local', command: sdkCommand(), env: { TOKEN: 'esc-secret-\u001b[31m-123' } }, 'config.env.TOKEN'],
    ['a command argument', { type: 'local', command: [...sdkCommand(), 'arg-\u0000-secret'] }, 'config.command.2'],
    ['a header value (LF)', { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: { 'X-Key': 'hdr-secret\r\nX-Evil: 1' } }, 'config.headers.X-Key'],
    ['a URL', { type: 'http', url: 'http://127.0.0.1:9/mcp?token=a\u0000b' }, 'config.url'],
    ['a URL (tab, which URL parsing would drop)', { type: 'http', url: 'http://127.0.0.1:9/m\tcp' }, 'config.url'],
    ['a bearer token', { type: 'http', url: 'http://127.0.0.1:9/mcp', auth: { kind: 'bearer', token: 'tok-\u0007-secret' } }, 'config.auth.token'],
    ['a client secret (C1)', { type: 'http', url: 'http://127.0.0.1:9/mcp', auth: { kind: 'oauth', client_secret: 'cs-\u0085-secret' } }, 'config.auth.client_secret'],
  ];
  it.each(cases)('%s: servers.add answers invalid_input on that field and saves nothing', async (_what, config, field) => {
    const d = createDispatcher(core);
    const r = await d.invoke('servers.add', { name: 'ctrl', config });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('invalid_input');
    expect(r.error.field).toBe(field);
    expect(r.error.message).toMatch(/control character \(U\+00[0-9A-F]{2}\)/);
    expect(r.error.message).not.toMatch(/-secret|secret-|m\tcp/);
    expect(r.error.message).not.toContain('a\u0000b');
    expect(core.config.has('ctrl')).toBe(false);
  });

  it('tab, LF and CR are allowed in env values and arguments (multi-line values such as PEM keys)', async () => {
    const d = createDispatcher(core);
    const r = await d.invoke('servers.add', { name: 'pem', config: { type: 'local', command: [...sdkCommand(), 'two\nlines'], env: { KEY: '-----BEGIN KEY-----\r\nabc\tdef\n-----END KEY-----' } } });
    expect(r.ok).toBe(true);
    expect(await waitFor(() => core.host.view('pem').state.kind === 'ready', 15_000)).toBe(true);
    expect((await d.invoke('servers.remove', { name: 'pem' })).ok).toBe(true);
  });

  it('servers.update refuses a NUL in an env value and keeps the stored config', async () => {
    const d = createDispatcher(core);
    expect((await d.invoke('servers.add', { name: 'kept', config: { type: 'local', command: sdkCommand(), env: { TOKEN: 'good-secret-123456' } } })).ok).toBe(true);
    const r = await d.invoke('servers.update', { name: 'kept', patch: { env: { TOKEN: NUL_SECRET } } });
    expect(r).toMatchObject({ ok: false, error: { code: 'invalid_input', field: 'patch.env.TOKEN' } });
    expect(JSON.stringify(r)).not.toContain('nul-secret');
    const cfg = core.config.get('kept');
    expect(cfg?.type === 'local' && cfg.env.TOKEN).toBe('good-secret-123456');
    await d.invoke('servers.remove', { name: 'kept' });
  });

  it("main's config schema refuses the same (one definition): host.add, the file and imports", async () => {
    // host.add, as the catalog calls it (no contract schema on that path).
    await expect(core.host.add('direct', { type: 'local', command: sdkCommand(), env: { TOKEN: NUL_SECRET } })).rejects.toMatchObject({ code: 'invalid_input', field: 'env.TOKEN' });
    expect(core.config.has('direct')).toBe(false);
    // The file: the entry is skipped with its reason, kept in the file, and its value in no warning.
    const doc = parseConfigDocument({ servers: { a: { type: 'local', command: ['node', 'x\u0000y'] }, b: { type: 'local', command: ['node'], env: { T: NUL_SECRET } }, c: { type: 'http', url: 'https://h/\u0000' } } });
    expect(doc.servers.size).toBe(0);
    expect(doc.skipped.get('a')?.reason).toMatch(/^command\.1: Contains a control character \(U\+0000\)/);
    expect(doc.skipped.get('b')?.reason).toMatch(/^env\.T: Contains a control character \(U\+0000\)/);
    expect(doc.skipped.get('c')?.reason).toMatch(/^url: Contains a control character/);
    expect(doc.warning).not.toContain('nul-secret');
    // An import preview: skipped with the reason.
    const d = createDispatcher(core);
    const p = await d.invoke('servers.importPreview', { json: JSON.stringify({ mcpServers: { imp: { command: 'node', args: ['x'], env: { K: NUL_SECRET } } } }) });
    expect(p.ok).toBe(true);
    if (p.ok) {
      const v = p.value as { servers: unknown[]; warning: string | null };
      expect(v.servers).toEqual([]);
      expect(v.warning).toMatch(/env\.K: Contains a control character \(U\+0000\)/);
      expect(v.warning).not.toContain('nul-secret');
    }
  });

  it('a file written by hand with a NUL in a value loads without it, keeps the entry and never echoes the value', async () => {
    const sub = makeTempDir('op-ctrl-file-');
    try {
      const file = path.join(sub, 'mcp_servers.json');
      writeFileSync(file, JSON.stringify({ servers: { hand: { type: 'local', command: ['node'], env: { TOKEN: NUL_SECRET } } } }));
      const c = new AppCore({ stateDir: sub, shell: 'browser', secrets: new MemorySecretStore(), startServers: 'after-ui' });
      await c.start();
      try {
        expect(c.host.list().map((s) => s.name)).toEqual([]);
        expect(c.config.warning ?? '').toMatch(/"hand": env\.TOKEN: Contains a control character/);
        expect(c.config.warning ?? '').not.toContain('nul-secret');
        expect(existsSync(file) && readFileSync(file, 'utf8')).toContain('"hand"');
      } finally {
        await c.shutdown();
      }
    } finally {
      await removeDir(sub);
    }
  });
});

describe('redaction catches the escaped forms an error text holds', () => {
  it("Node's real spawn error quotes a NUL value back as '\\x00' (ERR_INVALID_ARG_VALUE); the redactor removes it", async () => {
    // A config that never passed input (constructed in main), so the value reaches spawn.
    const conn = new McpConnection('nul', localServer([process.execPath, '-e', ''], { env: { TOKEN: NUL_SECRET }, timeout_seconds: 5 }));
    await conn.start();
    try {
      expect(conn.status).toBe('error');
      // The spawn error's own text is in the log (the state holds no message of Node's).
      const text = conn.log.all().map((e) => e.text).join('\n');
      expect(text).toContain('nul-secret-\\x00'); // Node's own escaped form: the plain value is not in it
      expect(text).not.toContain(NUL_SECRET);
      const r = new SecretRedactor();
      r.add(NUL_SECRET);
      const out = r.redactText(text);
      expect(out).toContain(REDACTED);
      expect(out).not.toContain('nul-secret');
    } finally {
      await conn.close();
    }
  });

  it('a real server that prints its secret in every escaped form reaches the window with none of them', async () => {
    // Passes input (tab allowed in env values), but has quotes, a slash, non-ASCII, &, +, <, >.
    const secret = `sp'ec"ial\tval/ue é&+<x> 9f8e7d`;
    const d = createDispatcher(core);
    expect((await d.invoke('servers.add', { name: 'forms', config: { type: 'local', command: [process.execPath, RAW, 'stderr-forms'], env: { TOKEN: secret } } })).ok).toBe(true);
    expect(await waitFor(() => core.host.view('forms').stderr_tail.length >= 10, 15_000)).toBe(true);
    const logs = await d.invoke('servers.logs', { name: 'forms' });
    const view = await d.invoke('servers.get', { name: 'forms' });
    const texts = [JSON.stringify(logs), JSON.stringify(view), ...events.filter((e) => e.event.startsWith('servers.')).map((e) => e.text)];
    const lines = (view.ok ? (view.value as { stderr_tail: string[] }).stderr_tail : []).filter((l) => l.startsWith('form '));
    expect(lines.length).toBe(10);
    for (const line of lines) expect(line, line).toMatch(/^form [a-z-]+: (Received `|k=)?\[redacted\]`?$/);
    // The fixture's forms, recomputed here: none anywhere.
    const json = JSON.stringify(secret).slice(1, -1);
    const forms = [secret, json, JSON.stringify(json).slice(1, -1), encodeURI(secret), encodeURIComponent(secret), new URLSearchParams({ k: secret }).toString().slice(2), "sp'ec", 'ial\\tval', '&amp;+&lt;x&gt;'];
    for (const t of texts) for (const f of forms) expect(t).not.toContain(f);
    await d.invoke('servers.remove', { name: 'forms' });
  }, 30_000);
});
