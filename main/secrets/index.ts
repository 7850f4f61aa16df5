/**
 * Choosing the secret store at start (docs/ARCHITECTURE.md "Secrets at rest").
 *
 * `openSecretStore(stateDir)` returns the keychain-backed {@link VaultSecretStore} when the OS
 * keychain works, otherwise the owner-only {@link FileSecretStore} — never silently: the returned
 * store's `info()` says which one is in use, why, and what it protects against, and the app shows
 * it (channel `app.secretsInfo`). It also finishes the move from a `secrets.json` fallback file
 * into the vault when a keychain becomes available, and sets an unreadable vault aside (kept,
 * never overwritten) with a visible notice.
 *
 * keytar is a native module: it is imported lazily inside try/catch, so a missing or
 * ABI-mismatched build degrades to the file store with a notice instead of crashing the app.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { FileSecretStore, type SecretStore, type SecretStoreInfo } from './store.js';
import { defaultKeyAccount, KEYCHAIN_SERVICE, keychainName, removeStaleTemps, VAULT_FILE, VaultError, VaultSecretStore, type KeytarLike } from './vault.js';

export { VaultSecretStore, VaultError, KEYCHAIN_SERVICE, VAULT_FILE, defaultKeyAccount, type KeytarLike } from './vault.js';

/** Environment variable that forces the file store (`1`, `true` or `yes`). */
export const DISABLE_KEYCHAIN_ENV = 'OPENPROGRAM_DISABLE_KEYCHAIN';

/** The fallback file's name inside the state dir (see {@link FileSecretStore}). */
export const FALLBACK_FILE = 'secrets.json';

/** Default time the keychain gets to answer one call before we give up on it for this start. */
export const KEYCHAIN_TIMEOUT_MS = 15_000;

/** Options of {@link openSecretStore}. */
export interface OpenSecretStoreOptions {
  /**
   * The keychain: a keytar-like object, or a loader returning one (a loader that throws counts as
   * "keytar missing"). Default: `import('keytar')`, lazily.
   */
  keytar?: KeytarLike | (() => Promise<KeytarLike>);
  /** Environment to read {@link DISABLE_KEYCHAIN_ENV} from; default `process.env`. */
  env?: Record<string, string | undefined>;
  /** Keychain service name; default {@link KEYCHAIN_SERVICE}. */
  service?: string;
  /** Per-call keychain timeout in ms; default {@link KEYCHAIN_TIMEOUT_MS}. */
  timeoutMs?: number;
}

/** A store with a fixed `info()` (the chosen store plus what happened while opening it). */
class AnnotatedSecretStore implements SecretStore {
  constructor(
    readonly inner: SecretStore,
    private readonly information: SecretStoreInfo,
  ) {}
  get(key: string): Promise<string | undefined> {
    return this.inner.get(key);
  }
  set(key: string, value: string): Promise<void> {
    return this.inner.set(key, value);
  }
  delete(key: string): Promise<void> {
    return this.inner.delete(key);
  }
  update(set: Record<string, string>, remove: string[]): Promise<void> {
    return this.inner.update(set, remove);
  }
  keys(): Promise<string[]> {
    return this.inner.keys();
  }
  info(): SecretStoreInfo {
    return { ...this.information };
  }
}

/** One line of an error message, bounded (keytar/libsecret messages carry no secret values). */
function reasonOf(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  const line = (msg.split('\n')[0] ?? '').trim() || 'unknown error';
  return line.length > 200 ? `${line.slice(0, 197)}…` : line;
}

function disabledByEnv(env: Record<string, string | undefined>): boolean {
  return /^(1|true|yes)$/i.test((env[DISABLE_KEYCHAIN_ENV] ?? '').trim());
}

async function loadKeytar(opt: OpenSecretStoreOptions['keytar']): Promise<KeytarLike> {
  if (opt && typeof opt === 'object') return opt;
  if (typeof opt === 'function') return opt();
  const mod = (await import('keytar')) as unknown as KeytarLike & { default?: KeytarLike };
  const k = mod.default && typeof mod.default.getPassword === 'function' ? mod.default : mod;
  if (typeof k.getPassword !== 'function' || typeof k.setPassword !== 'function') throw new Error('keytar has an unexpected shape');
  return k;
}

/** Wrap each keychain call with a timeout, so a hung keychain cannot stall the app's start. */
function withTimeout(k: KeytarLike, ms: number): KeytarLike {
  const race = <T>(p: Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`the keychain did not answer within ${Math.round(ms / 1000)} s`)), ms);
      t.unref?.();
      p.then(
        (v) => {
          clearTimeout(t);
          resolve(v);
        },
        (e: unknown) => {
          clearTimeout(t);
          reject(e);
        },
      );
    });
  return {
    getPassword: (s, a) => race(k.getPassword(s, a)),
    setPassword: (s, a, p) => race(k.setPassword(s, a, p)),
    deletePassword: (s, a) => race(k.deletePassword(s, a)),
  };
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.access(file);
    return true;
  } catch {
    return false;
  }
}

/** The file store, with a notice that says plainly that this is a downgrade and why. */
async function fileFallback(stateDir: string, reason: string, extra: string[] = []): Promise<SecretStore> {
  const vaultLeft = await exists(path.join(stateDir, VAULT_FILE));
  const store = new FileSecretStore(stateDir);
  await removeStaleTemps(store.file);
  let opened: string | null = null;
  try {
    opened = await store.open();
  } catch (err) {
    opened = `The secrets file ${FALLBACK_FILE} could not be read (${reasonOf(err)}); it is left untouched and saving secrets will fail until it can be read.`;
  }
  const notice = [
    `Secrets are not protected by the OS keychain: ${reason}.`,
    `They are stored unencrypted in ${FALLBACK_FILE} in the app data folder, readable only by your user account (mode 0600): other users on this computer cannot read them, but any program running as you, and anyone with a copy of that folder (for example a backup), can.`,
    ...(vaultLeft ? [`Secrets saved earlier in the encrypted vault (${VAULT_FILE}) are not available until the keychain is; the vault was left untouched and secrets saved now will be moved into it then.`] : []),
    ...extra,
    ...(opened ? [opened] : []),
  ].join(' ');
  return new AnnotatedSecretStore(store, { kind: 'file', notice });
}

/** Rename an unreadable vault to `secrets.vault.bad-<UTC time>` (kept, owner-only). */
async function setAside(file: string): Promise<string> {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const target = `${file}.bad-${stamp}`;
  await fs.rename(file, target);
  return target;
}

/**
 * Move the secrets of a `secrets.json` fallback file into the vault, then delete the file.
 * Crash-safe: the vault is written (atomically) before the file is removed; a crash between leaves
 * both and the next start repeats the move (values from the file win, since they were saved later).
 * @returns a sentence for the notice, or null when there was nothing to move.
 */
async function migrateFallback(stateDir: string, vault: VaultSecretStore): Promise<string | null> {
  const file = path.join(stateDir, FALLBACK_FILE);
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      await removeStaleTemps(file);
      return null;
    }
    return `The fallback file ${FALLBACK_FILE} could not be read (${reasonOf(err)}); its secrets were not moved into the vault.`;
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    doc = undefined;
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    return `The fallback file ${FALLBACK_FILE} could not be parsed; it was left in place and its secrets were not moved into the vault.`;
  }
  const entries: Record<string, string> = {};
  for (const [k, v] of Object.entries(doc)) if (typeof v === 'string') entries[k] = v;
  try {
    await vault.setMany(entries);
    await fs.rm(file, { force: true });
    await removeStaleTemps(file);
  } catch (err) {
    return `Moving the secrets from ${FALLBACK_FILE} into the vault failed (${reasonOf(err)}); the file was kept and the move will be retried on the next start.`;
  }
  const n = Object.keys(entries).length;
  return `${n} secret${n === 1 ? ' was' : 's were'} moved from the unencrypted fallback file into the vault, and the file was deleted.`;
}

/**
 * Open the best available secret store for `stateDir`.
 *
 * - Keychain usable → a {@link VaultSecretStore} (`info().kind === 'keychain'`). A leftover
 *   `secrets.json` is moved into the vault and deleted. An unreadable vault (modified, damaged,
 *   wrong or missing key) is renamed to `secrets.vault.bad-<time>` and a new empty vault with a new
 *   key (under a new keychain account, so no keychain item is ever overwritten) takes its place;
 *   `info().notice` says so.
 * - Keychain turned off ({@link DISABLE_KEYCHAIN_ENV}), keytar not loadable, no Secret Service,
 *   the keychain refusing or not answering within `timeoutMs`, or a vault from a newer app version
 *   → the owner-only {@link FileSecretStore} (`kind: 'file'`) whose notice says plainly that
 *   secrets are not in the keychain, why, and what the file protects against.
 *
 * Never throws and never logs a secret; failures are reported through `info()`.
 * @param stateDir the app's state dir (profile); the vault key's keychain account is derived from it
 */
export async function openSecretStore(stateDir: string, opts: OpenSecretStoreOptions = {}): Promise<SecretStore> {
  const env = opts.env ?? process.env;
  if (disabledByEnv(env)) return fileFallback(stateDir, `the keychain is turned off (${DISABLE_KEYCHAIN_ENV}=${env[DISABLE_KEYCHAIN_ENV]})`);
  let keytar: KeytarLike;
  try {
    keytar = withTimeout(await loadKeytar(opts.keytar), opts.timeoutMs ?? KEYCHAIN_TIMEOUT_MS);
  } catch (err) {
    return fileFallback(stateDir, `the keychain module (keytar) could not be loaded (${reasonOf(err)})`);
  }
  const vaultOpts = { keytar, service: opts.service ?? KEYCHAIN_SERVICE };
  const notes: string[] = [];
  let vault: VaultSecretStore;
  try {
    vault = await VaultSecretStore.open(stateDir, vaultOpts);
  } catch (err) {
    if (!(err instanceof VaultError)) {
      const fsError = typeof (err as NodeJS.ErrnoException).syscall === 'string';
      return fileFallback(stateDir, fsError ? `the secret vault could not be read (${reasonOf(err)})` : `${keychainName()} is not available (${reasonOf(err)})`);
    }
    if (err.code === 'unsupported_version') return fileFallback(stateDir, err.message.replace(/\.$/, ''));
    let kept: string;
    try {
      kept = await setAside(err.file);
    } catch (moveErr) {
      return fileFallback(stateDir, `the secret vault could not be read and could not be set aside (${reasonOf(moveErr)})`, [err.message]);
    }
    try {
      vault = await VaultSecretStore.create(stateDir, { ...vaultOpts, account: `${defaultKeyAccount(stateDir)}:${randomBytes(4).toString('hex')}` });
    } catch (createErr) {
      return fileFallback(stateDir, `${keychainName()} is not available (${reasonOf(createErr)})`, [
        `${err.message} It was kept as ${path.basename(kept)}.`,
      ]);
    }
    notes.push(`${err.message} It was kept as ${path.basename(kept)} (never overwritten), and a new empty vault was started: secrets saved before must be entered again.`);
  }
  const moved = await migrateFallback(stateDir, vault);
  if (moved) notes.push(moved);
  if (notes.length === 0) return vault;
  const base = vault.info();
  return new AnnotatedSecretStore(vault, { kind: base.kind, notice: [base.notice, ...notes].join(' ') });
}

/**
 * A `SecretStore` whose real store is opened on first use (or by {@link LazySecretStore.ready}).
 * Lets a synchronous constructor (AppCore) hand out a store whose opening is asynchronous.
 * `info()` before opening finished reports a `memory`-kind "not opened yet" notice; use
 * `await ready()` then `info()` for the real one.
 */
export class LazySecretStore implements SecretStore {
  private opening: Promise<SecretStore> | null = null;
  private opened: SecretStore | null = null;

  /** @param opener opens the real store; called at most once (a rejection is retried on next use). */
  constructor(private readonly opener: () => Promise<SecretStore>) {}

  /** Open the real store (once) and return it. Rejects only if `opener` rejects. */
  ready(): Promise<SecretStore> {
    if (!this.opening) {
      this.opening = this.opener().then(
        (s) => (this.opened = s),
        (err: unknown) => {
          this.opening = null;
          throw err;
        },
      );
    }
    return this.opening;
  }

  /** The real store's `get`, after opening. */
  async get(key: string): Promise<string | undefined> {
    return (await this.ready()).get(key);
  }
  /** The real store's `set`, after opening. */
  async set(key: string, value: string): Promise<void> {
    return (await this.ready()).set(key, value);
  }
  /** The real store's `delete`, after opening. */
  async delete(key: string): Promise<void> {
    return (await this.ready()).delete(key);
  }
  /** The real store's `update`, after opening. */
  async update(set: Record<string, string>, remove: string[]): Promise<void> {
    return (await this.ready()).update(set, remove);
  }
  /** The real store's `keys`, after opening. */
  async keys(): Promise<string[]> {
    return (await this.ready()).keys();
  }
  /** The real store's `info()`, or a "not opened yet" notice before opening finished. */
  info(): SecretStoreInfo {
    return this.opened?.info() ?? { kind: 'memory', notice: 'Secret storage has not been opened yet.' };
  }
}
