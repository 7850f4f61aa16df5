/**
 * Seeds a state dir for the streaming benchmark (bench/streaming.ts): one conversation of N
 * messages (user and assistant turns with ordinary markdown: paragraphs, lists, code, tables),
 * written with ConversationStore as the app writes them, and marked last-opened so the window
 * reopens it at start.
 * Usage: streaming-seed-child.ts <stateDir> <messages>. Prints `RESULT {"conversation_id", "items", "last_item_id"}`.
 */
import type { TranscriptItem } from '../preload/contract/index.js';
import { openConversationDatabase } from '../main/chat/conversations/database.js';
import { ConversationStore } from '../main/chat/conversations/store.js';
import { markdownWords } from './markdown-text.js';

function main(): void {
  const dir = process.argv[2]!;
  const n = Number(process.argv[3] ?? 500);
  const { db } = openConversationDatabase(dir);
  const store = new ConversationStore(db);
  const id = 'long-chat';
  store.ensure(id, 'A chat of many messages');
  let last = '';
  db.transaction(() => {
    for (let i = 0; i < n; i++) {
      const item: TranscriptItem =
        i % 2 === 0
          ? { kind: 'user', id: `m${i}`, ts: i, text: `Question ${i}: ${markdownWords(25, i).replace(/[#*`|>-]/g, '')}` }
          : { kind: 'assistant', id: `m${i}`, ts: i, run_id: `r${i}`, text: markdownWords(180, i), state: 'done' };
      store.append(id, item);
      last = item.id;
    }
  })();
  store.setLastOpened(id);
  store.close();
  process.stdout.write(`RESULT ${JSON.stringify({ conversation_id: id, items: n, last_item_id: last })}\n`);
}

main();
