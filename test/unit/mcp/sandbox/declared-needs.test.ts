/**
 * Declared sandbox needs (main/mcp/sandbox/declared-needs.ts and the catalog's use of it): a
 * server.json's publisher-provided `_meta` and a bundle manifest's `_meta` declare extra folders
 * and hosts; the install form shows them, the installed server's sandbox settings hold them, an
 * invalid declaration is reported and ignored (the entry still installs), and an update adds what
 * a newer version declares while keeping the user's own settings.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BundleInstaller } from '../../../../main/mcp/catalog/bundle-installer.js';
import { diffConfigs, updatePatch } from '../../../../main/mcp/catalog/diff.js';
import { buildConfig, installOptions } from '../../../../main/mcp/catalog/mapping.js';
import { serverJsonSchema } from '../../../../main/mcp/catalog/schema.js';
import { ConfigStore, parseServerEntry, type ServerConfig } from '../../../../main/mcp/config.js';
import { McpHost } from '../../../../main/mcp/host.js';
import { PUBLISHER_META, readDeclaredNeeds } from '../../../../main/mcp/sandbox/declared-needs.js';
import { MemorySecretStore } from '../../../../main/secrets/store.js';
import { DECLARED_NEEDS_KEY } from '../../../../preload/contract/index.js';
import { goodFiles, goodManifest, zipBundle } from '../../../fixtures/bundles.js';
import { makeTempDir, removeDir } from '../../helpers.js';

const declaring = (needs: unknown) =>
  serverJsonSchema.parse({
    name: 'io.test/needs',
    description: 'x',
    version: '1.0.0',
    packages: [{ registryType: 'npm', identifier: 'needs-mcp', version: '1.0.0', transport: { type: 'stdio' } }],
    remotes: [{ type: 'streamable-http', url: 'https://mcp.example.com/mcp' }],
    _meta: { [PUBLISHER_META]: { [DECLARED_NEEDS_KEY]: needs } },
  });

describe('reading a declaration', () => {
  it('reads folders and hosts, drops repeats, and says none for an absent or empty one', () => {
    expect(readDeclaredNeeds({ [DECLARED_NEEDS_KEY]: { read: ['~/Notes', '~/Notes'], hosts: ['api.example.com', '*.cdn.example.com:443'] } })).toEqual({ kind: 'declared', read: ['~/Notes'], write: [], hosts: ['api.example.com', '*.cdn.example.com:443'] });
    expect(readDeclaredNeeds(undefined)).toEqual({ kind: 'none' });
    expect(readDeclaredNeeds({ 'com.other/thing': {} })).toEqual({ kind: 'none' });
    expect(readDeclaredNeeds({ [DECLARED_NEEDS_KEY]: {} })).toEqual({ kind: 'none' });
    expect(readDeclaredNeeds('not an object')).toEqual({ kind: 'none' });
  });

  it.each([
    ['a relative folder', { read: ['Documents'] }, /read\.0/],
    ['a host with a path', { hosts: ['https://api.example.com/x'] }, /hosts\.0/],
    ['an unknown key (a typo)', { hostz: ['api.example.com'] }, /hostz|Unrecognized/],
    ['a list that is not a list', { write: '/tmp' }, /write/],
    ['a control character', { read: ['/tmp/a\u0007'] }, /read\.0/],
    ['too many folders', { read: Array.from({ length: 65 }, (_, i) => `/data/${i}`) }, /read/],
  ])('refuses %s with where it is wrong', (_what, decl, where) => {
    const r = readDeclaredNeeds({ [DECLARED_NEEDS_KEY]: decl });
    expect(r.kind).toBe('invalid');
    if (r.kind === 'invalid') expect(r.detail).toMatch(where);
  });
});

describe('catalog entries', () => {
  it('the install option shows the needs and the built config carries them as sandbox settings', () => {
    const s = declaring({ write: ['~/Notes'], hosts: ['api.example.com'] });
    const [pkgOpt, remoteOpt] = installOptions(s);
    expect(pkgOpt).toMatchObject({ installable: true, sandbox_needs: { kind: 'declared', read: [], write: ['~/Notes'], hosts: ['api.example.com'] } });
    // A remote server is not sandboxed: nothing to declare there.
    expect(remoteOpt).toMatchObject({ installable: true, sandbox_needs: { kind: 'none' } });
    const built = buildConfig(s, 'package:0', {});
    expect(built.input).toMatchObject({ type: 'local', sandbox: { enabled: true, read: [], write: ['~/Notes'], hosts: ['api.example.com'] } });
    const cfg = parseServerEntry(built.input);
    expect(cfg.type === 'local' && cfg.sandbox).toEqual({ enabled: true, read: [], write: ['~/Notes'], hosts: ['api.example.com'] });
    expect(buildConfig(s, 'remote:0', {}).input).not.toHaveProperty('sandbox');
  });

  it('an invalid declaration is reported and ignored; the entry itself stays valid and installable', () => {
    const s = declaring({ hosts: ['not a host'] });
    const [opt] = installOptions(s);
    expect(opt).toMatchObject({ installable: true, sandbox_needs: { kind: 'invalid' } });
    expect(buildConfig(s, 'package:0', {}).input).not.toHaveProperty('sandbox');
  });

  it('an update lists and adds what the new version declares, and keeps the user’s own choices', () => {
    const current = parseServerEntry({ type: 'local', command: ['npx', '-y', 'needs-mcp@1.0.0'], sandbox: { enabled: false, read: ['/srv/data'], write: [], hosts: ['api.example.com'] } }) as Extract<ServerConfig, { type: 'local' }>;
    const next = buildConfig(declaring({ read: ['/srv/data'], hosts: ['api.example.com', 'files.example.com'] }), 'package:0', {}).input;
    expect(diffConfigs(current, next, [])).toContainEqual({ kind: 'sandbox', read: [], write: [], hosts: ['files.example.com'] });
    const patch = updatePatch(current, next, []);
    // Sandbox stays off (the user's choice); the new host is added to theirs.
    expect(patch.sandbox).toEqual({ enabled: false, read: ['/srv/data'], write: [], hosts: ['api.example.com', 'files.example.com'] });
    // Nothing new declared → the update leaves the sandbox settings alone.
    const same = buildConfig(declaring({ hosts: ['api.example.com'] }), 'package:0', {}).input;
    expect(diffConfigs(current, same, []).some((c) => c.kind === 'sandbox')).toBe(false);
    expect(updatePatch(current, same, [])).not.toHaveProperty('sandbox');
  });
});

describe('bundles', () => {
  let dir: string;
  let host: McpHost;
  beforeEach(async () => {
    dir = makeTempDir('op-needs-');
    const secrets = new MemorySecretStore();
    const store = new ConfigStore(dir, secrets);
    await store.load();
    host = new McpHost(store, { secrets });
  });
  afterEach(async () => {
    await host.shutdown();
    await removeDir(dir);
  });

  it('the preview shows the manifest’s declared needs and the installed server holds them', async () => {
    const manifest = goodManifest({ _meta: { [DECLARED_NEEDS_KEY]: { read: ['~/Pictures'], hosts: ['tiles.example.com'] } } });
    const inst = new BundleInstaller(dir, host);
    const preview = await inst.inspect(zipBundle(goodFiles(manifest)));
    expect(preview.sandbox_needs).toEqual({ kind: 'declared', read: ['~/Pictures'], write: [], hosts: ['tiles.example.com'] });
    const view = await inst.install(preview.token, 'needs-bundle', { 'user_config:api_key': 'k-1' });
    expect(view.sandbox_settings).toEqual({ enabled: true, read: ['~/Pictures'], write: [], hosts: ['tiles.example.com'] });
  });

  it('a bundle with an invalid declaration still installs, with the default policy', async () => {
    const manifest = goodManifest({ _meta: { [DECLARED_NEEDS_KEY]: { read: ['relative/folder'] } } });
    const inst = new BundleInstaller(dir, host);
    const preview = await inst.inspect(zipBundle(goodFiles(manifest)));
    expect(preview.sandbox_needs.kind).toBe('invalid');
    const view = await inst.install(preview.token, 'plain-bundle', { 'user_config:api_key': 'k-2' });
    expect(view.sandbox_settings).toEqual({ enabled: true, read: [], write: [], hosts: [] });
  });
});
