/**
 * The conversation database's schema, versioned by `PRAGMA user_version`, and opening one file
 * with it: WAL mode, migrate an older file in one transaction, refuse a newer one. See
 * docs/ARCHITECTURE.md "Conversations".
 */
import Database from 'better-sqlite3';
import { hasCjk, indexText } from './cjk-search.js';

/** The database was written by a newer version of the app (its schema version is higher than ours). */
export class NewerSchemaError extends Error {
  override name = 'NewerSchemaError';
  constructor(readonly found: number) {
    super(`it was written by a newer version of the app (schema ${found}; this version knows ${SCHEMA_VERSION})`);
  }
}

/**
 * The schema as steps: step `i` brings a database from version `i` to `i + 1`, so a file of any
 * older version gains what it lacks and keeps everything it has (docs/ARCHITECTURE.md
 * "Conversations"). Append only: a released step is never edited. A step is SQL, or a function
 * for what SQL alone cannot do (it runs in the same transaction).
 */
const SCHEMA_STEPS: readonly (string | ((db: Database.Database) => void))[] = [
  // 1: conversations, their entries, full-text search, app state.
  `
CREATE TABLE IF NOT EXISTS conversations (
  id TEXT PRIMARY KEY,
  title TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  profile_id TEXT,
  tool_servers TEXT
);
CREATE INDEX IF NOT EXISTS conversations_updated ON conversations(updated_at DESC);
CREATE TABLE IF NOT EXISTS items (
  rowid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  kind TEXT NOT NULL,
  ts INTEGER NOT NULL,
  data TEXT NOT NULL,
  full_data TEXT,
  search_text TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS items_conversation ON items(conversation_id, seq);
CREATE INDEX IF NOT EXISTS items_conversation_kind ON items(conversation_id, kind);
CREATE VIRTUAL TABLE IF NOT EXISTS items_fts USING fts5(search_text, content='items', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2');
CREATE TRIGGER IF NOT EXISTS items_ai AFTER INSERT ON items BEGIN
  INSERT INTO items_fts(rowid, search_text) VALUES (new.rowid, new.search_text);
END;
CREATE TRIGGER IF NOT EXISTS items_ad AFTER DELETE ON items BEGIN
  INSERT INTO items_fts(items_fts, rowid, search_text) VALUES ('delete', old.rowid, old.search_text);
END;
CREATE TRIGGER IF NOT EXISTS items_au AFTER UPDATE OF search_text ON items BEGIN
  INSERT INTO items_fts(items_fts, rowid, search_text) VALUES ('delete', old.rowid, old.search_text);
  INSERT INTO items_fts(rowid, search_text) VALUES (new.rowid, new.search_text);
END;
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
`,
  // 2: the model context MCP Apps views set (ext-apps `ui/update-model-context`), per view;
  // `seq` is the update order within the conversation (the oldest is dropped first).
  `
CREATE TABLE IF NOT EXISTS view_contexts (
  conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  call_id TEXT NOT NULL,
  server TEXT NOT NULL,
  text TEXT NOT NULL,
  updated_at INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  PRIMARY KEY (conversation_id, call_id)
);
CREATE INDEX IF NOT EXISTS view_contexts_order ON view_contexts(conversation_id, seq);
`,
  // 3: MCP Apps views the user closed ("Close view"), per tool call — its run and call id, as call
  // ids are unique per run only. A row means closed; "Show app view" deletes it.
  `
CREATE TABLE IF NOT EXISTS closed_views (
  conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  run_id TEXT NOT NULL,
  call_id TEXT NOT NULL,
  closed_at INTEGER NOT NULL,
  PRIMARY KEY (conversation_id, run_id, call_id)
);
`,
  // 4: CJK text is indexed a character at a time (./cjk-search.ts): entries written before are
  // indexed again (the items_au trigger replaces their search-index rows).
  reindexCjk,
  // 5: MCP Tasks (docs/ARCHITECTURE.md "Tasks"): one row per task a tool call started, with the
  // library's serialized reference, so the app can pick a running task up again after a restart.
  `
CREATE TABLE IF NOT EXISTS tasks (
  rowid INTEGER PRIMARY KEY,
  server TEXT NOT NULL,
  task_id TEXT NOT NULL,
  conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  run_id TEXT NOT NULL,
  call_id TEXT NOT NULL,
  item_id TEXT NOT NULL,
  tool TEXT NOT NULL,
  original_name TEXT NOT NULL,
  reference TEXT NOT NULL,
  status TEXT NOT NULL,
  status_message TEXT,
  origin TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  UNIQUE (server, task_id)
);
CREATE INDEX IF NOT EXISTS tasks_conversation ON tasks(conversation_id, created_at);
CREATE INDEX IF NOT EXISTS tasks_status ON tasks(status);
`,
];

/** Schema step 4: set apart the CJK characters of every stored entry's search text. */
function reindexCjk(db: Database.Database): void {
  const update = db.prepare('UPDATE items SET search_text = ? WHERE rowid = ?');
  const page = db.prepare<[number], { rowid: number; search_text: string }>('SELECT rowid, search_text FROM items WHERE rowid > ? ORDER BY rowid LIMIT 500');
  // In pages: better-sqlite3 runs no other statement while a query is being iterated.
  for (let after = 0, rows = page.all(after); rows.length; rows = page.all(after)) {
    for (const row of rows) if (hasCjk(row.search_text)) update.run(indexText(row.search_text), row.rowid);
    after = rows[rows.length - 1]!.rowid;
  }
}

/** The first schema version whose search text has its CJK characters set apart (./cjk-search.ts). */
export const CJK_INDEX_VERSION = 4;

/** The schema version this build writes (`PRAGMA user_version`): the number of schema steps. */
export const SCHEMA_VERSION = SCHEMA_STEPS.length;

/** Run the schema steps from `from` up to {@link SCHEMA_VERSION} and record the version (caller's transaction). */
export function migrate(db: Database.Database, from: number): void {
  for (let v = from; v < SCHEMA_VERSION; v++) {
    const step = SCHEMA_STEPS[v]!;
    if (typeof step === 'string') db.exec(step);
    else step(db);
  }
  db.pragma(`user_version = ${SCHEMA_VERSION}`);
}

/**
 * Open `file` (WAL), check that it is a database of a version this build knows, run `check` (it
 * may throw to refuse the file, before anything of the user's is written to it), migrate it to
 * {@link SCHEMA_VERSION} in one transaction, and write once (a read-only file fails here, not at
 * the first message). The connection is closed when anything throws.
 * @throws NewerSchemaError; what `check` throws; better-sqlite3 `SqliteError` when the file is unusable.
 */
export function openSchemaFile(file: string, check: (db: Database.Database) => void = () => undefined): Database.Database {
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 2000');
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > SCHEMA_VERSION) throw new NewerSchemaError(version);
    // Reading the schema catches a file that is not a database or whose header is damaged.
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    if (version > 0) check(db);
    if (version < SCHEMA_VERSION) {
      db.exec('BEGIN IMMEDIATE');
      try {
        migrate(db, version);
        db.exec('COMMIT');
      } catch (err) {
        db.exec('ROLLBACK');
        throw err;
      }
    }
    // A read-only file must fail here, at open, not at the first message: write once.
    db.prepare(`INSERT OR REPLACE INTO meta(key, value) VALUES ('opened_at', ?)`).run(String(Date.now()));
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}
