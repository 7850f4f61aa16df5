/**
 * Renaming a server (docs/ARCHITECTURE.md "Renaming a server") with a real app core over a temp
 * state dir: the file secret store (secrets.json), mcp_servers.json, the pins folder, the
 * conversations' SQLite file, inspector.json, installs.json, the sandbox scratch folder, and the
 * SDK fixture as a real stdio server. A rename moves every record kept under the name; a rename to
 * a taken name is refused and nothing moves; a rename whose step fails moves everything back.
 * Switching a remote server between Streamable HTTP and SSE keeps its headers and token.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppCore } from '../../../../main/core.js';
import { createDispatcher } from '../../../../main/ipc/dispatch.js';
import { PinStore } from '../../../../main/mcp/pins/store.js';
import { FileSecretStore } from '../../../../main/secrets/store.js';
import { ConfigStore } from '../../../../main/mcp/config.js';
import { McpHost } from '../../../../main/mcp/host.js';
import { MemorySecretStore } from '../../../../main/secrets/store.js';
import { goodBundle } from '../../../fixtures/bundles.js';
import { headlessBrowser } from '../../../fixtures/oauth/browser.js';
import { startWorld } from '../../../fixtures/oauth/world.js';
import { startHttpFixture, type HttpFixture } from '../../../fixtures/http-server.js';
import { makeTempDir, removeDir, sdkCommand, waitFor, waitNoChildren } from '../../helpers.js';

const TOKEN = 'rename-secret-value-7f3a';

let dir: string;
let core: AppCore;

function fileDoc(): { servers: Record<string, { env?: Record<string, { secret: string }>; headers?: Record<string, { secret: string }>; auth?: { token?: { secret: string } }; type: string }> } {
  return JSON.parse(readFileSync(path.join(dir, 'mcp_servers.json'), 'utf8'));
}
const secretsFile = (): Record<string, string> => JSON.parse(readFileSync(path.join(dir, 'secrets.json'), 'utf8'));
const pinFile = (name: string): string => new PinStore(dir).fileOf(name);
const scratch = (name: string): string => path.join(dir, 'sandbox', name);

async function ready(name: string): Promise<void> {
  expect(await waitFor(() => core.host.view(name).state.kind === 'ready', 20_000)).toBe(true);
}

beforeEach(async () => {
  dir = makeTempDir('op-rename-');
  core = new AppCore({ stateDir: dir, shell: 'browser', secrets: new FileSecretStore(dir) });
  await core.start();
});
afterEach(async () => {
  await core.shutdown();
  expect(await waitNoChildren(15_000)).toBe(true);
  await removeDir(dir);
});

/** A server `alpha` with a record in every place a server's name keys one. */
async function alphaWithEverything(): Promise<void> {
  await core.host.add('alpha', { type: 'local', command: sdkCommand(), env: { API_TOKEN: TOKEN }, sandbox: { enabled: false } });
  await ready('alpha');
  await core.host.setToolSettings('alpha', 'echo', { approval: 'always_allow' });
  expect(await waitFor(() => existsSync(pinFile('alpha')), 5000)).toBe(true);
  await core.traffic.setRecording('alpha', false);
  const identity = core.host.resolveTool(core.host.tool('alpha__echo')!)!.identity;
  core.permissions.grants.grant('c1', { server: 'alpha', identity }, 'noop');
  core.conversationStore.ensure('c1', 'hello');
  core.conversations.setToolServers('c1', ['alpha', 'other']);
  await core.catalog.store.setInstall('alpha', { registry_url: 'http://127.0.0.1:9', name: 'io.example/alpha', version: '1.0.0', option: 'npm', remembered: {}, installed_at: 1 });
  // OAuth state and a sandbox HOME, as a signed-in, sandboxed server leaves them.
  await core.secrets.update({ 'oauth:alpha:tokens': JSON.stringify({ access_token: 'at-1', token_type: 'Bearer', saved_at: 1 }) }, []);
  mkdirSync(path.join(scratch('alpha'), 'home'), { recursive: true });
  writeFileSync(path.join(scratch('alpha'), 'home', 'cache.txt'), 'kept');
}

describe('rename', () => {
  it('moves every record kept under the name, and the server runs under the new one', async () => {
    await alphaWithEverything();
    const pinsBefore = JSON.parse(readFileSync(pinFile('alpha'), 'utf8')) as { tools: Record<string, unknown> };
    const logsBefore = core.host.logs('alpha').length;
    const events: Array<{ from: string; name: string }> = [];
    core.subscribe((e, p) => {
      if (e === 'servers.renamed') events.push({ from: (p as { from: string }).from, name: (p as { view: { name: string } }).view.name });
    });

    // A scratch folder a removed server left under the new name: never handed to the renamed one.
    mkdirSync(path.join(scratch('beta'), 'home'), { recursive: true });
    writeFileSync(path.join(scratch('beta'), 'home', 'leftover.txt'), 'another server’s');
    const view = await createDispatcher(core).invoke('servers.rename', { name: 'alpha', new_name: 'beta' });
    expect(view).toMatchObject({ ok: true, value: { name: 'beta' } });
    expect(events).toEqual([{ from: 'alpha', name: 'beta' }]);

    // Config entry, in place, with its secret under a key of the new name; the old key is gone.
    const doc = fileDoc();
    expect(Object.keys(doc.servers)).toEqual(['beta']);
    const key = doc.servers.beta!.env!.API_TOKEN!.secret;
    expect(key.startsWith('mcp:beta:env:API_TOKEN:')).toBe(true);
    const vault = secretsFile();
    expect(vault[key]).toBe(TOKEN);
    expect(Object.keys(vault).filter((k) => k.includes(':alpha:'))).toEqual([]);
    expect(core.host.view('beta').env.API_TOKEN).toMatchObject({ has_value: true });
    // Per-tool settings, pins, OAuth state, sandbox folder, log.
    expect(core.host.toolSetting('beta', 'echo')).toEqual({ approval: 'always_allow' });
    expect(existsSync(pinFile('alpha'))).toBe(false);
    const pinsAfter = JSON.parse(readFileSync(pinFile('beta'), 'utf8')) as { server: string; tools: Record<string, unknown> };
    expect(pinsAfter.server).toBe('beta');
    expect(pinsAfter.tools).toEqual(pinsBefore.tools);
    expect(vault['oauth:beta:tokens']).toContain('at-1');
    expect(vault['oauth:alpha:tokens']).toBeUndefined();
    expect(readFileSync(path.join(scratch('beta'), 'home', 'cache.txt'), 'utf8')).toBe('kept');
    expect(existsSync(scratch('alpha'))).toBe(false);
    expect(existsSync(path.join(scratch('beta'), 'home', 'leftover.txt'))).toBe(false);
    expect(core.host.logs('beta').length).toBeGreaterThanOrEqual(logsBefore);
    // Inspector choice, grants, conversations' tool choice, catalog install record.
    expect(core.traffic.recording('beta')).toBe(false);
    expect(JSON.parse(readFileSync(path.join(dir, 'inspector.json'), 'utf8')).off).toEqual(['beta']);
    expect(core.permissions.grants.list('c1')).toEqual([{ server: 'beta', tool: 'noop' }]);
    expect(core.conversationStore.summary('c1')!.tool_servers).toEqual(['beta', 'other']);
    const installs = JSON.parse(readFileSync(path.join(dir, 'catalog', 'installs.json'), 'utf8')) as { servers: Record<string, unknown> };
    expect(Object.keys(installs.servers)).toEqual(['beta']);

    // The server runs again under the new name; its always-allowed tool runs without asking.
    await ready('beta');
    expect(core.host.tool('alpha__echo')).toBeUndefined();
    const tool = core.host.tool('beta__echo')!;
    expect(core.host.pinCheck(core.host.resolveTool(tool)!)!.status.kind).toBe('pinned');
    const auth = await core.permissions.gate.authorize({ conversation_id: 'c2', run_id: 'r', call_id: 'k', tool, args: { text: 'hi' } });
    expect(auth).toMatchObject({ allowed: true, via: 'always_allow' });
    // The grant moved with it: still bound to the same configuration identity.
    const noop = await core.permissions.gate.authorize({ conversation_id: 'c1', run_id: 'r', call_id: 'k2', tool: core.host.tool('beta__noop')!, args: {} });
    expect(noop).toMatchObject({ allowed: true, via: 'conversation_grant' });
    expect(core.host.list().map((v) => v.name)).toEqual(['beta']);

    // And it survives a restart of the app: everything is read back under the new name.
    await core.shutdown();
    core = new AppCore({ stateDir: dir, shell: 'browser', secrets: new FileSecretStore(dir) });
    await core.start();
    expect(core.host.list().map((v) => v.name)).toEqual(['beta']);
    const reloaded = core.config.get('beta')!;
    expect(reloaded.type === 'local' ? reloaded.env.API_TOKEN : null).toBe(TOKEN);
    expect(core.traffic.recording('beta')).toBe(false);
    await ready('beta');
    expect(core.host.pinCheck(core.host.resolveTool(core.host.tool('beta__echo')!)!)!.status.kind).toBe('pinned');
  });

  it('refuses a taken name — ignoring case, or by tool namespace — on the name field, and nothing moves', async () => {
    await alphaWithEverything();
    await core.host.add('gamma', { type: 'local', command: sdkCommand(), enabled: false });
    await core.host.add('my_fs', { type: 'local', command: sdkCommand(), enabled: false });
    const vaultBefore = secretsFile();
    const docBefore = readFileSync(path.join(dir, 'mcp_servers.json'), 'utf8');
    const dispatcher = createDispatcher(core);
    for (const taken of ['gamma', 'GAMMA', 'my.fs']) {
      const r = await dispatcher.invoke('servers.rename', { name: 'alpha', new_name: taken });
      expect(r).toMatchObject({ ok: false, error: { code: 'conflict', field: 'name' } });
    }
    const invalid = await dispatcher.invoke('servers.rename', { name: 'alpha', new_name: 'bad name!' });
    expect(invalid).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(readFileSync(path.join(dir, 'mcp_servers.json'), 'utf8')).toBe(docBefore);
    expect(secretsFile()).toEqual(vaultBefore);
    expect(existsSync(pinFile('alpha'))).toBe(true);
    expect(core.permissions.grants.list('c1')).toEqual([{ server: 'alpha', tool: 'noop' }]);
    expect(core.conversationStore.summary('c1')!.tool_servers).toEqual(['alpha', 'other']);
    // Never stopped: a refused name is refused before anything happens.
    expect(core.host.view('alpha').state.kind).toBe('ready');
  });

  it('moves everything back when a step fails, and the server runs under its old name', async () => {
    await alphaWithEverything();
    const vaultBefore = secretsFile();
    const pinsBefore = readFileSync(pinFile('alpha'), 'utf8');
    // inspector.json cannot be replaced (a folder is in its place): the inspector's step fails,
    // after the config, secrets, pins, OAuth state, sandbox folder and log have moved.
    rmSync(path.join(dir, 'inspector.json'));
    mkdirSync(path.join(dir, 'inspector.json'));
    const r = await createDispatcher(core).invoke('servers.rename', { name: 'alpha', new_name: 'beta' });
    // Which record could not be moved, by code, and the system's own words: the window words them.
    expect(r).toMatchObject({ ok: false, error: { code: 'write_failed', fact: { kind: 'rename_failed', server: 'alpha', to: 'beta', record: 'traffic', said: expect.stringMatching(/^E[A-Z]+/) } } });
    const doc = fileDoc();
    expect(Object.keys(doc.servers)).toEqual(['alpha']);
    const vault = secretsFile();
    expect(vault[doc.servers.alpha!.env!.API_TOKEN!.secret]).toBe(TOKEN);
    expect(Object.keys(vault).filter((k) => k.includes(':beta:'))).toEqual([]);
    expect(vault['oauth:alpha:tokens']).toBe(vaultBefore['oauth:alpha:tokens']);
    expect(readFileSync(pinFile('alpha'), 'utf8')).toBe(pinsBefore);
    expect(existsSync(pinFile('beta'))).toBe(false);
    expect(readFileSync(path.join(scratch('alpha'), 'home', 'cache.txt'), 'utf8')).toBe('kept');
    expect(existsSync(scratch('beta'))).toBe(false);
    expect(core.traffic.recording('alpha')).toBe(false);
    expect(core.conversationStore.summary('c1')!.tool_servers).toEqual(['alpha', 'other']);
    expect(core.host.toolSetting('alpha', 'echo')).toEqual({ approval: 'always_allow' });
    await ready('alpha');
    expect(core.host.tool('alpha__echo')).toBeDefined();
  });
});

describe('a renamed OAuth server', () => {
  it('stays signed in under the new name; a server added later under the old name is not', async () => {
    const world = await startWorld({ accessTokenTTL: 300 });
    const secrets = new MemorySecretStore();
    const store = new ConfigStore(path.join(dir, 'oauth-host'), secrets);
    await store.load();
    const browser = headlessBrowser();
    const host = new McpHost(store, { secrets, openUrl: (u) => browser.open(u) });
    try {
      await host.add('remote', { type: 'http', url: world.mcpUrl, auth: { kind: 'oauth' } });
      await host.signIn('remote');
      expect(await waitFor(() => host.view('remote').state.kind === 'ready', 10_000)).toBe(true);
      expect(world.stats.codeGrants).toBe(1);
      await host.rename('remote', 'signed-in');
      expect(await waitFor(() => host.view('signed-in').state.kind === 'ready', 10_000)).toBe(true);
      expect(world.stats.codeGrants).toBe(1);
      expect(host.view('signed-in').auth).toMatchObject({ kind: 'oauth' });
      expect(await host.callTool('signed-in__whoami', {})).toMatchObject({ content: [{ type: 'text' }] });
      expect((await secrets.keys()).filter((k) => k.startsWith('oauth:remote:'))).toEqual([]);
      await host.add('remote', { type: 'http', url: world.mcpUrl, auth: { kind: 'oauth' } });
      expect(await waitFor(() => host.view('remote').state.kind === 'needs_auth', 10_000)).toBe(true);
    } finally {
      await host.shutdown();
      await world.close();
    }
  });
});

describe('a renamed bundle server', () => {
  it('runs from the folder it was unpacked to, and removing it deletes that folder', async () => {
    const preview = await core.catalog.bundles.inspect(goodBundle());
    const view = await core.catalog.bundles.install(preview.token, 'bun', { 'user_config:api_key': TOKEN });
    const folder = path.dirname(path.dirname(view.command[1]!));
    await ready('bun');
    await core.host.rename('bun', 'renamed-bun');
    await ready('renamed-bun');
    expect(existsSync(folder)).toBe(true);
    await createDispatcher(core).invoke('servers.remove', { name: 'renamed-bun' });
    expect(await waitFor(() => !existsSync(folder), 5000)).toBe(true);
  });
});

describe('switching a remote server between Streamable HTTP and SSE', () => {
  let http: HttpFixture;
  let sse: HttpFixture;
  beforeEach(async () => {
    http = await startHttpFixture({ bearer: TOKEN });
    sse = await startHttpFixture({ mode: 'sse', bearer: TOKEN });
  });
  afterEach(async () => {
    await http.close();
    await sse.close();
  });

  it('keeps its headers and bearer token (the same secret-store keys) and connects over the other transport', async () => {
    await core.host.add('remote', { type: 'http', url: http.url, headers: { 'X-Api-Key': 'header-secret-1' }, auth: { kind: 'bearer', token: TOKEN } });
    await ready('remote');
    const before = fileDoc().servers.remote!;
    const view = await core.host.update('remote', { type: 'sse', url: sse.url });
    expect(view.type).toBe('sse');
    expect(view.state.kind).toBe('ready');
    const after = fileDoc().servers.remote!;
    expect(after.type).toBe('sse');
    expect(after.headers).toEqual(before.headers);
    expect(after.auth).toEqual(before.auth);
    const cfg = core.config.get('remote')!;
    expect(cfg.type === 'sse' && cfg.headers['X-Api-Key']).toBe('header-secret-1');
    expect(cfg.type === 'sse' && cfg.auth).toEqual({ kind: 'bearer', token: TOKEN });
    expect(sse.requests.some((q) => q.authorization === `Bearer ${TOKEN}`)).toBe(true);
    // And back to Streamable HTTP.
    const back = await core.host.update('remote', { type: 'http', url: http.url });
    expect(back).toMatchObject({ type: 'http', state: { kind: 'ready' } });
    expect(fileDoc().servers.remote!.headers).toEqual(before.headers);
  });

  it('is refused for a stdio server', async () => {
    await core.host.add('local', { type: 'local', command: sdkCommand(), enabled: false });
    await expect(core.host.update('local', { type: 'sse' })).rejects.toMatchObject({ code: 'invalid_input' });
  });
});
