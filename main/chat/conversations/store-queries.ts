/**
 * The prepared statements of the conversation store, for one connection (prepared again when the
 * file is healed and replaced). See docs/ARCHITECTURE.md "Conversations".
 */
import type Database from 'better-sqlite3';
import type { TranscriptItem } from '../../../preload/contract/index.js';

/** Most search hits returned (a constant in the query's SQL, see `search` below). */
export const SEARCH_LIMIT = 50;

/** A conversation's row as the summary query returns it. */
export interface SummaryRow {
  id: string;
  title: string;
  created_at: number;
  updated_at: number;
  message_count: number;
  profile_id: string | null;
  tool_servers: string | null;
}

/** A raw search result: `snippet` carries the query's own markers (see `ConversationStore.search`). */
export interface SearchRow {
  item_id: string;
  conversation_id: string;
  kind: TranscriptItem['kind'];
  ts: number;
  title: string;
  snippet: string;
}

/**
 * A field of an entry's JSON (`col`), or NULL when the text is not valid JSON: json_extract
 * throws on malformed JSON, and one damaged row must not fail a query over the conversation
 * (CASE is evaluated in order, so json_extract never sees such a row).
 */
function field(path: string, col = 'data'): string {
  return `(CASE WHEN json_valid(${col}) THEN json_extract(${col}, '${path}') END)`;
}

/**
 * An entry's JSON as the window gets it: as stored when it is a JSON object with a text `id` and a
 * known `kind`, else (damaged) the unreadable-entry notice made from the row's columns, so the
 * conversation's JSON array always parses. Anything else the window contains itself.
 */
const VIEW_DATA = `CASE WHEN (CASE WHEN json_valid(data) THEN json_type(data) = 'object' AND json_type(data, '$.id') = 'text' AND json_extract(data, '$.kind') IN ('user', 'assistant', 'tool', 'notice') ELSE 0 END)
  THEN data ELSE json_object('kind', 'notice', 'id', id, 'ts', ts, 'run_id', NULL, 'tone', 'error', 'text', @unreadable) END`;

/** The store's statements on `db`. */
export function storeQueries(db: Database.Database) {
  const summary = `SELECT c.id, c.title, c.created_at, c.updated_at, c.profile_id, c.tool_servers, (SELECT count(*) FROM items i WHERE i.conversation_id = c.id AND i.kind IN ('user','assistant')) AS message_count FROM conversations c`;
  return {
    list: db.prepare<[number], SummaryRow>(`${summary} ORDER BY c.updated_at DESC, c.rowid DESC LIMIT ?`),
    summary: db.prepare<[string], SummaryRow>(`${summary} WHERE c.id = ?`),
    exists: db.prepare<[string], { id: string }>('SELECT id FROM conversations WHERE id = ?'),
    create: db.prepare('INSERT INTO conversations(id, title, created_at, updated_at) VALUES (?, ?, ?, ?)'),
    touch: db.prepare('UPDATE conversations SET updated_at = ? WHERE id = ?'),
    rename: db.prepare('UPDATE conversations SET title = ? WHERE id = ?'),
    setProfile: db.prepare('UPDATE conversations SET profile_id = ? WHERE id = ?'),
    setToolServers: db.prepare('UPDATE conversations SET tool_servers = ? WHERE id = ?'),
    // Conversations whose tool choice names a server (a rename moves it; damaged JSON is skipped).
    withToolServer: db.prepare<[string], { id: string; tool_servers: string }>(
      `SELECT id, tool_servers FROM conversations WHERE tool_servers IS NOT NULL AND json_valid(tool_servers) AND json_type(tool_servers) = 'array'
       AND EXISTS (SELECT 1 FROM json_each(conversations.tool_servers) WHERE value = ?)`,
    ),
    remove: db.prepare('DELETE FROM conversations WHERE id = ?'),
    items: db.prepare<[string], { id: string; ts: number; data: string }>('SELECT id, ts, coalesce(full_data, data) AS data FROM items WHERE conversation_id = ? ORDER BY seq'),
    view: db.prepare<{ conversation: string; unreadable: string }, { data: string }>(`SELECT ${VIEW_DATA} AS data FROM items WHERE conversation_id = @conversation ORDER BY seq`),
    item: db.prepare<[string, string], { id: string; ts: number; data: string }>('SELECT id, ts, coalesce(full_data, data) AS data FROM items WHERE id = ? AND conversation_id = ?'),
    nextSeq: db.prepare<[string], { s: number }>('SELECT coalesce(max(seq), 0) + 1 AS s FROM items WHERE conversation_id = ?'),
    insert: db.prepare('INSERT INTO items(id, conversation_id, seq, kind, ts, data, full_data, search_text) VALUES (?, ?, ?, ?, ?, ?, ?, ?)'),
    update: db.prepare('UPDATE items SET data = ?, full_data = ?, search_text = ? WHERE id = ? AND conversation_id = ?'),
    removeItem: db.prepare('DELETE FROM items WHERE id = ? AND conversation_id = ?'),
    toolCall: db.prepare<{ conversation: string; run: string; call: string; server: string; tool: string }, { one: number }>(
      `SELECT 1 AS one FROM items WHERE conversation_id = @conversation AND kind = 'tool' AND ${field('$.run_id')} = @run
       AND ${field('$.call_id')} = @call AND ${field('$.server')} = @server AND ${field('$.original_name')} = @tool LIMIT 1`,
    ),
    toolCallId: db.prepare<[string, string], { call_id: string | null }>(
      `SELECT ${field('$.call_id')} AS call_id FROM items WHERE id = ? AND conversation_id = ? AND kind = 'tool'`,
    ),
    // A view's model context goes with its tool call's entry — unless another entry still left
    // in the conversation has the same call id (ids are unique per run only).
    dropViewContext: db.prepare<{ conversation: string; call: string }>(
      `DELETE FROM view_contexts WHERE conversation_id = @conversation AND call_id = @call
       AND NOT EXISTS (SELECT 1 FROM items WHERE conversation_id = @conversation AND kind = 'tool' AND ${field('$.call_id')} = @call)`,
    ),
    // Closed-view rows (MCP Apps "Close view") whose tool call has no entry left in the
    // conversation: removed calls, and calls closed while their input streamed that never got one.
    dropClosedViews: db.prepare<{ conversation: string }>(
      `DELETE FROM closed_views WHERE conversation_id = @conversation AND NOT EXISTS (SELECT 1 FROM items i WHERE i.conversation_id = @conversation AND i.kind = 'tool'
       AND ${field('$.run_id', 'i.data')} = closed_views.run_id AND ${field('$.call_id', 'i.data')} = closed_views.call_id)`,
    ),
    unfinished: db.prepare<[], { id: string; conversation_id: string; ts: number; data: string }>(
      `SELECT id, conversation_id, ts, coalesce(full_data, data) AS data FROM items WHERE kind IN ('assistant','tool') AND (${field('$.state')} IN ('streaming','running','awaiting_approval'))`,
    ),
    getMeta: db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?'),
    setMeta: db.prepare('INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)'),
    // One pass in the order FTS5 ranks its matches: `ORDER BY rank` is consumed by the FTS5 scan
    // (no sort step), so LIMIT stops it after the best hits and snippet() runs for those only.
    // CROSS JOIN keeps the FTS scan as the outer loop; each hit then looks up its entry (by rowid)
    // and conversation (by id). Two things cost more than both joins (docs/ARCHITECTURE.md
    // "Conversations", search): selecting `rank` (as a column FTS5 computes it again per row, a
    // phrase's positions read once more) and a bound LIMIT (a constant one is what FTS5 is best
    // at), so neither is done. The snippet's markers are the caller's (fresh per query, so no
    // stored text can contain them).
    search: db.prepare<{ open: string; close: string; match: string }, SearchRow>(
      `SELECT i.id AS item_id, i.conversation_id, i.kind, i.ts, c.title, snippet(items_fts, 0, @open, @close, '…', 16) AS snippet
       FROM items_fts CROSS JOIN items i ON i.rowid = items_fts.rowid CROSS JOIN conversations c ON c.id = i.conversation_id
       WHERE items_fts MATCH @match ORDER BY items_fts.rank LIMIT ${SEARCH_LIMIT}`,
    ),
    // An entry written again after a heal: updated where it survived, else appended at the end.
    upsert: db.prepare<{ id: string; conversation: string; kind: string; ts: number; data: string; full: string | null; search: string }>(
      `INSERT INTO items(id, conversation_id, seq, kind, ts, data, full_data, search_text)
       VALUES (@id, @conversation, (SELECT coalesce(max(seq), 0) + 1 FROM items WHERE conversation_id = @conversation), @kind, @ts, @data, @full, @search)
       ON CONFLICT(id) DO UPDATE SET data = excluded.data, full_data = excluded.full_data, search_text = excluded.search_text
       WHERE items.conversation_id = excluded.conversation_id`,
    ),
  };
}
