/**
 * MCP Apps views' model context (`ui/update-model-context`) saved with the conversation, on real
 * SQLite files: it survives closing and reopening the database; an update replaces the view's
 * last text, empty text removes it, at most MAX_CONTEXT_VIEWS views per conversation; deleting the
 * conversation removes it; removing entries removes the context of removed tool calls' views (and
 * only theirs); an unknown conversation is refused with nothing written; a database of the previous
 * schema (a file the schema-1 build wrote) opens and gains the table with nothing lost. Then
 * through the contract and a real AppCore with the fake model and a real MCP App server: a view
 * instance issued for a real tool call sets the text, which reaches the model's system prompt
 * after an app restart (when the instance itself is gone) and goes with the conversation;
 * regenerate and edit-and-resend stop the dropped calls' views' text reaching the model.
 */
import { copyFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LIMITS, type Envelope, type TranscriptItem } from '../../../../preload/contract/index.js';
import { DATABASE_FILE, openConversationDatabase, SCHEMA_VERSION } from '../../../../main/chat/conversations/database.js';
import { ConversationNotFoundError, ConversationStore } from '../../../../main/chat/conversations/store.js';
import { MAX_CONTEXT_VIEWS, ViewContextStore } from '../../../../main/chat/conversations/view-contexts.js';
import { ClosedViewStore } from '../../../../main/chat/conversations/closed-views.js';
import { Permissions } from '../../../../main/chat/permissions/index.js';
import { AppCore } from '../../../../main/core.js';
import { createDispatcher } from '../../../../main/ipc/dispatch.js';
import { AppsService } from '../../../../main/mcp/apps/service.js';
import { ConfigStore } from '../../../../main/mcp/config.js';
import { McpHost } from '../../../../main/mcp/host.js';
import { MemorySecretStore } from '../../../../main/secrets/store.js';
import { startFakeModel, textOf, type FakeModel } from '../../../fixtures/fake-model.js';
import { makeTempDir, removeDir, ROOT, waitFor } from '../../helpers.js';

/**
 * A database file written by the schema-1 build (commit 39266c3, before `view_contexts`) through
 * its own ConversationStore: two conversations, a tool entry, tool servers, last-opened; VACUUMed.
 */
const V1_FIXTURE = path.join(ROOT, 'test', 'fixtures', 'conversations-v1.db');

let dir: string;
let opened: Array<{ store: ConversationStore }> = [];

beforeEach(() => {
  dir = makeTempDir('op-viewctx-');
  opened = [];
});
afterEach(async () => {
  for (const o of opened) o.store.close();
  await removeDir(dir);
});

/** Open the database in `dir` (as the core does): both stores on one connection, and the apps service over it. */
function open(redact?: (text: string) => string): { store: ConversationStore; views: ViewContextStore; apps: AppsService } {
  const { db, warning } = openConversationDatabase(dir);
  expect(warning).toBeNull();
  const store = new ConversationStore(db);
  const views = new ViewContextStore(db, Date.now, redact);
  const host = new McpHost(new ConfigStore(dir)); // never started: the service's context calls need no server
  // No view is ever issued here (no call exists, no origin): the store's rules are tested directly.
  const apps = new AppsService(host, new Permissions(dir, host).gate, views, new ClosedViewStore(db), { isToolCall: () => false }, null);
  const o = { store, views, apps };
  opened.push(o);
  return o;
}

const user = (id: string): TranscriptItem => ({ kind: 'user', id, ts: 1, text: `message ${id}` });
const answer = (id: string): TranscriptItem => ({ kind: 'assistant', id, ts: 1, run_id: 'r', text: 'done', state: 'done' });
/** A finished tool call entry of server "maps" with the model's call id `callId`. */
function toolItem(id: string, callId: string): TranscriptItem {
  return {
    kind: 'tool', id, ts: 1, run_id: 'r', call_id: callId, tool: 'maps__show', server: 'maps', original_name: 'show', args: {},
    state: 'ok', content: [{ type: 'text', text: 'shown' }], error: null, duration_ms: 1, progress: null, permission: null,
  };
}

function close(o: { store: ConversationStore }): void {
  o.store.close();
  opened = opened.filter((x) => x !== o);
}

/** The rows as they are in the file (another connection). */
function rawRows(): Array<{ conversation_id: string; call_id: string; server: string; text: string }> {
  const raw = new Database(path.join(dir, DATABASE_FILE), { readonly: true });
  try {
    return raw.prepare('SELECT conversation_id, call_id, server, text FROM view_contexts ORDER BY conversation_id, seq').all() as never;
  } finally {
    raw.close();
  }
}

describe('views’ model context in the conversation database', () => {
  it('survives closing and reopening the database, and the model text is built from it', () => {
    const first = open();
    first.store.ensure('c', 'show the map');
    expect(first.views.set('c', 'call-1', 'maps', 'The user zoomed to Kyoto.')).toEqual({ kept: true });
    expect(first.views.set('c', 'call-2', 'charts', 'Bar 3 is selected.')).toEqual({ kept: true });
    close(first);

    const again = open();
    expect(again.views.list('c')).toEqual([
      { call_id: 'call-1', server: 'maps', text: 'The user zoomed to Kyoto.' },
      { call_id: 'call-2', server: 'charts', text: 'Bar 3 is selected.' },
    ]);
    expect(again.apps.modelContext('c')).toBe(
      'Context from interactive app views in this conversation:\n\n[App view of server "maps"]\nThe user zoomed to Kyoto.\n\n[App view of server "charts"]\nBar 3 is selected.',
    );
    expect(again.apps.modelContext('other')).toBeNull();
  });

  it('an update replaces the view’s text and makes it the newest; empty or blank text removes it', () => {
    const o = open();
    o.store.ensure('c', 'x');
    o.views.set('c', 'a', 'maps', 'first');
    o.views.set('c', 'b', 'maps', 'other view');
    o.views.set('c', 'a', 'maps', 'second');
    expect(o.views.list('c').map((v) => [v.call_id, v.text])).toEqual([
      ['b', 'other view'],
      ['a', 'second'],
    ]);
    expect(o.views.set('c', 'a', 'maps', '  \n\t ')).toEqual({ kept: false });
    expect(o.views.list('c').map((v) => v.call_id)).toEqual(['b']);
    expect(o.views.set('c', 'b', 'maps', '')).toEqual({ kept: false });
    expect(o.apps.modelContext('c')).toBeNull();
    expect(rawRows()).toEqual([]);
    // Removing what is not there is not an error.
    expect(o.views.set('c', 'never-set', 'maps', '')).toEqual({ kept: false });
  });

  it(`keeps at most ${MAX_CONTEXT_VIEWS} views per conversation, dropping the least recently updated; others are untouched`, () => {
    const o = open();
    o.store.ensure('c', 'x');
    o.store.ensure('d', 'y');
    o.views.set('d', 'd-view', 'srv', 'in another conversation');
    for (let i = 0; i < MAX_CONTEXT_VIEWS; i++) o.views.set('c', `v${i}`, 'srv', `text ${i}`);
    o.views.set('c', 'v0', 'srv', 'v0 again'); // v0 is now the newest; v1 the oldest
    o.views.set('c', 'extra', 'srv', 'one too many');
    const ids = o.views.list('c').map((v) => v.call_id);
    expect(ids).toHaveLength(MAX_CONTEXT_VIEWS);
    expect(ids).not.toContain('v1');
    expect(ids.slice(-2)).toEqual(['v0', 'extra']);
    expect(o.views.list('d')).toEqual([{ call_id: 'd-view', server: 'srv', text: 'in another conversation' }]);
  });

  it(`cuts the text to ${LIMITS.viewContext} characters and redacts secrets before writing`, () => {
    const o = open((t) => t.replaceAll('sk-live-abcdef', '[redacted]'));
    o.store.ensure('c', 'x');
    o.views.set('c', 'long', 'srv', 'x'.repeat(LIMITS.viewContext + 500));
    o.views.set('c', 'secret', 'srv', 'the key is sk-live-abcdef');
    const rows = rawRows();
    expect(rows.find((r) => r.call_id === 'long')!.text).toHaveLength(LIMITS.viewContext);
    expect(rows.find((r) => r.call_id === 'secret')!.text).toBe('the key is [redacted]');
  });

  it('deleting the conversation deletes its views’ context (and only its)', () => {
    const o = open();
    o.store.ensure('gone', 'x');
    o.store.ensure('kept', 'y');
    o.views.set('gone', 'a', 'srv', 'bye');
    o.views.set('kept', 'b', 'srv', 'stay');
    o.store.remove('gone');
    expect(rawRows()).toEqual([{ conversation_id: 'kept', call_id: 'b', server: 'srv', text: 'stay' }]);
    expect(o.apps.modelContext('gone')).toBeNull();
    // A new conversation under the same id starts without the old context.
    o.store.ensure('gone', 'again');
    expect(o.apps.modelContext('gone')).toBeNull();
  });

  it('removing entries (edit, regenerate) removes the context of the views of removed tool calls, in the same transaction, and only theirs', () => {
    const o = open();
    o.store.ensure('c', 'x');
    o.store.ensure('d', 'y');
    for (const item of [user('u1'), toolItem('t1', 'call-kept'), user('u2'), toolItem('t2', 'call-gone'), answer('a2')]) o.store.append('c', item);
    o.store.append('d', toolItem('t-d', 'call-gone')); // another conversation, same call id
    o.views.set('c', 'call-kept', 'maps', 'The kept view says hi.');
    o.views.set('c', 'call-gone', 'maps', 'The user zoomed to Kyoto.');
    o.views.set('d', 'call-gone', 'maps', 'Other conversation.');

    o.store.removeItems('c', ['t2', 'a2']);
    expect(o.store.get('c').items.map((i) => i.id)).toEqual(['u1', 't1', 'u2']);
    expect(rawRows()).toEqual([
      { conversation_id: 'c', call_id: 'call-kept', server: 'maps', text: 'The kept view says hi.' },
      { conversation_id: 'd', call_id: 'call-gone', server: 'maps', text: 'Other conversation.' },
    ]);
    expect(o.apps.modelContext('c')).not.toContain('Kyoto');
    expect(o.apps.modelContext('c')).toContain('The kept view says hi.');

    // Removing entries that are not tool calls, or that are not there, leaves the contexts alone.
    o.store.removeItems('c', ['u2', 'no-such-entry']);
    expect(rawRows()).toHaveLength(2);
  });

  it('a removed tool call whose call id another kept entry still has (ids are unique per run only) keeps that context', () => {
    const o = open();
    o.store.ensure('c', 'x');
    for (const item of [user('u1'), toolItem('t1', 'call_0'), user('u2'), toolItem('t2', 'call_0')]) o.store.append('c', item);
    o.views.set('c', 'call_0', 'maps', 'Shared id.');
    o.store.removeItems('c', ['t2']);
    expect(rawRows().map((r) => r.text)).toEqual(['Shared id.']);
    o.store.removeItems('c', ['t1']);
    expect(rawRows()).toEqual([]);
  });

  it('an update for a conversation that does not exist is refused with ConversationNotFoundError, nothing written', () => {
    const o = open();
    expect(() => o.views.set('missing', 'a', 'srv', 'text')).toThrow(ConversationNotFoundError);
    expect(() => o.views.set('missing', 'a', 'srv', '')).toThrow(ConversationNotFoundError);
    expect(rawRows()).toEqual([]);
  });
});

describe('a database of the previous schema', () => {
  it('opens, gains view_contexts, and keeps every conversation, entry, search hit and setting', () => {
    copyFileSync(V1_FIXTURE, path.join(dir, DATABASE_FILE));
    const before = new Database(path.join(dir, DATABASE_FILE), { readonly: true });
    expect(before.pragma('user_version', { simple: true })).toBe(1);
    expect(before.prepare(`SELECT name FROM sqlite_master WHERE name = 'view_contexts'`).get()).toBeUndefined();
    before.close();

    const o = open();
    expect(o.store.list(10).map((c) => c.id)).toEqual(['conv-other', 'conv-kyoto']);
    const kyoto = o.store.get('conv-kyoto');
    expect(kyoto.summary).toMatchObject({ title: 'Plan the trip to Kyoto', message_count: 2, tool_servers: ['maps'] });
    expect(kyoto.items.map((i) => [i.kind, i.id])).toEqual([
      ['user', 'u1'],
      ['tool', 't1'],
      ['assistant', 'a1'],
    ]);
    expect(kyoto.items[1]).toMatchObject({ kind: 'tool', call_id: 'call-map', server: 'maps', content: [{ type: 'text', text: 'Map of Kyoto shown' }] });
    expect(o.store.search('lanterns').map((h) => h.conversation_id)).toEqual(['conv-other']);
    expect(o.store.lastOpened()).toBe('conv-kyoto');

    // The new table works on the migrated file, cascade included, and outlives a reopen.
    o.views.set('conv-kyoto', 'call-map', 'maps', 'Map centred on Gion.');
    o.views.set('conv-other', 'x', 'maps', 'to be deleted');
    o.store.remove('conv-other');
    close(o);
    const raw = new Database(path.join(dir, DATABASE_FILE), { readonly: true });
    expect(raw.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
    raw.close();
    const again = open();
    expect(again.apps.modelContext('conv-kyoto')).toContain('Map centred on Gion.');
    expect(rawRows().map((r) => r.conversation_id)).toEqual(['conv-kyoto']);
    expect(again.store.get('conv-kyoto').items).toHaveLength(3);
  });
});

/** The hostile App fixture: its `draft` tool has a view (test/fixtures/hostile-app-server.mjs). */
const APP_SERVER = ['node', path.join(ROOT, 'test', 'fixtures', 'hostile-app-server.mjs')];

const ok = (e: Envelope<unknown>): unknown => {
  if (!e.ok) throw new Error(`${e.error.code}: ${e.error.message}`);
  return e.value;
};

/** An app core over `dir` whose views would be served on per-view hosts (nothing listens: no frame is loaded here). */
function appCore(): AppCore {
  return new AppCore({ stateDir: dir, shell: 'browser', secrets: new MemorySecretStore(), viewOrigins: { originFor: (label) => `http://${label}.localhost:9` } });
}

/**
 * A view instance for a saved `draft` call of server "app" (as the window gets it from `apps.view`),
 * for the tool entry with model call id `callId` (the newest one when absent).
 */
async function showView(d: ReturnType<typeof createDispatcher>, conversation: string, callId?: string): Promise<string> {
  const view = ok(await d.invoke('conversations.get', { id: conversation })) as { items_json: string };
  const tools = (JSON.parse(view.items_json) as TranscriptItem[]).filter((i): i is Extract<TranscriptItem, { kind: 'tool' }> => i.kind === 'tool');
  const item = callId ? tools.find((t) => t.call_id === callId)! : tools.at(-1)!;
  const load = ok(await d.invoke('apps.view', { conversation_id: conversation, run_id: item.run_id, call_id: item.call_id, server: 'app', tool: 'draft' })) as { kind: string; view_instance?: string };
  expect(load.kind).toBe('ready');
  return load.view_instance!;
}

describe('through the contract and a real AppCore', () => {
  let model: FakeModel;
  let core: AppCore | null = null;

  beforeEach(async () => {
    model = await startFakeModel(); // the default script: `call __draft {…}` calls the App server's tool
  });
  afterEach(async () => {
    await core?.shutdown();
    core = null;
    await model.close();
  });

  async function start(): Promise<ReturnType<typeof createDispatcher>> {
    core = appCore();
    await core.start();
    const d = createDispatcher(core);
    ok(await d.invoke('settings.setModel', { provider: 'openai-compatible', base_url: model.baseUrl, model: 'fake' }));
    ok(await d.invoke('permissions.setMode', { mode: 'never_ask' }));
    if (!core.config.names().includes('app')) ok(await d.invoke('servers.add', { name: 'app', config: { type: 'local', command: APP_SERVER, env: {} } }));
    expect(await waitFor(() => core!.host.view('app').state.kind === 'ready', 15_000)).toBe(true);
    return d;
  }
  async function send(d: ReturnType<typeof createDispatcher>, id: string, text: string): Promise<void> {
    ok(await d.invoke('chat.send', { conversation_id: id, text }));
    expect(await waitFor(() => !core!.chat.isRunning(id), 15_000)).toBe(true);
  }
  const systemOf = (i: number): string => {
    const m = model.requests.at(i)!.body.messages.find((x) => x.role === 'system');
    return textOf(m);
  };

  it('the model gets a view’s context after an app restart; a view never issued is refused; a deleted conversation takes it along', async () => {
    let d = await start();
    expect(await d.invoke('apps.updateModelContext', { view_instance: 'never-issued-instance', text: 'lost' })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    await send(d, 'c', 'call __draft {"text":"a map"}');
    expect(systemOf(-1)).not.toContain('Map centred on Gion');
    const instance = await showView(d, 'c');
    expect(ok(await d.invoke('apps.updateModelContext', { view_instance: instance, text: 'Map centred on Gion.' }))).toEqual({ kept: true });
    await core!.shutdown();

    d = await start(); // an app restart on the same state dir: the old instance is gone, the text is not
    expect(await d.invoke('apps.updateModelContext', { view_instance: instance, text: 'from a view of the last session' })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    await send(d, 'c', 'second message');
    expect(systemOf(-1)).toContain('[App view of server "app"]\nMap centred on Gion.');
    expect(rawRows()).toHaveLength(1);

    // A view still shown when its conversation is deleted: its update is refused, nothing written.
    const again = await showView(d, 'c');
    ok(await d.invoke('conversations.remove', { id: 'c' }));
    expect(rawRows()).toEqual([]);
    expect(await d.invoke('apps.updateModelContext', { view_instance: again, text: 'after the delete' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(rawRows()).toEqual([]);
    expect(core!.apps.modelContext('c')).toBeNull();
  });
});

describe('edit and regenerate through the contract and a real AppCore, with a real tool call', () => {
  let model: FakeModel;
  let core: AppCore | null = null;
  let d: ReturnType<typeof createDispatcher>;

  /** Invoke a run-starting channel and wait until the conversation's run has ended. */
  async function run(channel: 'chat.send' | 'chat.editResend' | 'chat.regenerate', input: Record<string, unknown>): Promise<void> {
    ok(await d.invoke(channel, input as never));
    expect(await waitFor(() => !core!.chat.isRunning('c'), 15_000)).toBe(true);
  }
  /** The conversation's entries, as the window gets them. */
  async function items(): Promise<TranscriptItem[]> {
    const view = ok(await d.invoke('conversations.get', { id: 'c' })) as { items_json: string };
    return JSON.parse(view.items_json) as TranscriptItem[];
  }
  const callIds = async (): Promise<string[]> => (await items()).flatMap((i) => (i.kind === 'tool' ? [i.call_id] : []));
  /** The system text of every model request since request number `from`. */
  const systemsSince = (from: number): string[] => model.requests.slice(from).map((r) => textOf(r.body.messages.find((m) => m.role === 'system')));
  const setContext = async (callId: string, text: string): Promise<void> => {
    const instance = await showView(d, 'c', callId);
    expect(ok(await d.invoke('apps.updateModelContext', { view_instance: instance, text }))).toEqual({ kept: true });
  };

  beforeEach(async () => {
    model = await startFakeModel(); // the default script: `call __draft {…}` calls the App server's tool
    core = appCore();
    await core.start();
    d = createDispatcher(core);
    ok(await d.invoke('settings.setModel', { provider: 'openai-compatible', base_url: model.baseUrl, model: 'fake' }));
    ok(await d.invoke('permissions.setMode', { mode: 'never_ask' }));
    ok(await d.invoke('servers.add', { name: 'app', config: { type: 'local', command: APP_SERVER, env: {} } }));
    expect(await waitFor(() => core!.host.view('app').state.kind === 'ready', 15_000)).toBe(true);
  });
  afterEach(async () => {
    await core?.shutdown();
    core = null;
    await model.close();
  });

  it('the context of a view whose tool call was dropped no longer reaches the model; a kept view’s still does', async () => {
    await run('chat.send', { conversation_id: 'c', text: 'call __draft {"text":"first"}' });
    await run('chat.send', { conversation_id: 'c', text: 'call __draft {"text":"second"}' });
    const [kept, dropped] = await callIds();
    expect(kept).toBeDefined();
    expect(dropped).toBeDefined();
    await setContext(kept!, 'KEPT-VIEW: the first map.');
    await setContext(dropped!, 'STALE-VIEW: the second map.');

    // Regenerate drops the second call (and its answer); the rerun calls the tool anew.
    let from = model.requests.length;
    await run('chat.regenerate', { conversation_id: 'c' });
    const afterRegen = await callIds();
    expect(afterRegen).toHaveLength(2);
    expect(afterRegen).not.toContain(dropped);
    expect(systemsSince(from).length).toBeGreaterThan(0);
    for (const system of systemsSince(from)) {
      expect(system).toContain('KEPT-VIEW: the first map.');
      expect(system).not.toContain('STALE-VIEW');
    }

    // Edit-and-resend drops the rerun's call; its view's context goes with it.
    const rerun = afterRegen[1]!;
    await setContext(rerun, 'EDITED-AWAY-VIEW: the third map.');
    const lastUser = (await items()).filter((i) => i.kind === 'user').at(-1)!;
    from = model.requests.length;
    await run('chat.editResend', { conversation_id: 'c', item_id: lastUser.id, text: 'no tools this time' });
    expect(await callIds()).toEqual([kept]);
    expect(systemsSince(from)).toHaveLength(1);
    expect(systemsSince(from)[0]).toContain('KEPT-VIEW: the first map.');
    expect(systemsSince(from)[0]).not.toContain('EDITED-AWAY-VIEW');
    expect(rawRows().map((r) => r.call_id)).toEqual([kept]);
  });
});
