/**
 * Server names that would share a tool namespace are refused (docs/ARCHITECTURE.md "Tool names and
 * result content"): tools are offered as `{server}__{tool}` with "." turned into "_", so `my.fs`
 * next to `my_fs` could be taken for it. With real parts — a real host and config file, the
 * dispatcher both shells use, the local registry fixture and HTTP MCP fixture for a catalog
 * install, a real .mcpb zip for a bundle install — every way a server is added refuses such a
 * name with a per-field error naming the server already there, and saves nothing.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ImportPreview, ImportResult } from '../../../../preload/contract/index.js';
import { AppCore } from '../../../../main/core.js';
import { createDispatcher, toIpcError } from '../../../../main/ipc/dispatch.js';
import { BundleInstaller } from '../../../../main/mcp/catalog/bundle-installer.js';
import { CatalogService } from '../../../../main/mcp/catalog/service.js';
import { ConfigStore, toolNamespace } from '../../../../main/mcp/config.js';
import { McpHost, NameCollisionError } from '../../../../main/mcp/host.js';
import { MemorySecretStore } from '../../../../main/secrets/store.js';
import { goodBundle } from '../../../fixtures/bundles.js';
import { startHttpFixture, type HttpFixture } from '../../../fixtures/http-server.js';
import { fixtureEntries } from '../../../fixtures/registry-data.js';
import { startRegistryFixture, type RegistryFixture } from '../../../fixtures/registry-server.js';
import { makeTempDir, removeDir, sdkCommand, waitFor, waitNoChildren } from '../../helpers.js';

let dir: string;
let store: ConfigStore;
let host: McpHost;

beforeEach(async () => {
  dir = makeTempDir('op-names-');
  store = new ConfigStore(dir);
  await store.load();
  host = new McpHost(store);
  await host.add('my_fs', { type: 'local', command: sdkCommand(), enabled: false });
});
afterEach(async () => {
  await host.shutdown();
  expect(await waitNoChildren(15_000)).toBe(true);
  await removeDir(dir);
});

const fileServers = (): string[] => Object.keys((JSON.parse(readFileSync(path.join(dir, 'mcp_servers.json'), 'utf8')) as { servers: Record<string, unknown> }).servers);

describe('the tool namespace of a name', () => {
  it('is the name as tool names carry it, ignoring case', () => {
    expect(toolNamespace('my.fs')).toBe('my_fs');
    expect(toolNamespace('My.FS')).toBe(toolNamespace('my_fs'));
    expect(toolNamespace('my-fs')).not.toBe(toolNamespace('my_fs'));
  });
});

describe('add', () => {
  it('refuses a name whose tools would be named like an existing server’s, naming it, on the name field; nothing is saved', async () => {
    for (const name of ['my.fs', 'My.Fs', 'MY_FS']) {
      const err = await host.add(name, { type: 'local', command: sdkCommand(), enabled: false }).catch((e: unknown) => e);
      if (name.toLowerCase() === 'my_fs') {
        // Same name ignoring case: the existing duplicate check answers.
        expect(err).toMatchObject({ code: 'conflict', field: 'name' });
        continue;
      }
      expect(err).toBeInstanceOf(NameCollisionError);
      expect(err).toMatchObject({ code: 'conflict', field: 'name', existing: 'my_fs' });
      expect((err as Error).message).toContain('"my_fs"');
    }
    expect(store.names()).toEqual(['my_fs']);
    expect(fileServers()).toEqual(['my_fs']);
    // A name of its own namespace is fine ("-" is kept in tool names).
    await host.add('my-fs', { type: 'local', command: sdkCommand(), enabled: false });
    expect(store.names()).toEqual(['my_fs', 'my-fs']);
  });

  it('two adds at once of names of one namespace: the second is refused', async () => {
    const first = host.add('data.set', { type: 'local', command: sdkCommand(), enabled: false });
    const second = host.add('data_set', { type: 'local', command: sdkCommand(), enabled: false }).catch((e: unknown) => e);
    await first;
    expect(await second).toMatchObject({ code: 'conflict', field: 'name', existing: 'data.set' });
    expect(store.names()).toEqual(['my_fs', 'data.set']);
  });

  it('over the contract: servers.add answers conflict on the field "name", with the server named', async () => {
    const core = new AppCore({ stateDir: dir, shell: 'browser', secrets: new MemorySecretStore() });
    try {
      await core.start();
      const d = createDispatcher(core);
      const r = await d.invoke('servers.add', { name: 'my.fs', config: { type: 'local', command: sdkCommand(), enabled: false } });
      expect(r).toMatchObject({ ok: false, error: { code: 'conflict', field: 'name', message: expect.stringContaining('"my_fs"') } });
      expect(core.host.list().map((s) => s.name)).toEqual(['my_fs']);
    } finally {
      await core.shutdown();
    }
  });
});

describe('import', () => {
  const doc = JSON.stringify({
    mcpServers: {
      'my.fs': { command: process.execPath, args: ['x.js'], disabled: true },
      'new.one': { command: process.execPath, args: ['y.js'], disabled: true },
      new_one: { command: process.execPath, args: ['z.js'], disabled: true },
      my_fs: { command: process.execPath, args: ['w.js'], disabled: true },
    },
  });

  it('the preview marks entries that collide with a server there or an earlier entry; the import refuses them with the reason and adds the rest', async () => {
    const preview: ImportPreview = host.importPreview(doc);
    expect(preview.servers.map((s) => [s.name, s.exists, s.collides_with])).toEqual([
      ['my.fs', false, 'my_fs'],
      ['new.one', false, null],
      ['new_one', false, 'new.one'],
      ['my_fs', true, null],
    ]);
    const r: ImportResult = await host.importServers(doc, true);
    expect(r.added).toEqual(['new.one']);
    expect(r.replaced).toEqual(['my_fs']);
    expect(r.skipped).toEqual([
      { name: 'my.fs', why: { code: 'name_taken', existing: 'my_fs', why: 'namespace' }, reason: expect.stringMatching(/tools would be named like those of the server "my_fs"/) },
      { name: 'new_one', why: { code: 'name_taken', existing: 'new.one', why: 'namespace' }, reason: expect.stringMatching(/tools would be named like those of the server "new\.one"/) },
    ]);
    expect(store.names().sort()).toEqual(['my_fs', 'new.one']);
    expect(store.get('my_fs')).toMatchObject({ command: [process.execPath, 'w.js'] });
  });
});

describe('a config file that already holds names of one namespace', () => {
  it('loads both (nothing lost); each view names the other', async () => {
    await store.put('my.fs', { type: 'local', command: sdkCommand(), env: {}, enabled: false, timeout_seconds: 30 });
    const again = new ConfigStore(dir);
    await again.load();
    expect(again.names()).toEqual(['my_fs', 'my.fs']);
    expect(again.skippedEntries()).toEqual([]);
    const h = new McpHost(again);
    expect(h.view('my.fs').shares_namespace_with).toEqual(['my_fs']);
    expect(h.view('my_fs').shares_namespace_with).toEqual(['my.fs']);
    await h.shutdown();
  });
});

describe('catalog and bundle installs (both through McpHost.add)', () => {
  let fx: RegistryFixture;
  let remote: HttpFixture;
  beforeAll(async () => {
    fx = await startRegistryFixture();
    remote = await startHttpFixture();
  });
  afterAll(async () => {
    await fx.close();
    await remote.close();
  });

  it('a catalog install under a colliding name is refused on the name field; no server and no install record are saved', async () => {
    fx.entries = fixtureEntries();
    const catalog = new CatalogService({ stateDir: dir, host, config: store, client: { timeoutMs: 2000 } });
    await catalog.store.setRegistryUrl(fx.url);
    const base = remote.url.replace(/\/mcp$/, '');
    const err = await catalog.install('com.example/weather-remote', '2.0.0', 'remote:0', 'my.fs', { 'url/base': base }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NameCollisionError);
    // The window puts an error with field "name" under the server-name input (Catalog.tsx).
    expect(toIpcError(err)).toMatchObject({ code: 'conflict', field: 'name', message: expect.stringContaining('"my_fs"') });
    expect(store.names()).toEqual(['my_fs']);
    const installs = path.join(dir, 'catalog', 'installs.json');
    expect(existsSync(installs) ? Object.keys((JSON.parse(readFileSync(installs, 'utf8')) as { servers: object }).servers) : []).toEqual([]);
    // Under a name of its own it installs.
    await catalog.install('com.example/weather-remote', '2.0.0', 'remote:0', 'my-weather', { 'url/base': base });
    expect(await waitFor(() => host.view('my-weather').state.kind === 'ready', 15_000)).toBe(true);
  });

  it('a bundle install under a colliding name is refused on the name field; its unpacked folder is removed', async () => {
    const inst = new BundleInstaller(dir, host);
    const preview = await inst.inspect(goodBundle());
    const err = await inst.install(preview.token, 'My.fs', { 'user_config:api_key': 'k' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NameCollisionError);
    expect(toIpcError(err)).toMatchObject({ code: 'conflict', field: 'name' });
    expect(store.names()).toEqual(['my_fs']);
    expect(existsSync(path.join(dir, 'bundles')) ? readdirSync(path.join(dir, 'bundles')) : []).toEqual([]);
  });
});
