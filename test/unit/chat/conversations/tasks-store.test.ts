/**
 * The saved tasks (MCP Tasks, table `tasks`) on real SQLite files: a database of an older schema
 * gains the table and keeps its conversations; rows list per conversation and across, newest
 * first, with the conversation's title; they go with their conversation; and at open a running
 * tool entry whose task still ran stays running (to be picked up) while an ordinary running call
 * becomes interrupted. See docs/ARCHITECTURE.md "Tasks".
 */
import { copyFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TranscriptItem } from '../../../../preload/contract/index.js';
import { DATABASE_FILE, openConversationDatabase, SCHEMA_VERSION } from '../../../../main/chat/conversations/database.js';
import { ConversationStore } from '../../../../main/chat/conversations/store.js';
import { TaskStore } from '../../../../main/chat/conversations/tasks.js';
import { makeTempDir, removeDir, ROOT } from '../../helpers.js';

const V2_FIXTURE = path.join(ROOT, 'test', 'fixtures', 'conversations-v2.db');
type ToolItem = Extract<TranscriptItem, { kind: 'tool' }>;

let dir: string;
beforeEach(() => {
  dir = makeTempDir('op-tasks-store-');
});
afterEach(async () => {
  await removeDir(dir);
});

function tool(id: string, call: string, task?: ToolItem['task']): ToolItem {
  return { kind: 'tool', id, ts: 1, run_id: 'r1', call_id: call, tool: 'jobs__slow-job', server: 'jobs', original_name: 'slow-job', args: {}, state: 'running', content: [], error: null, duration_ms: null, progress: null, permission: null, ...(task ? { task } : {}) };
}

function row(conversation: string, taskId: string, at: number) {
  return { server: 'jobs', task_id: taskId, conversation_id: conversation, run_id: 'r1', call_id: `call-${taskId}`, item_id: `item-${taskId}`, tool: 'jobs__slow-job', original_name: 'slow-job', reference: { endpointId: 'e', generation: 'v1', taskId, originalOperation: 'tools/call' }, status: { kind: 'working' as const, message: 'Step 1 of 3' }, origin: 'started' as const, created_at: at };
}

describe('saved tasks', () => {
  it('a database of schema 2 gains the tasks table and keeps its conversations', () => {
    copyFileSync(V2_FIXTURE, path.join(dir, DATABASE_FILE));
    const db = openConversationDatabase(dir);
    const store = new ConversationStore(db);
    expect(store.list(10).map((c) => c.id)).toEqual(['conv-other', 'conv-kyoto']);
    const tasks = new TaskStore(db);
    expect(tasks.add(row('conv-kyoto', 't1', 5))?.view).toMatchObject({ task_id: 't1', status: { kind: 'working', message: 'Step 1 of 3' }, conversation_title: store.summary('conv-kyoto')!.title });
    store.close();
    db.close();
    const raw = new Database(path.join(dir, DATABASE_FILE), { readonly: true });
    expect(raw.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
    raw.close();
  });

  it('lists per conversation and across, newest first; updates status and origin; rows go with their conversation', () => {
    const db = openConversationDatabase(dir);
    const store = new ConversationStore(db);
    const tasks = new TaskStore(db, () => 100);
    store.ensure('a', 'first');
    store.ensure('b', 'second');
    tasks.add(row('a', 't1', 1));
    tasks.add(row('b', 't2', 2));
    tasks.add(row('a', 't3', 3));
    // No row for a conversation that does not exist.
    expect(tasks.add(row('missing', 't4', 4))).toBeNull();
    expect(tasks.list().map((t) => t.view.task_id)).toEqual(['t3', 't2', 't1']);
    expect(tasks.list('a').map((t) => t.view.task_id)).toEqual(['t3', 't1']);
    expect(tasks.update('jobs', 't1', { kind: 'completed', message: null }, 'resumed')?.view).toMatchObject({ status: { kind: 'completed', message: null }, origin: 'resumed', updated_at: 100 });
    expect(tasks.active().map((t) => t.view.task_id)).toEqual(['t2', 't3']);
    store.remove('a');
    expect(tasks.list().map((t) => t.view.task_id)).toEqual(['t2']);
    store.close();
    db.close();
  });

  it('a task carries its call’s entry and arguments as the saved entry holds them: compact, redacted, cut with an ellipsis', () => {
    const db = openConversationDatabase(dir);
    const secret = 'sk-live-0123456789abcdef';
    // The core's store redacts every entry before it is written; so do this one's.
    const store = new ConversationStore(db, Date.now, (item) => JSON.parse(JSON.stringify(item).replaceAll(secret, '[redacted]')) as TranscriptItem);
    const tasks = new TaskStore(db);
    store.ensure('a', 'first');
    store.append('a', { ...tool('item-t1', 'call-t1'), args: { topic: 'cats', key: secret } });
    store.append('a', { ...tool('item-t2', 'call-t2'), args: { text: '猫'.repeat(100) + '😺'.repeat(100) } });
    tasks.add(row('a', 't1', 1));
    tasks.add(row('a', 't2', 2));
    // No entry (or one that is not JSON): no arguments.
    tasks.add(row('a', 't3', 3));
    const [t3, t2, t1] = tasks.list('a').map((t) => t.view);
    expect(t1).toMatchObject({ item_id: 'item-t1', args_preview: '{"topic":"cats","key":"[redacted]"}' });
    // Cut at 160 characters (never inside a character), then "…".
    expect([...t2!.args_preview]).toHaveLength(161);
    expect(t2!.args_preview).toBe(`{"text":"${'猫'.repeat(100)}${'😺'.repeat(51)}…`);
    expect(t3).toMatchObject({ item_id: 'item-t3', args_preview: '' });
    store.close();
    db.close();
  });

  it('at open, a running call whose task still ran stays running; an ordinary running call is interrupted', () => {
    let db = openConversationDatabase(dir);
    let store = new ConversationStore(db);
    store.ensure('a', 'first');
    store.append('a', tool('i1', 'c1', { task_id: 't1', status: { kind: 'working', message: null }, origin: 'started', created_at: 1, updated_at: 1 }));
    store.append('a', tool('i2', 'c2'));
    store.append('a', tool('i3', 'c3', { task_id: 't3', status: { kind: 'completed', message: null }, origin: 'started', created_at: 1, updated_at: 1 }));
    store.close();
    db.close();
    db = openConversationDatabase(dir);
    store = new ConversationStore(db);
    store.markInterrupted();
    const states = store.get('a').items.map((i) => (i.kind === 'tool' ? i.state : i.kind));
    expect(states).toEqual(['running', 'interrupted', 'interrupted']);
    store.close();
    db.close();
  });
});
