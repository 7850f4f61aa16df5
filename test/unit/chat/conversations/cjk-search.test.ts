/**
 * Search in Chinese, Japanese and Korean text (main/chat/conversations/cjk-search.ts) on real
 * SQLite files: words of one, two and more characters are found anywhere in a sentence, not only
 * at its start; the snippet shows the text as written with the whole word as one hit; Latin
 * search is unchanged; a database written before CJK indexing is migrated and then found; a
 * damaged file of that age is salvaged into a searchable one.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TranscriptItem } from '../../../../preload/contract/index.js';
import { CJK_SEPARATOR, indexText, unindexText } from '../../../../main/chat/conversations/cjk-search.js';
import { DATABASE_FILE, openConversationDatabase, SCHEMA_VERSION } from '../../../../main/chat/conversations/database.js';
import { ConversationStore } from '../../../../main/chat/conversations/store.js';
import { ftsQuery } from '../../../../main/chat/conversations/text.js';
import { makeTempDir, removeDir } from '../../helpers.js';

let dir: string;
let store: ConversationStore | null;
beforeEach(() => {
  dir = makeTempDir('op-cjk-');
  store = null;
});
afterEach(async () => {
  store?.close();
  await removeDir(dir);
});

function open(): ConversationStore {
  const { db } = openConversationDatabase(dir);
  store = new ConversationStore(db);
  return store;
}

const user = (id: string, text: string): TranscriptItem => ({ kind: 'user', id, ts: 1, text });
const answer = (id: string, text: string): TranscriptItem => ({ kind: 'assistant', id, ts: 2, run_id: 'r', text, state: 'done' });

const ZH = '昨天下午我们整理了会议纪要，然后讨论下周的发布计划。';
const JA = '昨日の会議で議事録を確認しました。';
const KO = '오늘 회의록을 정리했습니다';

function seed(s: ConversationStore): void {
  s.ensure('zh', '计划');
  s.append('zh', user('u-zh', ZH));
  s.ensure('ja', '会議');
  s.append('ja', answer('a-ja', JA));
  s.ensure('ko', '회의');
  s.append('ko', user('u-ko', KO));
  s.ensure('en', 'latin');
  s.append('en', user('u-en', 'The quokka release notes, version v2.1'));
}

const ids = (s: ConversationStore, q: string) => s.search(q).map((h) => h.item_id).sort();

describe('CJK search', () => {
  it('finds Chinese, Japanese and Korean words anywhere in a sentence, of any length', () => {
    const s = open();
    seed(s);
    expect(ids(s, '会议纪要')).toEqual(['u-zh']);
    expect(ids(s, '发布')).toEqual(['u-zh']); // two characters, mid-sentence
    expect(ids(s, '计划')).toEqual(['u-zh']);
    expect(ids(s, '周')).toEqual(['u-zh']); // one character
    expect(ids(s, '議事録')).toEqual(['a-ja']);
    expect(ids(s, '確認')).toEqual(['a-ja']);
    expect(ids(s, '회의록')).toEqual(['u-ko']);
    // Characters of a word must stand together: these two do, in this order, nowhere.
    expect(ids(s, '纪会')).toEqual([]);
    // Both words must match (AND), in any order.
    expect(ids(s, '发布 会议')).toEqual(['u-zh']);
    expect(ids(s, '发布 議事録')).toEqual([]);
    // Shared characters: 会 is in the Chinese and the Japanese message.
    expect(ids(s, '会')).toEqual(['a-ja', 'u-zh']);
  });

  it('the snippet is the text as written, the word one hit', () => {
    const s = open();
    seed(s);
    const [hit] = s.search('会议纪要');
    expect(hit!.snippet.filter((p) => p.hit)).toEqual([{ text: '会议纪要', hit: true }]);
    const shown = hit!.snippet.map((p) => p.text).join('');
    expect(shown).not.toContain(CJK_SEPARATOR);
    expect(shown).toContain('整理了会议纪要');
  });

  it('Latin search is unchanged: words, prefixes while typing, mixed words', () => {
    const s = open();
    seed(s);
    s.ensure('mix', '混合');
    s.append('mix', user('u-mix', '请查看发布v2的说明'));
    expect(ids(s, 'quokka')).toEqual(['u-en']);
    expect(ids(s, 'quok')).toEqual(['u-en']);
    expect(ids(s, 'release notes')).toEqual(['u-en']);
    expect(ids(s, '发布v2')).toEqual(['u-mix']);
    expect(ftsQuery('会议 notes')).toBe('"会 议" "notes"*');
  });

  it('a database written before CJK indexing is migrated: old messages are found', () => {
    // Write with this build, then turn the file back into a schema-3 file as an older build left
    // it: search text as written, its index built from that, version 3.
    let s = open();
    seed(s);
    s.close();
    store = null;
    const file = path.join(dir, DATABASE_FILE);
    const old = new Database(file);
    old.function('unindex', (t: unknown) => unindexText(String(t)));
    old.exec(`DROP TRIGGER items_au; UPDATE items SET search_text = unindex(search_text); INSERT INTO items_fts(items_fts) VALUES ('rebuild'); PRAGMA user_version = 3;`);
    expect(old.prepare(`SELECT count(*) AS n FROM items WHERE instr(search_text, ?) > 0`).get(CJK_SEPARATOR)).toEqual({ n: 0 });
    // As it stood, a word inside a sentence was not found.
    expect(old.prepare(`SELECT count(*) AS n FROM items_fts WHERE items_fts MATCH ?`).get('"发布"')).toEqual({ n: 0 });
    old.exec(`CREATE TRIGGER items_au AFTER UPDATE OF search_text ON items BEGIN
      INSERT INTO items_fts(items_fts, rowid, search_text) VALUES ('delete', old.rowid, old.search_text);
      INSERT INTO items_fts(rowid, search_text) VALUES (new.rowid, new.search_text);
    END;`);
    old.close();
    s = open();
    expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(4);
    expect(ids(s, '发布')).toEqual(['u-zh']);
    expect(ids(s, '議事録')).toEqual(['a-ja']);
    expect(ids(s, 'quokka')).toEqual(['u-en']);
    // The index is whole: an integrity check of the search index passes.
    s.close();
    store = null;
    const db = new Database(file);
    expect(() => db.prepare(`INSERT INTO items_fts(items_fts, rank) VALUES ('integrity-check', 1)`).run()).not.toThrow();
    db.close();
  });

  it('indexText sets each CJK character apart and unindexText restores the text', () => {
    expect(indexText('plain text')).toBe('plain text');
    expect(unindexText(indexText(ZH))).toBe(ZH);
    expect(indexText('发布v2').split(CJK_SEPARATOR).filter(Boolean)).toEqual(['发', '布', 'v2']);
  });
});
