/**
 * The conversation store: saved conversations and their transcript entries in SQLite (one row per
 * entry: `data` is the entry as the window shows it, `full_data` the whole entry where that differs
 * (tool results longer than the window's limit), FTS5 over its searchable text). The window's copy
 * is forwarded as stored JSON, never parsed in main. Streamed answer text is buffered in
 * memory and written in batches (at most `FLUSH_MS` behind, and at once when the entry ends or
 * anyone reads), so saving costs little per chunk and a crash loses at most that window of an
 * unfinished answer — never a finished entry. See docs/ARCHITECTURE.md "Conversations".
 */
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { ConversationSummary, SearchHit, TranscriptItem } from '../../../preload/contract/index.js';
import { itemForUi } from '../limits.js';
import { cleanTitle, ftsQuery, searchableText, TITLE_MAX } from './text.js';

/** How far (ms) the saved text of a streaming answer may lag behind what was shown. */
export const FLUSH_MS = 200;
/** Most search hits returned. */
export const SEARCH_LIMIT = 50;

/** What a call that waited for approval when the app stopped is told as. */
export const NOT_RUN_APP_STOPPED = 'Not run: the app stopped while this call waited for the user\'s approval.';

/** A conversation that does not exist (or no longer does). */
export class ConversationNotFoundError extends Error {
  override name = 'ConversationNotFoundError';
  constructor(readonly id: string) {
    super('That conversation does not exist (it may have been deleted).');
  }
}

/** An input the store refuses (e.g. an empty title); `field` names the input. */
export class ConversationInputError extends Error {
  override name = 'ConversationInputError';
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
  }
}

/** A conversation and its entries, as stored. */
export interface StoredConversation {
  summary: Omit<ConversationSummary, 'running'>;
  items: TranscriptItem[];
}

interface SummaryRow {
  id: string;
  title: string;
  created_at: number;
  updated_at: number;
  message_count: number;
  profile_id: string | null;
  tool_servers: string | null;
}

/** Saved conversations. One instance per database; every method is synchronous (better-sqlite3). */
export class ConversationStore {
  /** Streaming entries whose newest text is not written yet: item id → entry + conversation. */
  private readonly dirty = new Map<string, { conversationId: string; item: TranscriptItem }>();
  private timer: NodeJS.Timeout | null = null;
  /** The last-opened conversation as last written (undefined: not read yet), to skip no-op writes. */
  private lastOpenedCache: string | undefined;
  private readonly q;

  /**
   * @param redact applied to every entry before it is written (the core passes its secret
   *   redaction, so a stored secret that a server or model echoed is never saved in clear)
   */
  constructor(
    private readonly db: Database.Database,
    private readonly now: () => number = Date.now,
    private readonly redact: (item: TranscriptItem) => TranscriptItem = (item) => item,
  ) {
    const summary = `SELECT c.id, c.title, c.created_at, c.updated_at, c.profile_id, c.tool_servers, (SELECT count(*) FROM items i WHERE i.conversation_id = c.id AND i.kind IN ('user','assistant')) AS message_count FROM conversations c`;
    this.q = {
      list: db.prepare<[number], SummaryRow>(`${summary} ORDER BY c.updated_at DESC, c.rowid DESC LIMIT ?`),
      summary: db.prepare<[string], SummaryRow>(`${summary} WHERE c.id = ?`),
      exists: db.prepare<[string], { id: string }>('SELECT id FROM conversations WHERE id = ?'),
      create: db.prepare('INSERT INTO conversations(id, title, created_at, updated_at) VALUES (?, ?, ?, ?)'),
      touch: db.prepare('UPDATE conversations SET updated_at = ? WHERE id = ?'),
      rename: db.prepare('UPDATE conversations SET title = ? WHERE id = ?'),
      setProfile: db.prepare('UPDATE conversations SET profile_id = ? WHERE id = ?'),
      setToolServers: db.prepare('UPDATE conversations SET tool_servers = ? WHERE id = ?'),
      remove: db.prepare('DELETE FROM conversations WHERE id = ?'),
      items: db.prepare<[string], { data: string }>('SELECT coalesce(full_data, data) AS data FROM items WHERE conversation_id = ? ORDER BY seq'),
      view: db.prepare<[string], { data: string }>('SELECT data FROM items WHERE conversation_id = ? ORDER BY seq'),
      nextSeq: db.prepare<[string], { s: number }>('SELECT coalesce(max(seq), 0) + 1 AS s FROM items WHERE conversation_id = ?'),
      insert: db.prepare('INSERT INTO items(id, conversation_id, seq, kind, ts, data, full_data, search_text) VALUES (?, ?, ?, ?, ?, ?, ?, ?)'),
      update: db.prepare('UPDATE items SET data = ?, full_data = ?, search_text = ? WHERE id = ? AND conversation_id = ?'),
      removeItem: db.prepare('DELETE FROM items WHERE id = ? AND conversation_id = ?'),
      toolCall: db.prepare<{ conversation: string; run: string; call: string; server: string; tool: string }, { one: number }>(
        `SELECT 1 AS one FROM items WHERE conversation_id = @conversation AND kind = 'tool' AND json_extract(data, '$.run_id') = @run
         AND json_extract(data, '$.call_id') = @call AND json_extract(data, '$.server') = @server AND json_extract(data, '$.original_name') = @tool LIMIT 1`,
      ),
      toolCallId: db.prepare<[string, string], { call_id: string | null }>(
        `SELECT json_extract(data, '$.call_id') AS call_id FROM items WHERE id = ? AND conversation_id = ? AND kind = 'tool'`,
      ),
      // A view's model context goes with its tool call's entry — unless another entry still left
      // in the conversation has the same call id (ids are unique per run only).
      dropViewContext: db.prepare<{ conversation: string; call: string }>(
        `DELETE FROM view_contexts WHERE conversation_id = @conversation AND call_id = @call
         AND NOT EXISTS (SELECT 1 FROM items WHERE conversation_id = @conversation AND kind = 'tool' AND json_extract(data, '$.call_id') = @call)`,
      ),
      // Closed-view rows (MCP Apps "Close view") whose tool call has no entry left in the
      // conversation: removed calls, and calls closed while their input streamed that never got one.
      dropClosedViews: db.prepare<{ conversation: string }>(
        `DELETE FROM closed_views WHERE conversation_id = @conversation AND NOT EXISTS (SELECT 1 FROM items i WHERE i.conversation_id = @conversation AND i.kind = 'tool'
         AND json_extract(i.data, '$.run_id') = closed_views.run_id AND json_extract(i.data, '$.call_id') = closed_views.call_id)`,
      ),
      unfinished: db.prepare<[], { id: string; conversation_id: string; data: string }>(
        `SELECT id, conversation_id, coalesce(full_data, data) AS data FROM items WHERE kind IN ('assistant','tool') AND (json_extract(data, '$.state') IN ('streaming','running','awaiting_approval'))`,
      ),
      getMeta: db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?'),
      setMeta: db.prepare('INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)'),
      // The FTS query runs first and alone (best matches, limited); only its hits are joined.
      search: db.prepare<[string, number], { item_id: string; conversation_id: string; kind: TranscriptItem['kind']; ts: number; title: string; snippet: string }>(
        `SELECT i.id AS item_id, i.conversation_id, i.kind, i.ts, c.title, f.snippet
         FROM (SELECT rowid, rank, snippet(items_fts, 0, char(1), char(2), '…', 16) AS snippet FROM items_fts WHERE items_fts MATCH ? ORDER BY rank LIMIT ?) f
         JOIN items i ON i.rowid = f.rowid JOIN conversations c ON c.id = i.conversation_id
         ORDER BY f.rank`,
      ),
    };
  }

  /**
   * Whether the conversation holds a tool entry of run `runId`, call `callId`, for tool `tool`
   * (its real name) on server `server` — MCP Apps issue a view only for such a call.
   */
  hasToolCall(conversationId: string, runId: string, callId: string, server: string, tool: string): boolean {
    return this.q.toolCall.get({ conversation: conversationId, run: runId, call: callId, server, tool }) !== undefined;
  }

  /** Conversations, most recently updated first. */
  list(limit: number): Omit<ConversationSummary, 'running'>[] {
    return this.q.list.all(limit).map(fromRow);
  }

  /** One conversation's summary, or null. */
  summary(id: string): Omit<ConversationSummary, 'running'> | null {
    const row = this.q.summary.get(id);
    return row ? fromRow(row) : null;
  }

  /** Set which servers' tools the model gets (null: all). @throws ConversationNotFoundError */
  setToolServers(id: string, servers: string[] | null): void {
    if (this.q.setToolServers.run(servers === null ? null : JSON.stringify([...new Set(servers)].sort()), id).changes === 0) throw new ConversationNotFoundError(id);
  }

  /** Whether a conversation exists. */
  has(id: string): boolean {
    return this.q.exists.get(id) !== undefined;
  }

  /**
   * Create the conversation if it does not exist, titled after its first message.
   * @returns true when it was created.
   */
  ensure(id: string, firstMessage: string): boolean {
    if (this.has(id)) return false;
    const t = this.now();
    this.q.create.run(id, cleanTitle(firstMessage) || 'New conversation', t, t);
    return true;
  }

  /**
   * A conversation's entries as the window shows them (tool results cut to the window's limit),
   * as one JSON array text, straight from the stored rows (pending streamed text included).
   * @throws ConversationNotFoundError
   */
  viewJson(id: string): string {
    this.flush();
    if (!this.has(id)) throw new ConversationNotFoundError(id);
    return `[${this.q.view.all(id).map((r) => r.data).join(',')}]`;
  }

  /** A conversation with every entry in order, whole (pending streamed text included). */
  get(id: string): StoredConversation {
    this.flush();
    const summary = this.summary(id);
    if (!summary) throw new ConversationNotFoundError(id);
    return { summary, items: this.q.items.all(id).map((r) => JSON.parse(r.data) as TranscriptItem) };
  }

  /**
   * Rename. The title is cleaned (one line, bounded to `TITLE_MAX`).
   * @throws ConversationInputError for an empty title; ConversationNotFoundError.
   */
  rename(id: string, title: string): void {
    const clean = cleanTitle(title, TITLE_MAX);
    if (!clean) throw new ConversationInputError('Enter a title.', 'title');
    if (this.q.rename.run(clean, id).changes === 0) throw new ConversationNotFoundError(id);
  }

  /** Set the conversation's model profile (null: the default). @throws ConversationNotFoundError */
  setProfile(id: string, profileId: string | null): void {
    if (this.q.setProfile.run(profileId, id).changes === 0) throw new ConversationNotFoundError(id);
  }

  /** Delete a conversation and its entries. @throws ConversationNotFoundError */
  remove(id: string): void {
    for (const [itemId, d] of this.dirty) if (d.conversationId === id) this.dirty.delete(itemId);
    if (this.q.remove.run(id).changes === 0) throw new ConversationNotFoundError(id);
    if (this.lastOpened() === id) {
      this.q.setMeta.run('last_opened', '');
      this.lastOpenedCache = '';
    }
  }

  /** Append an entry at the end of a conversation and mark the conversation updated. */
  append(conversationId: string, item: TranscriptItem): void {
    this.db.transaction(() => {
      const seq = this.q.nextSeq.get(conversationId)!.s;
      this.q.insert.run(item.id, conversationId, seq, item.kind, item.ts, ...columns(this.redact(item)));
      this.q.touch.run(this.now(), conversationId);
    })();
  }

  /** Replace an entry (same id) and write it now. */
  update(conversationId: string, item: TranscriptItem): void {
    this.dirty.delete(item.id);
    this.q.update.run(...columns(this.redact(item)), item.id, conversationId);
  }

  /**
   * Record an entry's newer state without writing it yet (streamed text): written within
   * `FLUSH_MS`, by `flush()`, or by the next `update()` of that entry.
   */
  updateLater(conversationId: string, item: TranscriptItem): void {
    this.dirty.set(item.id, { conversationId, item });
    if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), FLUSH_MS);
      this.timer.unref?.();
    }
  }

  /** Write every buffered entry now (one transaction). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.dirty.size === 0) return;
    const batch = [...this.dirty.values()];
    this.dirty.clear();
    this.db.transaction(() => {
      for (const { conversationId, item } of batch) this.q.update.run(...columns(this.redact(item)), item.id, conversationId);
    })();
  }

  /**
   * Remove entries (edit-and-resend, regenerate). In the same transaction, the model context of
   * the MCP Apps views of removed tool calls (`view_contexts` rows of their `call_id`) is removed
   * too, so the model is no longer told what a view that is gone said, and so are the closed-view
   * rows (`closed_views`) of tool calls that no longer have an entry (docs/ARCHITECTURE.md
   * "MCP Apps").
   */
  removeItems(conversationId: string, ids: string[]): void {
    this.db.transaction(() => {
      const calls = new Set<string>();
      for (const id of ids) {
        this.dirty.delete(id);
        const callId = this.q.toolCallId.get(id, conversationId)?.call_id;
        if (typeof callId === 'string') calls.add(callId);
        this.q.removeItem.run(id, conversationId);
      }
      for (const call of calls) this.q.dropViewContext.run({ conversation: conversationId, call });
      this.q.dropClosedViews.run({ conversation: conversationId });
      this.q.touch.run(this.now(), conversationId);
    })();
  }

  /**
   * Entries left unfinished by a run that did not end (the app was killed): a streaming answer
   * becomes `interrupted`, a running tool call `interrupted` (it may have taken effect; the model
   * is told so), one still awaiting approval `cancelled` (it never ran). Call once at open, before
   * any run. @returns how many entries were marked.
   */
  markInterrupted(): number {
    const rows = this.q.unfinished.all();
    this.db.transaction(() => {
      for (const r of rows) {
        const item = JSON.parse(r.data) as TranscriptItem;
        if (item.kind === 'assistant' || item.kind === 'tool') {
          // A call still waiting for approval never ran: it is cancelled, not interrupted.
          const next = (item.kind === 'tool' && item.state === 'awaiting_approval'
            ? { ...item, state: 'cancelled', error: NOT_RUN_APP_STOPPED }
            : { ...item, state: 'interrupted' }) as TranscriptItem;
          this.q.update.run(...columns(next), r.id, r.conversation_id);
        }
      }
    })();
    return rows.length;
  }

  /**
   * Full-text search over every entry (FTS5); the user's words are quoted (`ftsQuery`), so no
   * input can break the query. Best matches first, at most `SEARCH_LIMIT`.
   */
  search(query: string): SearchHit[] {
    this.flush();
    const match = ftsQuery(query);
    if (!match) return [];
    return this.q.search.all(match, SEARCH_LIMIT);
  }

  /** The conversation the user had open last, if it still exists. */
  lastOpened(): string | null {
    this.lastOpenedCache ??= this.q.getMeta.get('last_opened')?.value ?? '';
    const v = this.lastOpenedCache;
    return v && this.has(v) ? v : null;
  }

  /** Remember the conversation the user opened (reopened at the next start); written only when it changes. */
  setLastOpened(id: string): void {
    if (this.lastOpenedCache === id) return;
    this.q.setMeta.run('last_opened', id);
    this.lastOpenedCache = id;
  }

  /** Flush and close the database. */
  close(): void {
    this.flush();
    if (this.db.open) this.db.close();
  }
}

/** A summary row as the contract shapes it (the server list is stored as JSON text). */
function fromRow(r: SummaryRow): Omit<ConversationSummary, 'running'> {
  let servers: string[] | null = null;
  if (r.tool_servers !== null) {
    try {
      const v = JSON.parse(r.tool_servers) as unknown;
      if (Array.isArray(v)) servers = v.filter((x): x is string => typeof x === 'string');
    } catch {
      servers = null; // unreadable: every server, as if nothing had been chosen
    }
  }
  return { ...r, tool_servers: servers };
}

/** The stored columns of an entry: the window's JSON, the whole JSON where it differs, the searchable text. */
function columns(item: TranscriptItem): [string, string | null, string] {
  const ui = itemForUi(item);
  return [JSON.stringify(ui), ui === item ? null : JSON.stringify(item), searchableText(item)];
}

/** A new entry id. */
export function newItemId(): string {
  return randomUUID();
}
