/**
 * Copy what can still be read from a damaged conversation database (the file set aside) into a
 * fresh one, row by row: a damaged page loses the rows on it, not the whole file. The damaged file
 * is opened read-only and never changed. Rows are found through every way that reaches them (a
 * scan of the table and each of its indexes), then each is read alone by its rowid. The search
 * index is not copied: the fresh file's triggers index each entry as it is written. See
 * docs/ARCHITECTURE.md "Conversations" (a damaged database).
 */
import { existsSync, rmSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { ConversationsRecovered } from '../../../preload/contract/index.js';
import { CJK_INDEX_VERSION, SCHEMA_VERSION } from './schema.js';
import { hasCjk, indexText } from './cjk-search.js';

/** The columns copied per table (the current schema; `rowid` kept so order and ids hold). */
const COLUMNS = {
  conversations: ['rowid', 'id', 'title', 'created_at', 'updated_at', 'profile_id', 'tool_servers'],
  items: ['rowid', 'id', 'conversation_id', 'seq', 'kind', 'ts', 'data', 'full_data', 'search_text'],
  meta: ['key', 'value'],
  view_contexts: ['conversation_id', 'call_id', 'server', 'text', 'updated_at', 'seq'],
  closed_views: ['conversation_id', 'run_id', 'call_id', 'closed_at'],
  tasks: ['rowid', 'server', 'task_id', 'conversation_id', 'run_id', 'call_id', 'item_id', 'tool', 'original_name', 'reference', 'status', 'status_message', 'origin', 'created_at', 'updated_at'],
} as const;
type Table = keyof typeof COLUMNS;
type Row = Record<string, unknown>;

/** The title of a conversation whose entries could be read but whose own row could not. */
export const RECOVERED_TITLE = 'Recovered conversation';

/**
 * Copy the readable rows of `source` (a damaged conversation database file) into `target` (a
 * fresh database of the current schema). Never throws for a damaged or unreadable source;
 * returns null when nothing could be read at all (not a database, or of a newer schema).
 */
export function salvage(target: Database.Database, source: string, now: () => number = Date.now): ConversationsRecovered | null {
  // Reading a WAL-mode file makes its -wal and -shm files; those it did not have are removed after.
  const journals = ['-wal', '-shm'].map((x) => source + x).filter((f) => !existsSync(f));
  let old: Database.Database;
  try {
    old = new Database(source, { readonly: true, fileMustExist: true });
  } catch (err) {
    if (err instanceof Database.SqliteError) return null;
    throw err;
  }
  try {
    const version = old.pragma('user_version', { simple: true }) as number;
    if (version > SCHEMA_VERSION) return null;
    const tables = new Set(old.prepare<[], { name: string }>(`SELECT name FROM sqlite_master WHERE type = 'table'`).pluck().all() as unknown as string[]);
    let complete = true;
    let entries = 0;
    target.transaction(() => {
      const copy = (table: Table, accept: (row: Row) => boolean = () => true): number => {
        if (!tables.has(table)) return 0;
        const status = { complete: true };
        const insert = target.prepare(`INSERT OR IGNORE INTO ${table}(${COLUMNS[table].join(', ')}) VALUES (${COLUMNS[table].map((c) => `@${c}`).join(', ')})`);
        let copied = 0;
        for (const row of readable(old, table, status)) {
          if (!accept(row)) continue;
          try {
            copied += insert.run(row).changes;
          } catch (err) {
            if (!(err instanceof Database.SqliteError)) throw err;
            complete = false;
          }
        }
        complete &&= status.complete;
        return copied;
      };
      copy('conversations');
      copy('meta');
      // An entry whose conversation's row was lost gets a conversation again (titled as recovered).
      const has = target.prepare<[string], { one: number }>('SELECT 1 AS one FROM conversations WHERE id = ?');
      const create = target.prepare('INSERT INTO conversations(id, title, created_at, updated_at) VALUES (?, ?, ?, ?)');
      entries = copy('items', (row) => {
        const id = row.conversation_id;
        if (typeof id !== 'string') return false;
        if (!has.get(id)) create.run(id, RECOVERED_TITLE, now(), now());
        // A file from before CJK indexing has its search text as written: index it as step 4 does.
        if (version < CJK_INDEX_VERSION && typeof row.search_text === 'string' && hasCjk(row.search_text)) row.search_text = indexText(row.search_text);
        return true;
      });
      const known = (row: Row): boolean => typeof row.conversation_id === 'string' && has.get(row.conversation_id) !== undefined;
      copy('view_contexts', known);
      copy('closed_views', known);
      copy('tasks', known);
    })();
    const conversations = (target.prepare('SELECT count(*) AS n FROM conversations').get() as { n: number }).n;
    return { conversations, entries, complete };
  } catch (err) {
    // The schema itself could not be read (or the copy failed as a whole): nothing recovered.
    if (err instanceof Database.SqliteError) return null;
    throw err;
  } finally {
    old.close();
    if (journals.every((f) => !existsSync(f) || !f.endsWith('-wal') || statSync(f).size === 0)) for (const f of journals) rmSync(f, { force: true });
  }
}

/**
 * Every row of `table` that can be read, one at a time, in rowid order. Rowids are gathered by a
 * plain scan, and — if that stops at a damaged page — by a scan of each index of the table (an
 * index lives on other pages); then each row is read alone. `status.complete` is set false when
 * some row was seen but could not be read, or when no scan reached the end.
 */
function* readable(old: Database.Database, table: Table, status: { complete: boolean }): Generator<Row> {
  const indexes = old.prepare<[string], { name: string }>(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?`).all(table).map((r) => r.name);
  const scans = [`SELECT rowid AS r FROM ${table} NOT INDEXED`, ...indexes.map((i) => `SELECT rowid AS r FROM ${table} INDEXED BY "${i.replace(/"/g, '""')}"`)];
  const rowids = new Set<number>();
  let reachedEnd = false;
  for (const sql of scans) {
    try {
      for (const { r } of old.prepare<[], { r: number }>(sql).iterate()) rowids.add(r);
      reachedEnd = true;
      break;
    } catch (err) {
      if (!(err instanceof Database.SqliteError)) throw err;
    }
  }
  const one = old.prepare<[number], Row>(`SELECT ${COLUMNS[table].join(', ')} FROM ${table} WHERE rowid = ?`);
  if (!reachedEnd) status.complete = false;
  for (const id of [...rowids].sort((a, b) => a - b)) {
    let row: Row | undefined;
    try {
      row = one.get(id);
    } catch (err) {
      if (!(err instanceof Database.SqliteError)) throw err;
      status.complete = false;
    }
    if (row) yield row;
  }
}
