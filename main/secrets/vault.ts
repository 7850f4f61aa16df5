/**
 * The keychain-backed secret store (docs/ARCHITECTURE.md "Secrets at rest").
 *
 * One random 256-bit data key lives in the OS keychain (macOS Keychain, Windows Credential
 * Manager, or a freedesktop.org Secret Service such as GNOME Keyring / KWallet on Linux) through
 * keytar. Every secret lives in one AES-256-GCM encrypted vault file, `<state dir>/secrets.vault`,
 * written atomically and owner-only (0600). Only the key goes into the keychain because Windows
 * Credential Manager caps one item at 2,560 bytes and OAuth tokens change often; the vault has no
 * per-item size limit.
 *
 * Vault file format, version 1 (all integers big-endian):
 *
 * ```
 * offset        size  field
 * 0             7     magic "OPVAULT" (ASCII)
 * 7             1     format version (1)
 * 8             8     key id: the first 8 bytes of HMAC-SHA256(data key, "openprogram-vault-key-id/v1")
 * 16            2     n = byte length of the keychain account name
 * 18            n     keychain account name (UTF-8) under which the data key is stored
 * 18+n          12    IV (random, fresh for every write)
 * 30+n          m     ciphertext of the UTF-8 JSON document {"secrets": {key: value, …}}
 * 30+n+m        16    GCM authentication tag
 * ```
 *
 * Bytes 0 … 18+n (the header) are GCM additional authenticated data, so changing any header byte,
 * the IV, the ciphertext or the tag makes decryption fail. The key id tells "wrong key" apart from
 * "modified file" without revealing anything usable about the key. AES-GCM follows NIST SP
 * 800-38D with a 96-bit IV and a 128-bit tag; with random IVs one key stays far below the 2^32
 * encryptions that document allows. HMAC follows RFC 2104.
 *
 * Keychain accesses: one `getPassword` per start (the key is cached in memory); the very first start
 * of a state dir adds one `setPassword` to store the new key. An existing keychain item is never
 * overwritten: a key is only ever written to an account that had no key, and recovery uses a fresh
 * account name, so a keychain that wrongly answers "no such item" (e.g. a locked keyring whose
 * unlock prompt was dismissed) cannot make us destroy the real key.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Mutex, removeStaleTemps, writeFileAtomic } from '../util/atomic-write.js';
import type { SecretStore, SecretStoreInfo } from './store.js';

export { removeStaleTemps };

/** The keychain service name under which data keys are stored. */
export const KEYCHAIN_SERVICE = 'OpenProgram Desktop';

/** The vault's file name inside the state dir. */
export const VAULT_FILE = 'secrets.vault';

/** The vault format version this code writes (and the highest it reads). */
export const VAULT_FORMAT_VERSION = 1;

const MAGIC = Buffer.from('OPVAULT', 'ascii');
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_ID_BYTES = 8;
const FIXED_HEADER_BYTES = MAGIC.length + 1 + KEY_ID_BYTES + 2;
const MAX_ACCOUNT_BYTES = 1024;

/**
 * The part of keytar this store uses (same signatures as keytar 7). Tests inject fakes with this
 * shape; production code loads the real module lazily (see ./index.ts).
 */
export interface KeytarLike {
  /** The stored password, or null when the keychain has no item for service + account. */
  getPassword(service: string, account: string): Promise<string | null>;
  /** Create or replace the item for service + account. */
  setPassword(service: string, account: string, password: string): Promise<void>;
  /** Delete the item; true when one was deleted. */
  deletePassword(service: string, account: string): Promise<boolean>;
}

/**
 * Why a vault could not be opened. `file` is the vault path.
 * - `corrupt`: not a vault, truncated, or modified (authentication failed) — never replaced silently.
 * - `wrong_key`: the key in the keychain is not the one the vault was written with.
 * - `key_missing`: the keychain has no key for this vault (keychain reset, profile copied from
 *   another machine, or a locked keyring that refused to answer).
 * - `key_malformed`: the keychain item is not a base64 256-bit key.
 * - `unsupported_version`: written by a newer app version; left untouched.
 */
export type VaultErrorCode = 'corrupt' | 'wrong_key' | 'key_missing' | 'key_malformed' | 'unsupported_version';

/** A vault that cannot be read. The message is plain language and never contains a secret. */
export class VaultError extends Error {
  constructor(
    readonly code: VaultErrorCode,
    message: string,
    readonly file: string,
  ) {
    super(message);
    this.name = 'VaultError';
  }
}

/** The parsed, not yet authenticated header of a vault file. */
export interface VaultHeader {
  version: number;
  /** 8-byte key id (see the module doc). */
  keyId: Buffer;
  /** Keychain account holding the data key. */
  account: string;
  /** Byte length of the header (= offset of the IV). */
  length: number;
}

/**
 * The default keychain account for a state dir's data key: `vault-data-key:<16 hex of
 * SHA-256(absolute state dir)>`, so two profiles (state dirs) never share or overwrite a key.
 */
export function defaultKeyAccount(stateDir: string): string {
  return `vault-data-key:${createHash('sha256').update(path.resolve(stateDir)).digest('hex').slice(0, 16)}`;
}

/** The 8-byte key id of a data key (HMAC-SHA256 of a fixed label, truncated). */
export function keyIdOf(key: Buffer): Buffer {
  return createHmac('sha256', key).update('openprogram-vault-key-id/v1').digest().subarray(0, KEY_ID_BYTES);
}

/**
 * Parse a vault file's header.
 * @throws VaultError `corrupt` (not a vault / truncated) or `unsupported_version`.
 */
export function parseVaultHeader(bytes: Buffer, file = VAULT_FILE): VaultHeader {
  if (bytes.length < FIXED_HEADER_BYTES || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) {
    throw new VaultError('corrupt', `The secret vault ${file} is not a vault file (wrong header) or is truncated.`, file);
  }
  const version = bytes[MAGIC.length]!;
  if (version !== VAULT_FORMAT_VERSION) {
    if (version > VAULT_FORMAT_VERSION) {
      throw new VaultError('unsupported_version', `The secret vault ${file} was written by a newer version of OpenProgram Desktop (format ${version}); this version reads format ${VAULT_FORMAT_VERSION}.`, file);
    }
    throw new VaultError('corrupt', `The secret vault ${file} has an unknown format version (${version}).`, file);
  }
  const keyId = Buffer.from(bytes.subarray(MAGIC.length + 1, MAGIC.length + 1 + KEY_ID_BYTES));
  const n = bytes.readUInt16BE(MAGIC.length + 1 + KEY_ID_BYTES);
  const length = FIXED_HEADER_BYTES + n;
  if (n === 0 || n > MAX_ACCOUNT_BYTES || bytes.length < length + IV_BYTES + TAG_BYTES) {
    throw new VaultError('corrupt', `The secret vault ${file} is truncated or has a damaged header.`, file);
  }
  const account = bytes.subarray(FIXED_HEADER_BYTES, length).toString('utf8');
  return { version, keyId, account, length };
}

/**
 * Encrypt a whole secret map into vault-file bytes (format in the module doc), with a fresh random
 * IV. Pure apart from the random IV.
 */
export function encryptVault(key: Buffer, account: string, secrets: Record<string, string>): Buffer {
  if (key.length !== KEY_BYTES) throw new Error('The vault data key must be 32 bytes.');
  const acct = Buffer.from(account, 'utf8');
  if (acct.length === 0 || acct.length > MAX_ACCOUNT_BYTES) throw new Error('Invalid keychain account name.');
  const header = Buffer.alloc(FIXED_HEADER_BYTES + acct.length);
  MAGIC.copy(header, 0);
  header[MAGIC.length] = VAULT_FORMAT_VERSION;
  keyIdOf(key).copy(header, MAGIC.length + 1);
  header.writeUInt16BE(acct.length, MAGIC.length + 1 + KEY_ID_BYTES);
  acct.copy(header, FIXED_HEADER_BYTES);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(header);
  const body = Buffer.concat([cipher.update(JSON.stringify({ secrets }), 'utf8'), cipher.final()]);
  return Buffer.concat([header, iv, body, cipher.getAuthTag()]);
}

/**
 * Authenticate and decrypt vault-file bytes.
 * @returns the secret map
 * @throws VaultError `corrupt` (modified, truncated, not a vault), `wrong_key` (key id differs),
 *   `unsupported_version`.
 */
export function decryptVault(key: Buffer, bytes: Buffer, file = VAULT_FILE): Record<string, string> {
  const h = parseVaultHeader(bytes, file);
  if (!timingSafeEqual(h.keyId, keyIdOf(key))) {
    throw new VaultError('wrong_key', `The secret vault ${file} was encrypted with a different key than the one in the keychain.`, file);
  }
  const iv = bytes.subarray(h.length, h.length + IV_BYTES);
  const tag = bytes.subarray(bytes.length - TAG_BYTES);
  const body = bytes.subarray(h.length + IV_BYTES, bytes.length - TAG_BYTES);
  let text: string;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(bytes.subarray(0, h.length));
    decipher.setAuthTag(tag);
    text = Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  } catch {
    throw new VaultError('corrupt', `The secret vault ${file} failed its integrity check: it was modified or damaged.`, file);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new VaultError('corrupt', `The secret vault ${file} decrypted to an unreadable document.`, file);
  }
  const secrets = (doc as { secrets?: unknown } | null)?.secrets;
  if (typeof secrets !== 'object' || secrets === null || Array.isArray(secrets) || Object.values(secrets).some((v) => typeof v !== 'string')) {
    throw new VaultError('corrupt', `The secret vault ${file} decrypted to an unexpected document shape.`, file);
  }
  return { ...(secrets as Record<string, string>) };
}

/** Decode a keychain item into a data key, or null when it is not base64 of 32 bytes. */
function decodeKey(raw: string): Buffer | null {
  if (!/^[A-Za-z0-9+/]{43}=$/.test(raw)) return null;
  const key = Buffer.from(raw, 'base64');
  return key.length === KEY_BYTES ? key : null;
}

/** Options for {@link VaultSecretStore.open} and {@link VaultSecretStore.create}. */
export interface VaultOptions {
  /** The keychain (real keytar or a test double). */
  keytar: KeytarLike;
  /** Keychain service name; default {@link KEYCHAIN_SERVICE}. */
  service?: string;
  /** Account for a new key; default {@link defaultKeyAccount}(stateDir). Ignored when a vault exists (its header names the account). */
  account?: string;
}

/** A human name of this platform's keychain, for notices. */
export function keychainName(platform: NodeJS.Platform = process.platform): string {
  if (platform === 'darwin') return 'the macOS Keychain';
  if (platform === 'win32') return 'Windows Credential Manager';
  return 'the Secret Service keyring (GNOME Keyring, KWallet, …)';
}

/**
 * `SecretStore` over an AES-256-GCM vault file whose key is in the OS keychain (module doc).
 * Build one with {@link VaultSecretStore.open} (existing or new vault) or
 * {@link VaultSecretStore.create} (always a new key and an empty vault). Reads are served from memory;
 * every change re-encrypts the whole map with a fresh IV and replaces the file atomically
 * (temp 0600 + fsync + rename), so a crash leaves the old or the new vault, never a torn one.
 * Never logs a secret, and no error message contains one.
 */
export class VaultSecretStore implements SecretStore {
  private readonly mutex = new Mutex();

  private constructor(
    /** Absolute path of the vault file. */
    readonly file: string,
    /** Keychain account that holds the data key. */
    readonly account: string,
    private readonly key: Buffer,
    private map: Record<string, string>,
  ) {}

  /**
   * Open the vault of `stateDir`: read the vault file (if any), fetch its key from the keychain
   * with one `getPassword`, authenticate and decrypt. With no vault file, reuse the key already in
   * the default account, or create one (`setPassword`) and write an empty vault.
   *
   * @throws VaultError when an existing vault cannot be read (see {@link VaultErrorCode}); the file
   *   is left untouched — the caller decides whether to set it aside.
   * @throws the keychain's error when the keychain is unreachable or refuses (no Secret Service,
   *   locked and the prompt dismissed, …), and fs errors other than ENOENT.
   */
  static async open(stateDir: string, opts: VaultOptions): Promise<VaultSecretStore> {
    const file = path.join(stateDir, VAULT_FILE);
    const service = opts.service ?? KEYCHAIN_SERVICE;
    await removeStaleTemps(file);
    let bytes: Buffer | null = null;
    try {
      bytes = await fs.readFile(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    if (bytes) {
      const header = parseVaultHeader(bytes, file);
      const raw = await opts.keytar.getPassword(service, header.account);
      if (raw === null || raw === undefined) {
        throw new VaultError('key_missing', `The keychain has no key for the secret vault ${file} (the keychain was reset or is locked, or this data folder came from another computer).`, file);
      }
      const key = decodeKey(raw);
      if (!key) throw new VaultError('key_malformed', `The keychain item for the secret vault ${file} is not a valid key.`, file);
      return new VaultSecretStore(file, header.account, key, decryptVault(key, bytes, file));
    }
    const account = opts.account ?? defaultKeyAccount(stateDir);
    const raw = await opts.keytar.getPassword(service, account);
    const existing = raw === null || raw === undefined ? null : decodeKey(raw);
    if (existing) {
      const store = new VaultSecretStore(file, account, existing, {});
      await store.write({});
      return store;
    }
    // No key yet, or a malformed item we must not overwrite: a new key under a free account name.
    return VaultSecretStore.create(stateDir, { ...opts, account: raw === null || raw === undefined ? account : `${account}:${randomBytes(4).toString('hex')}` });
  }

  /**
   * Create a new random data key, store it with `setPassword` under `opts.account` (which must not
   * hold a key the caller still needs), and write an empty vault over any existing vault file.
   * @throws the keychain's error when it refuses; fs errors.
   */
  static async create(stateDir: string, opts: VaultOptions): Promise<VaultSecretStore> {
    const file = path.join(stateDir, VAULT_FILE);
    const account = opts.account ?? defaultKeyAccount(stateDir);
    const key = randomBytes(KEY_BYTES);
    await opts.keytar.setPassword(opts.service ?? KEYCHAIN_SERVICE, account, key.toString('base64'));
    const store = new VaultSecretStore(file, account, key, {});
    await store.write({});
    return store;
  }

  private async write(next: Record<string, string>): Promise<void> {
    await writeFileAtomic(this.file, encryptVault(this.key, this.account, next));
    this.map = next;
  }

  /** The stored value, or undefined (served from memory). */
  async get(key: string): Promise<string | undefined> {
    return Object.prototype.hasOwnProperty.call(this.map, key) ? this.map[key] : undefined;
  }

  /**
   * Store `value` under `key` and persist the vault before resolving.
   * @throws fs errors (the in-memory map is unchanged then).
   */
  set(key: string, value: string): Promise<void> {
    return this.setMany({ [key]: value });
  }

  /**
   * Store several values with one vault write (used by migration). Skips the write when nothing
   * changes.
   * @throws fs errors (the in-memory map is unchanged then).
   */
  setMany(entries: Record<string, string>): Promise<void> {
    return this.mutex.run(async () => {
      const changed = Object.entries(entries).some(([k, v]) => this.map[k] !== v || !Object.prototype.hasOwnProperty.call(this.map, k));
      if (!changed) return;
      await this.write({ ...this.map, ...entries });
    });
  }

  /** Remove `key` (no-op when absent) and persist. @throws fs errors. */
  delete(key: string): Promise<void> {
    return this.mutex.run(async () => {
      if (!Object.prototype.hasOwnProperty.call(this.map, key)) return;
      const next = { ...this.map };
      delete next[key];
      await this.write(next);
    });
  }

  /** Set and remove several keys with one vault write. @throws fs errors (nothing changed then). */
  update(set: Record<string, string>, remove: string[]): Promise<void> {
    return this.mutex.run(async () => {
      const next: Record<string, string> = { ...this.map, ...set };
      for (const k of remove) delete next[k];
      await this.write(next);
    });
  }

  /** Every stored key. */
  async keys(): Promise<string[]> {
    return Object.keys(this.map);
  }

  /** Number of stored secrets. */
  size(): number {
    return Object.keys(this.map).length;
  }

  /** Kind `keychain` and a plain description of what protects the secrets. */
  info(): SecretStoreInfo {
    return {
      kind: 'keychain',
      notice:
        `Secrets are encrypted (AES-256-GCM) in ${VAULT_FILE} in the app data folder, and the key is kept in ${keychainName()}. ` +
        'Other users on this computer cannot read them, and a copy of the folder (for example a backup) is useless without the key. ' +
        'Programs running as you may still be able to ask the keychain for the key.',
    };
  }
}
