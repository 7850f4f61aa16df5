/**
 * The conversation database file, kept usable. At open it is checked whole (b-trees and search
 * index, ./integrity.ts); a damaged search index alone is rebuilt; a file that cannot be used
 * (damaged, not a database, written by a newer version, read-only) is moved aside and kept, and a
 * fresh one started — with what could still be read of a damaged one copied in (./salvage.ts).
 * While the app runs, a store operation that meets SQLITE_CORRUPT or SQLITE_NOTADB heals the
 * file the same way and is tried once more against the healed one, so a damaged file never
 * leaves a chat that cannot save or send. Every heal is told to the user as a typed warning.
 * Never overwrites a database it cannot read. See docs/ARCHITECTURE.md "Conversations".
 */
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { ConversationsDbProblem, ConversationsRecovered, ConversationsWarning } from '../../../preload/contract/index.js';
import { checkIntegrity, isCorruptionError, rebuildIndex } from './integrity.js';
import { salvage } from './salvage.js';
import { migrate, NewerSchemaError, openSchemaFile } from './schema.js';

export { NewerSchemaError, SCHEMA_VERSION } from './schema.js';

/** The database file name inside the state dir. */
export const DATABASE_FILE = 'conversations.db';

/** SQLite result codes (better-sqlite3's `SqliteError.code`) that mean "this file cannot be used as it is". */
const UNUSABLE_CODES = /^SQLITE_(CORRUPT|NOTADB|READONLY|CANTOPEN|IOERR|FULL|PERM|AUTH|PROTOCOL)/;

/** Whether an error means the file is unusable (and should be moved aside), judged by its type and code. */
export function isUnusableDatabaseError(err: unknown): boolean {
  if (err instanceof NewerSchemaError || err instanceof DamagedFileError) return true;
  return err instanceof Database.SqliteError && UNUSABLE_CODES.test(err.code);
}

/** The integrity check at open found the file's data damaged (not only its search index). */
class DamagedFileError extends Error {
  override name = 'DamagedFileError';
}

/** The problem of an unusable file, by the error's type and code. */
function problemOf(err: unknown): ConversationsDbProblem {
  if (err instanceof NewerSchemaError) return 'newer_schema';
  if (err instanceof DamagedFileError || isCorruptionError(err)) return 'damaged';
  if (err instanceof Database.SqliteError && /^SQLITE_(READONLY|PERM|CANTOPEN)/.test(err.code)) return 'not_writable';
  return 'unreadable';
}

/**
 * Move the unusable database (and its -wal/-shm files) aside, next to it, under a name that says
 * so. Returns the new name of the main file, or null when it could not be moved.
 */
function moveAside(file: string, now: number): string | null {
  const stamp = new Date(now).toISOString().replace(/[:.]/g, '-');
  let target = `${file}.unusable-${stamp}`;
  // Two heals within a millisecond (or a clock set back) never overwrite a kept file.
  for (let n = 2; existsSync(target); n++) target = `${file}.unusable-${stamp}-${n}`;
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

/** A fresh database in memory (conversations of this session are not saved). */
function memoryDatabase(): Database.Database {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  migrate(db, 0);
  return db;
}

/** A started replacement for an unusable file: the new connection and the warning that says so. */
interface Replacement {
  db: Database.Database;
  persistent: boolean;
  warning: ConversationsWarning;
}

/**
 * Replace the unusable file (its connection already closed): move it aside and keep it, start a
 * fresh file (in memory if that fails), and — for a damaged file — copy in what can still be read.
 * @throws only for errors that are not about the file (programming errors)
 */
function replaceFile(file: string, problem: ConversationsDbProblem, now: () => number): Replacement {
  const dir = path.dirname(file);
  const kept = existsSync(file) ? moveAside(file, now()) : null;
  let db: Database.Database | null = null;
  if (kept) {
    try {
      db = openSchemaFile(file);
    } catch (err) {
      if (!isUnusableDatabaseError(err)) throw err;
    }
  }
  const persistent = db !== null;
  db ??= memoryDatabase();
  // A damaged file's readable rows; a file written by a newer version is never read by this one.
  const source = kept ?? (existsSync(file) ? file : null);
  const recovered: ConversationsRecovered | null = problem === 'damaged' && source ? salvage(db, source, now) : null;
  const warning: ConversationsWarning = persistent
    ? { code: 'set_aside', problem, kept_as: path.basename(kept!), dir, recovered }
    : { code: 'memory_only', problem, kept_as: kept ? path.basename(kept) : null, dir, recovered };
  return { db, persistent, warning };
}

/**
 * The open conversation database: its current connection (`db`, replaced when the file is
 * healed), whether it is saved to disk, and the latest warning for the window. Stores prepare
 * their statements on `db` and again on every `onReopen`; they run their work through `guard`.
 */
export class ConversationDatabase {
  private conn: Database.Database;
  /** How deep in guarded calls we are (only the outermost one heals and retries). */
  private depth = 0;
  private readonly reopened = new Set<(db: Database.Database) => void>();
  private sink: (warning: ConversationsWarning) => void = () => undefined;

  /**
   * @param file the file on disk (null: a connection that is never healed — memory, or a test's own)
   * @param warning what the open found and did, or null
   * @param persistent false when the conversations live in memory only
   */
  constructor(
    db: Database.Database,
    private readonly file: string | null,
    public warning: ConversationsWarning | null = null,
    public persistent = true,
    private readonly now: () => number = Date.now,
  ) {
    this.conn = db;
  }

  /** The current connection. */
  get db(): Database.Database {
    return this.conn;
  }

  /** Call `listener` with the new connection whenever the file was replaced; returns an unsubscribe function. */
  onReopen(listener: (db: Database.Database) => void): () => void {
    this.reopened.add(listener);
    return () => this.reopened.delete(listener);
  }

  /** Where warnings raised while the app runs go (the core announces them to the window). */
  onWarning(sink: (warning: ConversationsWarning) => void): void {
    this.sink = sink;
  }

  /**
   * Run `fn` (synchronous database work). When it fails with SQLITE_CORRUPT or SQLITE_NOTADB, the
   * file is healed (search index rebuilt; or set aside and replaced, readable rows copied), the
   * user is warned, `afterHeal` runs (e.g. a store makes sure the conversation it writes to still
   * exists), and `fn` runs once more. Nested guarded calls leave healing to the outermost one.
   * @throws what `fn` throws for anything else, or when it fails again after the heal
   */
  guard<T>(fn: () => T, afterHeal?: () => void): T {
    if (this.depth > 0 || this.file === null) return fn();
    this.depth++;
    try {
      try {
        return fn();
      } catch (err) {
        if (!isCorruptionError(err)) throw err;
        this.heal();
        afterHeal?.();
        return fn();
      }
    } finally {
      this.depth--;
    }
  }

  /** Heal after a runtime corruption error: rebuild the search index if only it is damaged, else replace the file. */
  private heal(): void {
    const file = this.file!;
    let state: ReturnType<typeof checkIntegrity> = 'damaged';
    try {
      state = checkIntegrity(this.conn);
    } catch {
      // A check that cannot even run: the file is treated as damaged.
    }
    if (state === 'index' && rebuildIndex(this.conn)) {
      this.raise({ code: 'index_rebuilt' });
      return;
    }
    // SQLite reported the file corrupt: even if the checks pass now, it is not trusted further.
    try {
      this.conn.close();
    } catch {
      // A damaged file may fail its last checkpoint; it is moved aside as it is.
    }
    const next = replaceFile(file, 'damaged', this.now);
    this.conn = next.db;
    this.persistent = next.persistent;
    for (const listener of this.reopened) listener(next.db);
    this.raise(next.warning);
  }

  private raise(warning: ConversationsWarning): void {
    this.warning = warning;
    this.sink(warning);
  }

  /** Close the connection. */
  close(): void {
    if (this.conn.open) this.conn.close();
  }
}

/** How the store classes take their database: the healing one, or a plain connection (tests, tools). */
export type DatabaseSource = ConversationDatabase | Database.Database;

/** The healing database for a source (a plain connection is wrapped and never healed). */
export function asConversationDatabase(source: DatabaseSource): ConversationDatabase {
  return source instanceof ConversationDatabase ? source : new ConversationDatabase(source, null);
}

/**
 * Open the conversation database in `stateDir` and check it whole. A damaged search index alone
 * is rebuilt (warning `index_rebuilt`). An unusable file is moved aside (kept, never overwritten)
 * and a fresh database is started — a damaged file's readable rows copied in — with a warning
 * (`set_aside`). If no file can be created at all the database lives in memory (`memory_only`).
 * Synchronous (a few ms, plus the check: about 1.4 s per 100 MB of file): the core has its store from
 * construction on. Never throws for a bad file; throws only for programming errors.
 */
export function openConversationDatabase(stateDir: string, now: () => number = Date.now): ConversationDatabase {
  try {
    mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  } catch {
    // Opening the file below reports the problem.
  }
  const file = path.join(stateDir, DATABASE_FILE);
  try {
    let warning: ConversationsWarning | null = null;
    // Checked whole before anything is written to it; only a damaged search index is repaired in place.
    const db = openSchemaFile(file, (checked) => {
      const state = checkIntegrity(checked);
      if (state === 'index' && rebuildIndex(checked)) warning = { code: 'index_rebuilt' };
      else if (state !== 'ok') throw new DamagedFileError('the integrity check found damage');
    });
    return new ConversationDatabase(db, file, warning, true, now);
  } catch (err) {
    if (!isUnusableDatabaseError(err)) throw err;
    const next = replaceFile(file, problemOf(err), now);
    return new ConversationDatabase(next.db, next.persistent ? file : null, next.warning, next.persistent, now);
  }
}
