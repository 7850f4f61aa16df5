/**
 * MCP Bundles (main/mcp/catalog/zip.ts, bundle.ts, bundle-installer.ts): bundles built here with
 * fflate. A good one installs through the real host, starts with its declared runtime, and its
 * sensitive answer is in the secret store, not the config file. Malicious ones — path traversal,
 * absolute names, symbolic links, duplicates, a manifest that does not validate, a secret on the
 * command line, a wrong SHA-256 — are refused and leave nothing behind.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BundleError, inspectBundle, verifySha256 } from '../../../../main/mcp/catalog/bundle.js';
import { BundleInstaller } from '../../../../main/mcp/catalog/bundle-installer.js';
import { CatalogInputError } from '../../../../main/mcp/catalog/mapping.js';
import { MissingRuntimeError } from '../../../../main/mcp/catalog/runtime.js';
import { ConfigStore } from '../../../../main/mcp/config.js';
import { McpHost } from '../../../../main/mcp/host.js';
import { MemorySecretStore } from '../../../../main/secrets/store.js';
import { goodBundle, goodFiles, goodManifest, zipBundle } from '../../../fixtures/bundles.js';
import { makeTempDir, removeDir, waitFor } from '../../helpers.js';

let dir: string;
let secrets: MemorySecretStore;
let store: ConfigStore;
let host: McpHost;
beforeEach(async () => {
  dir = makeTempDir('op-bundle-');
  secrets = new MemorySecretStore();
  store = new ConfigStore(dir, secrets);
  await store.load();
  host = new McpHost(store, { secrets });
});
afterEach(async () => {
  await host.shutdown();
  await removeDir(dir);
});

const refused = async (bytes: Uint8Array): Promise<string> => {
  try {
    await inspectBundle(bytes);
    return 'accepted';
  } catch (err) {
    if (err instanceof BundleError) return err.message;
    throw err;
  }
};
const KEY = 'bundle-secret-key-0123456789abcdef';

describe('bundles', () => {
  it('a good bundle installs, starts with node, keeps its sensitive answer in the secret store', async () => {
    const inst = new BundleInstaller(dir, host);
    const preview = await inst.inspect(goodBundle());
    expect(preview).toMatchObject({ name: 'raw-bundle', display_name: 'Raw bundle', version: '1.2.3', runtime: 'node' });
    expect(preview.fields.map((f) => [f.id, f.required, f.secret, f.format, f.default])).toEqual([
      ['user_config:api_key', true, true, 'string', null],
      ['user_config:level', false, false, 'number', '2'],
    ]);
    await expect(inst.install(preview.token, 'raw', {})).rejects.toBeInstanceOf(CatalogInputError);
    await expect(inst.install(preview.token, 'raw', { 'user_config:api_key': KEY, 'user_config:level': '9' })).rejects.toThrow(/between 1 and 5/);
    expect(existsSync(path.join(dir, 'bundles')) ? readdirSync(path.join(dir, 'bundles')) : []).toEqual([]);
    const view = await inst.install(preview.token, 'raw', { 'user_config:api_key': KEY });
    expect(view.command[0]).toBe('node');
    const folder = path.dirname(path.dirname(view.command[1]!));
    expect(folder.startsWith(path.join(dir, 'bundles', 'raw-'))).toBe(true);
    expect(statSync(view.command[1]!).mode & 0o111).not.toBe(0);
    expect(view.env.API_KEY?.has_value).toBe(true);
    expect(await waitFor(() => host.view('raw').state.kind === 'ready', 15_000)).toBe(true);
    expect(store.get('raw')).toMatchObject({ env: { API_KEY: KEY, LEVEL: '2' } });
    expect(readFileSync(path.join(dir, 'mcp_servers.json'), 'utf8')).not.toContain(KEY);
    // A token is used once.
    await expect(inst.install(preview.token, 'raw2', { 'user_config:api_key': KEY })).rejects.toThrow(/no longer waiting/);
    // Forgetting a removed server deletes its folder only (not one of a server whose name starts alike).
    const other = await inst.inspect(goodBundle());
    await inst.install(other.token, 'raw-x', { 'user_config:api_key': KEY });
    await host.remove('raw');
    await inst.forget('raw');
    expect(existsSync(folder)).toBe(false);
    expect(readdirSync(path.join(dir, 'bundles')).map((n) => n.replace(/[0-9a-f]{8}$/, ''))).toEqual(['raw-x-']);
  });

  it('a file and a folder of the same name are refused when unpacking, and nothing is kept', async () => {
    const inst = new BundleInstaller(dir, host);
    const p = await inst.inspect(zipBundle({ ...goodFiles(), data: 'x', 'data/inner.txt': 'y' }));
    await expect(inst.install(p.token, 'clash', { 'user_config:api_key': KEY })).rejects.toThrow(/same name/);
    expect(readdirSync(path.join(dir, 'bundles'))).toEqual([]);
  });

  it('refuses path traversal, absolute names, backslashes, symbolic links, special files, duplicates', async () => {
    const files = goodFiles();
    expect(await refused(zipBundle({ ...files, '../evil.sh': 'x' }))).toMatch(/outside the bundle/);
    expect(await refused(zipBundle({ ...files, 'server/../../evil.sh': 'x' }))).toMatch(/outside the bundle/);
    expect(await refused(zipBundle({ ...files, '/etc/evil': 'x' }))).toMatch(/absolute path/);
    expect(await refused(zipBundle({ ...files, 'C:/evil': 'x' }))).toMatch(/absolute path/);
    expect(await refused(zipBundle({ ...files, 'server\\..\\..\\evil': 'x' }))).toMatch(/backslash/);
    expect(await refused(zipBundle({ ...files, 'server/link': [new TextEncoder().encode('/etc/passwd'), { os: 3, attrs: (0o120777 << 16) >>> 0 }] }))).toMatch(/symbolic link/);
    expect(await refused(zipBundle({ ...files, 'server/fifo': [new Uint8Array(), { os: 3, attrs: (0o010644 << 16) >>> 0 }] }))).toMatch(/not a regular file/);
    expect(await refused(zipBundle({ ...files, 'README.MD': 'again' }))).toMatch(/twice/);
    expect(await refused(new TextEncoder().encode('not a zip at all'))).toMatch(/not a zip/);
  });

  it('refuses a manifest that is missing, not JSON, does not validate, or puts a secret on the command line', async () => {
    const files = goodFiles();
    const { 'manifest.json': _m, ...noManifest } = files;
    expect(await refused(zipBundle(noManifest))).toMatch(/no manifest.json/);
    expect(await refused(zipBundle({ ...files, 'manifest.json': '{nope' }))).toMatch(/not valid JSON/);
    expect(await refused(zipBundle({ ...files, 'manifest.json': JSON.stringify({ ...goodManifest(), author: undefined }) }))).toMatch(/does not validate: author/);
    expect(await refused(zipBundle({ ...files, 'manifest.json': JSON.stringify(goodManifest({ server: { type: 'node', entry_point: 'x.js', mcp_config: { command: 'node', args: ['x.js', '--key=${user_config.api_key}'] } } })) }))).toMatch(/secret "api_key" on the command line/);
  });

  it('a wrong SHA-256 is refused', () => {
    const bytes = goodBundle();
    expect(() => verifySha256(bytes, 'a'.repeat(64))).toThrow(expect.objectContaining({ problem: { code: 'bundle_sha256_mismatch' } }));
    expect(() => verifySha256(bytes, createHash('sha256').update(bytes).digest('hex'))).not.toThrow();
  });

  it('a missing runtime is said plainly and nothing is kept', async () => {
    const inst = new BundleInstaller(dir, host, () => null);
    const preview = await inst.inspect(goodBundle());
    const err = await inst.install(preview.token, 'raw', { 'user_config:api_key': KEY }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MissingRuntimeError);
    expect(err).toMatchObject({ reason: { code: 'runtime_missing', runtime: 'node' } });
    expect(readdirSync(path.join(dir, 'bundles'))).toEqual([]);
    expect(store.names()).toEqual([]);
  });
});
