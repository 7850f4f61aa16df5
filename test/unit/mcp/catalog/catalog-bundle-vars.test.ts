/**
 * Sensitive `user_config` values never reach a bundle's command line (main/mcp/catalog/bundle.ts,
 * bundle-vars.ts), with real `.mcpb` files (zipped by fflate, the zip library @anthropic-ai/mcpb
 * uses) and @anthropic-ai/mcpb's own getMcpConfigForManifest as the witness of what a host that
 * uses it would do: a look-alike spelling (`${user_configXapi_key}`), a key whose `.` the library
 * reads as "any character", a platform override, a key that is not a plain name, and a default
 * or answer that spells a secret's placeholder (the library fills the text it put in again).
 * Ordinary placeholders fill as the library fills them.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getMcpConfigForManifest } from '@anthropic-ai/mcpb/browser';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BundleError, bundleConfig, inspectBundle } from '../../../../main/mcp/catalog/bundle.js';
import { BundleInstaller } from '../../../../main/mcp/catalog/bundle-installer.js';
import { ConfigStore } from '../../../../main/mcp/config.js';
import { McpHost } from '../../../../main/mcp/host.js';
import { MemorySecretStore } from '../../../../main/secrets/store.js';
import { goodFiles, goodManifest, zipBundle } from '../../../fixtures/bundles.js';
import { makeTempDir, removeDir, waitFor } from '../../helpers.js';

const KEY = 'bundle-secret-value-0123456789abcdef';

/** user_config options with the description the schema requires. */
function described(uc: Record<string, Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(uc).map(([k, o]) => [k, { description: `About ${k}`, ...o }]));
}

/** A bundle file whose manifest's `server.mcp_config` (and user_config, when given) are these. */
function bundleWith(mcpConfig: Record<string, unknown>, userConfig?: Record<string, Record<string, unknown>>): Uint8Array {
  const base = goodManifest();
  const manifest = { ...base, server: { ...(base.server as object), mcp_config: mcpConfig }, ...(userConfig ? { user_config: described(userConfig) } : {}) };
  return zipBundle(goodFiles(manifest));
}

async function refusal(bytes: Uint8Array): Promise<string> {
  try {
    await inspectBundle(bytes);
    return 'accepted';
  } catch (err) {
    if (err instanceof BundleError) return err.message;
    throw err;
  }
}

const secretKey = { api_key: { type: 'string', title: 'API key', sensitive: true, required: true } };

describe('a sensitive value on the command line, in any spelling, is refused', () => {
  it('the exact spelling, in args, in the command, in a platform override', async () => {
    expect(await refusal(bundleWith({ command: 'node', args: ['x.js', '--key=${user_config.api_key}'] }, secretKey))).toMatch(/secret "api_key" on the command line/);
    expect(await refusal(bundleWith({ command: '${user_config.api_key}', args: [] }, secretKey))).toMatch(/secret "api_key"/);
    expect(await refusal(bundleWith({ command: 'node', args: ['x.js'], platform_overrides: { win32: { args: ['x.js', '${user_config.api_key}'] } } }, secretKey))).toMatch(/secret "api_key"/);
    // In env it is where it belongs.
    expect(await refusal(bundleWith({ command: 'node', args: ['x.js'], env: { API_KEY: '${user_config.api_key}' } }, secretKey))).toBe('accepted');
  });

  it('a look-alike the bundle library would fill with the secret: ${user_configXapi_key}, and a key whose "." matches anything', async () => {
    const lookalike = { command: 'node', args: ['x.js', '--key=${user_configXapi_key}'] };
    const manifest = { ...goodManifest(), server: { type: 'node', entry_point: 'x.js', mcp_config: lookalike }, user_config: described(secretKey) };
    // The witness: the library puts the secret on the command line for this spelling.
    const lib = await getMcpConfigForManifest({ manifest: manifest as never, extensionPath: '/ext', systemDirs: {}, userConfig: { api_key: KEY }, pathSeparator: '/' });
    expect(lib?.args).toEqual(['x.js', `--key=${KEY}`]);
    expect(await refusal(bundleWith(lookalike, secretKey))).toMatch(/secret "api_key" on the command line/);
    // A sensitive key with a dot: `${user_config.api-token}` is also what `api.token` fills.
    const dotted = { 'api.token': { type: 'string', title: 'Token', sensitive: true } };
    expect(await refusal(bundleWith({ command: 'node', args: ['x.js', '${user_config.api-token}'] }, dotted))).toMatch(/secret "api.token"/);
    // A line break is not "any character" to the library, nor to the check.
    expect(await refusal(bundleWith({ command: 'node', args: ['x.js', '${user_config\napi_key}'] }, secretKey))).toBe('accepted');
  });

  it('user_config keys must be plain names (a key with RegExp characters would match other placeholders)', async () => {
    for (const key of ['.*', 'a+', 'has space', '(x)', '']) {
      expect(await refusal(bundleWith({ command: 'node', args: ['x.js'] }, { [key]: { type: 'string', title: 'X' } })), key).toMatch(/is not a plain name/);
    }
  });
});

describe('filling placeholders', () => {
  let dir: string;
  let secrets: MemorySecretStore;
  let store: ConfigStore;
  let host: McpHost;
  beforeEach(async () => {
    dir = makeTempDir('op-bundle-vars-');
    secrets = new MemorySecretStore();
    store = new ConfigStore(dir, secrets);
    await store.load();
    host = new McpHost(store, { secrets });
  });
  afterEach(async () => {
    await host.shutdown();
    await removeDir(dir);
  });

  it('a default or an answer that spells the secret’s placeholder stays that text; the library would put the secret in', async () => {
    const userConfig = {
      label: { type: 'string', title: 'Label', default: '${user_config.api_key}' },
      api_key: { type: 'string', title: 'API key', sensitive: true, required: true },
    };
    const cfg = { command: 'node', args: ['${__dirname}/server/index.mjs', '--label=${user_config.label}'], env: { API_KEY: '${user_config.api_key}' } };
    const manifest = { ...goodManifest(), server: { type: 'node', entry_point: 'server/index.mjs', mcp_config: cfg }, user_config: described(userConfig) };
    const bytes = zipBundle(goodFiles(manifest));
    // The witness: the library fills `label` first, then the secret into what it put there.
    const lib = await getMcpConfigForManifest({ manifest: manifest as never, extensionPath: '/ext', systemDirs: {}, userConfig: { api_key: KEY }, pathSeparator: '/' });
    expect(lib?.args).toContain(`--label=${KEY}`);

    const inst = new BundleInstaller(dir, host);
    const preview = await inst.inspect(bytes);
    expect(preview.fixed).toEqual([
      { kind: 'package_argument', name: null, value: '${__dirname}/server/index.mjs' },
      { kind: 'package_argument', name: null, value: '--label=${user_config.label}' },
      { kind: 'env', name: 'API_KEY', value: '${user_config.api_key}' },
    ]);
    const view = await inst.install(preview.token, 'chain', { 'user_config:api_key': KEY });
    expect(view.command.slice(2)).toEqual(['--label=${user_config.api_key}']);
    expect(store.get('chain')).toMatchObject({ env: { API_KEY: KEY } });
    expect(readFileSync(path.join(dir, 'mcp_servers.json'), 'utf8')).not.toContain(KEY);
    expect(await waitFor(() => host.view('chain').state.kind === 'ready', 15_000)).toBe(true);
    // The same text typed as the answer stays text too.
    const again = await inst.inspect(bytes);
    const typed = await inst.install(again.token, 'chain2', { 'user_config:api_key': KEY, 'user_config:label': '${user_config.api_key}' });
    expect(typed.command.join(' ')).not.toContain(KEY);
  });

  it('ordinary placeholders fill as the library fills them: folders, lists, booleans, numbers, defaults; unanswered optional args are left out', async () => {
    const userConfig = {
      dirs: { type: 'directory', title: 'Folders', multiple: true, required: true },
      verbose: { type: 'boolean', title: 'Verbose', default: false },
      level: { type: 'number', title: 'Level', default: 3 },
      notes: { type: 'directory', title: 'Notes', default: '${HOME}/notes' },
      extra: { type: 'string', title: 'Extra' },
      api_key: { type: 'string', title: 'API key', sensitive: true },
    };
    const cfg = {
      command: 'node',
      args: ['${__dirname}${/}server${pathSeparator}index.mjs', '${user_config.dirs}', '--verbose=${user_config.verbose}', '--level', '${user_config.level}', '--extra=${user_config.extra}', '--home=${HOME}'],
      env: { API_KEY: '${user_config.api_key}', NOTES: '${user_config.notes}', UNSET: '${user_config.extra}' },
    };
    const manifest = { ...goodManifest(), server: { type: 'node', entry_point: 'server/index.mjs', mcp_config: cfg }, user_config: described(userConfig) };
    const b = await inspectBundle(zipBundle(goodFiles(manifest)));
    const home = os.homedir();
    const ours = await bundleConfig(b, '/ext', { 'user_config:dirs': ['/a', '/b c'], 'user_config:verbose': 'true', 'user_config:api_key': KEY });
    expect(ours).toEqual({
      type: 'local',
      command: ['node', `/ext${path.sep}server${path.sep}index.mjs`, '/a', '/b c', '--verbose=true', '--level', '3', '--home=' + home],
      env: { API_KEY: KEY, NOTES: `${home}/notes` },
    });
    const lib = await getMcpConfigForManifest({ manifest: manifest as never, extensionPath: '/ext', systemDirs: { HOME: home }, userConfig: { dirs: ['/a', '/b c'], verbose: true, api_key: KEY }, pathSeparator: path.sep });
    // The same, but for what the library leaves unfilled (we leave those out) and the folder in the default (it leaves it as text).
    expect(lib?.args?.filter((a) => !a.includes('${'))).toEqual(ours.type === 'local' ? ours.command.slice(1) : []);
    expect(lib?.env).toMatchObject({ API_KEY: KEY, NOTES: '${HOME}/notes' });
  });
});
