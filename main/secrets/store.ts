/**
 * Secret storage. `SecretStore` is the interface every secret-bearing part of main uses (model API
 * keys today; server env/header values and OAuth state later). Keys are opaque strings such as
 * `model:api_key`; values are UTF-8 strings of any size.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { Mutex, writeFileAtomic } from '../util/atomic-write.js';

/** How secrets are protected at rest, for the Settings notice. */
export interface SecretStoreInfo {
  kind: 'keychain' | 'file' | 'memory';
  /** Plain-language description shown to the user. */
  notice: string;
}

/** A key → secret map persisted somewhere safe. All methods are async and never log values. */
export interface SecretStore {
  /** The stored value, or undefined. */
  get(key: string): Promise<string | undefined>;
  /** Store `value` under `key` (replace). */
  set(key: string, value: string): Promise<void>;
  /** Remove `key`; no-op when absent. */
  delete(key: string): Promise<void>;
  /**
   * Apply several changes in one persisted write: every entry of `set` is stored, every key of
   * `remove` deleted. All or nothing: on failure nothing changed.
   */
  update(set: Record<string, string>, remove: string[]): Promise<void>;
  /** Every stored key (never values). */
  keys(): Promise<string[]>;
  info(): SecretStoreInfo;
}

/** In-memory store: the test double, and the fallback when nothing may be written. */
export class MemorySecretStore implements SecretStore {
  private readonly map = new Map<string, string>();
  async get(key: string): Promise<string | undefined> {
    return this.map.get(key);
  }
  async set(key: string, value: string): Promise<void> {
    this.map.set(key, value);
  }
  async delete(key: string): Promise<void> {
    this.map.delete(key);
  }
  async update(set: Record<string, string>, remove: string[]): Promise<void> {
    for (const [k, v] of Object.entries(set)) this.map.set(k, v);
    for (const k of remove) this.map.delete(k);
  }
  async keys(): Promise<string[]> {
    return [...this.map.keys()];
  }
  info(): SecretStoreInfo {
    return { kind: 'memory', notice: 'Secrets are kept in memory only and are lost when the app quits.' };
  }
}

/**
 * Secrets in an owner-only (0600) JSON file in the state dir, written atomically. Protects against
 * other users on the machine, not against programs running as you.
 */
export class FileSecretStore implements SecretStore {
  private cache: Record<string, string> | null = null;
  private readonly mutex = new Mutex();
  readonly file: string;

  constructor(stateDir: string) {
    this.file = path.join(stateDir, 'secrets.json');
  }

  /** Where an unparsable file was set aside by this store (null when none was). */
  setAsideAs: string | null = null;

  /**
   * Read the file once. Missing → empty. A file that does not parse (or is not an object of
   * strings) is renamed to `secrets.json.bad-<UTC time>` — kept, never overwritten — and the store
   * starts empty; {@link setAsideAs} names the copy. Any other read error is thrown, so nothing is
   * ever written over a file that could not be read.
   */
  private async load(): Promise<Record<string, string>> {
    if (this.cache) return this.cache;
    let text: string;
    try {
      text = await fs.readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      this.cache = {};
      return this.cache;
    }
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch {
      doc = undefined;
    }
    if (typeof doc === 'object' && doc !== null && !Array.isArray(doc) && Object.values(doc).every((v) => typeof v === 'string')) {
      this.cache = doc as Record<string, string>;
      return this.cache;
    }
    const target = `${this.file}.bad-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    await fs.rename(this.file, target);
    this.setAsideAs = target;
    this.cache = {};
    return this.cache;
  }

  /**
   * Open the file now (see `load`). @returns a sentence for the notice when an unparsable file
   * was set aside, else null. @throws an fs error other than ENOENT.
   */
  async open(): Promise<string | null> {
    await this.mutex.run(() => this.load());
    return this.setAsideAs
      ? `The secrets file ${path.basename(this.file)} could not be parsed; it was kept as ${path.basename(this.setAsideAs)} (never overwritten) and an empty one was started: secrets saved before must be entered again.`
      : null;
  }

  async get(key: string): Promise<string | undefined> {
    const v = (await this.mutex.run(() => this.load()))[key];
    return typeof v === 'string' ? v : undefined;
  }

  set(key: string, value: string): Promise<void> {
    return this.mutex.run(async () => {
      const next = { ...(await this.load()), [key]: value };
      await writeFileAtomic(this.file, JSON.stringify(next));
      this.cache = next;
    });
  }

  delete(key: string): Promise<void> {
    return this.mutex.run(async () => {
      const cur = await this.load();
      if (!(key in cur)) return;
      const next = { ...cur };
      delete next[key];
      await writeFileAtomic(this.file, JSON.stringify(next));
      this.cache = next;
    });
  }

  update(set: Record<string, string>, remove: string[]): Promise<void> {
    return this.mutex.run(async () => {
      const next: Record<string, string> = { ...(await this.load()), ...set };
      for (const k of remove) delete next[k];
      await writeFileAtomic(this.file, JSON.stringify(next));
      this.cache = next;
    });
  }

  async keys(): Promise<string[]> {
    return Object.keys(await this.mutex.run(() => this.load()));
  }

  info(): SecretStoreInfo {
    return {
      kind: 'file',
      notice: 'Secrets are stored in an owner-only file in the app data folder. Other users cannot read it; programs running as you can.',
    };
  }
}
