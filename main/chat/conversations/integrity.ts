/**
 * Is the conversation database whole? The SQLite b-trees (`PRAGMA quick_check`) and the FTS5
 * search index (its `integrity-check` command) are checked at open and after a runtime
 * corruption error; a damaged search index alone is rebuilt from the entries it indexes. Errors
 * are judged by their SQLite result code, never by their text. See docs/ARCHITECTURE.md
 * "Conversations" (a damaged database).
 */
import Database from 'better-sqlite3';

/** The tables that hold the user's data (the search index is derived from `items`). */
export const DATA_TABLES = ['conversations', 'items', 'meta', 'view_contexts', 'closed_views'] as const;

/**
 * Whether an error says the file's content is damaged: SQLITE_CORRUPT (and its extended codes,
 * e.g. SQLITE_CORRUPT_VTAB from the search index) or SQLITE_NOTADB, by better-sqlite3's `code`.
 */
export function isCorruptionError(err: unknown): boolean {
  if (!(err instanceof Database.SqliteError)) return false;
  return err.code === 'SQLITE_NOTADB' || err.code === 'SQLITE_CORRUPT' || err.code.startsWith('SQLITE_CORRUPT_');
}

/** `PRAGMA quick_check` (of one table and its indexes, or of the whole file) answered `ok`. */
function quickCheckOk(db: Database.Database, table?: (typeof DATA_TABLES)[number]): boolean {
  try {
    const rows = db.pragma(table ? `quick_check(${table})` : 'quick_check', { simple: false }) as Array<Record<string, unknown>>;
    return rows.length === 1 && Object.values(rows[0]!)[0] === 'ok';
  } catch (err) {
    if (isCorruptionError(err)) return false;
    throw err;
  }
}

/** The FTS5 index passes its own integrity check, against the entries it indexes too. */
function indexOk(db: Database.Database): boolean {
  try {
    db.prepare(`INSERT INTO items_fts(items_fts, rank) VALUES ('integrity-check', 1)`).run();
    return true;
  } catch (err) {
    if (isCorruptionError(err)) return false;
    throw err;
  }
}

/**
 * How whole the file is: `ok`; `index` — only the search index is damaged (every data table and
 * its indexes pass, the FTS5 check does not), so rebuilding the index heals it; `damaged` — a
 * data table, an index of one, or the file's structure is damaged.
 * Reads the whole file (about 1.4 s per 100 MB measured on a 265 MB file). Throws only for errors other than corruption.
 */
export function checkIntegrity(db: Database.Database): 'ok' | 'index' | 'damaged' {
  if (quickCheckOk(db) && indexOk(db)) return 'ok';
  let present: Set<string>;
  try {
    present = new Set(db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).pluck().all() as string[]);
  } catch (err) {
    if (isCorruptionError(err)) return 'damaged';
    throw err;
  }
  // A file of an older schema version lacks the newer tables (they come with its migration).
  return DATA_TABLES.every((t) => !present.has(t) || quickCheckOk(db, t)) ? 'index' : 'damaged';
}

/**
 * Rebuild the search index from `items` (FTS5 `rebuild`), then check the whole file again.
 * @returns whether the file is now whole; false when the rebuild failed for corruption or the
 *   file is still damaged after it.
 */
export function rebuildIndex(db: Database.Database): boolean {
  try {
    db.prepare(`INSERT INTO items_fts(items_fts) VALUES ('rebuild')`).run();
  } catch (err) {
    if (isCorruptionError(err)) return false;
    throw err;
  }
  return checkIntegrity(db) === 'ok';
}
