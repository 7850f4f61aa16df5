/**
 * chat/agent: the agent loop with a real McpHost (SDK fixture as a child process), the real fake
 * model server (OpenAI-compatible, streaming over loopback HTTP) and a real SQLite conversation
 * store: what a run does is saved as transcript entries and announced as events.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MODEL_RESULT_LIMIT, UI_RESULT_LIMIT } from '../../../main/chat/limits.js';
import { ProfileStore } from '../../../main/chat/profiles.js';
import { SettingsStore } from '../../../main/chat/settings.js';
import { ConfigStore } from '../../../main/mcp/config.js';
import { McpHost } from '../../../main/mcp/host.js';
import { MemorySecretStore } from '../../../main/secrets/store.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ChatEvent } from '../../../preload/contract/index.js';
import { startFakeModel, textOf, type FakeModel, type Turn, type WireRequest } from '../../fixtures/fake-model.js';
import { chatHarness, type ChatHarness } from '../chat-harness.js';
import { descendantPids, makeTempDir, removeDir, SDK_SERVER, waitFor, waitNoChildren } from '../helpers.js';

let dir: string;
let host: McpHost;
let model: FakeModel;
let h: ChatHarness;
/** Every JSON-RPC line the server received on stdin (recorded by `tee` in front of it). */
let wireLog: string;

/** @param modelName decides the profile's default context window (a loopback `fake-1`: a small local one) */
async function setup(script?: (req: WireRequest) => Turn, modelName = 'fake-1'): Promise<void> {
  model = await startFakeModel({ chunkDelayMs: 2, ...(script ? { script } : {}) });
  const profiles = new ProfileStore(dir, new MemorySecretStore());
  const settings = new SettingsStore(profiles);
  await settings.set({ provider: 'openai-compatible', base_url: model.baseUrl, model: modelName, api_key: 'sk-test-key-0000' });
  h = await chatHarness(host, profiles, dir);
}

beforeEach(async () => {
  dir = makeTempDir('op-agent-');
  const store = new ConfigStore(dir);
  await store.load();
  wireLog = path.join(dir, 'stdin.log');
  // The SDK fixture behind `tee`, so the test can see what the host sent to the server.
  const command = ['bash', '-c', 'tee "$0" | "$1" "$2"', wireLog, process.execPath, SDK_SERVER];
  await store.put('fx', { type: 'local', command, env: {}, enabled: true, timeout_seconds: 30 });
  host = new McpHost(store);
  host.startAll();
  await host.whenStarted();
  expect(host.view('fx').state.kind).toBe('ready');
});

afterEach(async () => {
  await h?.chat.stopAll();
  h?.close();
  await host.shutdown();
  await model?.close();
  expect(await waitNoChildren(), `child processes left: ${descendantPids().join(', ')}`).toBe(true);
  await removeDir(dir);
});

/** The streamed text of a run, from its text-delta events. */
const streamed = (runId: string): string => h.events.flatMap((e) => (e.run_id === runId && e.type === 'text-delta' ? [e.text] : [])).join('');

describe('ChatService with a real host and the fake model', () => {
  it('plain chat without tools streams text, saves it and ends with done', async () => {
    await setup();
    const { run_id } = await h.chat.send('c0', 'hello there');
    expect(await h.finished(run_id)).toBe('done');
    expect(streamed(run_id)).toBe('echo: hello there');
    const items = h.items('c0');
    expect(items.map((i) => i.kind)).toEqual(['user', 'assistant']);
    expect(items[1]).toMatchObject({ kind: 'assistant', text: 'echo: hello there', state: 'done', run_id });
    expect(h.store.summary('c0')).toMatchObject({ title: 'hello there', message_count: 2 });
    // The model was offered the server's namespaced tools and got the configured key.
    const req = model.requests[0]!;
    expect(req.body.tools?.map((t) => t.function.name)).toEqual(expect.arrayContaining(['fx__echo', 'fx__sleep', 'fx__fail']));
    expect(req.authorization).toBe('Bearer sk-test-key-0000');
    // Events name the conversation; the summary said "running" and then not.
    expect(h.events.every((e) => e.conversation_id === 'c0')).toBe(true);
    expect(h.summaries.map((s) => s.running)).toEqual([true, false]);
  });

  it('a tool call round trip is saved as a tool entry (ok, content, duration) between answer entries', async () => {
    await setup();
    const { run_id } = await h.chat.send('c1', 'call __echo {"text":"ping from the model"}');
    expect(await h.finished(run_id)).toBe('done');
    const items = h.items('c1');
    expect(items.map((i) => i.kind)).toEqual(['user', 'tool', 'assistant']);
    const [tool] = h.tools('c1');
    expect(tool).toMatchObject({ tool: 'fx__echo', server: 'fx', original_name: 'echo', args: { text: 'ping from the model' }, state: 'ok', error: null, content: [{ type: 'text', text: 'ping from the model' }] });
    expect(tool!.duration_ms).toBeGreaterThanOrEqual(0);
    expect(h.answer('c1', run_id)).toBe('Tool result: ping from the model');
    // The events carried the tool entry running, then ended, before the answer streamed.
    const toolEvents = h.events.filter((e): e is Extract<ChatEvent, { type: 'item' }> => e.type === 'item' && e.item.kind === 'tool');
    expect(toolEvents.map((e) => (e.item as { state: string }).state)).toEqual(['awaiting_approval', 'running', 'ok']);
    // The permissions' decision is recorded with the call.
    expect(tool!.permission).toEqual({ allowed: true, via: 'mode_never_ask', decision: null });
    const firstDelta = h.events.findIndex((e) => e.type === 'text-delta');
    expect(h.events.indexOf(toolEvents[1]!)).toBeLessThan(firstDelta);
    // The model's second request carried the tool result.
    expect(model.requests).toHaveLength(2);
    const last = model.requests[1]!.body.messages.at(-1)!;
    expect(last.role).toBe('tool');
    expect(textOf(last)).toBe('ping from the model');
  });

  it('the model context of the next message is built from the saved transcript, even by a new service', async () => {
    await setup();
    const a = await h.chat.send('c2', 'call __echo {"text":"first"}');
    await h.finished(a.run_id);
    // A new service on the same database file (an app restart) continues the conversation.
    const profiles = new ProfileStore(dir, new MemorySecretStore());
    const settings = new SettingsStore(profiles);
    await settings.set({ provider: 'openai-compatible', base_url: model.baseUrl, model: 'fake-1' });
    h.close();
    h = await chatHarness(host, profiles, dir);
    const b = await h.chat.send('c2', 'second message');
    await h.finished(b.run_id);
    const msgs = model.requests.at(-1)!.body.messages;
    expect(msgs.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user']);
    expect(textOf(msgs[0])).toBe('call __echo {"text":"first"}');
    expect(msgs[1]!.tool_calls?.[0]?.function.name).toBe('fx__echo');
    expect(textOf(msgs[2])).toBe('first');
    expect(textOf(msgs[3])).toBe('Tool result: first');
    expect(textOf(msgs.at(-1))).toBe('second message');
  });

  it('an isError tool result is saved as an error entry and the model receives the error text', async () => {
    await setup();
    const { run_id } = await h.chat.send('c3', 'call __fail {"message":"disk quota exceeded on /data"}');
    expect(await h.finished(run_id)).toBe('done');
    const [tool] = h.tools('c3');
    expect(tool!.state).toBe('error');
    expect(tool!.error).toContain('disk quota exceeded on /data');
    expect(tool!.content).toEqual([{ type: 'text', text: 'disk quota exceeded on /data' }]);
    const last = model.requests.at(-1)!.body.messages.at(-1)!;
    expect(last.role).toBe('tool');
    expect(textOf(last)).toContain('disk quota exceeded on /data');
    expect(h.answer('c3', run_id)).toContain('disk quota exceeded on /data');
  });

  it('a call to a tool that was never offered does not reach a server and does not crash the run', async () => {
    await setup(() => ({ toolCalls: [{ name: 'fx__nope', arguments: {} }] }));
    const { run_id } = await h.chat.send('c4', 'anything');
    expect(['done', 'failed']).toContain(await h.finished(run_id));
    expect(h.tools('c4')).toHaveLength(0);
    expect(readFileSync(wireLog, 'utf8')).not.toContain('"name":"nope"');
  });

  it('stop() during a slow tool: the call is cancelled on the wire, saved as cancelled, and the run ends stopped', async () => {
    await setup();
    const { run_id } = await h.chat.send('c5', 'call __sleep {"ms":20000}');
    expect(await waitFor(() => h.tools('c5').length === 1, 10_000)).toBe(true);
    // A second message while it runs is refused, not interleaved.
    await expect(h.chat.send('c5', 'another')).rejects.toThrow(/still answering/);
    const t0 = performance.now();
    expect(h.chat.stop('c5')).toEqual({ stopped: true });
    expect(await h.finished(run_id, 5000)).toBe('stopped');
    expect(performance.now() - t0).toBeLessThan(3000);
    const [tool] = h.tools('c5');
    // Stop ended the run under the call: so says its code (the window words it).
    expect(tool).toMatchObject({ state: 'cancelled', error: 'Cancelled by the user.', end: { code: 'cancelled', by: 'run' } });
    expect(tool!.duration_ms).toBeLessThan(5000);
    expect(h.items('c5').at(-1)).toMatchObject({ kind: 'notice', text: 'Stopped.' });
    // Nothing more was asked of the model after the stop.
    expect(model.requests).toHaveLength(1);
    // The request was cancelled on the wire: the server got notifications/cancelled for it.
    const sent = (): Array<{ id?: number; method?: string; params?: { name?: string; requestId?: number } }> =>
      readFileSync(wireLog, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { id?: number; method?: string; params?: { name?: string; requestId?: number } });
    const call = sent().find((m) => m.method === 'tools/call' && m.params?.name === 'sleep');
    expect(call?.id).toBeDefined();
    expect(await waitFor(() => sent().some((m) => m.method === 'notifications/cancelled' && m.params?.requestId === call!.id), 2000)).toBe(true);
    // The server is still healthy and serves the next call at once.
    expect(host.view('fx').state.kind).toBe('ready');
    await host.callTool('fx__echo', { text: 'after stop' });
    expect(h.chat.stop('c5')).toEqual({ stopped: false });
    // The next message's context tells the model the cancelled call happened.
    const next = await h.chat.send('c5', 'what happened?');
    await h.finished(next.run_id);
    const msgs = model.requests.at(-1)!.body.messages;
    expect(msgs.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(textOf(msgs[2])).toContain('Cancelled by the user.');
  });

  it('a run whose end cannot be saved says so by fact: the database’s words as sent (save_failed), beside the English text', async () => {
    await setup();
    const { run_id } = await h.chat.send('c5b', 'call __sleep {"ms":20000}');
    expect(await waitFor(() => h.tools('c5b').length === 1, 10_000)).toBe(true);
    // The database fails from now on (a full disk): the run's end cannot be written.
    const full = (): never => {
      throw new Error('SQLITE_FULL: database or disk is full');
    };
    h.store.update = full;
    h.store.append = full;
    h.chat.stop('c5b');
    expect(await h.finished(run_id, 5000)).toBe('stopped');
    const notice = h.events.flatMap((e) => (e.run_id === run_id && e.type === 'item' && e.item.kind === 'notice' ? [e.item] : [])).at(-1);
    expect(notice).toMatchObject({ tone: 'error', text: 'Could not save this conversation: SQLITE_FULL: database or disk is full', save_failed: { said: 'SQLITE_FULL: database or disk is full' } });
  });

  it('a huge (5 MB) tool result is cut for the model and the saved entry, and further for the window', async () => {
    // A model with a 128k context window, so the cut at MODEL_RESULT_LIMIT (~25k tokens) is what
    // the model gets (in a small window every step is shortened further to fit).
    await setup(undefined, 'gpt-4o-mini');
    const bytes = 5 * 1024 * 1024;
    const { run_id } = await h.chat.send('c6', `call __huge {"bytes":${bytes}}`);
    expect(await h.finished(run_id, 30_000)).toBe('done');
    const ended = h.events.find((e): e is Extract<ChatEvent, { type: 'item' }> => e.type === 'item' && e.item.kind === 'tool' && e.item.state === 'ok')!;
    const uiText = ((ended.item as { content: Array<{ text: string }> }).content[0]!).text;
    expect(uiText.length).toBeLessThan(UI_RESULT_LIMIT + 200);
    expect(uiText).toMatch(/\[… truncated: \d+ more characters not shown\]$/);
    const saved = (h.tools('c6')[0]!.content[0] as { text: string }).text;
    expect(saved).toContain(`${bytes - MODEL_RESULT_LIMIT} more characters not shown`);
    const toolMsg = model.requests[1]!.body.messages.at(-1)!;
    expect(toolMsg.role).toBe('tool');
    const sent = textOf(toolMsg);
    expect(sent.length).toBeGreaterThanOrEqual(MODEL_RESULT_LIMIT);
    expect(sent.length).toBeLessThan(MODEL_RESULT_LIMIT + 200);
    expect(sent.startsWith('x'.repeat(1000))).toBe(true);
    expect(sent).toMatch(/\[… truncated: \d+ more characters not shown\]$/);
    expect(sent).toContain(`${bytes - MODEL_RESULT_LIMIT} more characters not shown`);
    // The whole request body to the model stays small.
    expect(JSON.stringify(model.requests[1]!.body).length).toBeLessThan(MODEL_RESULT_LIMIT + 20_000);
  }, 60_000);

  it('stop() of a conversation without a run reports stopped: false', async () => {
    await setup();
    expect(h.chat.stop('no-such-conversation')).toEqual({ stopped: false });
  });

  it('edit-and-resend replaces the last user message and what followed; regenerate replaces the last answer', async () => {
    await setup();
    const a = await h.chat.send('c7', 'first question');
    await h.finished(a.run_id);
    const b = await h.chat.send('c7', 'call __echo {"text":"old"}');
    await h.finished(b.run_id);
    const before = h.items('c7');
    const lastUser = before.filter((i) => i.kind === 'user').at(-1)!;
    // Only the last user message may be edited.
    await expect(h.chat.editResend('c7', before[0]!.id, 'changed')).rejects.toThrow(/Only the last message/);
    const c = await h.chat.editResend('c7', lastUser.id, 'call __echo {"text":"new"}');
    await h.finished(c.run_id);
    const after = h.items('c7');
    expect(after.filter((i) => i.kind === 'user').map((i) => (i as { text: string }).text)).toEqual(['first question', 'call __echo {"text":"new"}']);
    expect(h.tools('c7').map((t) => t.args)).toEqual([{ text: 'new' }]);
    expect(after.find((i) => i.id === lastUser.id)).toBeDefined();
    const removed = h.events.find((e) => e.type === 'items-removed' && e.run_id === c.run_id) as Extract<ChatEvent, { type: 'items-removed' }>;
    expect(removed.item_ids.sort()).toEqual(before.slice(before.indexOf(lastUser) + 1).map((i) => i.id).sort());
    // The model saw the edited text, not the old one.
    const req = model.requests.find((r) => JSON.stringify(r.body).includes('\\"new\\"'));
    expect(JSON.stringify(req?.body.messages)).not.toContain('\\"old\\"');

    const oldAnswer = h.items('c7').at(-1)!;
    const d = await h.chat.regenerate('c7');
    await h.finished(d.run_id);
    const regen = h.items('c7');
    expect(regen.find((i) => i.id === oldAnswer.id)).toBeUndefined();
    expect(regen.filter((i) => i.kind === 'user')).toHaveLength(2);
    expect(h.answer('c7', d.run_id)).toBe('Tool result: new');
  });
});
