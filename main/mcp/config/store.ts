/**
 * The config store: loads and saves `<state dir>/mcp_servers.json` (atomic writes, a lock around
 * every read-modify-write), resolves its secret references against the secret store, migrates
 * plaintext values into it and keeps unreadable files and skipped entries instead of losing them
 * (docs/ARCHITECTURE.md "Config file", "Secrets at rest").
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { AppWarning } from '../../../preload/contract/index.js';
import { Mutex, writeFileAtomic } from '../../util/atomic-write.js';
import { MemorySecretStore, type SecretStore } from '../../secrets/store.js';
import { SECRET_PLACEHOLDER } from '../../secrets/mask.js';
import type { ToolSetting } from '../tool-settings.js';
import { toolNamespace } from './identity.js';
import { ConfigDocumentError, parseConfigDocument, type LoadResult, type ParsedDocument, type ServerConfig, type SkippedEntry } from './schema.js';
import { describePath, mapSecrets, newSecretKey, secretKeysIn, secretPlace, secretsOf, SERVER_SECRET_PREFIX, setSecretAt, type SecretRef } from './secret-refs.js';

/** Name of the config file inside the state dir. */
export const CONFIG_FILE = 'mcp_servers.json';

/**
 * Owns `<state dir>/mcp_servers.json` and the server secrets in the `SecretStore`.
 *
 * - The file never holds a secret: every env/header value, bearer token, client secret, secret
 *   argument and URL userinfo / query value is written as `{"secret": "<key>"}` (a URL's in
 *   `url_secrets`), a
 *   reference to the secret store (keys are fresh per value, so an edit never overwrites a value
 *   the file still points to).
 * - Saving order is crash-safe: new values go into the store first, then the file is replaced
 *   atomically (temp 0600 + fsync + rename), then values no longer referenced are deleted. A crash
 *   at any point leaves a file whose references all resolve.
 * - Plaintext values (the file format of docs/ARCHITECTURE.md "Config file", or pasted `{"mcpServers": …}`) are accepted on
 *   load and migrated: stored as secrets, then the file is rewritten without them.
 * - An unreadable file is never overwritten unseen: before the first save it is moved aside to
 *   `mcp_servers.json.corrupt-<timestamp>`.
 */
export class ConfigStore {
  readonly file: string;
  private servers = new Map<string, ServerConfig>();
  /** Per server: field → name → store key, as in the file. */
  private refs = new Map<string, Record<string, string>>();
  private corrupt = false;
  /** Entries of the file that could not be used: written back unchanged on every save. */
  private skipped = new Map<string, SkippedEntry>();
  /**
   * Store keys referenced by what could not be used (an unparsable file, set-aside copies of one,
   * skipped entries): never garbage-collected, so a config problem never deletes a secret.
   */
  private keep = new Set<string>();
  private readonly mutex = new Mutex();
  /** What the last load found, in English for logs (null when the file was fine or missing). */
  warning: string | null = null;
  /** The same as typed warnings, for the window to word (empty when the file was fine or missing). */
  warnings: AppWarning[] = [];

  /**
   * @param stateDir folder of mcp_servers.json
   * @param secrets where env/header values live (default: in memory only, for tests)
   */
  constructor(
    readonly stateDir: string,
    private readonly secrets: SecretStore = new MemorySecretStore(),
  ) {
    this.file = path.join(stateDir, CONFIG_FILE);
  }

  /**
   * Load the file and resolve secret references. Missing → empty list. Unreadable/invalid JSON →
   * empty list, `warning` set, and the file is kept. Plaintext secrets are migrated into the store.
   * Never throws for file content; throws only for unexpected I/O errors.
   */
  async load(): Promise<LoadResult> {
    return this.mutex.run(() => this.loadLocked());
  }

  /** Keys mentioned by set-aside copies of an unparsable config (`mcp_servers.json.corrupt-*`). */
  private async keysInSetAsideCopies(): Promise<string[]> {
    const base = path.basename(this.file);
    const names = await fs.readdir(this.stateDir).catch(() => [] as string[]);
    const out: string[] = [];
    for (const n of names) {
      if (!n.startsWith(`${base}.corrupt-`)) continue;
      const text = await fs.readFile(path.join(this.stateDir, n), 'utf8').catch(() => '');
      out.push(...secretKeysIn(text));
    }
    return out;
  }

  private async loadLocked(): Promise<LoadResult> {
    this.skipped = new Map();
    this.keep = new Set(await this.keysInSetAsideCopies());
    let text: string;
    try {
      text = await fs.readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        this.servers = new Map();
        this.refs = new Map();
        this.warning = null;
        this.warnings = [];
        return { servers: new Map(), warning: null };
      }
      this.corrupt = true;
      this.warning = `Could not read ${this.file}: ${(err as Error).message}. The file was kept; no servers were loaded.`;
      this.warnings = [{ code: 'config_unreadable', file: this.file, said: (err as Error).message.slice(0, 500) }];
      return { servers: new Map(), warning: this.warning };
    }
    let parsed: ParsedDocument;
    try {
      parsed = parseConfigDocument(JSON.parse(text));
    } catch (err) {
      this.corrupt = true;
      this.servers = new Map();
      this.refs = new Map();
      for (const k of secretKeysIn(text)) this.keep.add(k);
      const why = err instanceof SyntaxError ? 'it is not valid JSON' : (err as Error).message;
      this.warning = `${this.file} could not be used: ${why}. The file was kept and will be moved aside, not overwritten, on the next save; no servers were loaded.`;
      this.warnings = [{ code: 'config_unusable', file: this.file, problem: err instanceof ConfigDocumentError ? err.problem : 'not_json' }];
      return { servers: new Map(), warning: this.warning };
    }
    const problems: string[] = parsed.warning ? [parsed.warning] : [];
    const warnings: AppWarning[] = parsed.unreadable.length ? [{ code: 'config_skipped', entries: parsed.unreadable }] : [];
    let plaintext = false;
    const refs = new Map<string, Record<string, string>>();
    for (const [name, cfg] of parsed.servers) {
      const collected = parsed.refs.get(name) ?? {};
      for (const [p, key] of Object.entries(collected)) {
        const v = await this.secrets.get(key);
        if (v === undefined) {
          problems.push(`The stored value of the ${describePath(p)} of server "${name}" is missing from the secret store; enter it again.`);
          warnings.push({ code: 'secret_missing', server: name, secret: secretPlace(p) });
        }
        setSecretAt(cfg, p, v ?? '');
      }
      if (Object.keys(secretsOf(cfg)).some((p) => !(p in collected))) plaintext = true;
      refs.set(name, collected);
    }
    this.servers = parsed.servers;
    this.refs = refs;
    this.skipped = parsed.skipped;
    for (const { raw } of parsed.skipped.values()) for (const k of secretKeysIn(JSON.stringify(raw) ?? '')) this.keep.add(k);
    this.warning = problems.length ? problems.join(' ') : null;
    this.warnings = warnings;
    if (plaintext) {
      // Move plaintext values into the secret store and rewrite the file without them.
      await this.writeLocked(new Map(this.servers));
    }
    return { servers: new Map(this.servers), warning: this.warning };
  }

  /** The persisted config of one server (a copy, secrets included), or undefined. */
  get(name: string): ServerConfig | undefined {
    const c = this.servers.get(name);
    return c ? structuredClone(c) : undefined;
  }

  /**
   * One tool's stored setting (enabled, approval) without copying the whole config — the
   * permission check runs on every tool call. Undefined = defaults (or no such server).
   */
  toolSetting(server: string, tool: string): Readonly<ToolSetting> | undefined {
    const t = this.servers.get(server)?.tools;
    return t && Object.prototype.hasOwnProperty.call(t, tool) ? t[tool] : undefined;
  }

  /** Names in file order. */
  names(): string[] {
    return [...this.servers.keys()];
  }

  /** Whether a server of that name is persisted. */
  has(name: string): boolean {
    return this.servers.has(name);
  }

  /**
   * The name of an entry in the file — loaded or skipped — that equals `name` ignoring case
   * (names that differ only in case are duplicates), or undefined.
   */
  entryNamed(name: string): string | undefined {
    const n = name.toLowerCase();
    for (const k of [...this.servers.keys(), ...this.skipped.keys()]) if (k.toLowerCase() === n) return k;
    return undefined;
  }

  /**
   * The name of an entry in the file — loaded or skipped — that is not `name` (ignoring case) but
   * whose tools would be offered under the same namespace (`my_fs` for `my.fs`; ./identity.ts
   * `toolNamespace`), or undefined. A new name must have none (docs/ARCHITECTURE.md "Tool names
   * and result content").
   */
  entryInNamespace(name: string): string | undefined {
    const n = name.toLowerCase();
    const ns = toolNamespace(name);
    for (const k of [...this.servers.keys(), ...this.skipped.keys()]) if (k.toLowerCase() !== n && toolNamespace(k) === ns) return k;
    return undefined;
  }

  /**
   * The loaded servers other than `name` that share its tool namespace, in file order — what a
   * config file written before names were checked may hold; they load, and the card says so.
   */
  namespaceMates(name: string): string[] {
    const n = name.toLowerCase();
    const ns = toolNamespace(name);
    return [...this.servers.keys()].filter((k) => k.toLowerCase() !== n && toolNamespace(k) === ns);
  }

  /** Entries of the file that were skipped at load, with the reason (kept in the file). */
  skippedEntries(): { name: string; reason: string }[] {
    return [...this.skipped].map(([name, e]) => ({ name, reason: e.reason }));
  }

  /** Persist `cfg` under `name` (add or replace). Resolves once the store and file are on disk. */
  put(name: string, cfg: ServerConfig): Promise<void> {
    return this.mutex.run(async () => {
      const next = new Map(this.servers);
      next.set(name, structuredClone(cfg));
      await this.writeLocked(next);
    });
  }

  /**
   * Read-modify-write one server under the store's lock, so concurrent edits (two "Always allow"
   * answers for tools of one server) cannot overwrite each other. `fn` gets a copy; its result is
   * persisted and returned. Undefined (and nothing written) when no server has that name.
   * @throws whatever `fn` throws (nothing is written then).
   */
  modify(name: string, fn: (cfg: ServerConfig) => ServerConfig): Promise<ServerConfig | undefined> {
    return this.mutex.run(async () => {
      const cur = this.servers.get(name);
      if (!cur) return undefined;
      const next = fn(structuredClone(cur));
      const all = new Map(this.servers);
      all.set(name, structuredClone(next));
      await this.writeLocked(all);
      return structuredClone(next);
    });
  }

  /**
   * Rename the entry `from` to `to`, in the same place of the file, in one write: its secret
   * values are stored again under keys of the new name (`mcp:<to>:…`) before the file is replaced,
   * and the old keys are deleted after, so a crash at any point leaves a file whose references all
   * resolve (docs/ARCHITECTURE.md "Renaming a server"). The caller checks that `to` is free.
   * @returns false (nothing written) when there is no entry `from` or `to` is taken by another
   *   entry (loaded or skipped). @throws the fs or secret-store error (nothing changed then)
   */
  rename(from: string, to: string): Promise<boolean> {
    return this.mutex.run(async () => {
      const cur = this.servers.get(from);
      if (!cur || (to !== from && (this.servers.has(to) || this.skipped.has(to)))) return false;
      if (to === from) return true;
      const next = new Map<string, ServerConfig>();
      for (const [n, c] of this.servers) next.set(n === from ? to : n, n === from ? structuredClone(cur) : c);
      await this.writeLocked(next);
      return true;
    });
  }

  /** Remove `name` (and its secrets). Resolves once the file is on disk; no-op when absent. */
  delete(name: string): Promise<void> {
    return this.mutex.run(async () => {
      if (!this.servers.has(name)) return;
      const next = new Map(this.servers);
      next.delete(name);
      await this.writeLocked(next);
    });
  }

  /**
   * Persist `servers`: store changed secret values under fresh keys, replace the file, delete
   * keys no longer referenced (including orphans left by an earlier crash).
   */
  private async writeLocked(servers: Map<string, ServerConfig>): Promise<void> {
    const nextRefs = new Map<string, Record<string, string>>();
    const toSet: Record<string, string> = {};
    for (const [name, cfg] of servers) {
      const old = this.refs.get(name) ?? {};
      const oldCfg = this.servers.get(name);
      const oldValues = oldCfg ? secretsOf(oldCfg) : {};
      const r: Record<string, string> = {};
      for (const [p, v] of Object.entries(secretsOf(cfg))) {
        if (old[p] && oldValues[p] === v) r[p] = old[p]!;
        else {
          const key = newSecretKey(name, p);
          toSet[key] = v;
          r[p] = key;
        }
      }
      nextRefs.set(name, r);
    }
    if (Object.keys(toSet).length) await this.secrets.update(toSet, []);
    if (this.corrupt) {
      const aside = `${this.file}.corrupt-${Date.now()}`;
      await fs.rename(this.file, aside).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
      });
      this.corrupt = false;
      this.warning = `The unreadable config was moved to ${aside}.`;
      this.warnings = [{ code: 'config_set_aside', kept_as: aside }];
    }
    const doc: Record<string, unknown> = {};
    for (const [name, cfg] of servers) {
      const r = nextRefs.get(name)!;
      doc[name] = mapSecrets(cfg, (p) => ({ secret: r[p]! }) satisfies SecretRef);
    }
    // Skipped entries stay in the file as they were (the user can fix them by hand), unless a
    // server of that name was saved since.
    for (const [name, e] of this.skipped) if (!servers.has(name)) doc[name] = e.raw;
    for (const name of servers.keys()) this.skipped.delete(name);
    await writeFileAtomic(this.file, JSON.stringify({ servers: doc }, null, 2) + '\n');
    this.servers = servers;
    this.refs = nextRefs;
    // Garbage: keys of ours that nothing references any more (never those of skipped entries or
    // of an unparsable file, see `keep`).
    const live = new Set([...nextRefs.values()].flatMap((r) => Object.values(r)));
    for (const k of this.keep) live.add(k);
    const stale = (await this.secrets.keys()).filter((k) => k.startsWith(SERVER_SECRET_PREFIX) && !live.has(k));
    if (stale.length) await this.secrets.update({}, stale).catch(() => undefined);
  }

  /**
   * The document as stored but with every secret value replaced: by `""` (default; `***` for a
   * secret argument or URL part, in place, which an import over the same server keeps), or by the
   * real value when `includeSecrets` is true. For exports.
   */
  exportDocument(includeSecrets = false): { servers: Record<string, unknown> } {
    const out: Record<string, unknown> = {};
    const blank = (p: string): string => (p.startsWith('args:') || p.startsWith('url:') ? SECRET_PLACEHOLDER : '');
    for (const [name, cfg] of this.servers) out[name] = mapSecrets(cfg, (p, v) => (includeSecrets ? v : blank(p)), 'inline');
    return { servers: out };
  }
}
