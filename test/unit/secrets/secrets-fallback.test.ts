/**
 * Secret store selection and the encrypted vault, without a real OS keychain: an injected
 * keytar-like fake (working, failing, hanging, missing) or OPENPROGRAM_DISABLE_KEYCHAIN=1.
 * The real keychain is covered by test/keychain/vault.test.ts (npm run test:keychain).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { LazySecretStore, openSecretStore, DISABLE_KEYCHAIN_ENV, FALLBACK_FILE, type OpenSecretStoreOptions } from '../../../main/secrets/index.js';
import {
  decryptVault,
  defaultKeyAccount,
  encryptVault,
  KEYCHAIN_SERVICE,
  keyIdOf,
  parseVaultHeader,
  VAULT_FILE,
  VaultError,
  VaultSecretStore,
  type KeytarLike,
} from '../../../main/secrets/vault.js';
import { MemorySecretStore } from '../../../main/secrets/store.js';
import { AppCore } from '../../../main/core.js';
import { createDispatcher } from '../../../main/ipc/dispatch.js';
import { ROOT as repoRoot } from '../helpers.js';

const CANARY = 'sk-canary-7f3a9c1e5b2d4f6a8c0e';

/** An in-memory keychain that counts calls. */
function fakeKeytar(): KeytarLike & { items: Map<string, string>; calls: string[] } {
  const items = new Map<string, string>();
  const calls: string[] = [];
  const id = (s: string, a: string): string => `${s}\u0000${a}`;
  return {
    items,
    calls,
    async getPassword(s, a) {
      calls.push(`get ${a}`);
      return items.get(id(s, a)) ?? null;
    },
    async setPassword(s, a, p) {
      calls.push(`set ${a}`);
      items.set(id(s, a), p);
    },
    async deletePassword(s, a) {
      calls.push(`delete ${a}`);
      return items.delete(id(s, a));
    },
  };
}

function failingKeytar(message: string, which: 'all' | 'set' = 'all'): KeytarLike {
  return {
    getPassword: async () => {
      if (which === 'all') throw new Error(message);
      return null;
    },
    setPassword: async () => {
      throw new Error(message);
    },
    deletePassword: async () => {
      throw new Error(message);
    },
  };
}

let dir: string;
const noEnv = {};
const open = (k: OpenSecretStoreOptions['keytar'], extra: Partial<OpenSecretStoreOptions> = {}) => openSecretStore(dir, { keytar: k, env: noEnv, ...extra });
const vaultPath = (): string => path.join(dir, VAULT_FILE);
const fileMode = async (f: string): Promise<number> => (await fs.stat(f)).mode & 0o777;

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'op-secrets-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('no keychain → owner-only file store, said plainly', () => {
  it(`${DISABLE_KEYCHAIN_ENV}=1 forces the file store without touching the keychain`, async () => {
    const k = fakeKeytar();
    const store = await openSecretStore(dir, { keytar: k, env: { [DISABLE_KEYCHAIN_ENV]: '1' } });
    const info = store.info();
    expect(info.kind).toBe('file');
    expect(info.notice).toContain('not protected by the OS keychain');
    expect(info.notice).toContain(`${DISABLE_KEYCHAIN_ENV}=1`);
    expect(info.notice).toContain('unencrypted');
    expect(info.notice).toContain('0600');
    expect(k.calls).toEqual([]);
    await store.set('model:api_key', CANARY);
    expect(await store.get('model:api_key')).toBe(CANARY);
    expect(await fileMode(path.join(dir, FALLBACK_FILE))).toBe(0o600);
    expect(info.notice).not.toContain(CANARY);
  });

  it('keytar that cannot be loaded (missing native module) → file store, reason named', async () => {
    const store = await open(async () => {
      throw new Error("Cannot find module 'keytar'");
    });
    expect(store.info().kind).toBe('file');
    expect(store.info().notice).toContain('keytar');
    expect(store.info().notice).toContain("Cannot find module 'keytar'");
  });

  it('no Secret Service (every call fails) → file store', async () => {
    const store = await open(failingKeytar('Cannot autolaunch D-Bus without X11 $DISPLAY'));
    expect(store.info().kind).toBe('file');
    expect(store.info().notice).toContain('Cannot autolaunch D-Bus');
    await store.set('a', 'b');
    expect(await store.get('a')).toBe('b');
  });

  it('a keychain that refuses to store the key → file store, no vault written', async () => {
    const store = await open(failingKeytar('Object does not exist at path “/org/freedesktop/secrets/collection/login”', 'set'));
    expect(store.info().kind).toBe('file');
    await expect(fs.access(vaultPath())).rejects.toThrow();
  });

  it('a keychain that never answers → file store after the timeout', async () => {
    const hang: KeytarLike = { getPassword: () => new Promise(() => undefined), setPassword: () => new Promise(() => undefined), deletePassword: () => new Promise(() => undefined) };
    const t0 = performance.now();
    const store = await open(hang, { timeoutMs: 150 });
    expect(performance.now() - t0).toBeLessThan(5_000);
    expect(store.info().kind).toBe('file');
    expect(store.info().notice).toContain('did not answer');
  });

  it('when a vault exists but the keychain is gone, the notice says so and the vault is left untouched', async () => {
    const k = fakeKeytar();
    const v = await open(k);
    await v.set('old', 'from-vault');
    const before = await fs.readFile(vaultPath());
    const store = await open(failingKeytar('no keychain'));
    expect(store.info().kind).toBe('file');
    expect(store.info().notice).toContain('left untouched');
    await store.set('new', 'from-file');
    expect(await fs.readFile(vaultPath())).toEqual(before);
    // The keychain is back: the file's secrets are moved into the vault, the vault's are kept.
    const back = await open(k);
    expect(back.info().kind).toBe('keychain');
    expect(await back.get('old')).toBe('from-vault');
    expect(await back.get('new')).toBe('from-file');
    await expect(fs.access(path.join(dir, FALLBACK_FILE))).rejects.toThrow();
  });
});

describe('vault (AES-256-GCM, key in the keychain)', () => {
  it('round-trips, writes 0600, never contains the plaintext, and uses one keychain access per start', async () => {
    const k = fakeKeytar();
    const s1 = await open(k);
    expect(s1.info().kind).toBe('keychain');
    expect(s1.info().notice).toContain('AES-256-GCM');
    // First start: one lookup, one store of the new key.
    expect(k.calls).toEqual([`get ${defaultKeyAccount(dir)}`, `set ${defaultKeyAccount(dir)}`]);
    await s1.set('model:api_key', CANARY);
    await s1.set('other', 'x');
    await s1.delete('other');
    expect(await s1.get('model:api_key')).toBe(CANARY);
    expect(await s1.get('other')).toBeUndefined();
    expect(await s1.get('toString')).toBeUndefined();
    expect(k.calls).toHaveLength(2); // gets/sets never touch the keychain

    const bytes = await fs.readFile(vaultPath());
    expect(bytes.includes(Buffer.from(CANARY))).toBe(false);
    expect(bytes.includes(Buffer.from(Buffer.from(CANARY).toString('base64')))).toBe(false);
    expect(bytes.subarray(0, 8).toString('latin1')).toBe('OPVAULT\u0001');
    expect(await fileMode(vaultPath())).toBe(0o600);

    k.calls.length = 0;
    const s2 = await open(k);
    expect(await s2.get('model:api_key')).toBe(CANARY);
    await s2.set('y', 'z');
    expect(k.calls).toEqual([`get ${defaultKeyAccount(dir)}`]); // exactly one keychain access
    const keyItem = k.items.get(`${KEYCHAIN_SERVICE}\u0000${defaultKeyAccount(dir)}`)!;
    expect(Buffer.from(keyItem, 'base64')).toHaveLength(32);
  });

  it('round-trips a 100 KB value and many secrets', async () => {
    const k = fakeKeytar();
    const s = await open(k);
    const big = Array.from({ length: 100 * 1024 }, (_, i) => String.fromCharCode(33 + (i % 90))).join('') + 'ünïcødé✓';
    await s.set('oauth:big', big);
    for (let i = 0; i < 100; i++) await s.set(`server:${i}:token`, `token-${i}-${'x'.repeat(40)}`);
    const again = await open(k);
    expect(await again.get('oauth:big')).toBe(big);
    expect(await again.get('server:99:token')).toBe(`token-99-${'x'.repeat(40)}`);
  });

  it('uses a fresh random IV for every write', async () => {
    const key = Buffer.alloc(32, 7);
    const a = encryptVault(key, 'acct', { k: 'v' });
    const b = encryptVault(key, 'acct', { k: 'v' });
    const h = parseVaultHeader(a);
    expect(a.equals(b)).toBe(false);
    expect(a.subarray(h.length, h.length + 12).equals(b.subarray(h.length, h.length + 12))).toBe(false);
    expect(decryptVault(key, a)).toEqual({ k: 'v' });
    expect(h.account).toBe('acct');
    expect(h.keyId.equals(keyIdOf(key))).toBe(true);
  });

  it('detects tampering anywhere (header, IV, ciphertext, tag) and reports wrong keys', async () => {
    const key = Buffer.alloc(32, 1);
    const good = encryptVault(key, 'acct', { secret: CANARY });
    const h = parseVaultHeader(good);
    for (const at of [9, h.length - 1, h.length + 3, h.length + 14, good.length - 1]) {
      const bad = Buffer.from(good);
      bad[at] = bad[at]! ^ 0x01;
      let caught: unknown;
      try {
        decryptVault(key, bad);
      } catch (err) {
        caught = err;
      }
      expect(caught, `byte ${at}`).toBeInstanceOf(VaultError);
      expect((caught as VaultError).message).not.toContain(CANARY);
    }
    expect(() => decryptVault(Buffer.alloc(32, 2), good)).toThrow(expect.objectContaining({ code: 'wrong_key' }));
    expect(() => decryptVault(key, good.subarray(0, 20))).toThrow(expect.objectContaining({ code: 'corrupt' }));
    expect(() => decryptVault(key, Buffer.from('{"model:api_key":"x"}'))).toThrow(expect.objectContaining({ code: 'corrupt' }));
  });

  it('a tampered vault is a clear error, kept aside (never overwritten), and replaced by a new vault with a new key', async () => {
    const k = fakeKeytar();
    const s = await open(k);
    await s.set('model:api_key', CANARY);
    const tampered = await fs.readFile(vaultPath());
    tampered[tampered.length - 20] = tampered[tampered.length - 20]! ^ 0xff;
    await fs.writeFile(vaultPath(), tampered);

    await expect(VaultSecretStore.open(dir, { keytar: k })).rejects.toMatchObject({ code: 'corrupt' });

    const oldItems = new Map(k.items);
    const reopened = await open(k);
    const info = reopened.info();
    expect(info.kind).toBe('keychain');
    expect(info.notice).toMatch(/modified or damaged/);
    expect(info.notice).toMatch(/kept as secrets\.vault\.bad-/);
    expect(info.notice).not.toContain(CANARY);
    expect(await reopened.get('model:api_key')).toBeUndefined();
    const kept = (await fs.readdir(dir)).filter((n) => n.startsWith(`${VAULT_FILE}.bad-`));
    expect(kept).toHaveLength(1);
    expect(await fs.readFile(path.join(dir, kept[0]!))).toEqual(tampered);
    // The old key item is untouched (the kept file stays recoverable); the new key has its own account.
    for (const [a, v] of oldItems) expect(k.items.get(a)).toBe(v);
    expect(k.items.size).toBe(oldItems.size + 1);
    const again = await open(k);
    expect(again.info().notice).not.toMatch(/modified/);
  });

  it('a vault whose key is missing from the keychain is set aside, and no keychain item is overwritten', async () => {
    const k = fakeKeytar();
    await (await open(k)).set('a', 'b');
    k.items.clear(); // keychain reset (or a locked keyring answering "not found")
    await expect(VaultSecretStore.open(dir, { keytar: k })).rejects.toMatchObject({ code: 'key_missing' });
    k.calls.length = 0;
    const s = await open(k);
    expect(s.info().notice).toMatch(/has no key/);
    const sets = k.calls.filter((c) => c.startsWith('set '));
    expect(sets).toHaveLength(1);
    expect(sets[0]).not.toBe(`set ${defaultKeyAccount(dir)}`); // a fresh account, never the old one
  });

  it('a vault with a different key in the keychain → wrong_key, set aside', async () => {
    const k = fakeKeytar();
    await (await open(k)).set('a', 'b');
    k.items.set(`${KEYCHAIN_SERVICE}\u0000${defaultKeyAccount(dir)}`, Buffer.alloc(32, 9).toString('base64'));
    await expect(VaultSecretStore.open(dir, { keytar: k })).rejects.toMatchObject({ code: 'wrong_key' });
    const s = await open(k);
    expect(s.info().notice).toMatch(/different key/);
  });

  it('a vault from a newer version is left untouched and the file store is used, with a notice', async () => {
    const k = fakeKeytar();
    await open(k);
    const bytes = await fs.readFile(vaultPath());
    bytes[7] = 2;
    await fs.writeFile(vaultPath(), bytes);
    const s = await open(k);
    expect(s.info().kind).toBe('file');
    expect(s.info().notice).toMatch(/newer version/);
    expect(await fs.readFile(vaultPath())).toEqual(bytes);
  });

  it('removes temp files of dead writers but not of live ones', async () => {
    const k = fakeKeytar();
    await open(k);
    const dead = path.join(dir, `.${VAULT_FILE}.999999999.abcdef.tmp`);
    const live = path.join(dir, `.${VAULT_FILE}.${process.pid}.abcdef.tmp`);
    await fs.writeFile(dead, 'x');
    await fs.writeFile(live, 'x');
    await open(k);
    await expect(fs.access(dead)).rejects.toThrow();
    await fs.access(live);
  });
});

describe('migration from the secrets.json fallback', () => {
  it('moves every secret into the vault, then deletes the file', async () => {
    await fs.writeFile(path.join(dir, FALLBACK_FILE), JSON.stringify({ 'model:api_key': CANARY, 'server:x:env:TOKEN': 't' }), { mode: 0o600 });
    const s = await open(fakeKeytar());
    expect(s.info().kind).toBe('keychain');
    expect(s.info().notice).toMatch(/2 secrets were moved/);
    expect(await s.get('model:api_key')).toBe(CANARY);
    expect(await s.get('server:x:env:TOKEN')).toBe('t');
    await expect(fs.access(path.join(dir, FALLBACK_FILE))).rejects.toThrow();
    expect((await fs.readFile(vaultPath())).includes(Buffer.from(CANARY))).toBe(false);
  });

  it('a crash after the vault write but before the delete: the next start finishes the move, nothing lost', async () => {
    const k = fakeKeytar();
    const v = await VaultSecretStore.open(dir, { keytar: k });
    await v.setMany({ a: 'old-a', b: 'b' });
    // State left by a crash mid-migration: the vault already has the values and the file is still there.
    await fs.writeFile(path.join(dir, FALLBACK_FILE), JSON.stringify({ a: 'new-a', c: 'c' }), { mode: 0o600 });
    const s = await open(k);
    expect(await s.get('a')).toBe('new-a');
    expect(await s.get('b')).toBe('b');
    expect(await s.get('c')).toBe('c');
    await expect(fs.access(path.join(dir, FALLBACK_FILE))).rejects.toThrow();
  });

  it('if the vault write fails, the file is kept and the move is retried on the next start', async () => {
    const k = fakeKeytar();
    await open(k); // creates key + empty vault
    await fs.writeFile(path.join(dir, FALLBACK_FILE), JSON.stringify({ a: 'A' }), { mode: 0o600 });
    // The vault write fails once (e.g. disk full).
    const spy = vi.spyOn(VaultSecretStore.prototype, 'setMany').mockRejectedValueOnce(new Error('ENOSPC: no space left on device, write'));
    const s = await open(k);
    spy.mockRestore();
    expect(s.info().notice).toMatch(/retried on the next start/);
    await fs.access(path.join(dir, FALLBACK_FILE));
    const later = await open(k);
    expect(await later.get('a')).toBe('A');
    await expect(fs.access(path.join(dir, FALLBACK_FILE))).rejects.toThrow();
  });

  it('an unparsable secrets.json is left in place, not deleted, with a notice', async () => {
    await fs.writeFile(path.join(dir, FALLBACK_FILE), '{not json', { mode: 0o600 });
    const s = await open(fakeKeytar());
    expect(s.info().kind).toBe('keychain');
    expect(s.info().notice).toMatch(/could not be parsed/);
    expect(await fs.readFile(path.join(dir, FALLBACK_FILE), 'utf8')).toBe('{not json');
  });
});

describe('crash safety', () => {
  it('kill -9 during vault writes leaves the old or the new vault, never a torn one', async () => {
    const k = fakeKeytar();
    const first = await VaultSecretStore.open(dir, { keytar: k });
    await first.setMany({ counter: '-1', big: '' });
    const key = [...k.items.values()][0]!;
    const child = path.join(dir, 'writer.mjs');
    const vaultModule = path.join(repoRoot, 'main/secrets/vault.ts');
    await fs.writeFile(
      child,
      `import { VaultSecretStore } from ${JSON.stringify(vaultModule)};
const key = process.env.VAULT_KEY;
const keytar = { getPassword: async () => key, setPassword: async () => {}, deletePassword: async () => true };
const store = await VaultSecretStore.open(process.env.VAULT_DIR, { keytar });
process.stdout.write('ready\\n');
for (let i = 0; ; i++) await store.setMany({ counter: String(i), big: String(i % 10).repeat(300_000) });
`,
    );
    const seen: number[] = [];
    let midWrite = 0; // rounds where the kill landed inside a write (a temp file was left)
    // Up to 12 rounds, until the kill has landed inside a write at least twice.
    for (let round = 0; round < 12 && (round < 5 || midWrite < 2); round++) {
      const p = spawn(process.execPath, ['--import', 'tsx', child], { cwd: repoRoot, env: { ...process.env, VAULT_KEY: key, VAULT_DIR: dir }, stdio: ['ignore', 'pipe', 'pipe'] });
      let err = '';
      p.stderr.on('data', (d: Buffer) => (err += d.toString()));
      await new Promise<void>((resolve, reject) => {
        p.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
        p.on('exit', (code) => reject(new Error(`writer exited early (${code}): ${err}`)));
      });
      await new Promise((r) => setTimeout(r, 40 + Math.random() * 200));
      const exited = new Promise((r) => p.on('exit', r));
      p.kill('SIGKILL');
      await exited;
      if ((await fs.readdir(dir)).some((n) => n.endsWith('.tmp'))) midWrite++;
      const s = await VaultSecretStore.open(dir, { keytar: k }); // throws if torn
      const counter = Number(await s.get('counter'));
      const big = (await s.get('big'))!;
      if (counter >= 0) expect(big).toBe(String(counter % 10).repeat(300_000));
      seen.push(counter);
      const leftovers = (await fs.readdir(dir)).filter((n) => n.endsWith('.tmp'));
      expect(leftovers).toEqual([]); // open() removed the dead writer's temp file
    }
    expect(seen.some((c) => c >= 0)).toBe(true);
    console.info(`kill -9 rounds: ${seen.length}, killed mid-write: ${midWrite}, last counters: ${seen.join(', ')}`);
  }, 60_000);
});

describe('app wiring', () => {
  it('AppCore opens the store lazily and app.secretsInfo reports the file fallback plainly', async () => {
    const prev = process.env[DISABLE_KEYCHAIN_ENV];
    process.env[DISABLE_KEYCHAIN_ENV] = '1';
    try {
      const core = new AppCore({ stateDir: dir, shell: 'browser' });
      const d = createDispatcher(core);
      const res = await d.invoke('app.secretsInfo', {});
      expect(res.ok).toBe(true);
      const info = (res as { ok: true; value: { kind: string; notice: string } }).value;
      expect(info.kind).toBe('file');
      expect(info.notice).toContain('not protected by the OS keychain');
      await core.settings.set({ provider: 'openai-compatible', base_url: 'http://127.0.0.1:1/v1', model: 'm', api_key: CANARY });
      expect(await core.settings.apiKey()).toBe(CANARY);
      expect(await fileMode(path.join(dir, FALLBACK_FILE))).toBe(0o600);
      expect(JSON.stringify(res)).not.toContain(CANARY);
    } finally {
      if (prev === undefined) delete process.env[DISABLE_KEYCHAIN_ENV];
      else process.env[DISABLE_KEYCHAIN_ENV] = prev;
    }
  });

  it('a store passed to AppCore is used as is', async () => {
    const core = new AppCore({ stateDir: dir, shell: 'browser', secrets: new MemorySecretStore() });
    expect((await core.secretsInfo()).kind).toBe('memory');
  });

  it('LazySecretStore opens once, on first use', async () => {
    let opened = 0;
    const lazy = new LazySecretStore(async () => {
      opened++;
      return new MemorySecretStore();
    });
    expect(opened).toBe(0);
    await Promise.all([lazy.set('a', '1'), lazy.get('a'), lazy.ready()]);
    expect(await lazy.get('a')).toBe('1');
    expect(opened).toBe(1);
  });
});
