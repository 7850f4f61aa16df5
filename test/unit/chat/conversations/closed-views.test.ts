/**
 * MCP Apps "Close view" saved with the conversation (`closed_views`), on real SQLite files: a
 * closed view stays closed across a reopen of the database and "Show app view" undoes it; views
 * are told apart by run and call id (call ids are unique per run only); `apps.view` answers
 * `closed` before it looks at the server; an unknown conversation is refused with nothing
 * written; the rows go with the conversation and with the tool call's entry; a database the
 * schema-2 build wrote opens, gains the table and loses nothing.
 */
import { copyFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TranscriptItem } from '../../../../preload/contract/index.js';
import { ClosedViewStore } from '../../../../main/chat/conversations/closed-views.js';
import { DATABASE_FILE, openConversationDatabase, SCHEMA_VERSION } from '../../../../main/chat/conversations/database.js';
import { ConversationNotFoundError, ConversationStore } from '../../../../main/chat/conversations/store.js';
import { ViewContextStore } from '../../../../main/chat/conversations/view-contexts.js';
import { Permissions } from '../../../../main/chat/permissions/index.js';
import { AppsService } from '../../../../main/mcp/apps/service.js';
import { ConfigStore } from '../../../../main/mcp/config.js';
import { McpHost } from '../../../../main/mcp/host.js';
import { makeTempDir, removeDir, ROOT } from '../../helpers.js';

/**
 * A database file written by the schema-2 build (commit 4b9b089, before `closed_views`): two
 * conversations with a tool entry each, and one view's model context.
 */
const V2_FIXTURE = path.join(ROOT, 'test', 'fixtures', 'conversations-v2.db');

let dir: string;
let opened: Array<{ store: ConversationStore }> = [];

beforeEach(() => {
  dir = makeTempDir('op-closedviews-');
  opened = [];
});
afterEach(async () => {
  for (const o of opened) o.store.close();
  await removeDir(dir);
});

interface Opened {
  store: ConversationStore;
  closed: ClosedViewStore;
  apps: AppsService;
}

/** Open the database in `dir` as the core does: the stores on one connection, the apps service over them. */
function open(): Opened {
  const { db, warning } = openConversationDatabase(dir);
  expect(warning).toBeNull();
  const store = new ConversationStore(db);
  const closed = new ClosedViewStore(db);
  const host = new McpHost(new ConfigStore(dir)); // never started: no server is connected
  const calls = { isToolCall: (v: { conversation_id: string; run_id: string; call_id: string }, server: string, tool: string) => store.hasToolCall(v.conversation_id, v.run_id, v.call_id, server, tool) };
  const apps = new AppsService(host, new Permissions(dir, host).gate, new ViewContextStore(db), closed, calls, { originFor: (label) => `http://${label}.localhost:9` });
  const o = { store, closed, apps };
  opened.push(o);
  return o;
}

function close(o: Opened): void {
  o.store.close();
  opened = opened.filter((x) => x !== o);
}

/** The rows as they are in the file (another connection). */
function rawRows(): Array<{ conversation_id: string; run_id: string; call_id: string }> {
  const raw = new Database(path.join(dir, DATABASE_FILE), { readonly: true });
  try {
    return raw.prepare('SELECT conversation_id, run_id, call_id FROM closed_views ORDER BY conversation_id, run_id, call_id').all() as never;
  } finally {
    raw.close();
  }
}

const user = (id: string): TranscriptItem => ({ kind: 'user', id, ts: 1, text: `message ${id}` });
/** A finished tool call entry of server "maps" made by run `runId` with the model's call id `callId`. */
function toolItem(id: string, runId: string, callId: string): TranscriptItem {
  return {
    kind: 'tool', id, ts: 1, run_id: runId, call_id: callId, tool: 'maps__show', server: 'maps', original_name: 'show', args: {},
    state: 'ok', content: [{ type: 'text', text: 'shown' }], error: null, duration_ms: 1, progress: null, permission: null,
  };
}

const key = (conversation_id: string, run_id: string, call_id: string) => ({ conversation_id, run_id, call_id });

describe('closed views in the conversation database', () => {
  it('a closed view stays closed after the database is reopened; Show app view undoes it', () => {
    const first = open();
    first.store.ensure('c', 'show the map');
    first.store.append('c', toolItem('t1', 'r1', 'call-1'));
    expect(first.apps.setViewClosed(key('c', 'r1', 'call-1'), true)).toEqual({ closed: true });
    // Closing twice keeps one row.
    first.apps.setViewClosed(key('c', 'r1', 'call-1'), true);
    close(first);
    expect(rawRows()).toEqual([key('c', 'r1', 'call-1')]);

    const again = open();
    expect(again.closed.isClosed(key('c', 'r1', 'call-1'))).toBe(true);
    expect(again.apps.setViewClosed(key('c', 'r1', 'call-1'), false)).toEqual({ closed: false });
    expect(again.closed.isClosed(key('c', 'r1', 'call-1'))).toBe(false);
    expect(rawRows()).toEqual([]);
    // Showing a view that was never closed is not an error.
    again.apps.setViewClosed(key('c', 'r1', 'never-closed'), false);
    expect(rawRows()).toEqual([]);
  });

  it('views are told apart by conversation, run and call id: the same call id of another run or conversation is not closed', () => {
    const o = open();
    o.store.ensure('c', 'x');
    o.store.ensure('d', 'y');
    o.apps.setViewClosed(key('c', 'r1', 'call_0'), true);
    expect(o.closed.isClosed(key('c', 'r1', 'call_0'))).toBe(true);
    expect(o.closed.isClosed(key('c', 'r2', 'call_0'))).toBe(false);
    expect(o.closed.isClosed(key('d', 'r1', 'call_0'))).toBe(false);
  });

  it('apps.view answers `closed` for a closed view before it looks for the server; once shown again it goes to the server', async () => {
    const o = open();
    o.store.ensure('c', 'x');
    o.store.append('c', toolItem('t1', 'r1', 'call-1'));
    o.store.append('c', toolItem('t2', 'r1', 'call-2'));
    o.apps.setViewClosed(key('c', 'r1', 'call-1'), true);
    // The server "maps" is not connected: a closed view does not need it…
    expect(await o.apps.loadView(key('c', 'r1', 'call-1'), 'maps', 'show')).toEqual({ kind: 'closed' });
    // …and an open one is looked up there (the positive control: without the closed row, the server is asked).
    expect(await o.apps.loadView(key('c', 'r1', 'call-2'), 'maps', 'show')).toEqual({ kind: 'unavailable', reason: 'not_connected' });
    o.apps.setViewClosed(key('c', 'r1', 'call-1'), false);
    expect(await o.apps.loadView(key('c', 'r1', 'call-1'), 'maps', 'show')).toEqual({ kind: 'unavailable', reason: 'not_connected' });
  });

  it('a conversation that does not exist is refused with ConversationNotFoundError, nothing written', () => {
    const o = open();
    expect(() => o.apps.setViewClosed(key('missing', 'r1', 'call-1'), true)).toThrow(ConversationNotFoundError);
    expect(() => o.apps.setViewClosed(key('missing', 'r1', 'call-1'), false)).toThrow(ConversationNotFoundError);
    expect(rawRows()).toEqual([]);
    expect(o.closed.isClosed(key('missing', 'r1', 'call-1'))).toBe(false);
  });

  it('deleting the conversation deletes its closed views (and only its); a new conversation under the same id starts with none', () => {
    const o = open();
    o.store.ensure('gone', 'x');
    o.store.ensure('kept', 'y');
    o.apps.setViewClosed(key('gone', 'r1', 'a'), true);
    o.apps.setViewClosed(key('kept', 'r1', 'b'), true);
    o.store.remove('gone');
    expect(rawRows()).toEqual([key('kept', 'r1', 'b')]);
    o.store.ensure('gone', 'again');
    expect(o.closed.isClosed(key('gone', 'r1', 'a'))).toBe(false);
  });

  it('removing entries (edit, regenerate) removes the closed views of tool calls left without an entry, and only those', () => {
    const o = open();
    o.store.ensure('c', 'x');
    o.store.ensure('d', 'y');
    for (const item of [user('u1'), toolItem('t1', 'r1', 'call_0'), user('u2'), toolItem('t2', 'r2', 'call_0')]) o.store.append('c', item);
    o.store.append('d', toolItem('t-d', 'r2', 'call_0')); // another conversation, same run and call id
    o.apps.setViewClosed(key('c', 'r1', 'call_0'), true);
    o.apps.setViewClosed(key('c', 'r2', 'call_0'), true);
    o.apps.setViewClosed(key('d', 'r2', 'call_0'), true);
    // Closed while the model still wrote the call's input; the call never got an entry.
    o.apps.setViewClosed(key('c', 'r3', 'call_never'), true);

    o.store.removeItems('c', ['t2']);
    expect(rawRows()).toEqual([key('c', 'r1', 'call_0'), key('d', 'r2', 'call_0')]);
    // Removing a user message leaves the kept call's row alone.
    o.store.removeItems('c', ['u2']);
    expect(rawRows()).toEqual([key('c', 'r1', 'call_0'), key('d', 'r2', 'call_0')]);
  });
});

describe('a database of the previous schema (2)', () => {
  it('opens, gains closed_views, and keeps every conversation, entry and view context', () => {
    copyFileSync(V2_FIXTURE, path.join(dir, DATABASE_FILE));
    const before = new Database(path.join(dir, DATABASE_FILE), { readonly: true });
    expect(before.pragma('user_version', { simple: true })).toBe(2);
    expect(before.prepare(`SELECT name FROM sqlite_master WHERE name = 'closed_views'`).get()).toBeUndefined();
    before.close();

    const o = open();
    expect(o.store.list(10).map((c) => c.id)).toEqual(['conv-other', 'conv-kyoto']);
    expect(o.store.get('conv-kyoto').items.map((i) => [i.kind, i.id])).toEqual([
      ['user', 'u1'],
      ['tool', 't1'],
      ['assistant', 'a1'],
    ]);
    expect(o.apps.modelContext('conv-kyoto')).toContain('Map centred on Gion.');
    expect(o.store.search('lanterns').map((h) => h.conversation_id)).toEqual(['conv-other']);

    // The new table works on the migrated file, cascade included, and outlives a reopen.
    o.apps.setViewClosed(key('conv-kyoto', 'r1', 'call-map'), true);
    o.apps.setViewClosed(key('conv-other', 'r2', 'call-lanterns'), true);
    o.store.remove('conv-other');
    close(o);
    const raw = new Database(path.join(dir, DATABASE_FILE), { readonly: true });
    expect(raw.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(4);
    expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
    raw.close();
    const again = open();
    expect(again.closed.isClosed(key('conv-kyoto', 'r1', 'call-map'))).toBe(true);
    expect(rawRows()).toEqual([key('conv-kyoto', 'r1', 'call-map')]);
    expect(again.store.get('conv-kyoto').items).toHaveLength(3);
  });
});
