/**
 * The conversation database file: open it (WAL mode), create or migrate its schema, and — when it
 * cannot be used (corrupt, not a database, written by a newer version, read-only) — move it aside,
 * keep it, and start a fresh one with a warning. Never overwrites a database it cannot read.
 * See docs/ARCHITECTURE.md "Conversations".
 */
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';


/** The database file name inside the state dir. */
export const DATABASE_FILE = 'conversations.db';

/** The database was written by a newer version of the app (its schema version is higher than ours). */
export class NewerSchemaError extends Error {
  override name = 'NewerSchemaError';
  constructor(readonly found: number) {
    super(`it was written by a newer version of the app (schema ${found}; this version knows ${SCHEMA_VERSION})`);
  }
}

/** An opened database and, when the old file was unusable, a warning for the UI. */
export interface OpenedDatabase {
  db: Database.Database;
  /** Plain-language warning (the old file's fate and where it is), or null. */
  warning: string | null;
  /** False when even a fresh file could not be created and the database lives in memory only. */
  persistent: boolean;
}

/**
 * The schema as steps: step `i` brings a database from version `i` to `i + 1`, so a file of any
 * older version gains what it lacks and keeps everything it has (docs/ARCHITECTURE.md
 * "Conversations"). Append only: a released step is never edited.
 */
const SCHEMA_STEPS: readonly string[] = [
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
];

/** The schema version this build writes (`PRAGMA user_version`): the number of schema steps. */
export const SCHEMA_VERSION = SCHEMA_STEPS.length;

/** Run the schema steps from `from` up to {@link SCHEMA_VERSION} and record the version (caller's transaction). */
function migrate(db: Database.Database, from: number): void {
  for (let v = from; v < SCHEMA_VERSION; v++) db.exec(SCHEMA_STEPS[v]!);
  db.pragma(`user_version = ${SCHEMA_VERSION}`);
}

/** SQLite result codes (better-sqlite3's `SqliteError.code`) that mean "this file cannot be used as it is". */
const UNUSABLE_CODES = /^SQLITE_(CORRUPT|NOTADB|READONLY|CANTOPEN|IOERR|FULL|PERM|AUTH|PROTOCOL)/;

/** Whether an error means the file is unusable (and should be moved aside), judged by its type and code. */
export function isUnusableDatabaseError(err: unknown): boolean {
  if (err instanceof NewerSchemaError) return true;
  return err instanceof Database.SqliteError && UNUSABLE_CODES.test(err.code);
}

/** Open (and check, create, migrate) the file; throws when it is unusable. */
function openChecked(file: string): Database.Database {
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

function describe(err: unknown): string {
  if (err instanceof NewerSchemaError) return err.message;
  if (err instanceof Database.SqliteError) {
    if (/^SQLITE_(NOTADB|CORRUPT)/.test(err.code)) return 'it is damaged or not a database';
    if (/^SQLITE_(READONLY|PERM|CANTOPEN)/.test(err.code)) return 'it cannot be written';
    return `SQLite reported ${err.code}`;
  }
  return 'it could not be read';
}

/**
 * Move the unusable database (and its -wal/-shm files) aside, next to it, under a name that says
 * so. Returns the new name of the main file, or null when it could not be moved.
 */
function moveAside(file: string): string | null {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const target = `${file}.unusable-${stamp}`;
  try {
    renameSync(file, target);
  } catch {
    return null;
  }
  for (const suffix of ['-wal', '-shm']) {
    try {
      if (existsSync(file + suffix)) renameSync(file + suffix, target + suffix);
    } catch {
      // The main file is kept; a stale journal next to a fresh database would be worse, but
      // SQLite ignores a -wal that does not match its database.
    }
  }
  return target;
}

/**
 * Open the conversation database in `stateDir`. An unusable file is moved aside (kept, never
 * overwritten) and a fresh database is started, with a warning. If no file can be created at all
 * the database lives in memory and the warning says conversations will not be saved.
 * Synchronous (a few ms): the core has its store from construction on. Never throws for a bad
 * file; throws only for programming errors.
 */
export function openConversationDatabase(stateDir: string): OpenedDatabase {
  try {
    mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  } catch {
    // Opening the file below reports the problem.
  }
  const file = path.join(stateDir, DATABASE_FILE);
  try {
    return { db: openChecked(file), warning: null, persistent: true };
  } catch (err) {
    if (!isUnusableDatabaseError(err)) throw err;
    const reason = describe(err);
    const kept = existsSync(file) ? moveAside(file) : null;
    if (kept) {
      try {
        return {
          db: openChecked(file),
          warning: `The conversation database could not be opened (${reason}). It was kept as ${path.basename(kept)} in ${stateDir}, and a new, empty one was started.`,
          persistent: true,
        };
      } catch (again) {
        if (!isUnusableDatabaseError(again)) throw again;
      }
    }
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, 0);
    return {
      db,
      warning: `The conversation database in ${stateDir} could not be opened (${reason})${kept ? '' : ' and was left as it is'}. Conversations of this session will not be saved.`,
      persistent: false,
    };
  }
}
