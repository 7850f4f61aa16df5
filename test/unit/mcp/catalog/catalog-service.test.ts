/**
 * The Catalog service (main/mcp/catalog/service.ts) with real parts: the local registry fixture,
 * a real host and config store (secrets in a memory store), the npm entry started through npx
 * (the locally installed server-everything), a remote entry pointed at the HTTP MCP fixture.
 * Install, missing runtime, offline from the cache (cache untouched by failures), catalog diff
 * (newer, deprecated, deleted) and a one-step update that keeps the secret.
 */
import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigStore } from '../../../../main/mcp/config.js';
import { McpHost } from '../../../../main/mcp/host.js';
import { CatalogInputError } from '../../../../main/mcp/catalog/mapping.js';
import { NotInstallableError } from '../../../../main/mcp/catalog/reasons.js';
import { CatalogService, MissingRuntimeError } from '../../../../main/mcp/catalog/service.js';
import { MemorySecretStore } from '../../../../main/secrets/store.js';
import { startHttpFixture, type HttpFixture } from '../../../fixtures/http-server.js';
import { BundleError } from '../../../../main/mcp/catalog/bundle.js';
import { goodBundle } from '../../../fixtures/bundles.js';
import { randomPng } from '../../../fixtures/png.js';
import { everythingServer, fixtureEntries, remoteServer } from '../../../fixtures/registry-data.js';
import { startRegistryFixture, type RegistryFixture } from '../../../fixtures/registry-server.js';
import { makeTempDir, removeDir, waitFor } from '../../helpers.js';

let fx: RegistryFixture;
let remote: HttpFixture;
let dir: string;
let secrets: MemorySecretStore;
let store: ConfigStore;
let host: McpHost;
let catalog: CatalogService;

beforeAll(async () => {
  fx = await startRegistryFixture();
  remote = await startHttpFixture();
});
afterAll(async () => {
  await fx.close();
  await remote.close();
});
beforeEach(async () => {
  fx.entries = fixtureEntries();
  fx.mode = 'normal';
  dir = makeTempDir('op-catalog-');
  secrets = new MemorySecretStore();
  store = new ConfigStore(dir, secrets);
  await store.load();
  host = new McpHost(store, { secrets });
  catalog = new CatalogService({ stateDir: dir, host, config: store, client: { timeoutMs: 2000 } });
  await catalog.store.setRegistryUrl(fx.url);
});
afterEach(async () => {
  await host.shutdown();
  await removeDir(dir);
});

const TOKEN = 'catalog-secret-token-0123456789';

describe('catalog service', () => {
  it('installs the npm entry: it starts, its secret is in the store and not in the file, its origin is recorded', async () => {
    const view = await catalog.install('io.github.example/everything', '1.0.0', 'package:0', 'everything', { 'env:EVERYTHING_TOKEN': TOKEN });
    expect(view.command.slice(0, 3)).toEqual(['npx', '-y', '@modelcontextprotocol/server-everything@2026.8.31']);
    expect(view.env.EVERYTHING_TOKEN?.has_value).toBe(true);
    expect(JSON.stringify(view)).not.toContain(TOKEN);
    expect(await waitFor(() => host.view('everything').state.kind === 'ready', 30_000)).toBe(true);
    const file = readFileSync(path.join(dir, 'mcp_servers.json'), 'utf8');
    expect(file).not.toContain(TOKEN);
    const keys = await secrets.keys();
    const values = await Promise.all(keys.map((k) => secrets.get(k)));
    expect(values).toContain(TOKEN);
    const installs = readFileSync(path.join(dir, 'catalog', 'installs.json'), 'utf8');
    expect(installs).not.toContain(TOKEN);
    expect(JSON.parse(installs).servers.everything).toMatchObject({ name: 'io.github.example/everything', version: '1.0.0', option: 'package:0' });
    const page = await catalog.search('everything', undefined, false);
    expect(page.entries.find((e) => e.name === 'io.github.example/everything')?.installed_as).toEqual(['everything']);
  }, 60_000);

  it('installs the remote entry pointed at a local HTTP MCP server', async () => {
    const base = remote.url.replace(/\/mcp$/, '');
    const view = await catalog.install('com.example/weather-remote', '2.0.0', 'remote:0', 'weather', { 'url/base': base, 'header:X-Api-Key': 'key-abcdefghijklmnop' });
    expect(view).toMatchObject({ type: 'http', url: `${base}/mcp` });
    expect(view.headers['X-Api-Key']).toEqual({ has_value: true, masked: '••••••••mnop' });
    expect(await waitFor(() => host.view('weather').state.kind === 'ready', 15_000)).toBe(true);
  });

  it('the registry URL must be https (or http to loopback)', async () => {
    await expect(catalog.store.setRegistryUrl('http://registry.example.com')).rejects.toThrow(/https/);
    await expect(catalog.store.setRegistryUrl('file:///etc/passwd')).rejects.toThrow();
    expect(await catalog.store.registryUrl()).toBe(fx.url);
    expect(await catalog.store.setRegistryUrl('https://registry.example.com/')).toBe('https://registry.example.com');
  });

  it('nothing is saved when the answers do not validate, the entry is invalid, or the runtime is missing', async () => {
    await expect(catalog.install('io.github.example/everything', '1.0.0', 'package:0', 'x', {})).rejects.toBeInstanceOf(CatalogInputError);
    await expect(catalog.install('io.github.example/broken', '1.0.0', 'package:0', 'x', {})).rejects.toMatchObject({ reason: { code: 'server_json_invalid' } });
    const broken = (await catalog.search('broken', undefined, false)).entries.find((e) => e.name === 'io.github.example/broken')!.state;
    expect(broken).toMatchObject({ kind: 'invalid', reason: 'server_json_invalid', path: ['packages', 0, 'transport'] });
    await expect(catalog.install('com.example/weather-remote', '2.0.0', 'remote:0', 'x', { 'url/base': 'http://weather.example.com' })).rejects.toThrow(/Only https/);
    const noPath = new CatalogService({ stateDir: dir, host, config: store, resolve: () => null });
    const err = await noPath.install('io.github.example/time-py', '0.6.2', 'package:0', 'x', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MissingRuntimeError);
    expect(err).toMatchObject({ reason: { code: 'runtime_missing', runtime: 'uvx' } });
    const gone = await catalog.install('io.github.example/gone', '1.0.0', 'package:0', 'x', {}).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(NotInstallableError);
    expect(gone).toMatchObject({ reason: { code: 'entry_removed', name: 'io.github.example/gone', message: 'Malware' } });
    expect(store.names()).toEqual([]);
  });

  it('works offline from the cache and says so; failures leave the cache as it was', async () => {
    const live = await catalog.search('', undefined, false);
    expect(live.source).toEqual({ kind: 'registry' });
    expect(live.entries.map((e) => e.name)).not.toContain('io.github.example/old-tool');
    const before = readFileSync(catalog.cache.file, 'utf8');
    for (const mode of ['garbage', 'error', 'endless'] as const) {
      fx.mode = mode;
      const off = await catalog.search('', undefined, false);
      expect(off.source.kind).toBe('cache');
      expect(off.fetched_at).toBeLessThanOrEqual(live.fetched_at!);
      expect(off.entries.map((e) => e.name)).toEqual(live.entries.map((e) => e.name));
      expect(readFileSync(catalog.cache.file, 'utf8')).toBe(before);
    }
    fx.mode = 'garbage';
    const nothing = await catalog.search('never searched before zz', undefined, false);
    expect(nothing.source).toEqual({ kind: 'none', reason: { code: 'registry_not_json', host: new URL(fx.url).host } });
    // Deprecated entries only when asked.
    fx.mode = 'normal';
    const all = await catalog.search('example/', undefined, true);
    expect(all.entries.find((e) => e.name === 'io.github.example/old-tool')?.status).toBe('deprecated');
  });

  it('diff shows a newer version and what it changes; update applies it in one step keeping the secret', async () => {
    await catalog.install('io.github.example/everything', '1.0.0', 'package:0', 'everything', { 'env:EVERYTHING_TOKEN': TOKEN });
    expect(await waitFor(() => host.view('everything').state.kind === 'ready', 30_000)).toBe(true);
    expect(await catalog.diff()).toEqual([{ server: 'everything', registry_name: 'io.github.example/everything', installed_version: '1.0.0', status: 'active', status_message: null, problem: null, update: { kind: 'none' } }]);
    fx.publish(everythingServer('1.1.0'));
    const [item] = await catalog.diff();
    expect(item!.update).toEqual({ kind: 'available', version: '1.1.0', changes: [{ kind: 'env', added: ['EVERYTHING_MODE'], removed: [] }], needs: [] });
    expect(JSON.stringify(item)).not.toContain(TOKEN);
    const keyBefore = JSON.parse(readFileSync(path.join(dir, 'mcp_servers.json'), 'utf8')).servers.everything.env.EVERYTHING_TOKEN.secret;
    const view = await catalog.update('everything');
    expect(Object.keys(view.env).sort()).toEqual(['EVERYTHING_MODE', 'EVERYTHING_TOKEN']);
    expect(store.get('everything')).toMatchObject({ env: { EVERYTHING_TOKEN: TOKEN, EVERYTHING_MODE: 'fast' } });
    const keyAfter = JSON.parse(readFileSync(path.join(dir, 'mcp_servers.json'), 'utf8')).servers.everything.env.EVERYTHING_TOKEN.secret;
    expect(keyAfter).toBe(keyBefore);
    expect((await catalog.diff())[0]).toMatchObject({ installed_version: '1.1.0', update: { kind: 'none' } });
    await expect(catalog.update('everything')).rejects.toMatchObject({ reason: { code: 'already_latest', server: 'everything', version: '1.1.0' } });
  }, 90_000);

  it('in the app core, removing a catalog server forgets where it came from', async () => {
    const { AppCore } = await import('../../../../main/core.js');
    const core = new AppCore({ stateDir: dir, shell: 'browser', secrets: new MemorySecretStore() });
    try {
      await core.start();
      await core.catalog.store.setRegistryUrl(fx.url);
      const base = remote.url.replace(/\/mcp$/, '');
      await core.catalog.install('com.example/weather-remote', '2.0.0', 'remote:0', 'w', { 'url/base': base });
      expect(Object.keys(await core.catalog.store.allInstalls())).toEqual(['w']);
      await core.host.remove('w');
      // The record is dropped from the host's `removed` event; poll the file until it is.
      let left = await core.catalog.store.allInstalls();
      for (let i = 0; i < 50 && Object.keys(left).length; i++) left = await new Promise((r) => setTimeout(r, 20)).then(() => core.catalog.store.allInstalls());
      expect(left).toEqual({});
    } finally {
      await core.shutdown();
    }
  });

  it('diff reports deprecated and deleted entries, and a new required secret as needed', async () => {
    const base = remote.url.replace(/\/mcp$/, '');
    await catalog.install('com.example/weather-remote', '2.0.0', 'remote:0', 'weather', { 'url/base': base });
    fx.setStatus('com.example/weather-remote', 'deprecated', 'Moving to v3');
    expect((await catalog.diff())[0]).toMatchObject({ status: 'deprecated', status_message: 'Moving to v3' });
    const v3 = { ...fixtureEntries()[1]!.server, version: '3.0.0', remotes: [{ type: 'streamable-http', url: '{base}/v3/mcp', variables: { base: { isRequired: true } }, headers: [{ name: 'X-Tenant', isRequired: true, isSecret: true }] }] };
    fx.setStatus('com.example/weather-remote', 'active');
    fx.publish(v3);
    const [item] = await catalog.diff();
    expect(item!.update).toMatchObject({ kind: 'available', version: '3.0.0', needs: [{ id: 'header:X-Tenant', secret: true }], changes: [{ kind: 'headers', added: ['X-Tenant'], removed: [] }] });
    await expect(catalog.update('weather')).rejects.toBeInstanceOf(CatalogInputError);
    fx.setStatus('com.example/weather-remote', 'deleted', 'Withdrawn');
    expect((await catalog.diff())[0]).toMatchObject({ status: 'deleted', update: { kind: 'none' } });
    // The registry cannot be used and nothing is cached: the status is unknown and the problem says why, by code.
    rmSync(catalog.cache.file, { force: true });
    fx.mode = 'error';
    expect((await catalog.diff())[0]).toMatchObject({ status: 'unknown', status_message: null, problem: { code: 'registry_http_status', host: new URL(fx.url).host, status: 503 } });
    fx.mode = 'normal';
    // The registry no longer lists the entry at all (404): deleted, with a reason and no English sentence.
    const kept = fx.entries.splice(0);
    try {
      const [gone] = await catalog.diff();
      expect(gone).toMatchObject({ status: 'deleted', status_message: null, problem: { code: 'registry_unlisted', name: 'com.example/weather-remote' } });
    } finally {
      fx.entries.push(...kept);
    }
  });

  it('an update that cannot be made is blocked with its reason; refused calls carry theirs', async () => {
    const base = remote.url.replace(/\/mcp$/, '');
    await catalog.install('com.example/weather-remote', '2.0.0', 'remote:0', 'weather', { 'url/base': base });
    await expect(catalog.update('nope')).rejects.toMatchObject({ reason: { code: 'not_from_catalog', server: 'nope' } });
    await expect(catalog.install('com.example/weather-remote', '2.0.0', 'remote:5', 'x', {})).rejects.toMatchObject({ reason: { code: 'no_such_option', option: 'remote:5' } });
    await expect(catalog.fetchBundle('com.example/weather-remote', '2.0.0', 'remote:0')).rejects.toMatchObject({ reason: { code: 'not_a_bundle' } });
    const blocked = async () => (await catalog.diff()).find((d) => d.server === 'weather')!.update;
    // The kept answer for `base` is not among the new version's choices.
    const v3 = remoteServer('3.0.0');
    v3.remotes = [{ type: 'streamable-http', url: '{base}/mcp', variables: { base: { isRequired: true, choices: ['https://a.example.com'] } } }];
    fx.publish(v3);
    expect(await blocked()).toEqual({ kind: 'blocked', version: '3.0.0', reason: { code: 'answer_invalid', field: 'base' } });
    // The way it was installed is gone.
    fx.publish({ ...remoteServer('4.0.0'), remotes: undefined, packages: [{ registryType: 'npm', identifier: 'weather-mcp', version: '4.0.0', transport: { type: 'stdio' } }] });
    expect(await blocked()).toEqual({ kind: 'blocked', version: '4.0.0', reason: { code: 'option_gone' } });
    // The new version's server.json does not validate.
    fx.publish({ ...remoteServer('5.0.0'), remotes: [{ type: 'streamable-http' }] } as unknown as ReturnType<typeof remoteServer>);
    expect(await blocked()).toEqual({ kind: 'blocked', version: '5.0.0', reason: { code: 'new_version_invalid' } });
    // The option is refused by the new version (a secret in its URL).
    fx.publish({ ...remoteServer('6.0.0'), remotes: [{ type: 'streamable-http', url: '{base}/{key}/mcp', variables: { base: { isRequired: true }, key: { isSecret: true } } }] });
    expect(await blocked()).toEqual({ kind: 'blocked', version: '6.0.0', reason: { code: 'secret_url_variable', name: 'key' } });
    await expect(catalog.update('weather')).rejects.toMatchObject({ reason: { code: 'secret_url_variable', name: 'key' } });
    fx.setStatus('com.example/weather-remote', 'deleted', 'Withdrawn');
    await expect(catalog.update('weather')).rejects.toMatchObject({ reason: { code: 'entry_removed', name: 'com.example/weather-remote', message: 'Withdrawn' } });
  });

  it('an mcpb package is downloaded, checked against its fileSha256, and installed as a bundle; a wrong hash is refused', async () => {
    const bytes = goodBundle();
    fx.files.set('raw.mcpb', bytes);
    const sha = createHash('sha256').update(bytes).digest('hex');
    const entry = (name: string, fileSha256: string) => ({
      name,
      description: 'A bundle from the registry.',
      version: '1.2.3',
      packages: [{ registryType: 'mcpb', identifier: `${fx.url}/files/raw.mcpb`, version: '1.2.3', fileSha256, transport: { type: 'stdio' } }],
    });
    fx.publish(entry('io.github.example/raw-bundle', sha));
    fx.publish(entry('io.github.example/tampered', 'f'.repeat(64)));
    const page = await catalog.search('bundle', undefined, false);
    const opt = page.entries.find((e) => e.name === 'io.github.example/raw-bundle')!.state;
    expect(opt).toMatchObject({ kind: 'valid', options: [{ id: 'package:0', kind: 'mcpb', installable: true }] });
    await expect(catalog.install('io.github.example/raw-bundle', '1.2.3', 'package:0', 'rb', {})).rejects.toMatchObject({ reason: { code: 'bundle_download_first' } });
    const bad = await catalog.fetchBundle('io.github.example/tampered', '1.2.3', 'package:0').catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(BundleError);
    expect(bad).toMatchObject({ problem: { code: 'bundle_sha256_mismatch' } });
    // A download address that answers 404 is a structured problem too (rendered by the window).
    fx.publish({ ...entry('io.github.example/missing-file', sha), packages: [{ registryType: 'mcpb', identifier: `${fx.url}/files/missing.mcpb`, version: '1.2.3', fileSha256: sha, transport: { type: 'stdio' } }] });
    const missing = await catalog.fetchBundle('io.github.example/missing-file', '1.2.3', 'package:0').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(BundleError);
    expect(missing).toMatchObject({ problem: { code: 'bundle_http_status', host: new URL(fx.url).host, status: 404 } });
    const preview = await catalog.fetchBundle('io.github.example/raw-bundle', '1.2.3', 'package:0');
    expect(preview).toMatchObject({ name: 'raw-bundle', version: '1.2.3' });
    await catalog.bundles.install(preview.token, 'rb', { 'user_config:api_key': TOKEN });
    expect(await waitFor(() => host.view('rb').state.kind === 'ready', 15_000)).toBe(true);
    expect((await catalog.diff()).find((d) => d.server === 'rb')).toMatchObject({ registry_name: 'io.github.example/raw-bundle', installed_version: '1.2.3', update: { kind: 'none' } });
    expect(store.names()).toEqual(['rb']);
    fx.publish({ ...entry('io.github.example/raw-bundle', sha), version: '1.3.0' });
    expect((await catalog.diff()).find((d) => d.server === 'rb')!.update).toMatchObject({ kind: 'blocked', version: '1.3.0', reason: { code: 'bundle_update_unsupported' } });
  });

  it('icons: only those a registry answer named, fetched by main as data: URLs, images only', async () => {
    const png = randomPng(2000);
    fx.files.set('icon.png', png);
    fx.files.set('icon.svg', new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'));
    fx.files.set('big.png', randomPng(300_000));
    const withIcon = (name: string, file: string, mimeType?: string) => ({ name, description: 'x', version: '1.0.0', icons: [{ src: `${fx.url}/files/${file}`, ...(mimeType ? { mimeType } : {}) }], remotes: [{ type: 'sse', url: 'https://x.example.com/sse' }] });
    fx.publish(withIcon('io.github.icons/png', 'icon.png'));
    fx.publish(withIcon('io.github.icons/svg', 'icon.svg'));
    fx.publish(withIcon('io.github.icons/big', 'big.png'));
    fx.publish(withIcon('io.github.icons/declared-svg', 'icon.png', 'image/svg+xml'));
    // Not named by any answer yet: not fetched.
    expect(await catalog.icons.get(`${fx.url}/files/icon.png`)).toBeNull();
    const page = await catalog.search('icons', undefined, false);
    const icon = (n: string): string | null => page.entries.find((e) => e.name === n)!.icon;
    expect(icon('io.github.icons/declared-svg')).toBeNull();
    expect(await catalog.icons.get(icon('io.github.icons/png')!)).toBe(`data:image/png;base64,${png.toString('base64')}`);
    expect(await catalog.icons.get(icon('io.github.icons/svg')!)).toBeNull();
    expect(await catalog.icons.get(icon('io.github.icons/big')!)).toBeNull();
    expect(await catalog.icons.get('https://elsewhere.example/x.png')).toBeNull();
  });
});
