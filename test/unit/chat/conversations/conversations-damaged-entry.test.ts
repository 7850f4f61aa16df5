/**
 * A damaged stored entry never leaves a conversation that cannot send (docs/ARCHITECTURE.md
 * "Conversations", a damaged entry; README "Security"): rows of a real SQLite file are damaged —
 * a tool result whose text is an object, a row that is not JSON at all — and the conversation is
 * opened again through the real ConversationStore and ChatService, with the SDK fixture server
 * and the fake model over loopback HTTP. Each damaged entry stays in the file as it was, reads in
 * main as the unreadable-entry notice (same id), is left out of what the model is sent, and the
 * user can still send, regenerate and export; the window's JSON of the conversation still parses.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProfileStore } from '../../../../main/chat/profiles.js';
import { SettingsStore } from '../../../../main/chat/settings.js';
import { DATABASE_FILE } from '../../../../main/chat/conversations/database.js';
import { UNREADABLE_ENTRY_TEXT } from '../../../../main/chat/conversations/entry-shape.js';
import { conversationToMarkdown } from '../../../../main/chat/conversations/export.js';
import { ConfigStore } from '../../../../main/mcp/config.js';
import { McpHost } from '../../../../main/mcp/host.js';
import { MemorySecretStore } from '../../../../main/secrets/store.js';
import type { TranscriptItem } from '../../../../preload/contract/index.js';
import { requestTexts, startFakeModel, type FakeModel } from '../../../fixtures/fake-model.js';
import { chatHarness, type ChatHarness } from '../../chat-harness.js';
import { descendantPids, makeTempDir, removeDir, SDK_SERVER, waitNoChildren } from '../../helpers.js';

let dir: string;
let host: McpHost;
let model: FakeModel;
let profiles: ProfileStore;
let h: ChatHarness | null = null;

beforeEach(async () => {
  dir = makeTempDir('op-damaged-entry-');
  const config = new ConfigStore(dir);
  await config.load();
  await config.put('fx', { type: 'local', command: [process.execPath, SDK_SERVER], env: {}, enabled: true, timeout_seconds: 30 });
  host = new McpHost(config);
  host.startAll();
  await host.whenStarted();
  expect(host.view('fx').state.kind).toBe('ready');
  model = await startFakeModel({ chunkDelayMs: 1 });
  profiles = new ProfileStore(dir, new MemorySecretStore());
  await new SettingsStore(profiles).set({ provider: 'openai-compatible', base_url: model.baseUrl, model: 'fake-1', api_key: 'sk-test-key-0000' });
  h = await chatHarness(host, profiles, dir);
});

afterEach(async () => {
  await h?.chat.stopAll();
  h?.close();
  h = null;
  await host.shutdown();
  await model.close();
  expect(await waitNoChildren(), `child processes left: ${descendantPids().join(', ')}`).toBe(true);
  await removeDir(dir);
});

async function sendAndWait(conversationId: string, text: string): Promise<string> {
  const { run_id } = await h!.chat.send(conversationId, text);
  expect(await h!.finished(run_id)).toBe('done');
  return run_id;
}

/** A conversation with a tool call (fx echo) and a plain exchange, saved in the real file. */
async function seed(conversationId: string): Promise<{ toolId: string; userIds: string[] }> {
  await sendAndWait(conversationId, 'call echo {"text":"the first result"}');
  await sendAndWait(conversationId, 'hello');
  const items = h!.items(conversationId);
  return { toolId: items.find((i) => i.kind === 'tool')!.id, userIds: items.filter((i) => i.kind === 'user').map((i) => i.id) };
}

/** Close the app's connection, change rows with a connection of its own (as damage would), open again. */
async function damage(sql: (db: Database.Database) => void): Promise<void> {
  h!.close();
  const db = new Database(path.join(dir, DATABASE_FILE));
  sql(db);
  db.close();
  h = await chatHarness(host, profiles, dir);
}

const rawRow = (id: string): { data: string; full_data: string | null } => {
  const db = new Database(path.join(dir, DATABASE_FILE), { readonly: true });
  try {
    return db.prepare<[string], { data: string; full_data: string | null }>('SELECT data, full_data FROM items WHERE id = ?').get(id)!;
  } finally {
    db.close();
  }
};

/** Everything the model was sent in its newest request, as text, with its tool calls. */
const lastRequest = (): { texts: string[]; toolCalls: number; toolResults: number } => {
  const body = model.requests.at(-1)!.body;
  return { texts: requestTexts(body), toolCalls: body.messages.flatMap((m) => m.tool_calls ?? []).length, toolResults: body.messages.filter((m) => m.role === 'tool').length };
};

describe('a damaged stored entry', () => {
  it('a tool result whose text is an object: kept as stored, read as the unreadable-entry notice, left out of the model context; the chat still sends, regenerates and exports', async () => {
    const { toolId } = await seed('c1');
    await damage((db) => db.prepare(`UPDATE items SET data = json_set(data, '$.content[0].text', json('{"not":"a string"}')) WHERE id = ?`).run(toolId));
    const damaged = rawRow(toolId).data;
    expect(JSON.parse(damaged).content[0].text).toEqual({ not: 'a string' });

    const runId = await sendAndWait('c1', 'after the damage');
    expect(h!.answer('c1', runId)).toBe('echo: after the damage');
    // The model got the rest of the conversation, not the damaged call.
    const sent = lastRequest();
    expect(sent.texts).toEqual(expect.arrayContaining(['call echo {"text":"the first result"}', 'hello', 'echo: hello', 'after the damage']));
    expect(sent.toolCalls).toBe(0);
    expect(sent.toolResults).toBe(0);
    // Main reads it as the notice, in its place, with its id; the row is as it was.
    const items = h!.items('c1');
    const at = items.findIndex((i) => i.id === toolId);
    expect(items[at]).toEqual({ kind: 'notice', id: toolId, ts: expect.any(Number), run_id: null, tone: 'error', text: UNREADABLE_ENTRY_TEXT } satisfies TranscriptItem);
    expect(items.map((i) => i.kind)).toEqual(['user', 'notice', 'assistant', 'user', 'assistant', 'user', 'assistant']);
    expect(rawRow(toolId).data).toBe(damaged);
    // The window gets the conversation's JSON, the damaged entry as stored (it contains it itself).
    const view = JSON.parse(h!.store.viewJson('c1')) as unknown[];
    expect(view).toHaveLength(7);
    expect(view[1]).toEqual(JSON.parse(damaged));
    // Export says so; regenerate runs again (the damaged entry is before the last message, it stays).
    expect(conversationToMarkdown(h!.store.get('c1'))).toContain(`> **Error:** ${UNREADABLE_ENTRY_TEXT}`);
    const { run_id } = await h!.chat.regenerate('c1');
    expect(await h!.finished(run_id)).toBe('done');
    expect(h!.answer('c1', run_id)).toBe('echo: after the damage');
    expect(rawRow(toolId).data).toBe(damaged);
  });

  it('rows that are not JSON at all (a tool call left running, a user message): the app opens, the window JSON parses, the chat sends and regenerates', async () => {
    const { toolId, userIds } = await seed('c2');
    await damage((db) => {
      // Torn in the middle of the text; the tool call was still `running` when it was written.
      db.prepare(`UPDATE items SET data = '{"kind":"tool","id":"' || id || '","state":"running","content":[{"type":"text","te' WHERE id = ?`).run(toolId);
      db.prepare(`UPDATE items SET data = 'not json at all' WHERE id = ?`).run(userIds[1]);
    });
    // (The harness marked unfinished entries at open; the torn row stayed as it was.)
    expect(rawRow(toolId).data.endsWith('"te')).toBe(true);
    const view = JSON.parse(h!.store.viewJson('c2')) as TranscriptItem[];
    expect(view.map((i) => i.kind)).toEqual(['user', 'notice', 'assistant', 'notice', 'assistant']);
    expect(view[1]).toMatchObject({ kind: 'notice', id: toolId, tone: 'error', text: UNREADABLE_ENTRY_TEXT });
    expect(view[3]).toMatchObject({ kind: 'notice', id: userIds[1], tone: 'error', text: UNREADABLE_ENTRY_TEXT });

    const runId = await sendAndWait('c2', 'still sending');
    expect(h!.answer('c2', runId)).toBe('echo: still sending');
    expect(lastRequest().toolCalls).toBe(0);
    // Regenerate drops what followed the last user message (queries over the torn rows work).
    const { run_id } = await h!.chat.regenerate('c2');
    expect(await h!.finished(run_id)).toBe('done');
    expect(h!.store.hasToolCall('c2', 'r', 'c', 'fx', 'echo')).toBe(false);
    expect(rawRow(toolId).data.endsWith('"te')).toBe(true);
    expect(rawRow(userIds[1]!).data).toBe('not json at all');
  });
});
