/**
 * Which MCP Apps views the user closed ("Close view"), saved with their conversation: one row per
 * closed view in `closed_views`, keyed by the view's tool call (its run id and call id — call ids
 * are unique per run only). No row: the view is shown. So a closed view stays closed across a
 * reload, a conversation switch and an app restart until the user clicks "Show app view"; the rows
 * go with the conversation (`ON DELETE CASCADE`) and with the tool call's entry
 * (`ConversationStore.removeItems`). See docs/ARCHITECTURE.md "MCP Apps" and "Conversations".
 */
import type Database from 'better-sqlite3';
import { asConversationDatabase, type ConversationDatabase, type DatabaseSource } from './database.js';
import { ConversationNotFoundError } from './store.js';

/** One view, named by its tool call. */
export interface ViewKey {
  conversation_id: string;
  /** The run that made the tool call. */
  run_id: string;
  /** The model's id of the tool call (unique within its run). */
  call_id: string;
}

/** Closed views per conversation, in the conversation database. Synchronous (better-sqlite3). */
export class ClosedViewStore {
  private readonly live: ConversationDatabase;
  private q: ReturnType<typeof queries>;

  /** @param source the database (healed and the operation tried once more when it is found damaged) */
  constructor(
    source: DatabaseSource,
    private readonly now: () => number = Date.now,
  ) {
    this.live = asConversationDatabase(source);
    this.q = queries(this.live.db);
    this.live.onReopen((next) => (this.q = queries(next)));
  }

  /**
   * Save the user's choice for a view: `closed` true writes its row (kept if there already), false
   * deletes it. The call need not have its entry yet (a view can be closed while the model still
   * writes the call's input); a row whose call never got one goes at the next removal of entries.
   * @throws ConversationNotFoundError when the conversation does not exist (nothing is written)
   */
  set(key: ViewKey, closed: boolean): void {
    const { conversation_id, run_id, call_id } = key;
    const k = { conversation_id, run_id, call_id };
    this.live.guard(() =>
      this.live.db.transaction(() => {
        if (this.q.exists.get(conversation_id) === undefined) throw new ConversationNotFoundError(conversation_id);
        if (closed) this.q.close.run({ ...k, at: this.now() });
        else this.q.open.run(k);
      })(),
    );
  }

  /** Whether the user closed the view (false for an unknown conversation or call). */
  isClosed(key: ViewKey): boolean {
    const { conversation_id, run_id, call_id } = key;
    return this.live.guard(() => this.q.get.get({ conversation_id, run_id, call_id }) !== undefined);
  }
}

/** The statements on one connection. */
function queries(db: Database.Database) {
  return {
    exists: db.prepare<[string], { id: string }>('SELECT id FROM conversations WHERE id = ?'),
    close: db.prepare<ViewKey & { at: number }>(
      'INSERT OR IGNORE INTO closed_views(conversation_id, run_id, call_id, closed_at) VALUES (@conversation_id, @run_id, @call_id, @at)',
    ),
    open: db.prepare<ViewKey>('DELETE FROM closed_views WHERE conversation_id = @conversation_id AND run_id = @run_id AND call_id = @call_id'),
    get: db.prepare<ViewKey, { one: number }>('SELECT 1 AS one FROM closed_views WHERE conversation_id = @conversation_id AND run_id = @run_id AND call_id = @call_id'),
  };
}
