/**
 * The vault against a REAL OS keychain: the freedesktop.org Secret Service of a private GNOME
 * Keyring, through the real keytar native module. Run with `npm run test:keychain`
 * (scripts/with-keyring.sh starts a private D-Bus session and an unlocked keyring, so the user's own
 * keyring is never touched).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSecretStore, FALLBACK_FILE } from '../../main/secrets/index.js';
import { decryptVault, defaultKeyAccount, KEYCHAIN_SERVICE, parseVaultHeader, VAULT_FILE, VaultSecretStore, type KeytarLike } from '../../main/secrets/vault.js';

if (process.env.OPENPROGRAM_KEYRING_TEST !== '1') {
  throw new Error('These tests need a private keyring: run them with `npm run test:keychain` (scripts/with-keyring.sh).');
}

const CANARY = 'sk-keychain-canary-4b1d9e7f2a6c8e0d';
/** A unique service name per run, so leftovers of an earlier run can never interfere. */
const SERVICE = `${KEYCHAIN_SERVICE} test ${process.pid}`;

let keytar: KeytarLike & { findCredentials(service: string): Promise<Array<{ account: string; password: string }>> };
let root: string;
let dir: string;
let n = 0;
/** Set once a store really opened on the keychain (so the script can tell the suite ran). */
let usedKeychain = false;

function counting(k: KeytarLike): KeytarLike & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    getPassword: (s, a) => (calls.push('get'), k.getPassword(s, a)),
    setPassword: (s, a, p) => (calls.push('set'), k.setPassword(s, a, p)),
    deletePassword: (s, a) => (calls.push('delete'), k.deletePassword(s, a)),
  };
}

beforeAll(async () => {
  const mod = (await import('keytar')) as unknown as { default?: typeof keytar } & typeof keytar;
  keytar = mod.default ?? mod;
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'op-keychain-'));
});
beforeEach(async () => {
  dir = path.join(root, `profile-${n++}`);
  await fs.mkdir(dir);
});
afterAll(async () => {
  // Tell scripts/with-keyring.sh that the suite really used the keychain.
  if (usedKeychain && process.env.OPENPROGRAM_KEYCHAIN_MARKER) await fs.writeFile(process.env.OPENPROGRAM_KEYCHAIN_MARKER, 'ran\n');
  for (const c of await keytar.findCredentials(SERVICE)) await keytar.deletePassword(SERVICE, c.account);
  await fs.rm(root, { recursive: true, force: true });
});

describe('real Secret Service', () => {
  it('the data key really is in the keychain, and the vault file holds only ciphertext', async () => {
    const t0 = performance.now();
    const store = await openSecretStore(dir, { service: SERVICE, env: {} });
    const tOpen = performance.now() - t0;
    expect(store.info().kind).toBe('keychain');
    usedKeychain = true;
    expect(store.info().notice).toContain('Secret Service');
    await store.set('model:api_key', CANARY);

    // Read the key back through keytar, straight from the Secret Service.
    const account = defaultKeyAccount(dir);
    const item = await keytar.getPassword(SERVICE, account);
    expect(item).toBeTruthy();
    const key = Buffer.from(item!, 'base64');
    expect(key).toHaveLength(32);

    const bytes = await fs.readFile(path.join(dir, VAULT_FILE));
    expect(parseVaultHeader(bytes).account).toBe(account);
    expect(decryptVault(key, bytes)).toEqual({ 'model:api_key': CANARY });
    expect(bytes.includes(Buffer.from(CANARY))).toBe(false);
    expect(bytes.includes(Buffer.from(Buffer.from(CANARY).toString('base64')))).toBe(false);
    expect(bytes.toString('latin1')).not.toContain(CANARY);
    expect((await fs.stat(path.join(dir, VAULT_FILE))).mode & 0o777).toBe(0o600);

    // A later start: exactly one keychain access, then reads from memory.
    const k = counting(keytar);
    const t1 = performance.now();
    const again = await openSecretStore(dir, { service: SERVICE, keytar: k, env: {} });
    const value = await again.get('model:api_key');
    const tOpenGet = performance.now() - t1;
    expect(value).toBe(CANARY);
    expect(k.calls).toEqual(['get']);
    console.info(`first open (key created) ${tOpen.toFixed(1)} ms; later open + get ${tOpenGet.toFixed(1)} ms`);
  });

  it('round-trips a 100 KB value and 100 secrets; reports the vault size', async () => {
    const store = await openSecretStore(dir, { service: SERVICE, env: {} });
    const big = 'A'.repeat(100 * 1024 - 3) + 'end';
    await store.set('oauth:big', big);
    expect(await (await openSecretStore(dir, { service: SERVICE, env: {} })).get('oauth:big')).toBe(big);
    await store.delete('oauth:big');
    const entries: Record<string, string> = {};
    for (let i = 0; i < 100; i++) entries[`server:s${i}:header:Authorization`] = `Bearer ${'t'.repeat(40)}${i}`;
    const t0 = performance.now();
    for (const [key, value] of Object.entries(entries)) await store.set(key, value);
    const perSet = (performance.now() - t0) / 100;
    const size = (await fs.stat(path.join(dir, VAULT_FILE))).size;
    const reopened = await openSecretStore(dir, { service: SERVICE, env: {} });
    for (const [key, value] of Object.entries(entries)) expect(await reopened.get(key)).toBe(value);
    console.info(`vault with 100 secrets (~50-byte values): ${size} bytes; one set (encrypt + fsync + rename) ${perSet.toFixed(2)} ms`);
  });

  it('moves a secrets.json fallback into the vault and deletes it', async () => {
    await fs.writeFile(path.join(dir, FALLBACK_FILE), JSON.stringify({ 'model:api_key': CANARY }), { mode: 0o600 });
    const store = await openSecretStore(dir, { service: SERVICE, env: {} });
    expect(store.info().kind).toBe('keychain');
    expect(store.info().notice).toMatch(/1 secret was moved/);
    await expect(fs.access(path.join(dir, FALLBACK_FILE))).rejects.toThrow();
    expect(await (await openSecretStore(dir, { service: SERVICE, env: {} })).get('model:api_key')).toBe(CANARY);
  });

  it('profiles (state dirs) get separate keys; a tampered vault is set aside, the real key is kept', async () => {
    const other = path.join(root, `profile-${n++}`);
    await (await openSecretStore(dir, { service: SERVICE, env: {} })).set('a', '1');
    await (await openSecretStore(other, { service: SERVICE, env: {} })).set('a', '2');
    const k1 = await keytar.getPassword(SERVICE, defaultKeyAccount(dir));
    const k2 = await keytar.getPassword(SERVICE, defaultKeyAccount(other));
    expect(k1 && k2 && k1 !== k2).toBe(true);

    const file = path.join(dir, VAULT_FILE);
    const bytes = await fs.readFile(file);
    bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 1;
    await fs.writeFile(file, bytes);
    await expect(VaultSecretStore.open(dir, { keytar, service: SERVICE })).rejects.toMatchObject({ code: 'corrupt' });
    const store = await openSecretStore(dir, { service: SERVICE, env: {} });
    expect(store.info().notice).toMatch(/modified or damaged/);
    expect(await store.get('a')).toBeUndefined();
    expect(await keytar.getPassword(SERVICE, defaultKeyAccount(dir))).toBe(k1); // never overwritten
    expect((await fs.readdir(dir)).some((f) => f.startsWith(`${VAULT_FILE}.bad-`))).toBe(true);
  });
});
