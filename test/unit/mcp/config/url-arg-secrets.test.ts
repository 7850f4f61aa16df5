/**
 * Server views are masked everywhere (README "Security", docs/ARCHITECTURE.md "Masked views
 * only"): a URL's userinfo and query values and a command's secret arguments live in the secret
 * store, reach the window only as `***` / `{has_value, masked}`, follow PATCH rules (absent or
 * `***` → keep, a value → replace, `""` → delete), are migrated out of an older plaintext file,
 * and reach the real server only at launch (real HTTP fixture, real stdio server, real AppCore).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest';
import type { ServerView } from '../../../../preload/contract/index.js';
import { AppCore } from '../../../../main/core.js';
import { createDispatcher, type Dispatcher } from '../../../../main/ipc/dispatch.js';
import { ConfigStore, maskUrl, splitUrl, joinUrl, type RemoteServerConfig } from '../../../../main/mcp/config.js';
import { MemorySecretStore } from '../../../../main/secrets/store.js';
import { diffConfigs } from '../../../../main/mcp/catalog/diff.js';
import { startHttpFixture, type HttpFixture } from '../../../fixtures/http-server.js';
import { makeTempDir, removeDir, sdkCommand, waitFor } from '../../helpers.js';

const USER = 'alice-user-5c1d';
const PASSWORD = 'PW-secret-8e2f6a0b';
const QUERY = 'Q-secret-3b9d7c1e';
const ARG = 'ARG-secret-6d4f2a8c';

describe('URL parts', () => {
  it('split and join give the URL back byte for byte; masking hides userinfo and every query value', () => {
    const url = `https://${USER}:${PASSWORD}@h.example:8443/mcp?token=${QUERY}&mode=a%2Fb&flag&token=second-value&empty=#frag`;
    const { base, parts } = splitUrl(url);
    expect(base).toBe('https://h.example:8443/mcp?token=&mode=&flag&token=&empty=#frag');
    expect(parts).toEqual({ username: USER, password: PASSWORD, 'query:token': QUERY, 'query:mode': 'a%2Fb', 'query:token#2': 'second-value' });
    expect(joinUrl(base, parts)).toBe(url);
    expect(maskUrl(url)).toBe('https://***:***@h.example:8443/mcp?token=***&mode=***&flag&token=***&empty=#frag');
    expect(maskUrl('https://h.example/mcp')).toBe('https://h.example/mcp');
  });
});

describe('the catalog update diff', () => {
  it('names the URL and command as views do (masked)', () => {
    const remote: RemoteServerConfig = { type: 'http', url: `https://h.example/mcp?token=${QUERY}`, headers: {}, auth: { kind: 'none' }, enabled: true, timeout_seconds: 60 };
    const changes = diffConfigs(remote, { type: 'http', url: `https://h2.example/mcp?token=${QUERY}` }, []);
    expect(changes).toContainEqual({ kind: 'url', before: 'https://h.example/mcp?token=***', after: 'https://h2.example/mcp?token=***' });
    const local = diffConfigs({ type: 'local', command: ['srv', '--key', ARG], secret_args: [2], env: {}, enabled: true, timeout_seconds: 60 }, { type: 'local', command: ['srv2', '--api-key', ARG] }, []);
    expect(JSON.stringify(local)).not.toContain(ARG);
  });
});

describe('at rest', () => {
  let dir: string;
  beforeEach(() => {
    dir = makeTempDir('op-urlsec-');
  });
  afterEach(async () => {
    await removeDir(dir);
  });

  it('the file holds the URL without its secrets and references for them; the command holds references in place', async () => {
    const secrets = new MemorySecretStore();
    const a = new ConfigStore(dir, secrets);
    await a.load();
    const remote: RemoteServerConfig = { type: 'http', url: `https://${USER}:${PASSWORD}@h.example/mcp?token=${QUERY}`, headers: {}, auth: { kind: 'none' }, enabled: true, timeout_seconds: 60 };
    await a.put('r', remote);
    await a.put('l', { type: 'local', command: ['node', 'srv.js', '--mode', ARG], secret_args: [3], env: {}, enabled: true, timeout_seconds: 60 });
    const text = readFileSync(a.file, 'utf8');
    for (const s of [USER, PASSWORD, QUERY, ARG]) expect(text).not.toContain(s);
    const doc = JSON.parse(text) as { servers: Record<string, Record<string, unknown>> };
    expect(doc.servers.r!.url).toBe('https://h.example/mcp?token=');
    expect(Object.keys(doc.servers.r!.url_secrets as object)).toEqual(['username', 'password', 'query:token']);
    expect((doc.servers.l!.command as unknown[])[3]).toMatchObject({ secret: expect.stringMatching(/^mcp:l:args:3:/) });
    const b = new ConfigStore(dir, secrets);
    await b.load();
    expect(b.get('r')).toEqual(remote);
    expect(b.get('l')).toMatchObject({ command: ['node', 'srv.js', '--mode', ARG], secret_args: [3] });
    expect(b.warning).toBeNull();
  });

  it('an older file with a token in its URL or arguments is migrated into the secret store', async () => {
    const file = path.join(dir, 'mcp_servers.json');
    const url = `https://${USER}:${PASSWORD}@h.example/mcp?token=${QUERY}`;
    writeFileSync(
      file,
      JSON.stringify({
        servers: {
          r: { type: 'http', url },
          l: { type: 'local', command: ['npx', 'srv', '--api-key', ARG, `--token=${ARG}x`, 'postgres://u:dbpass-123456@db/x', '--verbose'] },
        },
      }),
    );
    const secrets = new MemorySecretStore();
    const s = new ConfigStore(dir, secrets);
    await s.load();
    const text = readFileSync(file, 'utf8');
    for (const v of [USER, PASSWORD, QUERY, ARG, 'dbpass-123456']) expect(text).not.toContain(v);
    expect(text).toContain('--verbose');
    expect(s.get('r')).toMatchObject({ url });
    expect(s.get('l')).toMatchObject({ command: ['npx', 'srv', '--api-key', ARG, `--token=${ARG}x`, 'postgres://u:dbpass-123456@db/x', '--verbose'], secret_args: [3, 4, 5] });
    expect(Object.values(Object.fromEntries(await Promise.all((await secrets.keys()).map(async (k) => [k, await secrets.get(k)]))))).toEqual(expect.arrayContaining([USER, PASSWORD, QUERY, ARG]));
  });
});

describe('through the real AppCore', () => {
  let dir: string;
  let core: AppCore;
  let http: HttpFixture;
  let d: Dispatcher;
  const events: Array<{ event: string; text: string }> = [];

  beforeAll(async () => {
    dir = makeTempDir('op-urlsec-core-');
    http = await startHttpFixture();
    core = new AppCore({ stateDir: dir, shell: 'browser', secrets: new MemorySecretStore() });
    core.subscribe((event, payload) => events.push({ event, text: JSON.stringify(payload) }));
    await core.start();
    d = createDispatcher(core);
  });
  afterAll(async () => {
    await core?.shutdown();
    await http?.close();
    await removeDir(dir);
  });

  const view = async (name: string): Promise<ServerView> => {
    const r = await d.invoke('servers.get', { name });
    expect(r.ok).toBe(true);
    return (r as { value: ServerView }).value;
  };
  const noLeak = (): void => {
    for (const e of events) for (const s of [USER, PASSWORD, QUERY, ARG]) expect(e.text, e.event).not.toContain(s);
    for (const f of readdirSync(dir)) {
      if (f.endsWith('.db') || f.includes('.db-')) continue; // the conversation database holds no server config
      try {
        const text = readFileSync(path.join(dir, f), 'utf8');
        for (const s of [USER, PASSWORD, QUERY, ARG]) expect(text, f).not.toContain(s);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EISDIR') throw err;
      }
    }
  };

  it('a URL with userinfo and a query token: the server gets them at launch, the window sees *** only', async () => {
    const url = http.url.replace('http://', `http://${USER}:${PASSWORD}@`) + `?token=${QUERY}&v=2`;
    const added = await d.invoke('servers.add', { name: 'web', config: { type: 'http', url } });
    expect(added.ok).toBe(true);
    expect(JSON.stringify(added)).not.toContain(QUERY);
    expect(await waitFor(() => core.host.view('web').state.kind === 'ready', 15_000)).toBe(true);
    // The real values went to the server: the query as typed, the userinfo as Basic credentials.
    expect(http.requests.some((r) => r.search === `?token=${QUERY}&v=2`)).toBe(true);
    expect(http.requests.some((r) => r.authorization === `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`)).toBe(true);
    const v = await view('web');
    expect(v.url).toBe(`${http.url.replace('http://', 'http://***:***@')}?token=***&v=***`);
    expect(Object.keys(v.url_secrets)).toEqual(['username', 'password', 'query:token', 'query:v']);
    expect(v.url_secrets['query:token']).toEqual({ has_value: true, masked: `••••••••${QUERY.slice(-4)}` });
    noLeak();
  });

  it('an edit that sends the masked URL back keeps every part; url_secrets replaces and deletes by name', async () => {
    const before = core.config.get('web') as RemoteServerConfig;
    const masked = (await view('web')).url!;
    // The URL as the form shows it, one visible part changed: the *** parts keep their values.
    let r = await d.invoke('servers.update', { name: 'web', patch: { url: masked.replace('v=***', 'v=3') } });
    expect(r.ok).toBe(true);
    expect((core.config.get('web') as RemoteServerConfig).url).toBe(before.url.replace('v=2', 'v=3'));
    r = await d.invoke('servers.update', { name: 'web', patch: { url_secrets: { 'query:token': 'Q-secret-new 42', username: '' } } });
    expect(r.ok).toBe(true);
    const after = (core.config.get('web') as RemoteServerConfig).url;
    expect(after).toBe(`${http.url.replace('http://', `http://:${PASSWORD}@`)}?token=Q-secret-new%2042&v=3`);
    expect(http.requests.some((q) => q.search === '?token=Q-secret-new%2042&v=3')).toBe(true);
    r = await d.invoke('servers.update', { name: 'web', patch: { url_secrets: { password: '', 'query:v': '' } } });
    expect(r.ok).toBe(true);
    expect((await view('web')).url).toBe(`${http.url}?token=***`);
    // A *** with nothing stored behind it is refused and saves nothing.
    r = await d.invoke('servers.update', { name: 'web', patch: { url: `${http.url}?token=***&other=***` } });
    expect(r).toMatchObject({ ok: false, error: { code: 'invalid_input', field: 'url' } });
    expect((await view('web')).url).toBe(`${http.url}?token=***`);
    noLeak();
  });

  it('a secret argument: masked in the view, kept by an edit that leaves ***, given to the process as it is', async () => {
    const added = await d.invoke('servers.add', { name: 'argv', config: { type: 'local', command: [...sdkCommand(), `--stderr=${ARG}`, '--tools=1'], secret_args: [2] } });
    expect(added.ok).toBe(true);
    expect(await waitFor(() => core.host.view('argv').state.kind === 'ready', 15_000)).toBe(true);
    let v = await view('argv');
    expect(v.command).toEqual([...sdkCommand(), '***', '--tools=1']);
    expect(v.secret_args).toEqual([2]);
    // The process printed its real argument (redacted on the way out), not the mask.
    expect(v.stderr_tail).toContain('[redacted]');
    const r = await d.invoke('servers.update', { name: 'argv', patch: { command: [...v.command.slice(0, 3), '--tools=2'] } });
    expect(r.ok).toBe(true);
    expect(core.config.get('argv')).toMatchObject({ command: [...sdkCommand(), `--stderr=${ARG}`, '--tools=2'], secret_args: [2] });
    v = await view('argv');
    expect(v.tools.length).toBeGreaterThan(0);
    expect(v.command[2]).toBe('***');
    // More *** than stored secret arguments: refused, nothing saved.
    const bad = await d.invoke('servers.update', { name: 'argv', patch: { command: [...v.command, '***'] } });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_input', field: 'command' } });
    // A new server cannot use *** (there is nothing stored behind it).
    const ph = await d.invoke('servers.add', { name: 'ph', config: { type: 'local', command: [...sdkCommand(), '***'] } });
    expect(ph).toMatchObject({ ok: false, error: { code: 'invalid_input', field: 'command.2' } });
    noLeak();
  });

  it('an argument equal to a stored secret is masked anyway', async () => {
    const r = await d.invoke('servers.add', { name: 'same', config: { type: 'local', command: [...sdkCommand(), `--stderr=x`, QUERY.replace('Q', 'E')], env: { TOKEN: QUERY.replace('Q', 'E') } } });
    expect(r.ok).toBe(true);
    // One of the store (another server's query token), not marked by anyone:
    const r2 = await d.invoke('servers.add', { name: 'other', config: { type: 'local', command: [...sdkCommand(), '--name', 'Q-secret-new%2042'] } });
    expect(r2.ok).toBe(true);
    expect((await view('same')).command.at(-1)).toBe('***');
    expect((await view('other')).command.at(-1)).toBe('***');
    expect(readFileSync(core.config.file, 'utf8')).not.toContain('Q-secret-new%2042');
  });

  it('an export without secrets shows *** in place; importing it over the same server keeps the stored values', async () => {
    const exp = await d.invoke('servers.export', { include_secrets: false });
    expect(exp.ok).toBe(true);
    const json = (exp as { value: { json: string } }).value.json;
    expect(json).not.toContain(ARG);
    const doc = JSON.parse(json) as { servers: Record<string, { command?: string[]; url?: string }> };
    expect(doc.servers.argv!.command![2]).toBe('***');
    expect(doc.servers.web!.url).toBe(`${http.url}?token=***`);
    const only = JSON.stringify({ servers: { argv: doc.servers.argv, web: doc.servers.web } });
    const preview = await d.invoke('servers.importPreview', { json: only });
    expect(preview.ok && (preview.value as { servers: Array<{ kept_secrets: string[] }> }).servers.map((s) => s.kept_secrets)).toEqual([['argument 2'], ['URL query parameter token']]);
    const imp = await d.invoke('servers.import', { json: only, replace_existing: true });
    expect(imp).toMatchObject({ ok: true, value: { replaced: ['argv', 'web'], skipped: [] } });
    expect(core.config.get('argv')).toMatchObject({ command: [...sdkCommand(), `--stderr=${ARG}`, '--tools=2'] });
    expect((core.config.get('web') as RemoteServerConfig).url).toBe(`${http.url}?token=Q-secret-new%2042`);
    // Under a new name nothing is stored behind ***: skipped with the reason.
    const fresh = await d.invoke('servers.import', { json: JSON.stringify({ servers: { argv2: doc.servers.argv } }), replace_existing: false });
    expect(fresh).toMatchObject({ ok: true, value: { added: [], skipped: [{ name: 'argv2', reason: expect.stringMatching(/stands for a stored secret/) }] } });
    // …and why by code, for the window to word: the argument that holds `***` with nothing behind it.
    expect(fresh).toMatchObject({ value: { skipped: [{ why: { code: 'invalid_entry', issue: { code: 'custom', rule: 'secret_placeholder', path: ['command', expect.any(String)] } } }] } });
    noLeak();
  });
});
