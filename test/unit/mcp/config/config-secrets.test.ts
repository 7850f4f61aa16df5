/**
 * Server secrets at rest: mcp_servers.json holds references only, values live in the secret
 * store; PATCH rules per row of the seed's table; migration of plaintext files; crash safety of
 * migration and saves (kill -9); garbage collection of stale keys; concurrent edits.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyPatch, ConfigStore, type LocalServerConfig, type RemoteServerConfig } from '../../../../main/mcp/config.js';
import { FileSecretStore, MemorySecretStore } from '../../../../main/secrets/store.js';
import { ROOT, makeTempDir, removeDir, sleep } from '../../helpers.js';

let dir: string;
beforeEach(() => {
  dir = makeTempDir('op-cfgsec-');
});
afterEach(async () => {
  await removeDir(dir);
});

const local = (env: Record<string, string>, extra: Partial<LocalServerConfig> = {}): LocalServerConfig => ({
  type: 'local',
  command: ['node', 'server.js'],
  env,
  enabled: true,
  timeout_seconds: 60,
  ...extra,
});

describe('secrets are stored by reference', () => {
  it('the file holds {secret: key} references; a new ConfigStore over the same secret store resolves them', async () => {
    const secrets = new MemorySecretStore();
    const a = new ConfigStore(dir, secrets);
    await a.load();
    await a.put('gh', local({ GITHUB_TOKEN: 'ghp_canary_value_123456', DEBUG: '1' }));
    const text = readFileSync(a.file, 'utf8');
    expect(text).not.toContain('ghp_canary_value_123456');
    const b = new ConfigStore(dir, secrets);
    await b.load();
    expect(b.get('gh')).toEqual(local({ GITHUB_TOKEN: 'ghp_canary_value_123456', DEBUG: '1' }));
    expect(b.warning).toBeNull();
  });

  it('a reference whose value is missing from the store gives a visible warning, not a crash', async () => {
    const a = new ConfigStore(dir, new MemorySecretStore());
    await a.put('gh', local({ TOKEN: 'x-value' }));
    const b = new ConfigStore(dir, new MemorySecretStore());
    await b.load();
    expect(b.warning).toMatch(/TOKEN of server "gh" is missing from the secret store/);
    // The window words it from the typed warning: which server and which of its secrets.
    expect(b.warnings).toEqual([{ code: 'secret_missing', server: 'gh', secret: { kind: 'env', name: 'TOKEN' } }]);
    expect(b.get('gh')).toEqual(local({ TOKEN: '' }));
  });

  it('replacing a value stores it under a fresh key and deletes the old key; removing a server deletes its keys', async () => {
    const secrets = new MemorySecretStore();
    const s = new ConfigStore(dir, secrets);
    await s.load();
    await s.put('one', local({ A: 'first-value' }));
    const [k1] = await secrets.keys();
    await s.put('one', local({ A: 'second-value' }));
    const keys = await secrets.keys();
    expect(keys).toHaveLength(1);
    expect(keys[0]).not.toBe(k1);
    expect(await secrets.get(keys[0]!)).toBe('second-value');
    await s.put('one', local({ A: 'second-value' }, { timeout_seconds: 5 }));
    expect(await secrets.keys()).toEqual(keys); // unchanged value → same key
    await s.delete('one');
    expect(await secrets.keys()).toEqual([]);
  });

  it('stale keys left by a crash are collected on the next save; unrelated keys are untouched', async () => {
    const secrets = new MemorySecretStore();
    await secrets.set('mcp:ghost:env:X:deadbeef0000', 'orphan');
    await secrets.set('model:api_key', 'keep-me');
    const s = new ConfigStore(dir, secrets);
    await s.load();
    await s.put('a', local({ B: 'b' }));
    const keys = await secrets.keys();
    expect(keys).not.toContain('mcp:ghost:env:X:deadbeef0000');
    expect(keys).toContain('model:api_key');
  });
});

describe('PATCH semantics (one test per row of the seed table)', () => {
  const stored = local({ TOKEN: 't1', OTHER: 'o1' });
  it('a name absent → preserve', () => {
    expect(applyPatch(stored, { env: { OTHER: 'o2' } })).toMatchObject({ env: { TOKEN: 't1', OTHER: 'o2' } });
  });
  it('the whole env field absent → preserve every value', () => {
    expect(applyPatch(stored, { timeout_seconds: 5 })).toMatchObject({ env: { TOKEN: 't1', OTHER: 'o1' }, timeout_seconds: 5 });
  });
  it('a name present with a value → replace', () => {
    expect(applyPatch(stored, { env: { TOKEN: 't2' } })).toMatchObject({ env: { TOKEN: 't2', OTHER: 'o1' } });
  });
  it('a name present with "" → delete', () => {
    expect((applyPatch(stored, { env: { TOKEN: '' } }) as LocalServerConfig).env).toEqual({ OTHER: 'o1' });
  });
  it('headers follow the same rules', () => {
    const remote = { type: 'http' as const, url: 'https://x.example/mcp', headers: { Authorization: 'Bearer a', 'X-K': 'k' }, auth: { kind: 'none' as const }, enabled: true, timeout_seconds: 60 };
    expect(applyPatch(remote, { headers: { Authorization: '' , 'X-New': 'n' } })).toMatchObject({ headers: { 'X-K': 'k', 'X-New': 'n' } });
  });
  const oauthRemote = (): RemoteServerConfig => ({ type: 'http', url: 'https://x.example/mcp', headers: {}, auth: { kind: 'oauth', client_id: 'cid', client_secret: 'cs1', scope: 'read' }, enabled: true, timeout_seconds: 60 });
  it('auth.client_secret absent → preserve; value → replace; "" → delete (same for auth.token)', () => {
    expect(applyPatch(oauthRemote(), { auth: { scope: 'write' } })).toMatchObject({ auth: { kind: 'oauth', client_id: 'cid', client_secret: 'cs1', scope: 'write' } });
    expect(applyPatch(oauthRemote(), { auth: { client_secret: 'cs2' } })).toMatchObject({ auth: { client_secret: 'cs2' } });
    expect((applyPatch(oauthRemote(), { auth: { client_secret: '' } }) as RemoteServerConfig).auth).toEqual({ kind: 'oauth', client_id: 'cid', scope: 'read' });
    const bearer: RemoteServerConfig = { ...oauthRemote(), auth: { kind: 'bearer', token: 't1' } };
    expect(applyPatch(bearer, { timeout_seconds: 5 })).toMatchObject({ auth: { kind: 'bearer', token: 't1' } });
    expect(applyPatch(bearer, { auth: { token: 't2' } })).toMatchObject({ auth: { kind: 'bearer', token: 't2' } });
    expect(() => applyPatch(bearer, { auth: { token: '' } })).toThrow(/bearer token is required/);
  });
  it('changing auth.kind drops the other kind\'s secrets', () => {
    expect((applyPatch(oauthRemote(), { auth: { kind: 'bearer', token: 'tok' } }) as RemoteServerConfig).auth).toEqual({ kind: 'bearer', token: 'tok' });
    const bearer: RemoteServerConfig = { ...oauthRemote(), auth: { kind: 'bearer', token: 't1' } };
    expect((applyPatch(bearer, { auth: { kind: 'oauth' } }) as RemoteServerConfig).auth).toEqual({ kind: 'oauth' });
    expect((applyPatch(bearer, { auth: { kind: 'none' } }) as RemoteServerConfig).auth).toEqual({ kind: 'none' });
    expect(() => applyPatch(oauthRemote(), { auth: { kind: 'bearer' } })).toThrow(/bearer token is required/);
  });
  it('bearer tokens and client secrets are stored by reference too; a kind change deletes the dropped secret from the store', async () => {
    const secrets = new MemorySecretStore();
    const s = new ConfigStore(dir, secrets);
    await s.load();
    await s.put('r', { ...oauthRemote(), auth: { kind: 'bearer', token: 'bearer-canary-0123456789' } });
    expect(readFileSync(s.file, 'utf8')).not.toContain('bearer-canary-0123456789');
    await s.put('r', applyPatch(s.get('r')!, { auth: { kind: 'oauth', client_secret: 'cs-canary-9876543210' } }));
    expect(readFileSync(s.file, 'utf8')).not.toContain('cs-canary');
    const values = await Promise.all((await secrets.keys()).map((k) => secrets.get(k)));
    expect(values).toEqual(['cs-canary-9876543210']);
    const again = new ConfigStore(dir, secrets);
    await again.load();
    expect(again.get('r')).toMatchObject({ auth: { kind: 'oauth', client_secret: 'cs-canary-9876543210' } });
  });
  it('two servers edited concurrently: both edits land, nothing lost', async () => {
    const secrets = new MemorySecretStore();
    const s = new ConfigStore(dir, secrets);
    await s.load();
    await s.put('a', local({ A: 'a1' }));
    await s.put('b', local({ B: 'b1' }));
    await Promise.all([
      s.put('a', applyPatch(s.get('a')!, { env: { A: 'a2', A2: 'x' } })),
      s.put('b', applyPatch(s.get('b')!, { env: { B: '' } })),
    ]);
    const again = new ConfigStore(dir, secrets);
    await again.load();
    expect(again.get('a')).toEqual(local({ A: 'a2', A2: 'x' }));
    expect(again.get('b')).toEqual(local({}));
  });
});

describe('migration of plaintext files', () => {
  it('the config file format with plaintext env is accepted, secrets move to the store, the file is rewritten without them', async () => {
    const secrets = new FileSecretStore(dir);
    const file = path.join(dir, 'mcp_servers.json');
    writeFileSync(file, JSON.stringify({ servers: { gh: { type: 'local', command: ['npx', 'x'], env: { GITHUB_TOKEN: 'ghp_plain_canary' }, enabled: true, timeout_seconds: 60 } } }));
    const s = new ConfigStore(dir, secrets);
    await s.load();
    expect(readFileSync(file, 'utf8')).not.toContain('ghp_plain_canary');
    expect(s.get('gh')).toMatchObject({ env: { GITHUB_TOKEN: 'ghp_plain_canary' } });
    const again = new ConfigStore(dir, new FileSecretStore(dir));
    await again.load();
    expect(again.get('gh')).toMatchObject({ env: { GITHUB_TOKEN: 'ghp_plain_canary' } });
  });

  it('pasted {"mcpServers": …} JSON with headers is migrated too', async () => {
    const file = path.join(dir, 'mcp_servers.json');
    writeFileSync(file, JSON.stringify({ mcpServers: { web: { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer plain-canary-token' } } } }));
    const s = new ConfigStore(dir, new MemorySecretStore());
    await s.load();
    expect(readFileSync(file, 'utf8')).not.toContain('plain-canary-token');
    expect(s.get('web')).toMatchObject({ headers: { Authorization: 'Bearer plain-canary-token' } });
  });

  it('kill -9 at random moments during migration: every value is always recoverable, the file is never torn', async () => {
    const file = path.join(dir, 'mcp_servers.json');
    const env = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`VAR_${i}`, `value-${i}-${'z'.repeat(2000)}`]));
    const original = JSON.stringify({ servers: { big: { type: 'local', command: ['x'], env, enabled: true, timeout_seconds: 60 } } });
    const child = path.join(ROOT, 'test', 'unit', 'fixtures', 'migrate-child.ts');
    for (let round = 0; round < 6; round++) {
      writeFileSync(file, original);
      // `node --import tsx` (not the tsx wrapper, which would leave its own child running after kill -9).
      const p = spawn(process.execPath, ['--import', 'tsx', child, dir], { stdio: 'ignore', cwd: ROOT });
      await sleep(150 + Math.floor(Math.random() * 500));
      p.kill('SIGKILL');
      await new Promise((r) => p.once('exit', r));
      // The file parses (never torn), and after a normal load every value is there.
      JSON.parse(readFileSync(file, 'utf8'));
      const s = new ConfigStore(dir, new FileSecretStore(dir));
      await s.load();
      expect(s.get('big')).toMatchObject({ env });
      expect(readFileSync(file, 'utf8')).not.toContain('value-1-');
    }
  }, 60_000);
});

describe('import over an existing server', () => {
  it('re-importing a secret-free export with "replace" keeps the stored secret values', async () => {
    const { McpHost } = await import('../../../../main/mcp/host.js');
    const secrets = new MemorySecretStore();
    const store = new ConfigStore(dir, secrets);
    await store.load();
    const host = new McpHost(store, { secrets });
    await host.add('gh', { type: 'local', command: ['node', '-e', ''], env: { GITHUB_TOKEN: 'ghp_keep_me_123456789' }, enabled: false });
    const exported = await host.exportServers(false);
    expect(exported.json).not.toContain('ghp_keep_me');
    const r = await host.importServers(exported.json!, true);
    expect(r.replaced).toEqual(['gh']);
    expect(store.get('gh')).toMatchObject({ env: { GITHUB_TOKEN: 'ghp_keep_me_123456789' } });
    await host.shutdown();
  });
});
