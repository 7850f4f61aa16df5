/**
 * A damaged conversation database is noticed and healed (docs/ARCHITECTURE.md "Conversations",
 * a damaged database), on real SQLite files damaged for real: a search index with rows torn out
 * is rebuilt at open; a file whose entry pages are overwritten is set aside, kept byte for byte,
 * and what can be read is copied into a new one; pages overwritten while the app runs heal at the
 * first operation that meets them — and the message being sent is still saved and sent, through
 * the real AppCore and ChatService. Corruption is judged by the error's code.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatEvent, ConversationsWarning, Envelope, EventName, SearchHit, TranscriptItem } from '../../../../preload/contract/index.js';
import { DATABASE_FILE, openConversationDatabase } from '../../../../main/chat/conversations/database.js';
import { isCorruptionError } from '../../../../main/chat/conversations/integrity.js';
import { RECOVERED_TITLE } from '../../../../main/chat/conversations/salvage.js';
import { ConversationStore } from '../../../../main/chat/conversations/store.js';
import { AppCore } from '../../../../main/core.js';
import { createDispatcher } from '../../../../main/ipc/dispatch.js';
import { MemorySecretStore } from '../../../../main/secrets/store.js';
import { damageEntriesWhileOpen, damageSearchIndex, forceReread, overwritePages, pagesOf, searchIndexBroken } from '../../../fixtures/damage-db.js';
import { startFakeModel, textOf, type FakeModel } from '../../../fixtures/fake-model.js';
import { makeTempDir, removeDir, waitFor } from '../../helpers.js';

let dir: string;
let file: string;
let store: ConversationStore | null = null;

beforeEach(() => {
  dir = makeTempDir('op-heal-');
  file = path.join(dir, DATABASE_FILE);
});
afterEach(async () => {
  store?.close();
  store = null;
  await removeDir(dir);
});

const user = (id: string, text: string): TranscriptItem => ({ kind: 'user', id, ts: 1, text });
const kept = (): string[] => readdirSync(dir).filter((f) => f.startsWith(`${DATABASE_FILE}.unusable-`) && !/-(wal|shm)$/.test(f));

/** Two conversations of `n` entries each, every entry findable by `quokka` and by its own word. */
function seed(n = 150): void {
  const s = new ConversationStore(openConversationDatabase(dir));
  for (const c of ['a', 'b']) {
    s.ensure(c, `conversation ${c}`);
    for (let i = 0; i < n; i++) s.append(c, user(`${c}${i}`, `entry ${c}${i} quokka word${c}${i} ${'filler '.repeat(120)}`));
  }
  s.close();
}

describe('at open', () => {
  it('a search index with rows torn out is rebuilt from the entries, with a warning; nothing is set aside', () => {
    seed(40);
    damageSearchIndex(file);
    expect(searchIndexBroken(file)).toBe(true);
    const opened = openConversationDatabase(dir);
    expect(opened.warning).toEqual({ code: 'index_rebuilt' } satisfies ConversationsWarning);
    expect(kept()).toEqual([]);
    store = new ConversationStore(opened);
    expect(store.search('quokka')).toHaveLength(50); // SEARCH_LIMIT: every entry matches
    expect(store.search('worda17').map((h) => h.item_id)).toEqual(['a17']);
    store.append('a', user('new', 'a wombat arrives'));
    expect(store.search('wombat').map((h) => h.item_id)).toEqual(['new']);
    expect(store.get('a').items).toHaveLength(41);
    store.close();
    store = null;
    expect(searchIndexBroken(file)).toBe(false);
    // Opened again: whole, no warning.
    expect(openConversationDatabase(dir).warning).toBeNull();
  });

  it('overwritten pages of the entries: the file is kept as it was, the readable entries are copied into a new one', () => {
    seed();
    const raw = new Database(file);
    const leaves = pagesOf(raw, 'items', 'leaf');
    raw.close();
    overwritePages(file, leaves.slice(5, 7));
    const damaged = readFileSync(file);
    const opened = openConversationDatabase(dir);
    expect(opened.warning).toMatchObject({ code: 'set_aside', problem: 'damaged', dir, recovered: { conversations: 2, complete: false } });
    const w = opened.warning as Extract<ConversationsWarning, { code: 'set_aside' }>;
    expect(w.recovered!.entries).toBeGreaterThan(250);
    expect(w.recovered!.entries).toBeLessThan(300);
    // The damaged file is kept unchanged (read-only while copying), with no journal left beside it.
    expect(kept()).toEqual([w.kept_as]);
    expect(readFileSync(path.join(dir, w.kept_as)).equals(damaged)).toBe(true);
    expect(readdirSync(dir).filter((f) => f.startsWith(`${w.kept_as}-`))).toEqual([]);
    store = new ConversationStore(opened);
    const items = [...store.get('a').items, ...store.get('b').items];
    expect(items).toHaveLength(w.recovered!.entries);
    expect(store.summary('a')!.title).toBe('conversation a');
    // The new file's search index was built as the entries were copied.
    expect(store.search('worda0').map((h) => h.item_id)).toEqual(['a0']);
    expect(store.search('wordb149').map((h) => h.item_id)).toEqual(['b149']);
    store.append('b', user('after', 'a wombat arrives'));
    expect(store.search('wombat').map((h) => h.item_id)).toEqual(['after']);
    expect(store.get('b').items.at(-1)).toMatchObject({ id: 'after' });
  });
});

describe('while the store is open', () => {
  it('pages of the entries overwritten: the next read heals, the readable entries stay, a new entry is saved', () => {
    seed();
    const opened = openConversationDatabase(dir);
    const warnings: ConversationsWarning[] = [];
    opened.onWarning((w) => warnings.push(w));
    store = new ConversationStore(opened);
    expect(store.get('b').items).toHaveLength(150);
    damageEntriesWhileOpen(opened.db, file); // the last pages hold entries of b
    // The read meets the damaged pages, heals, and is answered from the healed file.
    const b = store.get('b').items;
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ code: 'set_aside', problem: 'damaged', recovered: { conversations: 2, complete: false } });
    expect(b.length).toBeGreaterThan(130);
    expect(b.length).toBeLessThan(150);
    expect(kept()).toHaveLength(1);
    store.append('a', user('new', 'a wombat arrives'));
    expect(store.search('wombat').map((h) => h.item_id)).toEqual(['new']);
    expect(store.search('worda0').map((h) => h.item_id)).toEqual(['a0']);
    store.close();
    store = null;
    // On disk, in the new file: the new entry and an intact file.
    const disk = new Database(file, { readonly: true });
    expect(disk.prepare(`SELECT id FROM items WHERE id = 'new'`).get()).toEqual({ id: 'new' });
    expect(disk.pragma('quick_check', { simple: true })).toBe('ok');
    disk.close();
  });

  it('the search index torn while open: the search that meets it rebuilds it and is answered; nothing is set aside', () => {
    seed(40);
    const opened = openConversationDatabase(dir);
    const warnings: ConversationsWarning[] = [];
    opened.onWarning((w) => warnings.push(w));
    store = new ConversationStore(opened);
    damageSearchIndex(file);
    forceReread(file);
    expect(store.search('worda3 quokka').map((h) => h.item_id)).toEqual(['a3']);
    expect(warnings).toEqual([{ code: 'index_rebuilt' }]);
    expect(kept()).toEqual([]);
    store.append('a', user('new', 'a wombat arrives'));
    expect(store.search('wombat').map((h) => h.item_id)).toEqual(['new']);
  });

  it('an entry streamed into a row lost with a damaged page is written again after the heal, not dropped', () => {
    seed();
    const opened = openConversationDatabase(dir);
    store = new ConversationStore(opened);
    store.append('b', { kind: 'assistant', id: 'streaming', ts: 5, run_id: 'r', text: 'first words', state: 'streaming' });
    // Its row is on the last leaf, which is overwritten.
    damageEntriesWhileOpen(opened.db, file);
    store.update('b', { kind: 'assistant', id: 'streaming', ts: 5, run_id: 'r', text: 'first words and the rest', state: 'done' });
    expect(store.get('b').items.find((i) => i.id === 'streaming')).toMatchObject({ text: 'first words and the rest', state: 'done' });
  });

  it('a conversation whose own row is lost gets one again, so the entry written into it is kept', () => {
    seed(20);
    const opened = openConversationDatabase(dir);
    store = new ConversationStore(opened);
    store.ensure('c', 'just started'); // no entry yet: nothing of it can be copied but its row
    opened.db.pragma('wal_checkpoint(TRUNCATE)');
    overwritePages(file, pagesOf(opened.db, 'conversations'));
    forceReread(file);
    store.append('c', user('c0', 'the first message'));
    expect(store.get('c').items.map((i) => i.id)).toEqual(['c0']);
    expect(store.summary('c')!.title).toBe(RECOVERED_TITLE);
    // The others' entries were copied; their conversations are back under the same title.
    expect(store.get('a').items).toHaveLength(20);
  });
});

describe('corruption is judged by the error code', () => {
  it('SQLITE_CORRUPT and SQLITE_NOTADB from real files count; other SQLite errors and look-alike messages do not', () => {
    writeFileSync(file, 'this is not sqlite '.repeat(300));
    let notADb: unknown = null;
    try {
      new Database(file).prepare('SELECT 1 FROM sqlite_master').get();
    } catch (err) {
      notADb = err;
    }
    expect(notADb).toMatchObject({ code: 'SQLITE_NOTADB' });
    expect(isCorruptionError(notADb)).toBe(true);
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t(x UNIQUE)');
    db.exec('INSERT INTO t VALUES (1)');
    let constraint: unknown = null;
    try {
      db.exec('INSERT INTO t VALUES (1)');
    } catch (err) {
      constraint = err;
    }
    db.close();
    expect(isCorruptionError(constraint)).toBe(false);
    expect(isCorruptionError(new Error('database disk image is malformed'))).toBe(false);
  });
});

describe('through the app (AppCore, ChatService)', () => {
  let core: AppCore | null = null;
  let model: FakeModel;

  afterEach(async () => {
    await core?.shutdown();
    core = null;
    await model?.close();
  });

  it('pages overwritten while the app runs: the message sent next is saved and sent, the window is warned, search works', async () => {
    model = await startFakeModel({ chunkDelayMs: 5, script: (req) => ({ text: `answer to: ${textOf(req.messages.at(-1))}` }) });
    seed();
    core = new AppCore({ stateDir: dir, shell: 'browser', secrets: new MemorySecretStore() });
    const events: Array<{ event: EventName; payload: unknown }> = [];
    core.subscribe((event, payload) => events.push({ event, payload }));
    await core.start();
    const d = createDispatcher(core);
    const ok = async <T>(channel: string, input: unknown): Promise<T> => {
      const r = (await d.invoke(channel, input)) as Envelope<T>;
      if (!r.ok) throw new Error(`${channel}: ${r.error.code}: ${r.error.message}`);
      return r.value;
    };
    await ok('settings.setModel', { provider: 'openai-compatible', base_url: model.baseUrl, model: 'fake' });
    expect((await ok<{ warning: unknown }>('app.info', {})) as unknown).toMatchObject({ conversations_warning: null });

    damageEntriesWhileOpen(core.conversationsDb.db, file);
    const { run_id } = await ok<{ run_id: string }>('chat.send', { conversation_id: 'a', text: 'is anyone there after the damage' });
    const ended = (): ChatEvent | undefined =>
      events.map((e) => e.payload as ChatEvent).find((p) => (p as { run_id?: string }).run_id === run_id && p.type === 'run-end');
    expect(await waitFor(() => ended() !== undefined, 15_000)).toBe(true);
    expect(ended()).toMatchObject({ outcome: 'done' });
    // The model was sent the message, with the history that could be read.
    const sent = model.requests.at(-1)!.body.messages;
    expect(textOf(sent.at(-1))).toBe('is anyone there after the damage');
    expect(sent.filter((m) => m.role === 'user').length).toBeGreaterThan(10);
    // The window was told, in a typed warning, and app.info says so after a reload.
    const warned = events.filter((e) => e.event === 'conversations.warning').map((e) => e.payload);
    expect(warned).toEqual([expect.objectContaining({ code: 'set_aside', problem: 'damaged', dir })]);
    expect(await ok('app.info', {})).toMatchObject({ conversations_warning: { code: 'set_aside' } });
    expect(kept()).toHaveLength(1);
    // Saved in the healed file: the message and its answer; search finds them and the old entries.
    const hits = await ok<SearchHit[]>('conversations.search', { query: 'anyone there' });
    expect(hits.map((h) => h.kind)).toEqual(expect.arrayContaining(['user', 'assistant']));
    expect((await ok<SearchHit[]>('conversations.search', { query: 'worda0 quokka' })).map((h) => h.item_id)).toEqual(['a0']);
    await core.shutdown();
    core = null;
    const disk = new Database(file, { readonly: true });
    const texts = disk.prepare<[], { t: string }>(`SELECT json_extract(data, '$.text') AS t FROM items WHERE conversation_id = 'a' AND kind IN ('user', 'assistant') ORDER BY seq DESC LIMIT 2`).pluck().all();
    disk.close();
    expect(texts).toEqual(['answer to: is anyone there after the damage', 'is anyone there after the damage']);
    expect(existsSync(path.join(dir, kept()[0]!))).toBe(true);
  });
});
