/**
 * The server catalog's one job here: keep what the registry last answered on disk, so the
 * Catalog works offline (docs/ARCHITECTURE.md "Server catalog"). One file,
 * `<state dir>/catalog/cache.json`, written atomically and only after a successful answer — a
 * failed request never touches it. Entries are stored as received and validated again when read.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { Mutex, writeFileAtomic } from '../../util/atomic-write.js';
import { rawEntrySchema } from './schema.js';
import { toEntry, type RegistryEntry, type RegistryPage } from './registry.js';

/** Name of the cache file inside `<state dir>/catalog`. */
export const CACHE_FILE = 'cache.json';
/** Cached answers kept per registry (the oldest go first). */
const MAX_QUERIES = 60;
/** Single entries kept per registry (the `get` answers). */
const MAX_SINGLES = 500;

const storedEntry = z.object({ item: rawEntrySchema, fetched_at: z.number() });
const storedPage = z.object({ fetched_at: z.number(), items: z.array(rawEntrySchema), next_cursor: z.string().nullable(), skipped: z.number() });
const cacheSchema = z.object({
  version: z.literal(1),
  registries: z.record(z.string(), z.object({ pages: z.record(z.string(), storedPage), singles: z.record(z.string(), storedEntry) })),
});
type CacheDoc = z.infer<typeof cacheSchema>;

/** A cached page, with when it was fetched (ms since the epoch). */
export interface CachedPage extends RegistryPage {
  fetchedAt: number;
}

function pageKey(search: string, cursor: string | undefined): string {
  return JSON.stringify([search.trim().toLowerCase(), cursor ?? '']);
}

function toItem(e: RegistryEntry): z.infer<typeof rawEntrySchema> {
  return {
    server: e.raw,
    _meta: { 'io.modelcontextprotocol.registry/official': { status: e.status, isLatest: e.isLatest, ...(e.statusMessage ? { statusMessage: e.statusMessage } : {}), ...(e.updatedAt ? { updatedAt: e.updatedAt } : {}) } },
  };
}

function fromItems(items: z.infer<typeof rawEntrySchema>[]): RegistryEntry[] {
  return items.map(toEntry).filter((e): e is RegistryEntry => e !== null);
}

/** The on-disk cache of registry answers. */
export class CatalogCache {
  readonly file: string;
  private readonly mutex = new Mutex();

  constructor(readonly stateDir: string) {
    this.file = path.join(stateDir, 'catalog', CACHE_FILE);
  }

  /** The document, or an empty one when missing or unreadable (an unreadable cache is only a cache). */
  private async read(): Promise<CacheDoc> {
    try {
      const parsed = cacheSchema.safeParse(JSON.parse(await fs.readFile(this.file, 'utf8')));
      if (parsed.success) return parsed.data;
    } catch {
      // Missing or not JSON: start empty.
    }
    return { version: 1, registries: {} };
  }

  private async write(doc: CacheDoc): Promise<void> {
    await fs.mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
    await writeFileAtomic(this.file, JSON.stringify(doc));
  }

  private static slot(doc: CacheDoc, registry: string): CacheDoc['registries'][string] {
    return (doc.registries[registry] ??= { pages: {}, singles: {} });
  }

  /** Remember a successful search answer. */
  async putPage(registry: string, search: string, cursor: string | undefined, page: RegistryPage, now = Date.now()): Promise<void> {
    await this.mutex.run(async () => {
      const doc = await this.read();
      const slot = CatalogCache.slot(doc, registry);
      delete slot.pages[pageKey(search, cursor)];
      slot.pages[pageKey(search, cursor)] = { fetched_at: now, items: page.entries.map(toItem), next_cursor: page.nextCursor, skipped: page.skipped };
      const keys = Object.keys(slot.pages);
      for (const k of keys.slice(0, Math.max(0, keys.length - MAX_QUERIES))) delete slot.pages[k];
      await this.write(doc);
    });
  }

  /**
   * A cached answer for a search: the same search when it was made before; otherwise the cached
   * entries whose name, title or description contain the words (first page only). Null: nothing.
   */
  async getPage(registry: string, search: string, cursor: string | undefined): Promise<CachedPage | null> {
    const slot = (await this.read()).registries[registry];
    if (!slot) return null;
    const exact = slot.pages[pageKey(search, cursor)];
    if (exact) return { entries: fromItems(exact.items), nextCursor: exact.next_cursor, skipped: exact.skipped, fetchedAt: exact.fetched_at };
    if (cursor) return null;
    const words = search.toLowerCase().split(/\s+/).filter(Boolean);
    const byId = new Map<string, RegistryEntry>();
    let fetchedAt = 0;
    for (const p of Object.values(slot.pages)) {
      for (const e of fromItems(p.items)) {
        const hay = `${e.name} ${e.server?.title ?? ''} ${e.server?.description ?? ''}`.toLowerCase();
        if (words.every((w) => hay.includes(w))) {
          byId.set(`${e.name}@${e.version}`, e);
          fetchedAt = Math.max(fetchedAt, p.fetched_at);
        }
      }
    }
    if (byId.size === 0) return null;
    return { entries: [...byId.values()].sort((a, b) => a.name.localeCompare(b.name)), nextCursor: null, skipped: 0, fetchedAt };
  }

  /** Remember one entry (a `get` answer). */
  async putEntry(registry: string, e: RegistryEntry, asked: string, now = Date.now()): Promise<void> {
    await this.mutex.run(async () => {
      const doc = await this.read();
      const slot = CatalogCache.slot(doc, registry);
      slot.singles[`${e.name}@${asked}`] = { item: toItem(e), fetched_at: now };
      const keys = Object.keys(slot.singles);
      for (const k of keys.slice(0, Math.max(0, keys.length - MAX_SINGLES))) delete slot.singles[k];
      await this.write(doc);
    });
  }

  /** A cached entry for `name` at `version` (or `latest`), from `get` answers or cached pages. */
  async getEntry(registry: string, name: string, version: string): Promise<{ entry: RegistryEntry; fetchedAt: number } | null> {
    const slot = (await this.read()).registries[registry];
    if (!slot) return null;
    const single = slot.singles[`${name}@${version}`];
    const e = single ? toEntry(single.item) : null;
    if (single && e) return { entry: e, fetchedAt: single.fetched_at };
    for (const p of Object.values(slot.pages)) {
      for (const x of fromItems(p.items)) if (x.name === name && (x.version === version || (version === 'latest' && x.isLatest))) return { entry: x, fetchedAt: p.fetched_at };
    }
    return null;
  }
}
