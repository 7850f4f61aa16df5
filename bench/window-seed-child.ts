/**
 * Seeds state dirs for the window benchmarks (bench/long-message.ts, bench/many-conversations.ts),
 * written with ConversationStore as the app writes them.
 *
 * - `long <stateDir> <chars>`: four conversations of 40 entries each (user / answer turns): "Short
 *   messages" (the floor), "A pasted log" (the 39th entry a user message of <chars> characters),
 *   "A very long answer" (the newest entry a markdown answer of <chars> characters) and "A long
 *   tool result" (a tool call whose result text is <chars> characters; the window gets it cut to
 *   its limit, docs/ARCHITECTURE.md "Conversations").
 * - `many <stateDir> <conversations> <entries>`: that many small conversations plus one of
 *   <entries> entries, opened last (so the window reopens it at start).
 * - `few <stateDir> <entries>`: one conversation of <entries> entries, opened last (the floor of `many`).
 *
 * Prints `RESULT {"conversations": [{id, title, items, last_item_id}]}`.
 */
import type { TranscriptItem } from '../preload/contract/index.js';
import { openConversationDatabase } from '../main/chat/conversations/database.js';
import { ConversationStore } from '../main/chat/conversations/store.js';
import { markdownWords } from './markdown-text.js';

interface Seeded {
  id: string;
  title: string;
  items: number;
  last_item_id: string;
}

/** Markdown of about `chars` characters (whole words). */
function markdownOf(chars: number, seed: number): string {
  const parts: string[] = [];
  let n = 0;
  for (let i = 0; n < chars; i++) {
    const block = markdownWords(2000, seed * 1000 + i);
    parts.push(block);
    n += block.length;
  }
  return parts.join('\n\n').slice(0, chars);
}

/** A log of about `chars` characters: numbered lines, as a pasted build log looks. */
function logOf(chars: number): string {
  const lines: string[] = [];
  let n = 0;
  for (let i = 0; n < chars; i++) {
    const line = `${String(i).padStart(7, '0')} [info] step ${i % 97} of the build: compiled module-${i % 1013}.ts in ${(i * 7) % 311} ms`;
    lines.push(line);
    n += line.length + 1;
  }
  return lines.join('\n').slice(0, chars);
}

/** 40 entries of user / answer turns; `at` (index) gets `big` instead, when given. */
function turns(prefix: string, n: number, big?: { at: number; item: (id: string) => TranscriptItem }): TranscriptItem[] {
  const out: TranscriptItem[] = [];
  for (let i = 0; i < n; i++) {
    const id = `${prefix}${i}`;
    if (big && i === big.at) out.push(big.item(id));
    else if (i % 2 === 0) out.push({ kind: 'user', id, ts: i, text: `Question ${i}: ${markdownWords(25, i).replace(/[#*`|>-]/g, '')}` });
    else out.push({ kind: 'assistant', id, ts: i, run_id: `r${i}`, text: markdownWords(180, i), state: 'done' });
  }
  return out;
}

function write(store: ConversationStore, id: string, title: string, items: TranscriptItem[]): Seeded {
  store.ensure(id, title);
  for (const it of items) store.append(id, it);
  return { id, title, items: items.length, last_item_id: items.at(-1)!.id };
}

function main(): void {
  const [mode, dir] = [process.argv[2]!, process.argv[3]!];
  const { db } = openConversationDatabase(dir);
  const store = new ConversationStore(db);
  const out: Seeded[] = [];
  db.transaction(() => {
    if (mode === 'long') {
      const chars = Number(process.argv[4] ?? 5_000_000);
      out.push(write(store, 'floor', 'Short messages', turns('f', 40)));
      out.push(write(store, 'big-user', 'A pasted log', turns('u', 40, { at: 38, item: (id) => ({ kind: 'user', id, ts: 38, text: `Why does this fail?\n\n${logOf(chars)}` }) })));
      out.push(write(store, 'big-answer', 'A very long answer', turns('a', 40, { at: 39, item: (id) => ({ kind: 'assistant', id, ts: 39, run_id: 'r39', text: markdownOf(chars, 7), state: 'done' }) })));
      out.push(
        write(
          store,
          'big-tool',
          'A long tool result',
          turns('t', 40, {
            at: 39,
            item: (id) => ({
              kind: 'tool', id, ts: 39, run_id: 'r39', call_id: 'c39', tool: 'files__read_text_file', server: 'files', original_name: 'read_text_file',
              args: { path: '/var/log/build.log' }, state: 'ok', content: [{ type: 'text', text: logOf(chars) }], error: null, duration_ms: 40, progress: null, permission: null,
            }),
          }),
        ),
      );
    } else if (mode === 'many') {
      const convs = Number(process.argv[4] ?? 1000);
      const entries = Number(process.argv[5] ?? 5000);
      for (let c = 0; c < convs; c++) out.push(write(store, `c${c}`, `Conversation ${c}: ${markdownWords(6, c).replace(/[^a-z ]/g, '').trim()}`, turns(`c${c}-`, 2)));
      out.push(write(store, 'huge', 'A conversation of many entries', turns('h', entries)));
      store.setLastOpened('huge');
    } else if (mode === 'few') {
      out.push(write(store, 'huge', 'A conversation of many entries', turns('h', Number(process.argv[4] ?? 40))));
      store.setLastOpened('huge');
    } else throw new Error(`unknown mode ${mode}`);
  })();
  store.close();
  process.stdout.write(`RESULT ${JSON.stringify({ conversations: out })}\n`);
}

main();
