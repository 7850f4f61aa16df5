/**
 * chat/conversations: the SQLite store on real files — schema, entries, streamed text batching,
 * search that user input cannot break, interrupted runs, unusable database files moved aside
 * (never overwritten), titles and export names, the model context built from a transcript.
 */
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConversationsWarning, TranscriptItem } from '../../../../preload/contract/index.js';
import { DATABASE_FILE, openConversationDatabase, SCHEMA_VERSION } from '../../../../main/chat/conversations/database.js';
import { conversationToMarkdown, renderExport } from '../../../../main/chat/conversations/export.js';
import { INTERRUPTED_RESULT, transcriptToMessages } from '../../../../main/chat/conversations/history.js';
import { ConversationInputError, ConversationNotFoundError, ConversationStore, FLUSH_MS } from '../../../../main/chat/conversations/store.js';
import { cleanTitle, exportFileName, ftsQuery } from '../../../../main/chat/conversations/text.js';
import { makeTempDir, removeDir, ROOT } from '../../helpers.js';

let dir: string;
let store: ConversationStore | null;

beforeEach(() => {
  dir = makeTempDir('op-conv-');
  store = null;
});
afterEach(async () => {
  store?.close();
  await removeDir(dir);
});

function open(): ConversationStore {
  const { db, warning } = openConversationDatabase(dir);
  expect(warning).toBeNull();
  store = new ConversationStore(db);
  return store;
}

const user = (id: string, text: string): TranscriptItem => ({ kind: 'user', id, ts: 1, text });
const answer = (id: string, text: string, state: 'streaming' | 'done' = 'done'): TranscriptItem => ({ kind: 'assistant', id, ts: 2, run_id: 'r', text, state });
const tool = (id: string, over: Partial<Extract<TranscriptItem, { kind: 'tool' }>> = {}): Extract<TranscriptItem, { kind: 'tool' }> => ({
  kind: 'tool',
  id,
  ts: 3,
  run_id: 'r',
  call_id: `call-${id}`,
  tool: 'files__write_file',
  server: 'files',
  original_name: 'write_file',
  args: { path: '/tmp/x', content: 'hello' },
  state: 'ok',
  content: [{ type: 'text', text: 'Wrote /tmp/x' }],
  error: null,
  duration_ms: 12,
  progress: null,
  permission: null,
  ...over,
});

describe('ConversationStore on a real SQLite file', () => {
  it('creates the schema (WAL, FTS5), saves entries in order and lists newest first', () => {
    const s = open();
    expect(s.ensure('a', '  Plan the\ttrip\n to Kyoto  ')).toBe(true);
    expect(s.ensure('a', 'ignored')).toBe(false);
    s.append('a', user('u1', 'Plan the trip to Kyoto'));
    s.append('a', answer('a1', 'Sure.'));
    s.ensure('b', 'second');
    s.append('b', user('u2', 'second'));
    expect(s.list(10).map((c) => c.id)).toEqual(['b', 'a']);
    const a = s.get('a');
    expect(a.summary).toMatchObject({ id: 'a', title: 'Plan the trip to Kyoto', message_count: 2 });
    expect(a.items.map((i) => i.id)).toEqual(['u1', 'a1']);
    const raw = new Database(path.join(dir, DATABASE_FILE), { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(raw.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    raw.close();
  });

  it('buffers streamed text and writes it within FLUSH_MS, at once on read, and on update', async () => {
    const s = open();
    s.ensure('c', 'q');
    s.append('c', answer('x', '', 'streaming'));
    s.updateLater('c', answer('x', 'Hel', 'streaming'));
    const peek = (): string => {
      const raw = new Database(path.join(dir, DATABASE_FILE), { readonly: true });
      const row = raw.prepare(`SELECT data FROM items WHERE id = 'x'`).get() as { data: string };
      raw.close();
      return (JSON.parse(row.data) as { text: string }).text;
    };
    expect(peek()).toBe(''); // not written yet
    await new Promise((r) => setTimeout(r, FLUSH_MS + 100));
    expect(peek()).toBe('Hel');
    s.updateLater('c', answer('x', 'Hello', 'streaming'));
    expect((s.get('c').items[0] as { text: string }).text).toBe('Hello'); // a read flushes
    s.updateLater('c', answer('x', 'Hello, w', 'streaming'));
    s.update('c', answer('x', 'Hello, world', 'done'));
    expect(peek()).toBe('Hello, world');
  });

  it('renames (cleaned, bounded), refuses an empty title, deletes with its entries and forgets last-opened', () => {
    const s = open();
    s.ensure('a', 'x');
    s.append('a', user('u', 'x'));
    s.rename('a', `  ${'Long title '.repeat(40)}\n`);
    expect([...s.summary('a')!.title].length).toBeLessThanOrEqual(200);
    expect(s.summary('a')!.title).not.toMatch(/\n|^ | $/);
    expect(() => s.rename('a', ' \n\t ')).toThrow(ConversationInputError);
    expect(() => s.rename('missing', 'x')).toThrow(ConversationNotFoundError);
    s.setLastOpened('a');
    expect(s.lastOpened()).toBe('a');
    s.remove('a');
    expect(s.has('a')).toBe(false);
    expect(s.lastOpened()).toBeNull();
    expect(s.search('x')).toEqual([]);
    expect(() => s.remove('a')).toThrow(ConversationNotFoundError);
  });

  it('search finds words in tool arguments and results, marks them, and no input breaks the query', () => {
    const s = open();
    s.ensure('a', 'write it');
    s.append('a', user('u', 'write it'));
    s.append('a', tool('t', { content: [{ type: 'text', text: 'Saved the report about quokka migrations.' }] }));
    s.ensure('b', 'other');
    s.append('b', user('u2', 'nothing to see about "quotes" here'));
    const hits = s.search('quokka');
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ conversation_id: 'a', item_id: 't', kind: 'tool', title: 'write it' });
    expect(hits[0]!.snippet.filter((p) => p.hit)).toEqual([{ text: 'quokka', hit: true }]);
    expect(hits[0]!.snippet.map((p) => p.text).join('')).toContain('report about quokka migrations');
    expect(s.search('quok').map((h) => h.item_id)).toEqual(['t']); // prefix while typing
    expect(s.search('/tmp/x').map((h) => h.item_id)).toEqual(['t']); // arguments
    for (const hostile of ['"', '"quotes"', 'AND', 'a OR', 'NEAR(a b)', '(', '*', 'col:x', '-x', '^x', "'; DROP TABLE items; --", '\u0000', '   ']) {
      expect(() => s.search(hostile), hostile).not.toThrow();
    }
    expect(s.search('"quotes"').map((h) => h.item_id)).toEqual(['u2']);
    expect(s.has('a')).toBe(true);
  });

  it('search returns the best matches first, at most 50, each with its conversation, also for a CJK word', () => {
    const s = open();
    // Entries of the same length whose word count of "quokka" (and of 发布) is 1…60: the more
    // often, the better the match. Spread over three conversations, written in a shuffled order.
    const order = Array.from({ length: 60 }, (_, i) => i + 1).sort((a, b) => ((a * 37) % 61) - ((b * 37) % 61));
    for (const c of ['a', 'b', 'c']) s.ensure(c, `title ${c}`);
    for (const k of order) {
      const conv = ['a', 'b', 'c'][k % 3]!;
      s.append(conv, user(`q${k}`, [...Array(k).fill('quokka'), ...Array(60 - k).fill('wombat')].join(' ')));
      s.append(conv, user(`z${k}`, `${'发布'.repeat(k)}${'计划'.repeat(60 - k)}`));
    }
    const hits = s.search('quokka');
    expect(hits.map((h) => h.item_id)).toEqual(Array.from({ length: 50 }, (_, i) => `q${60 - i}`));
    for (const h of hits) expect(h).toMatchObject({ conversation_id: ['a', 'b', 'c'][Number(h.item_id.slice(1)) % 3], title: `title ${['a', 'b', 'c'][Number(h.item_id.slice(1)) % 3]}`, kind: 'user' });
    expect(s.search('发布').map((h) => h.item_id)).toEqual(Array.from({ length: 50 }, (_, i) => `z${60 - i}`));
  });

  it('search highlights come from the search engine, never from characters stored in a message', () => {
    const s = open();
    s.ensure('a', 'fake marks');
    // The control characters the old snippets were marked with, and look-alikes of the new markers.
    const planted = '\u0001fake\u0002 before \u0001x<y>z\u0002 the quokka \u0001<\u0001 after >\u0002 end';
    s.append('a', user('u', planted));
    const [hit] = s.search('quokka');
    expect(hit!.snippet.filter((p) => p.hit)).toEqual([{ text: 'quokka', hit: true }]);
    // Everything else is plain text, every planted character kept as it was.
    expect(hit!.snippet.map((p) => p.text).join('')).toBe(planted);
    // A search for a planted word: only that word is a hit, its control characters are not.
    const [fake] = s.search('fake');
    expect(fake!.snippet.filter((p) => p.hit).map((p) => p.text)).toEqual(['fake']);
  });

  it('marks entries left streaming or running by a killed run as interrupted', () => {
    const s = open();
    s.ensure('a', 'q');
    s.append('a', user('u', 'q'));
    s.append('a', answer('x', 'partial', 'streaming'));
    s.append('a', tool('t', { state: 'running', content: [], duration_ms: null }));
    s.append('a', tool('w', { state: 'awaiting_approval', content: [], duration_ms: null }));
    expect(s.markInterrupted()).toBe(3);
    const items = s.get('a').items;
    expect(items[1]).toMatchObject({ state: 'interrupted', text: 'partial' });
    expect(items[2]).toMatchObject({ state: 'interrupted' });
    // Nobody answered its approval: interrupted before the answer, not cancelled by the user.
    expect(items[3]).toMatchObject({ state: 'approval_interrupted', error: null });
    expect(s.markInterrupted()).toBe(0);
  });
});

describe('an unusable database is moved aside and kept, never overwritten', () => {
  const kept = (): string[] => readdirSync(dir).filter((f) => f.startsWith(`${DATABASE_FILE}.unusable-`) && !/-(wal|shm)$/.test(f));

  it('a file that is not a database', () => {
    writeFileSync(path.join(dir, DATABASE_FILE), 'this is not sqlite, but it is the user’s data');
    const { db, warning, persistent } = openConversationDatabase(dir);
    store = new ConversationStore(db);
    expect(persistent).toBe(true);
    expect(warning).toMatchObject({ code: 'set_aside', problem: 'damaged', dir, recovered: null });
    expect(warning?.code === 'set_aside' && warning.kept_as).toMatch(/^conversations\.db\.unusable-/);
    expect(kept()).toHaveLength(1);
    expect(readFileSync(path.join(dir, kept()[0]!), 'utf8')).toContain('user’s data');
    store.ensure('new', 'works');
    expect(store.has('new')).toBe(true);
  });

  it('a database whose pages are damaged', () => {
    const s = open();
    s.ensure('a', 'x');
    for (let i = 0; i < 200; i++) s.append('a', user(`u${i}`, `message ${i} ${'x'.repeat(500)}`));
    s.close();
    store = null;
    const file = path.join(dir, DATABASE_FILE);
    const bytes = readFileSync(file);
    bytes.fill(0x5a, 100, 40_000); // clobber the header's tail and the first pages
    writeFileSync(file, bytes);
    const { db, warning } = openConversationDatabase(dir);
    store = new ConversationStore(db);
    expect(warning).toMatchObject({ code: 'set_aside', problem: 'damaged' });
    expect(kept()).toHaveLength(1);
    expect(store.list(10)).toEqual([]);
  });

  it('a database written by a newer version', () => {
    const raw = new Database(path.join(dir, DATABASE_FILE));
    raw.exec('CREATE TABLE future(x)');
    raw.pragma(`user_version = ${SCHEMA_VERSION + 5}`);
    raw.close();
    const { db, warning } = openConversationDatabase(dir);
    store = new ConversationStore(db);
    // Never read by an older build: nothing is copied out of it.
    expect(warning).toMatchObject({ code: 'set_aside', problem: 'newer_schema', recovered: null });
    expect(kept()).toHaveLength(1);
    const old = new Database(path.join(dir, kept()[0]!), { readonly: true });
    expect(old.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION + 5);
    old.close();
  });

  it('a database the app may not write (checked as an unprivileged user)', async () => {
    // Root ignores file modes, so the check runs in a child process as "nobody". That user may
    // not be able to enter the checkout or the temp folder (a 0700 home or TMPDIR), so what the
    // child needs — the database module bundled into one file, better-sqlite3 and its native
    // binding, the database folder — is copied to a folder under /tmp that everyone may enter.
    const isRoot = process.getuid?.() === 0;
    const base = mkdtempSync(path.join(existsSync('/tmp') ? '/tmp' : os.tmpdir(), 'op-conv-ro-'));
    try {
      chmodSync(base, 0o755);
      await standaloneDatabaseModule(base);
      const sub = path.join(base, 'ro');
      mkdirSync(sub);
      const s = new ConversationStore(openConversationDatabase(sub).db);
      s.ensure('a', 'keep me');
      s.close();
      for (const f of readdirSync(sub)) chmodSync(path.join(sub, f), 0o444);
      chmodSync(sub, 0o755); // the folder stays readable but not writable for others
      const run = path.join(base, 'run.mjs');
      writeFileSync(run, `import { openConversationDatabase } from './database.mjs';
const r = openConversationDatabase(${JSON.stringify(sub)});
console.log(JSON.stringify({ warning: r.warning, persistent: r.persistent }));
`);
      for (const f of ['run.mjs', 'database.mjs']) chmodSync(path.join(base, f), 0o644);
      const r = spawnSync(process.execPath, [run], { encoding: 'utf8', cwd: base, ...(isRoot ? { uid: 65534, gid: 65534 } : {}), env: { ...process.env, HOME: base } });
      expect(r.status, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { warning: ConversationsWarning | null; persistent: boolean };
      // The folder is not writable either, so the file cannot be moved: it is left as it is, and
      // this session keeps conversations in memory with a warning that says so.
      expect(out.warning).toMatchObject({ code: 'memory_only', problem: 'not_writable', kept_as: null });
      expect(out.persistent).toBe(false);
      expect(existsSync(path.join(sub, DATABASE_FILE))).toBe(true);
      const still = new Database(path.join(sub, DATABASE_FILE), { readonly: true });
      expect(still.prepare('SELECT title FROM conversations').all()).toEqual([{ title: 'keep me' }]);
      still.close();
    } finally {
      await removeDir(base);
    }
  });
});

/**
 * Put a copy of main/chat/conversations/database.ts that runs without the checkout into `base`:
 * the module and what it imports bundled into `database.mjs` (esbuild), better-sqlite3 outside
 * the bundle, copied with its `bindings` helpers and the native binding into `base/node_modules`.
 * Everything is readable by everyone.
 */
async function standaloneDatabaseModule(base: string): Promise<void> {
  const { build } = await import('esbuild');
  await build({
    entryPoints: [path.join(ROOT, 'main/chat/conversations/database.ts')],
    outfile: path.join(base, 'database.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    external: ['better-sqlite3'],
    logLevel: 'silent',
  });
  const modules = path.join(ROOT, 'node_modules');
  const sqlite = path.join(modules, 'better-sqlite3');
  for (const part of ['package.json', 'lib', 'build/Release/better_sqlite3.node']) cpSync(path.join(sqlite, part), path.join(base, 'node_modules/better-sqlite3', part), { recursive: true });
  for (const pkg of ['bindings', 'file-uri-to-path']) cpSync(path.join(modules, pkg), path.join(base, 'node_modules', pkg), { recursive: true });
  const open = (p: string) => {
    const st = statSync(p);
    chmodSync(p, st.isDirectory() ? 0o755 : 0o644);
    if (st.isDirectory()) for (const e of readdirSync(p)) open(path.join(p, e));
  };
  open(path.join(base, 'node_modules'));
}

describe('text rules', () => {
  it('titles are one line, bounded, and never empty in the store', () => {
    expect(cleanTitle('a\u0000b\u202Ec\r\nd')).toBe('a b\u202Ec d');
    expect([...cleanTitle('é'.repeat(500))].length).toBe(80);
    expect(cleanTitle('   ')).toBe('');
  });

  it('export file names are cleaned, bounded and safe', () => {
    expect(exportFileName('../../etc/passwd', 'md')).toBe('etc-passwd.md');
    expect(exportFileName('CON', 'json')).toBe('conversation-CON.json');
    expect(exportFileName('???', 'md')).toBe('conversation.md');
    expect(exportFileName('会议 notes: 2026/12/01', 'md')).toBe('会议-notes-2026-12-01.md');
    expect(exportFileName('x'.repeat(500), 'md').length).toBe(63);
  });

  it('an FTS query quotes every word', () => {
    expect(ftsQuery('hello "world')).toBe('"hello" """world"*');
    expect(ftsQuery(' - * ( ')).toBeNull();
  });
});

describe('model context and export from a transcript', () => {
  const transcript: TranscriptItem[] = [
    user('u1', 'write the file'),
    answer('a1', 'Writing it.'),
    tool('t1'),
    tool('t2', { state: 'interrupted', content: [], duration_ms: null }),
    { kind: 'notice', id: 'n', ts: 4, run_id: 'r', tone: 'info', text: 'Stopped.' },
    user('u2', 'did it work?'),
  ];

  it('tool calls are grouped with their answer and an interrupted call is told as such', () => {
    const msgs = transcriptToMessages(transcript);
    expect(msgs.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    const calls = (msgs[1]!.content as Array<{ type: string }>).map((p) => p.type);
    expect(calls).toEqual(['text', 'tool-call', 'tool-call']);
    const results = msgs[2]!.content as Array<{ toolCallId: string; output: { type: string; value: string } }>;
    expect(results.map((r) => r.toolCallId)).toEqual(['call-t1', 'call-t2']);
    expect(results[0]!.output).toEqual({ type: 'text', value: 'Wrote /tmp/x' });
    expect(results[1]!.output).toEqual({ type: 'error-text', value: INTERRUPTED_RESULT });
  });

  it('exports Markdown with fences that survive backticks, and JSON with every entry', () => {
    const fenced = tool('t3', { content: [{ type: 'text', text: 'before\n```\ninside\n```\nafter' }] });
    const conv = { summary: { id: 'c', title: 'Files', created_at: 0, updated_at: 1000, message_count: 3, profile_id: null, tool_servers: null }, items: [...transcript, fenced] };
    const md = conversationToMarkdown(conv);
    expect(md).toContain('### Tool call `files__write_file` — ok, 12 ms');
    expect(conversationToMarkdown({ ...conv, items: [tool('p', { permission: { allowed: true, via: 'user', decision: 'allow_once' } })] })).toContain('Permission: allowed (allow_once).');
    expect(md).toContain('```\nWrote /tmp/x\n```');
    // A result that holds a fence is wrapped in a longer one, so it cannot close it early.
    expect(md).toContain('````\nbefore\n```\ninside\n```\nafter\n````');
    expect(md).toContain('— interrupted');
    const json = JSON.parse(renderExport(conv, 'json', 0).content) as { conversation: { items: unknown[] } };
    expect(json.conversation.items).toHaveLength(transcript.length + 1);
  });
});
