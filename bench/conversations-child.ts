/**
 * Conversation store figures (docs/ARCHITECTURE.md "Conversations"), on real SQLite files:
 * 1. Open a conversation of 2,000 entries (500 tool calls): ConversationService.get (what the
 *    `conversations.get` channel runs) vs a bare SELECT of the same rows, and vs that SELECT with
 *    each row's JSON parsed — the floor of handing the window entries each known to be readable,
 *    which the store checks in SQL (21 alternating samples each).
 * 2. Full-text search over 100,000 saved entries: ConversationStore.search vs the bare FTS5 query
 *    (9 alternating samples each; a sample is the mean of as many calls as take about 2 ms).
 * 3. Saving streamed output: main-process time per chunk (RunRecorder.text, with the store's
 *    batched writes), and the time of each batch write, while chunks arrive every ~2 ms.
 * 4. Database bytes per 1,000 ordinary messages, Latin and Chinese (CJK is indexed per character).
 * Also leaves a state dir with the 2,000-entry conversation for the paint benchmark in Chromium.
 * Usage: conversations-child.ts <stateDirForPaint>. Prints `RESULT {...}`.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import type { TranscriptItem } from '../preload/contract/index.js';
import { DATABASE_FILE, openConversationDatabase } from '../main/chat/conversations/database.js';
import { ConversationService } from '../main/chat/conversations/service.js';
import { ConversationStore } from '../main/chat/conversations/store.js';
import { RunRecorder } from '../main/chat/run-recorder.js';
import { makeStateDir, median, removeDir } from './util.js';

const WORDS = 'the of and to in is you that it he was for on are as with his they at be this have from or one had by word but not what all were we when your can said there use an each which she do how their if will up other about out many then them these so some her would make like him into time has look two more write go see number no way could people my than first water been call who oil its now find long down day did get come made may part'.split(' ');
let seed = 42;
const rnd = (): number => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
const sentence = (n: number): string => Array.from({ length: n }, () => WORDS[Math.floor(rnd() * WORDS.length)]).join(' ');
/** Common Chinese words; a Chinese sentence is written without spaces, as people write it. */
const ZH_WORDS = '我们 今天 问题 工作 已经 因为 所以 但是 可以 需要 时间 项目 数据 文件 用户 系统 服务器 模型 工具 结果 讨论 计划 发布 检查 修改 测试 文档 版本 团队 客户 下午 上午 明天 周末 报告 资料 安排 准备 完成 开始'.split(' ');
const zhSentence = (n: number): string => `${Array.from({ length: n }, () => ZH_WORDS[Math.floor(rnd() * ZH_WORDS.length)]).join('')}。`;
const p = (xs: number[], q: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;

/** A realistic transcript: turns of user, tool calls (1 in 4 entries), and answers. */
function transcript(n: number, prefix: string, zh = false): TranscriptItem[] {
  const items: TranscriptItem[] = [];
  // A Chinese transcript: the same shape, Chinese messages (characters ≈ a third of the words' letters).
  const sentence_ = zh ? (k: number) => zhSentence(Math.ceil(k / 2)) : sentence;
  for (let i = 0; items.length < n; i++) {
    items.push({ kind: 'user', id: `${prefix}u${i}`, ts: i, text: sentence_(20) });
    items.push({
      kind: 'tool', id: `${prefix}t${i}`, ts: i, run_id: `r${i}`, call_id: `c${i}`, tool: 'files__read_text_file', server: 'files', original_name: 'read_text_file',
      args: { path: `/home/me/notes/file-${i}.md` }, state: 'ok', content: [{ type: 'text', text: sentence_(150) }], error: null, duration_ms: 12, progress: null, permission: null,
    });
    items.push({ kind: 'assistant', id: `${prefix}a${i}`, ts: i, run_id: `r${i}`, text: sentence_(120), state: 'done' });
    items.push({ kind: 'assistant', id: `${prefix}b${i}`, ts: i, run_id: `r${i}`, text: sentence_(40), state: 'done' });
  }
  return items.slice(0, n);
}

function timeIt(fn: () => void, rounds: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    fn();
    out.push(performance.now() - t);
  }
  return out;
}

/** Mean ms of `calls` calls of `fn`, timed together. */
function meanOf(fn: () => void, calls: number): number {
  const t = performance.now();
  for (let i = 0; i < calls; i++) fn();
  return (performance.now() - t) / calls;
}

async function main(): Promise<void> {
  const paintDir = process.argv[2]!;
  // 1. Open a 2,000-entry conversation.
  const { db } = openConversationDatabase(paintDir);
  const store = new ConversationStore(db);
  store.ensure('big', 'A long working session');
  db.transaction(() => {
    for (const it of transcript(2000, 'big-')) store.append('big', it);
  })();
  const service = new ConversationService(store, { isRunning: () => false, stopAndWait: async () => undefined }, () => undefined, () => undefined);
  const bare = db.prepare('SELECT data FROM items WHERE conversation_id = ? ORDER BY seq');
  timeIt(() => service.get('big'), 3);
  timeIt(() => bare.all('big'), 3);
  const parsed = (): unknown[] => bare.all('big').map((r) => JSON.parse((r as { data: string }).data) as unknown);
  timeIt(parsed, 3);
  const loadOurs: number[] = [];
  const loadBare: number[] = [];
  const bareParsed: number[] = [];
  // Alternating, so load on the machine falls on all three alike.
  for (let i = 0; i < 21; i++) {
    loadBare.push(...timeIt(() => bare.all('big'), 1));
    bareParsed.push(...timeIt(parsed, 1));
    loadOurs.push(...timeIt(() => service.get('big'), 1));
  }
  store.close();

  // 2. Search over 100,000 entries.
  const searchDir = await makeStateDir({});
  const s2 = openConversationDatabase(searchDir);
  const big = new ConversationStore(s2.db);
  const t0 = performance.now();
  s2.db.transaction(() => {
    for (let c = 0; c < 100; c++) {
      big.ensure(`c${c}`, `conversation ${c}`);
      // One conversation in four is in Chinese.
      for (const it of transcript(1000, `c${c}-`, c % 4 === 3)) big.append(`c${c}`, it);
    }
    big.append('c50', { kind: 'user', id: 'needle', ts: 1, text: 'where is the zanzibar quartz file' });
    big.append('c51', { kind: 'user', id: 'needle-zh', ts: 1, text: '请把昨天的会议纪要发给我' });
  })();
  const fillMs = performance.now() - t0;
  // Latin and Chinese queries: a needle, common words, a one-character word.
  const queries = ['zanzibar', 'water people', 'notes file', 'oil', '会议纪要', '发布', '服务器 模型', '周'];
  const bareFts = s2.db.prepare(`SELECT rowid, snippet(items_fts, 0, char(1), char(2), '…', 16) AS s FROM items_fts WHERE items_fts MATCH ? ORDER BY rank LIMIT 50`);
  const search: Record<string, { ours: number[]; bare: number[]; hits: number }> = {};
  for (const q of queries) {
    // The bare query FTS5 needs to find the same words: Chinese words as phrases of their characters.
    const match = q.split(' ').map((w, i, a) => `"${/[\u4e00-\u9fff]/.test(w) ? [...w].join(' ') : w}"${i === a.length - 1 ? '*' : ''}`).join(' ');
    big.search(q);
    bareFts.all(match);
    // Each sample is the mean of enough calls to take about 2 ms (one call of a 1-hit search takes
    // tens of µs, too short for one clock reading); ours and bare alternate, the same count each.
    const once = Math.min(...timeIt(() => bareFts.all(match), 3));
    const calls = Math.max(1, Math.min(200, Math.ceil(2 / Math.max(once, 0.001))));
    const ours: number[] = [];
    const bareT: number[] = [];
    for (let i = 0; i < 9; i++) {
      bareT.push(meanOf(() => bareFts.all(match), calls));
      ours.push(meanOf(() => big.search(q), calls));
    }
    search[q] = { ours, bare: bareT, hits: big.search(q).length };
  }
  big.close();
  await removeDir(searchDir);

  // 3. Streamed output: per-chunk cost and batch writes.
  const streamDir = await makeStateDir({});
  const s3 = openConversationDatabase(streamDir);
  const st = new ConversationStore(s3.db);
  st.ensure('s', 'stream');
  const flushes: number[] = [];
  const origFlush = st.flush.bind(st);
  st.flush = () => {
    const t = performance.now();
    origFlush();
    flushes.push(performance.now() - t);
  };
  const rec = new RunRecorder(st, 's', 'run', () => undefined);
  const chunks: number[] = [];
  const CHUNKS = 2000;
  for (let i = 0; i < CHUNKS; i++) {
    const piece = `${WORDS[i % WORDS.length]} `;
    const t = performance.now();
    rec.text(piece);
    chunks.push(performance.now() - t);
    if (i % 2 === 0) await new Promise((r) => setTimeout(r, 2));
  }
  const tEnd = performance.now();
  rec.finish('done');
  const finishMs = performance.now() - tEnd;
  st.close();
  await removeDir(streamDir);

  // 4. Bytes per 1,000 ordinary messages (user and answer text, no tool calls), Latin and Chinese.
  const sizeOf = async (write: (n: number) => string): Promise<{ bytes: number; textBytes: number }> => {
    const sizeDir = await makeStateDir({});
    const s4 = openConversationDatabase(sizeDir);
    const sz = new ConversationStore(s4.db);
    const base = (): number => statSync(path.join(sizeDir, DATABASE_FILE)).size;
    sz.ensure('z', 'size');
    s4.db.pragma('wal_checkpoint(TRUNCATE)');
    const empty = base();
    s4.db.transaction(() => {
      for (let i = 0; i < 1000; i++) sz.append('z', i % 2 ? { kind: 'assistant', id: `a${i}`, ts: i, run_id: 'r', text: write(60), state: 'done' } : { kind: 'user', id: `u${i}`, ts: i, text: write(25) });
    })();
    s4.db.pragma('wal_checkpoint(TRUNCATE)');
    const out = { bytes: base() - empty, textBytes: sz.get('z').items.reduce((n, i) => n + Buffer.byteLength((i as { text: string }).text), 0) };
    sz.close();
    await removeDir(sizeDir);
    return out;
  };
  const { bytes, textBytes } = await sizeOf(sentence);
  const zhSize = await sizeOf((k) => zhSentence(Math.ceil(k / 2)));

  const chunkSum = chunks.reduce((a, b) => a + b, 0) + flushes.reduce((a, b) => a + b, 0) + finishMs;
  process.stdout.write(
    `RESULT ${JSON.stringify({
      load: { ours: loadOurs, bare: loadBare, bareParsed, items: 2000 },
      search: { entries: 100_001, fillMs, queries: search },
      stream: { chunks: CHUNKS, p50: p(chunks, 0.5), p99: p(chunks, 0.99), max: Math.max(...chunks), flushes: flushes.length, flushP99: p(flushes, 0.99), flushMax: Math.max(...flushes), amortizedPerChunk: chunkSum / CHUNKS },
      size: { bytes, textBytes, messages: 1000, zh: zhSize },
      medianLoad: median(loadOurs),
    })}\n`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
