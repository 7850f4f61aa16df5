/**
 * A config problem never deletes secrets (docs/ARCHITECTURE.md "Config file", "Security"): an
 * unparsable mcp_servers.json moved aside, or an entry skipped as invalid, keeps the secrets it
 * references across saves and restarts; skipped entries stay in the file with their reason; an
 * unparsable secrets.json (no keychain) is set aside, never overwritten; temp files of crashed
 * writes are removed at the next start.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigStore, secretKeysIn, type LocalServerConfig } from '../../../../main/mcp/config.js';
import { AppCore } from '../../../../main/core.js';
import { openSecretStore } from '../../../../main/secrets/index.js';
import { MemorySecretStore } from '../../../../main/secrets/store.js';
import { makeTempDir, removeDir } from '../../helpers.js';

let dir: string;
beforeEach(() => {
  dir = makeTempDir('op-cfgprob-');
});
afterEach(async () => {
  await removeDir(dir);
});

const local = (env: Record<string, string>): LocalServerConfig => ({ type: 'local', command: ['node', 'server.js'], env, enabled: true, timeout_seconds: 60 });

describe('an unparsable config', () => {
  it('is moved aside on the next save, and the secrets it references survive that save and the next start', async () => {
    const secrets = new MemorySecretStore();
    const a = new ConfigStore(dir, secrets);
    await a.load();
    await a.put('gh', local({ TOKEN: 'ghp_precious_value_1' }));
    const [key] = await secrets.keys();
    expect(key).toBeDefined();
    // The user breaks the file by hand (a missing brace).
    const file = path.join(dir, 'mcp_servers.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/\}\s*$/, ''));

    const b = new ConfigStore(dir, secrets);
    await b.load();
    expect(b.warning).toMatch(/could not be used/);
    await b.put('other', local({ X: 'other-value-123' }));
    expect(readdirSync(dir).some((f) => f.startsWith('mcp_servers.json.corrupt-'))).toBe(true);
    expect(await secrets.get(key!)).toBe('ghp_precious_value_1');

    // Next start: the set-aside copy still protects it.
    const c = new ConfigStore(dir, secrets);
    await c.load();
    await c.put('third', local({ Y: 'third-value-123' }));
    await c.delete('other');
    expect(await secrets.get(key!)).toBe('ghp_precious_value_1');
  });

  it('secretKeysIn finds keys in text that is not JSON', () => {
    const k = 'mcp:gh:env:TOKEN:0123456789ab';
    expect(secretKeysIn(`{"servers": {"gh": {"env": {"TOKEN": {"secret": "${k}"`)).toEqual([k]);
    expect(secretKeysIn('mcp:a:headers:X-Key:abcdefabcdef,mcp:b.c:auth:token:000000000000')).toEqual(['mcp:a:headers:X-Key:abcdefabcdef', 'mcp:b.c:auth:token:000000000000']);
  });
});

describe('a skipped entry', () => {
  it('keeps its secrets and its place in the file, and says why it was skipped', async () => {
    const secrets = new MemorySecretStore();
    const a = new ConfigStore(dir, secrets);
    await a.load();
    await a.put('gh', local({ TOKEN: 'ghp_precious_value_2' }));
    const [key] = await secrets.keys();
    const file = path.join(dir, 'mcp_servers.json');
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    doc.servers.gh.timeout_seconds = -5; // now invalid
    writeFileSync(file, JSON.stringify(doc));

    const b = new ConfigStore(dir, secrets);
    await b.load();
    expect(b.names()).toEqual([]);
    expect(b.skippedEntries()).toEqual([{ name: 'gh', reason: 'timeout_seconds must be a positive number' }]);
    expect(b.warning).toMatch(/"gh": timeout_seconds must be a positive number/);
    await b.put('other', local({ X: 'other-value-456' }));
    expect(await secrets.get(key!)).toBe('ghp_precious_value_2');
    const after = JSON.parse(readFileSync(file, 'utf8'));
    expect(after.servers.gh).toEqual(doc.servers.gh);
    expect(Object.keys(after.servers)).toEqual(['other', 'gh']);
    expect(b.entryNamed('GH')).toBe('gh');

    // Fixing the entry by hand brings the server back with its secret.
    after.servers.gh.timeout_seconds = 30;
    writeFileSync(file, JSON.stringify(after));
    const c = new ConfigStore(dir, secrets);
    await c.load();
    expect(c.get('gh')).toMatchObject({ env: { TOKEN: 'ghp_precious_value_2' }, timeout_seconds: 30 });
  });

  it('names that differ only in case: the later one is skipped with its reason', async () => {
    writeFileSync(path.join(dir, 'mcp_servers.json'), JSON.stringify({ servers: { Files: { command: ['a'] }, files: { command: ['b'] } } }));
    const s = new ConfigStore(dir, new MemorySecretStore());
    await s.load();
    expect(s.names()).toEqual(['Files']);
    expect(s.skippedEntries()[0]).toMatchObject({ name: 'files', reason: expect.stringMatching(/differ only in case/) });
  });
});

describe('without a keychain, an unparsable secrets.json', () => {
  it('is set aside like the vault, never overwritten, and the notice says so', async () => {
    const file = path.join(dir, 'secrets.json');
    writeFileSync(file, '{"mcp:gh:env:TOKEN:0123456789ab": "ghp_precious_value_3"', { mode: 0o600 }); // truncated
    const store = await openSecretStore(dir, { env: { OPENPROGRAM_DISABLE_KEYCHAIN: '1' } });
    expect(store.info().kind).toBe('file');
    expect(store.info().notice).toMatch(/could not be parsed; it was kept as secrets\.json\.bad-/);
    await store.set('model:api_key', 'new-value-123456');
    const bad = readdirSync(dir).find((f) => f.startsWith('secrets.json.bad-'));
    expect(bad).toBeDefined();
    expect(readFileSync(path.join(dir, bad!), 'utf8')).toContain('ghp_precious_value_3');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ 'model:api_key': 'new-value-123456' });
  });
});

describe('temp files of crashed writes', () => {
  it('are removed at the next start; those of a live writer are left alone', async () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    const stale = [
      `.mcp_servers.json.${dead}.a1b2c3d4e5f6.tmp`,
      `.settings.json.${dead}.a1b2c3d4e5f6.tmp`,
      `.secrets.json.${dead}.a1b2c3d4e5f6.tmp`,
    ];
    const live = `.mcp_servers.json.${process.ppid}.a1b2c3d4e5f6.tmp`;
    for (const f of [...stale, live]) writeFileSync(path.join(dir, f), '{"TOKEN": "plaintext-secret"}');
    const core = new AppCore({ stateDir: dir, shell: 'browser', secrets: new MemorySecretStore() });
    await core.start();
    await core.shutdown();
    for (const f of stale) expect(existsSync(path.join(dir, f)), f).toBe(false);
    expect(existsSync(path.join(dir, live))).toBe(true);
  });
});
