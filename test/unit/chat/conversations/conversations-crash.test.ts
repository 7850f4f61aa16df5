/**
 * Crash safety of the conversation store: a real writer process streaming answers into a real
 * SQLite file is killed with SIGKILL at random moments, many times. After each kill the database
 * opens without a warning, passes SQLite's integrity check, and every answer the writer had
 * completed is there, whole; an answer cut mid-stream is marked interrupted at the next open.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openConversationDatabase } from '../../../../main/chat/conversations/database.js';
import { ConversationStore } from '../../../../main/chat/conversations/store.js';
import { makeTempDir, removeDir } from '../../helpers.js';

const ROUNDS = 12;
let dir: string;
beforeAll(() => {
  dir = makeTempDir('op-crash-');
});
afterAll(async () => {
  await removeDir(dir);
});

/** Run the writer until it has completed at least one answer, then SIGKILL it after `extraMs`. */
function runAndKill(extraMs: number): Promise<Map<string, number>> {
  const done = new Map<string, number>();
  // One process (node with the tsx loader), so SIGKILL hits the writer itself.
  const child = spawn(process.execPath, ['--import', 'tsx', path.resolve('test/fixtures/conversation-writer.ts'), dir], { stdio: ['ignore', 'pipe', 'inherit'] });
  let buf = '';
  return new Promise((resolve, reject) => {
    const guard = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      const lines = buf.split('\n');
      buf = lines.pop()!;
      for (const l of lines) {
        const [, id, len] = l.split(' ');
        done.set(id!, Number(len));
      }
      if (done.size === 1) setTimeout(() => child.kill('SIGKILL'), extraMs);
    });
    child.on('error', reject);
    child.on('exit', (_code, signal) => {
      clearTimeout(guard);
      if (signal !== 'SIGKILL') reject(new Error(`writer ended with ${signal ?? _code}, not by SIGKILL`));
      else resolve(done);
    });
  });
}

it(`survives ${ROUNDS} SIGKILLs mid-stream: opens cleanly, integrity ok, every completed answer whole`, async () => {
  const completed = new Map<string, number>();
  let interrupted = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const got = await runAndKill(5 + Math.floor(Math.random() * 120));
    for (const [k, v] of got) completed.set(k, v);
    const opened = openConversationDatabase(dir);
    expect(opened.warning, `round ${round}`).toBeNull();
    expect(opened.db.pragma('integrity_check', { simple: true })).toBe('ok');
    const store = new ConversationStore(opened.db);
    interrupted += store.markInterrupted();
    const answers = new Map<string, { text: string; state: string }>();
    for (const c of store.list(1000)) for (const i of store.get(c.id).items) if (i.kind === 'assistant') answers.set(i.id, i);
    for (const [id, len] of completed) {
      const a = answers.get(id);
      expect(a, `completed answer ${id} missing after round ${round}`).toBeDefined();
      expect(a!.state).toBe('done');
      expect(a!.text.length).toBe(len);
    }
    for (const a of answers.values()) expect(['done', 'interrupted']).toContain(a.state);
    store.close();
  }
  expect(completed.size).toBeGreaterThan(ROUNDS);
  // The kills landed mid-stream (at least sometimes), and those answers were marked.
  expect(interrupted).toBeGreaterThan(0);
}, 180_000);
