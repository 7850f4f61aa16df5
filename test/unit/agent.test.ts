/**
 * chat/agent: the agent loop with a real McpHost (SDK fixture as a child process) and the real
 * fake model server (OpenAI-compatible, streaming over loopback HTTP).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatEvent } from '../../preload/contract/index.js';
import { ChatService, MODEL_RESULT_LIMIT, UI_RESULT_LIMIT } from '../../main/chat/agent.js';
import { SettingsStore } from '../../main/chat/settings.js';
import { ConfigStore } from '../../main/mcp/config.js';
import { McpHost } from '../../main/mcp/host.js';
import { MemorySecretStore } from '../../main/secrets/store.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startFakeModel, textOf, type FakeModel, type Turn, type WireRequest } from '../fixtures/fake-model.js';
import { descendantPids, makeTempDir, removeDir, SDK_SERVER, waitFor, waitNoChildren } from './helpers.js';

let dir: string;
let host: McpHost;
let model: FakeModel;
let chat: ChatService;
let events: ChatEvent[];
/** Every JSON-RPC line the server received on stdin (recorded by `tee` in front of it). */
let wireLog: string;

async function setup(script?: (req: WireRequest) => Turn): Promise<void> {
  model = await startFakeModel({ chunkDelayMs: 2, ...(script ? { script } : {}) });
  const settings = new SettingsStore(dir, new MemorySecretStore());
  await settings.set({ provider: 'openai-compatible', base_url: model.baseUrl, model: 'fake-1', api_key: 'sk-test-key-0000' });
  chat = new ChatService(host, settings, (e) => events.push(e));
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
  expect(host.view('fx').status).toBe('ready');
  events = [];
});

afterEach(async () => {
  chat?.stopAll();
  await host.shutdown();
  await model?.close();
  expect(await waitNoChildren(), `child processes left: ${descendantPids().join(', ')}`).toBe(true);
  await removeDir(dir);
});

/** Events of one run, once it ended (done / aborted / error). */
async function finished(runId: string, timeoutMs = 15_000): Promise<ChatEvent[]> {
  const end = (e: ChatEvent): boolean => e.run_id === runId && (e.type === 'done' || e.type === 'aborted' || e.type === 'error');
  const ok = await waitFor(() => events.some(end), timeoutMs);
  expect(ok, `run did not finish: ${JSON.stringify(events.map((e) => e.type))}`).toBe(true);
  return events.filter((e) => e.run_id === runId);
}

const textDeltas = (evs: ChatEvent[]): string => evs.flatMap((e) => (e.type === 'text-delta' ? [e.text] : [])).join('');
function one<T extends ChatEvent['type']>(evs: ChatEvent[], type: T): Extract<ChatEvent, { type: T }> {
  const found = evs.filter((e) => e.type === type);
  expect(found, type).toHaveLength(1);
  return found[0] as Extract<ChatEvent, { type: T }>;
}

describe('ChatService with a real host and the fake model', () => {
  it('plain chat without tools streams text and ends with done', async () => {
    await setup();
    const { run_id } = await chat.send('c0', 'hello there');
    const evs = await finished(run_id);
    expect(textDeltas(evs)).toBe('echo: hello there');
    expect(evs.at(-1)).toEqual({ run_id, type: 'done' });
    // The model was offered the server's namespaced tools and got the configured key.
    const req = model.requests[0]!;
    expect(req.body.tools?.map((t) => t.function.name)).toEqual(expect.arrayContaining(['fx__echo', 'fx__sleep', 'fx__fail']));
    expect(req.authorization).toBe('Bearer sk-test-key-0000');
  });

  it('a tool call round trip emits tool-start, tool-end (ok, content, duration_ms), text deltas and done', async () => {
    await setup();
    const { run_id } = await chat.send('c1', 'call __echo {"text":"ping from the model"}');
    const evs = await finished(run_id);
    const types = evs.map((e) => e.type);
    expect(types.at(-1)).toBe('done');
    const start = one(evs, 'tool-start');
    expect(start).toMatchObject({ tool: 'fx__echo', server: 'fx', original_name: 'echo', args: { text: 'ping from the model' } });
    const end = one(evs, 'tool-end');
    expect(end).toMatchObject({ call_id: start.call_id, ok: true, error: null, content: [{ type: 'text', text: 'ping from the model' }] });
    expect(typeof end.duration_ms).toBe('number');
    expect(end.duration_ms).toBeGreaterThanOrEqual(0);
    expect(types.indexOf('tool-start')).toBeLessThan(types.indexOf('tool-end'));
    expect(types.lastIndexOf('tool-end')).toBeLessThan(types.indexOf('text-delta'));
    expect(textDeltas(evs)).toBe('Tool result: ping from the model');
    // The model's second request carried the tool result.
    expect(model.requests).toHaveLength(2);
    const last = model.requests[1]!.body.messages.at(-1)!;
    expect(last.role).toBe('tool');
    expect(textOf(last)).toBe('ping from the model');
  });

  it('the conversation keeps its history across sends', async () => {
    await setup();
    const a = await chat.send('c2', 'call __echo {"text":"first"}');
    await finished(a.run_id);
    const b = await chat.send('c2', 'second message');
    await finished(b.run_id);
    const msgs = model.requests.at(-1)!.body.messages;
    expect(msgs.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user']);
    expect(textOf(msgs.at(-1))).toBe('second message');
  });

  it('an isError tool result yields tool-end ok=false and the model receives the error text', async () => {
    await setup();
    const { run_id } = await chat.send('c3', 'call __fail {"message":"disk quota exceeded on /data"}');
    const evs = await finished(run_id);
    const end = one(evs, 'tool-end');
    expect(end.ok).toBe(false);
    expect(end.error).toContain('disk quota exceeded on /data');
    expect(end.content).toEqual([{ type: 'text', text: 'disk quota exceeded on /data' }]);
    expect(evs.at(-1)!.type).toBe('done');
    const last = model.requests.at(-1)!.body.messages.at(-1)!;
    expect(last.role).toBe('tool');
    expect(textOf(last)).toContain('disk quota exceeded on /data');
    expect(textDeltas(evs)).toContain('disk quota exceeded on /data');
  });

  it('a call to a tool that was never offered does not reach a server and does not crash the run', async () => {
    await setup(() => ({ toolCalls: [{ name: 'fx__nope', arguments: {} }] }));
    const { run_id } = await chat.send('c4', 'anything');
    const evs = await finished(run_id);
    expect(evs.filter((e) => e.type === 'tool-start')).toHaveLength(0);
    expect(['done', 'error']).toContain(evs.at(-1)!.type);
    expect(readFileSync(wireLog, 'utf8')).not.toContain('"name":"nope"');
  });

  it('stop() during a slow sleep tool emits aborted and cancels the tool call', async () => {
    await setup();
    const { run_id } = await chat.send('c5', 'call __sleep {"ms":20000}');
    expect(await waitFor(() => events.some((e) => e.type === 'tool-start'), 10_000)).toBe(true);
    const t0 = performance.now();
    expect(chat.stop(run_id)).toEqual({ stopped: true });
    const evs = await finished(run_id, 5000);
    expect(performance.now() - t0).toBeLessThan(3000);
    expect(evs.at(-1)).toEqual({ run_id, type: 'aborted' });
    expect(evs.some((e) => e.type === 'done')).toBe(false);
    const end = one(evs, 'tool-end');
    expect(end.ok).toBe(false);
    expect(end.error).toBe('Cancelled by the user.');
    expect(end.duration_ms).toBeLessThan(5000);
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
    expect(host.view('fx').status).toBe('ready');
    const t1 = performance.now();
    await host.callTool('fx__echo', { text: 'after stop' });
    expect(performance.now() - t1).toBeLessThan(2000);
    expect(chat.stop(run_id)).toEqual({ stopped: false });
  });

  it('a huge (5 MB) tool result is truncated for the model with a notice, and for the UI', async () => {
    await setup();
    const bytes = 5 * 1024 * 1024;
    const { run_id } = await chat.send('c6', `call __huge {"bytes":${bytes}}`);
    const evs = await finished(run_id, 30_000);
    expect(evs.at(-1)!.type).toBe('done');
    const end = one(evs, 'tool-end');
    expect(end.ok).toBe(true);
    const uiText = (end.content[0] as { text: string }).text;
    expect(uiText.length).toBeLessThan(UI_RESULT_LIMIT + 200);
    expect(uiText).toContain(`${bytes - UI_RESULT_LIMIT} more characters not shown`);
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

  it('stop() of an unknown run reports stopped: false', async () => {
    await setup();
    expect(chat.stop('no-such-run')).toEqual({ stopped: false });
  });
});
