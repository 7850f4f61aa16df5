/**
 * The conversation store: saved conversations and their transcript entries in SQLite (one row per
 * entry: `data` is the entry as the window shows it, `full_data` the whole entry where that differs
 * (tool results longer than the window's limit), FTS5 over its searchable text). The window's copy
 * is forwarded as stored JSON, never parsed in main (a row that is not a JSON entry becomes the
 * unreadable-entry notice in SQL); main's own reads check each entry (./entry-shape.ts).
 * Streamed answer text is buffered in memory and written in batches (at most `FLUSH_MS` behind,
 * and at once when the entry ends or anyone reads), so saving costs little per chunk and a crash
 * loses at most that window of an unfinished answer — never a finished entry. See
 * docs/ARCHITECTURE.md "Conversations".
 */
import { randomUUID } from 'node:crypto';
import { isTaskActive, type ConversationSummary, type SearchHit, type TranscriptItem, type ValidationIssue } from '../../../preload/contract/index.js';
import { itemForUi } from '../limits.js';
import { ownIssue } from '../../util/validation-issue.js';
import { asConversationDatabase, type ConversationDatabase, type DatabaseSource } from './database.js';
import { readStoredEntry, UNREADABLE_ENTRY_TEXT } from './entry-shape.js';
import { RECOVERED_TITLE } from './salvage.js';
import { storeQueries, type SummaryRow } from './store-queries.js';
import { cleanTitle, ftsQuery, searchableText, snippetSegments, TITLE_MAX } from './text.js';
import { indexText } from './cjk-search.js';

/** How far (ms) the saved text of a streaming answer may lag behind what was shown. */
export const FLUSH_MS = 200;
export { SEARCH_LIMIT } from './store-queries.js';

/** A conversation that does not exist (or no longer does). */
export class ConversationNotFoundError extends Error {
  override name = 'ConversationNotFoundError';
  constructor(readonly id: string) {
    super('That conversation does not exist (it may have been deleted).');
  }
}

/**
 * An input the store refuses (an empty title); `field` names the input, `issue` says why for the
 * window (`field` is required).
 */
export class ConversationInputError extends Error {
  override name = 'ConversationInputError';
  readonly issue: ValidationIssue;
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
    this.issue = ownIssue('custom', [field], { rule: 'required' });
  }
}

/** A conversation and its entries, as stored. */
export interface StoredConversation {
  summary: Omit<ConversationSummary, 'running'>;
  items: TranscriptItem[];
}

/** Saved conversations. One instance per database; every method is synchronous (better-sqlite3). */
export class ConversationStore {
  /** Streaming entries whose newest text is not written yet: item id → entry + conversation. */
  private readonly dirty = new Map<string, { conversationId: string; item: TranscriptItem }>();
  private timer: NodeJS.Timeout | null = null;
  /** The last-opened conversation as last written (undefined: not read yet), to skip no-op writes. */
  private lastOpenedCache: string | undefined;
  private readonly live: ConversationDatabase;
  private q: ReturnType<typeof storeQueries>;

  /**
   * @param source the database (`openConversationDatabase`: healed when it is found damaged, each
   *   operation then tried once more; a plain connection is never healed)
   * @param redact applied to every entry before it is written (the core passes its secret
   *   redaction, so a stored secret that a server or model echoed is never saved in clear)
   */
  constructor(
    source: DatabaseSource,
    private readonly now: () => number = Date.now,
    private readonly redact: (item: TranscriptItem) => TranscriptItem = (item) => item,
  ) {
    this.live = asConversationDatabase(source);
    this.q = storeQueries(this.live.db);
    this.live.onReopen((next) => {
      this.q = storeQueries(next);
      this.lastOpenedCache = undefined;
    });
  }

  /** Run database work; healed and tried once more when the file turns out damaged (see ConversationDatabase.guard). */
  private run<T>(fn: () => T): T {
    return this.live.guard(fn);
  }

  /**
   * Write into a conversation; after a heal, the conversation is made to exist again before the
   * retry (its row may have been on a damaged page), so the write is never lost.
   */
  private write<T>(conversationId: string, fn: () => T): T {
    return this.live.guard(fn, () => {
      if (this.q.exists.get(conversationId) !== undefined) return;
      const t = this.now();
      this.q.create.run(conversationId, RECOVERED_TITLE, t, t);
    });
  }

  /**
   * Whether the conversation holds a tool entry of run `runId`, call `callId`, for tool `tool`
   * (its real name) on server `server` — MCP Apps issue a view only for such a call.
   */
  hasToolCall(conversationId: string, runId: string, callId: string, server: string, tool: string): boolean {
    return this.run(() => this.q.toolCall.get({ conversation: conversationId, run: runId, call: callId, server, tool }) !== undefined);
  }

  /** Conversations, most recently updated first. */
  list(limit: number): Omit<ConversationSummary, 'running'>[] {
    return this.run(() => this.q.list.all(limit).map(fromRow));
  }

  /** One conversation's summary, or null. */
  summary(id: string): Omit<ConversationSummary, 'running'> | null {
    const row = this.run(() => this.q.summary.get(id));
    return row ? fromRow(row) : null;
  }

  /** Set which servers' tools the model gets (null: all). @throws ConversationNotFoundError */
  setToolServers(id: string, servers: string[] | null): void {
    const value = servers === null ? null : JSON.stringify([...new Set(servers)].sort());
    if (this.run(() => this.q.setToolServers.run(value, id).changes) === 0) throw new ConversationNotFoundError(id);
  }

  /**
   * A server was renamed: every conversation whose tool choice names `from` names `to` instead
   * (one transaction; docs/ARCHITECTURE.md "Renaming a server"). Saved entries keep the names
   * they were made with. @returns the ids of the conversations changed
   */
  renameToolServer(from: string, to: string): string[] {
    return this.run(() =>
      this.live.db.transaction(() => {
        const changed: string[] = [];
        for (const row of this.q.withToolServer.all(from)) {
          const list = (JSON.parse(row.tool_servers) as unknown[]).filter((v): v is string => typeof v === 'string').map((v) => (v === from ? to : v));
          this.q.setToolServers.run(JSON.stringify([...new Set(list)].sort()), row.id);
          changed.push(row.id);
        }
        return changed;
      })(),
    );
  }

  /** Whether a conversation exists. */
  has(id: string): boolean {
    return this.run(() => this.q.exists.get(id) !== undefined);
  }

  /**
   * Create the conversation if it does not exist, titled after its first message.
   * @returns true when it was created.
   */
  ensure(id: string, firstMessage: string): boolean {
    return this.run(() => {
      if (this.has(id)) return false;
      const t = this.now();
      this.q.create.run(id, cleanTitle(firstMessage) || 'New conversation', t, t);
      return true;
    });
  }

  /**
   * A conversation's entries as the window shows them (tool results cut to the window's limit),
   * as one JSON array text, straight from the stored rows (pending streamed text included).
   * @throws ConversationNotFoundError
   */
  viewJson(id: string): string {
    this.flush();
    return this.run(() => {
      if (!this.has(id)) throw new ConversationNotFoundError(id);
      return `[${this.q.view.all({ conversation: id, unreadable: UNREADABLE_ENTRY_TEXT }).map((r) => r.data).join(',')}]`;
    });
  }

  /**
   * A conversation with every entry in order, whole (pending streamed text included). Each entry
   * is checked as it is read (./entry-shape.ts): one that is damaged reads as the unreadable-entry
   * notice (same id), so it is never sent to the model; the row stays as it is.
   */
  get(id: string): StoredConversation {
    this.flush();
    return this.run(() => {
      const summary = this.summary(id);
      if (!summary) throw new ConversationNotFoundError(id);
      return { summary, items: this.q.items.all(id).map((r) => readStoredEntry(r).item) };
    });
  }

  /** One entry of a conversation, whole (pending streamed text included), or null when there is none or it is damaged. */
  item(conversationId: string, itemId: string): TranscriptItem | null {
    this.flush();
    const row = this.run(() => this.q.item.get(itemId, conversationId));
    if (!row) return null;
    const read = readStoredEntry(row);
    return read.kind === 'entry' ? read.item : null;
  }

  /**
   * Rename. The title is cleaned (one line, bounded to `TITLE_MAX`).
   * @throws ConversationInputError for an empty title; ConversationNotFoundError.
   */
  rename(id: string, title: string): void {
    const clean = cleanTitle(title, TITLE_MAX);
    if (!clean) throw new ConversationInputError('Enter a title.', 'title');
    if (this.run(() => this.q.rename.run(clean, id).changes) === 0) throw new ConversationNotFoundError(id);
  }

  /** Set the conversation's model profile (null: the default). @throws ConversationNotFoundError */
  setProfile(id: string, profileId: string | null): void {
    if (this.run(() => this.q.setProfile.run(profileId, id).changes) === 0) throw new ConversationNotFoundError(id);
  }

  /** Delete a conversation and its entries. @throws ConversationNotFoundError */
  remove(id: string): void {
    for (const [itemId, d] of this.dirty) if (d.conversationId === id) this.dirty.delete(itemId);
    this.run(() => {
      if (this.q.remove.run(id).changes === 0) throw new ConversationNotFoundError(id);
      if (this.lastOpened() === id) {
        this.q.setMeta.run('last_opened', '');
        this.lastOpenedCache = '';
      }
    });
  }

  /** Append an entry at the end of a conversation and mark the conversation updated. */
  append(conversationId: string, item: TranscriptItem): void {
    const cols = columns(this.redact(item));
    this.write(conversationId, () =>
      this.live.db.transaction(() => {
        const seq = this.q.nextSeq.get(conversationId)!.s;
        this.q.insert.run(item.id, conversationId, seq, item.kind, item.ts, ...cols);
        this.q.touch.run(this.now(), conversationId);
      })(),
    );
  }

  /** Replace an entry (same id) and write it now. */
  update(conversationId: string, item: TranscriptItem): void {
    this.dirty.delete(item.id);
    this.writeItems([{ conversationId, item }]);
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
    this.writeItems(batch);
  }

  /**
   * Write entries' newer state (one transaction). Tried again after a heal as an upsert: an entry
   * whose row was lost with a damaged page is appended again, so what the user saw is saved.
   */
  private writeItems(batch: Array<{ conversationId: string; item: TranscriptItem }>): void {
    const rows = batch.map(({ conversationId, item }) => ({ conversationId, item, cols: columns(this.redact(item)) }));
    let healed = false;
    const ids = new Set(batch.map((b) => b.conversationId));
    this.live.guard(
      () =>
        this.live.db.transaction(() => {
          for (const { conversationId, item, cols } of rows) {
            const [data, full, search] = cols;
            if (healed) this.q.upsert.run({ id: item.id, conversation: conversationId, kind: item.kind, ts: item.ts, data, full, search });
            else this.q.update.run(data, full, search, item.id, conversationId);
          }
        })(),
      () => {
        healed = true;
        const t = this.now();
        for (const id of ids) if (this.q.exists.get(id) === undefined) this.q.create.run(id, RECOVERED_TITLE, t, t);
      },
    );
  }

  /**
   * Remove entries (edit-and-resend, regenerate). In the same transaction, the model context of
   * the MCP Apps views of removed tool calls (`view_contexts` rows of their `call_id`) is removed
   * too, so the model is no longer told what a view that is gone said, and so are the closed-view
   * rows (`closed_views`) of tool calls that no longer have an entry (docs/ARCHITECTURE.md
   * "MCP Apps").
   */
  removeItems(conversationId: string, ids: string[]): void {
    for (const id of ids) this.dirty.delete(id);
    this.run(() =>
      this.live.db.transaction(() => {
        const calls = new Set<string>();
        for (const id of ids) {
          const callId = this.q.toolCallId.get(id, conversationId)?.call_id;
          if (typeof callId === 'string') calls.add(callId);
          this.q.removeItem.run(id, conversationId);
        }
        for (const call of calls) this.q.dropViewContext.run({ conversation: conversationId, call });
        this.q.dropClosedViews.run({ conversation: conversationId });
        this.q.touch.run(this.now(), conversationId);
      })(),
    );
  }

  /**
   * Entries left unfinished by a run that did not end (the app was killed): a streaming answer
   * becomes `interrupted`, a running tool call `interrupted` (it may have taken effect; the model
   * is told so), one still awaiting approval `approval_interrupted` (nobody answered; it never
   * ran). Call once at open, before any run. @returns how many entries were marked.
   */
  markInterrupted(): number {
    return this.run(() => {
      const rows = this.q.unfinished.all();
      this.live.db.transaction(() => {
        for (const r of rows) {
          // A damaged entry is left as it is (it reads as the unreadable-entry notice).
          const read = readStoredEntry(r);
          const item = read.item;
          // A call whose task still ran stays running: the app picks the task up again (docs/ARCHITECTURE.md "Tasks").
          if (read.kind === 'entry' && item.kind === 'tool' && item.state === 'running' && item.task && isTaskActive(item.task.status)) continue;
          if (read.kind === 'entry' && (item.kind === 'assistant' || item.kind === 'tool')) {
            // A call still waiting for approval never ran, and the user never answered: it is
            // interrupted before the answer, not cancelled.
            const next = (item.kind === 'tool' && item.state === 'awaiting_approval' ? { ...item, state: 'approval_interrupted', error: null } : { ...item, state: 'interrupted' }) as TranscriptItem;
            this.q.update.run(...columns(next), r.id, r.conversation_id);
          }
        }
      })();
      return rows.length;
    });
  }

  /**
   * Full-text search over every entry (FTS5); the user's words are quoted (`ftsQuery`), so no
   * input can break the query. Best matches first, at most `SEARCH_LIMIT`. Each snippet comes as
   * pieces whose `hit` flag is set by the search engine alone: the engine marks matches with
   * markers made fresh for this query (random, so no stored text contains them), which are then
   * split off; characters in the data never mark anything.
   */
  search(query: string): SearchHit[] {
    this.flush();
    const match = ftsQuery(query);
    if (!match) return [];
    const nonce = randomUUID();
    const open = `\u0001${nonce}<`;
    const close = `>${nonce}\u0002`;
    const rows = this.run(() => this.q.search.all({ open, close, match }));
    return rows.map((r) => ({ ...r, snippet: snippetSegments(r.snippet, open, close) }));
  }

  /** The conversation the user had open last, if it still exists. */
  lastOpened(): string | null {
    return this.run(() => {
      this.lastOpenedCache ??= this.q.getMeta.get('last_opened')?.value ?? '';
      const v = this.lastOpenedCache;
      return v && this.has(v) ? v : null;
    });
  }

  /** Remember the conversation the user opened (reopened at the next start); written only when it changes. */
  setLastOpened(id: string): void {
    if (this.lastOpenedCache === id) return;
    this.run(() => this.q.setMeta.run('last_opened', id));
    this.lastOpenedCache = id;
  }

  /** Flush and close the database. */
  close(): void {
    this.flush();
    this.live.close();
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
  return [JSON.stringify(ui), ui === item ? null : JSON.stringify(item), indexText(searchableText(item))];
}

/** A new entry id. */
export function newItemId(): string {
  return randomUUID();
}
