/**
 * Import cannot move a stored secret to a new destination (docs/ARCHITECTURE.md "Security"): with
 * "replace existing", a value the pasted entry leaves empty keeps the stored secret only when the
 * command (stdio) or the URL origin (remote) is unchanged, and the preview says which values.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigStore } from '../../../../main/mcp/config.js';
import { McpHost } from '../../../../main/mcp/host.js';
import { MemorySecretStore } from '../../../../main/secrets/store.js';
import { makeTempDir, removeDir } from '../../helpers.js';

let dir: string;
let store: ConfigStore;
let host: McpHost;
beforeEach(async () => {
  dir = makeTempDir('op-import-');
  const secrets = new MemorySecretStore();
  store = new ConfigStore(dir, secrets);
  await store.load();
  host = new McpHost(store, { secrets });
  await host.add('gh', { type: 'local', command: ['node', 'good-server.js'], env: { GITHUB_TOKEN: 'ghp_keep_me_123456789' }, enabled: false });
  await host.add('web', {
    type: 'http',
    url: 'https://mcp.example.com/a',
    headers: { 'X-Api-Key': 'hdr_secret_123456789' },
    auth: { kind: 'bearer', token: 'bearer_secret_123456789' },
    enabled: false,
  });
});
afterEach(async () => {
  await host.shutdown();
  await removeDir(dir);
});

const doc = (servers: Record<string, unknown>): string => JSON.stringify({ servers });

describe('stdio: stored secrets follow only the same command', () => {
  it('another program does not receive the stored token, and the preview says none is kept', async () => {
    const json = doc({ gh: { type: 'local', command: ['node', 'evil-server.js'], env: { GITHUB_TOKEN: '' }, enabled: false } });
    const preview = host.importPreview(json);
    expect(preview.servers[0]).toMatchObject({ name: 'gh', exists: true, kept_secrets: [] });
    const r = await host.importServers(json, true);
    expect(r.replaced).toEqual(['gh']);
    expect(store.get('gh')).toMatchObject({ command: ['node', 'evil-server.js'], env: { GITHUB_TOKEN: '' } });
  });

  it('the same program with other arguments is another destination too', async () => {
    const json = doc({ gh: { type: 'local', command: ['node', 'good-server.js', '--upload-to', 'evil'], env: { GITHUB_TOKEN: '' }, enabled: false } });
    expect(host.importPreview(json).servers[0]!.kept_secrets).toEqual([]);
    await host.importServers(json, true);
    expect(store.get('gh')).toMatchObject({ env: { GITHUB_TOKEN: '' } });
  });

  it('the same command keeps the stored value, and the preview names it', async () => {
    const json = doc({ gh: { type: 'local', command: ['node', 'good-server.js'], env: { GITHUB_TOKEN: '', OTHER: 'new' }, enabled: false } });
    expect(host.importPreview(json).servers[0]!.kept_secrets).toEqual(['env GITHUB_TOKEN']);
    await host.importServers(json, true);
    expect(store.get('gh')).toMatchObject({ env: { GITHUB_TOKEN: 'ghp_keep_me_123456789', OTHER: 'new' } });
  });
});

describe('remote: stored secrets follow only the same URL origin', () => {
  it('another origin receives neither the stored header nor the bearer token', async () => {
    const json = doc({ web: { type: 'http', url: 'https://attacker.example/a', headers: { 'X-Api-Key': '' }, auth: { kind: 'bearer', token: '' }, enabled: false } });
    expect(host.importPreview(json).servers[0]!.kept_secrets).toEqual([]);
    await host.importServers(json, true);
    const cfg = store.get('web');
    expect(cfg).toMatchObject({ url: 'https://attacker.example/a', headers: { 'X-Api-Key': '' } });
    expect(JSON.stringify(cfg)).not.toMatch(/hdr_secret|bearer_secret/);
  });

  it.each([['http://mcp.example.com/a'], ['https://mcp.example.com:8443/a'], ['https://evil.mcp.example.com/a']])('%s is another origin', async (url) => {
    const json = doc({ web: { type: 'http', url, headers: { 'X-Api-Key': '' }, enabled: false } });
    expect(host.importPreview(json).servers[0]!.kept_secrets).toEqual([]);
  });

  it('the same origin (another path) keeps them, and the preview names each', async () => {
    const json = doc({ web: { type: 'http', url: 'https://mcp.example.com/b', headers: { 'X-Api-Key': '' }, auth: { kind: 'bearer', token: '' }, enabled: false } });
    expect(host.importPreview(json).servers[0]!.kept_secrets).toEqual(['header X-Api-Key', 'bearer token']);
    await host.importServers(json, true);
    expect(store.get('web')).toMatchObject({ headers: { 'X-Api-Key': 'hdr_secret_123456789' }, auth: { kind: 'bearer', token: 'bearer_secret_123456789' } });
  });

  it('a stdio entry replacing a remote one keeps nothing', async () => {
    const json = doc({ web: { type: 'local', command: ['node', 'x.js'], env: { K: '' }, enabled: false } });
    expect(host.importPreview(json).servers[0]!.kept_secrets).toEqual([]);
  });
});
