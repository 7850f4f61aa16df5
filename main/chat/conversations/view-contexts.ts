/**
 * The model context of MCP Apps views (ext-apps `ui/update-model-context`), saved with their
 * conversation: one row per view (the tool call's `call_id`) in `view_contexts`, so the model
 * keeps getting it after the app restarts, and it goes when the conversation is deleted
 * (`ON DELETE CASCADE`). See docs/ARCHITECTURE.md "MCP Apps" and "Conversations".
 */
import type Database from 'better-sqlite3';
import { asConversationDatabase, type ConversationDatabase, type DatabaseSource } from './database.js';
import { LIMITS } from '../../../preload/contract/index.js';
import { ConversationNotFoundError } from './store.js';

/** Most views per conversation whose model context is kept (the least recently updated is dropped). */
export const MAX_CONTEXT_VIEWS = 16;

/** One view's model context, as saved. */
export interface ViewContext {
  /** The tool call whose view set it. */
  call_id: string;
  /** The server of that tool call. */
  server: string;
  /** The text the model gets (at most `LIMITS.viewContext` characters). */
  text: string;
}

/** Views' model context per conversation, in the conversation database. Synchronous (better-sqlite3). */
export class ViewContextStore {
  private readonly live: ConversationDatabase;
  private q: ReturnType<typeof queries>;

  /**
   * @param source the database (healed and the operation tried once more when it is found damaged)
   * @param redact applied to the text before it is written (the core passes its secret redaction,
   *   as for transcript entries)
   */
  constructor(
    source: DatabaseSource,
    private readonly now: () => number = Date.now,
    private readonly redact: (text: string) => string = (text) => text,
  ) {
    this.live = asConversationDatabase(source);
    this.q = queries(this.live.db);
    this.live.onReopen((next) => (this.q = queries(next)));
  }

  /**
   * Set a view's model context: it replaces the view's last one (and becomes the newest); empty
   * or blank text removes it. The text is redacted, then cut to `LIMITS.viewContext` characters. At most
   * {@link MAX_CONTEXT_VIEWS} views per conversation are kept, the least recently updated dropped.
   * @returns whether a context is now kept for the view
   * @throws ConversationNotFoundError when the conversation does not exist (nothing is written)
   */
  set(conversationId: string, callId: string, server: string, text: string): { kept: boolean } {
    const kept = text.trim().length > 0;
    const saved = this.redact(text).slice(0, LIMITS.viewContext);
    this.live.guard(() =>
      this.live.db.transaction(() => {
        if (this.q.exists.get(conversationId) === undefined) throw new ConversationNotFoundError(conversationId);
        this.q.remove.run(conversationId, callId);
        if (!kept) return;
        const seq = this.q.nextSeq.get(conversationId)!.s;
        this.q.insert.run(conversationId, callId, server, saved, this.now(), seq);
        this.q.trim.run({ id: conversationId, keep: MAX_CONTEXT_VIEWS });
      })(),
    );
    return { kept };
  }

  /** A conversation's views' model context, least recently updated first (empty when none or no such conversation). */
  list(conversationId: string): ViewContext[] {
    return this.live.guard(() => this.q.list.all(conversationId));
  }
}

/** The statements on one connection. */
function queries(db: Database.Database) {
  return {
    exists: db.prepare<[string], { id: string }>('SELECT id FROM conversations WHERE id = ?'),
    remove: db.prepare('DELETE FROM view_contexts WHERE conversation_id = ? AND call_id = ?'),
    nextSeq: db.prepare<[string], { s: number }>('SELECT coalesce(max(seq), 0) + 1 AS s FROM view_contexts WHERE conversation_id = ?'),
    insert: db.prepare('INSERT INTO view_contexts(conversation_id, call_id, server, text, updated_at, seq) VALUES (?, ?, ?, ?, ?, ?)'),
    // Everything but the newest MAX_CONTEXT_VIEWS of the conversation.
    trim: db.prepare<{ id: string; keep: number }>(
      'DELETE FROM view_contexts WHERE conversation_id = @id AND seq NOT IN (SELECT seq FROM view_contexts WHERE conversation_id = @id ORDER BY seq DESC LIMIT @keep)',
    ),
    list: db.prepare<[string], ViewContext>('SELECT call_id, server, text FROM view_contexts WHERE conversation_id = ? ORDER BY seq'),
  };
}
