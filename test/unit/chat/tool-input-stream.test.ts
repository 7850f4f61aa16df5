/**
 * chat/tool-input-stream: a tool call's input while the model writes it becomes `tool-input`
 * events — only for tools with an MCP App view, throttled per call with the last state always
 * sent, parsed from partial JSON by the AI SDK, and given up past the size cap. Then the real
 * thing: the agent with a real host (the fixture App server as a child process) and the fake
 * model writing a call's arguments in pieces over loopback HTTP.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ProfileStore } from '../../../main/chat/profiles.js';
import { SettingsStore } from '../../../main/chat/settings.js';
import { MAX_PARTIAL_INPUT_CHARS, PARTIAL_INPUT_INTERVAL_MS, ToolInputStream } from '../../../main/chat/tool-input-stream.js';
import { ConfigStore } from '../../../main/mcp/config.js';
import { McpHost } from '../../../main/mcp/host.js';
import { MAX_NESTING, NESTED_TOO_DEEP } from '../../../main/mcp/nesting.js';
import { MemorySecretStore } from '../../../main/secrets/store.js';
import type { ChatEvent, ToolInputEvent } from '../../../preload/contract/index.js';
import { startFakeModel, type FakeModel } from '../../fixtures/fake-model.js';
import { chatHarness, type ChatHarness } from '../chat-harness.js';
import { makeTempDir, removeDir, ROOT, SDK_SERVER, waitNoChildren } from '../helpers.js';

/** A stream over one view tool `s__view` (and a tool without a view, `s__plain`), on a clock the test moves. */
function stream(opts: { started?: Set<string>; maxChars?: number } = {}) {
  const events: ToolInputEvent[] = [];
  const clock = { t: 1000 };
  const s = new ToolInputStream({
    conversationId: 'c1',
    runId: 'r1',
    viewTool: (name) => (name === 's__view' ? { server: 's', original_name: 'view' } : null),
    started: (id) => opts.started?.has(id) ?? false,
    emit: (e) => events.push(e),
    now: () => clock.t,
    ...(opts.maxChars ? { maxChars: opts.maxChars } : {}),
  });
  return { s, events, clock };
}

describe('ToolInputStream', () => {
  it('announces the object parsed from the partial text, with the call, tool and server', async () => {
    const { s, events } = stream();
    s.start('call-1', 's__view');
    await s.delta('call-1', '{"city":"Ber');
    expect(events).toEqual([{ conversation_id: 'c1', run_id: 'r1', type: 'tool-input', call_id: 'call-1', tool: 's__view', server: 's', original_name: 'view', args: { city: 'Ber' } }]);
  });

  it('input nested 10,000 levels deep is announced bounded (deeper parts as the marker), never overflowing the stack', async () => {
    const { s, events } = stream();
    s.start('deep', 's__view');
    await s.delta('deep', `{"tree":${'['.repeat(10_000)}"bottom"`);
    await s.end('deep');
    expect(events).toHaveLength(1);
    const json = JSON.stringify(events[0]!.args);
    expect(json).toBe(`{"tree":${'['.repeat(MAX_NESTING - 1)}"${NESTED_TOO_DEEP}"${']'.repeat(MAX_NESTING - 1)}}`);
  });

  it('sends at most one event per interval per call, and the last state at the end', async () => {
    const { s, events, clock } = stream();
    s.start('a', 's__view');
    s.start('b', 's__view');
    await s.delta('a', '{"n":"1');
    await s.delta('b', '{"m":"1');
    clock.t += PARTIAL_INPUT_INTERVAL_MS / 2;
    await s.delta('a', '2');
    await s.delta('a', '3');
    expect(events.map((e) => [e.call_id, e.args])).toEqual([
      ['a', { n: '1' }],
      ['b', { m: '1' }],
    ]);
    clock.t += PARTIAL_INPUT_INTERVAL_MS;
    await s.delta('a', '4');
    expect(events.at(-1)).toMatchObject({ call_id: 'a', args: { n: '1234' } });
    await s.delta('a', '5"}');
    await s.end('a');
    expect(events.filter((e) => e.call_id === 'a').map((e) => e.args)).toEqual([{ n: '1' }, { n: '1234' }, { n: '12345' }]);
    // Nothing is repeated: an end with nothing new sends nothing more.
    await s.end('b');
    expect(events.filter((e) => e.call_id === 'b')).toHaveLength(1);
  });

  it('ignores tools without a view, text that is no object yet, and calls whose entry exists', async () => {
    const started = new Set<string>();
    const { s, events, clock } = stream({ started });
    s.start('p', 's__plain');
    await s.delta('p', '{"x":1}');
    await s.end('p');
    s.start('q', 's__view');
    await s.delta('q', '[1,');
    clock.t += PARTIAL_INPUT_INTERVAL_MS;
    await s.delta('q', '');
    expect(events).toEqual([]);
    s.start('v', 's__view');
    started.add('v');
    await s.delta('v', '{"x":1}');
    await s.end('v');
    expect(events).toEqual([]);
  });

  it('stops announcing a call whose input grows past the cap', async () => {
    const { s, events, clock } = stream({ maxChars: 40 });
    s.start('big', 's__view');
    await s.delta('big', '{"text":"');
    clock.t += PARTIAL_INPUT_INTERVAL_MS;
    await s.delta('big', 'a'.repeat(20));
    expect(events).toHaveLength(2);
    clock.t += PARTIAL_INPUT_INTERVAL_MS;
    await s.delta('big', 'b'.repeat(20));
    await s.delta('big', '"}');
    await s.end('big');
    expect(events.map((e) => e.args)).toEqual([{ text: '' }, { text: 'a'.repeat(20) }]);
    expect(MAX_PARTIAL_INPUT_CHARS).toBe(256 * 1024);
  });
});

describe('the agent announces the input of a view tool while the model writes it', () => {
  let dir: string;
  let host: McpHost;
  let model: FakeModel;
  let h: ChatHarness;
  afterEach(async () => {
    await h?.chat.stopAll();
    h?.close();
    await host?.shutdown();
    await model?.close();
    expect(await waitNoChildren()).toBe(true);
    await removeDir(dir);
  });

  it('sends growing partial inputs before the tool entry, and none for a tool without a view', async () => {
    dir = makeTempDir('op-partial-');
    const store = new ConfigStore(dir);
    await store.load();
    await store.put('app', { type: 'local', command: [process.execPath, path.join(ROOT, 'test/fixtures/hostile-app-server.mjs')], env: {}, enabled: true, timeout_seconds: 30 });
    await store.put('fx', { type: 'local', command: [process.execPath, SDK_SERVER], env: {}, enabled: true, timeout_seconds: 30 });
    host = new McpHost(store);
    host.startAll();
    await host.whenStarted();
    model = await startFakeModel({ chunkDelayMs: 2, slowChunks: 6, slowDelayMs: 150 });
    const profiles = new ProfileStore(dir, new MemorySecretStore());
    await new SettingsStore(profiles).set({ provider: 'openai-compatible', base_url: model.baseUrl, model: 'fake-1', api_key: 'sk-test-key-0000' });
    h = await chatHarness(host, profiles, dir);

    const text = 'a draft that the model writes slowly, piece by piece';
    const { run_id } = await h.chat.send('c1', `call-slow app__draft ${JSON.stringify({ text })}`);
    expect(await h.finished(run_id)).toBe('done');
    const inputs = h.events.filter((e): e is ToolInputEvent => e.type === 'tool-input');
    expect(inputs.length).toBeGreaterThanOrEqual(3);
    const tool = h.tools('c1')[0]!;
    expect(tool).toMatchObject({ tool: 'app__draft', args: { text }, state: 'ok' });
    for (const e of inputs) expect(e).toMatchObject({ conversation_id: 'c1', run_id, call_id: tool.call_id, tool: 'app__draft', server: 'app', original_name: 'draft' });
    const lengths = inputs.map((e) => String(e.args.text ?? '').length);
    expect(lengths).toEqual([...lengths].sort((a, b) => a - b));
    expect(inputs.at(-1)!.args).toEqual({ text });
    // Every partial input came before the call's entry was announced.
    const firstEntry = h.events.findIndex((e: ChatEvent) => e.type === 'item' && e.item.kind === 'tool');
    expect(h.events.findLastIndex((e) => e.type === 'tool-input')).toBeLessThan(firstEntry);
    // Not saved: the transcript has the user message, the call and the answer only.
    expect(h.items('c1').map((i) => i.kind)).toEqual(['user', 'tool', 'assistant']);

    // A tool without a view, its input written just as slowly: no partial input.
    const before = h.events.length;
    const second = await h.chat.send('c1', `call-slow fx__echo ${JSON.stringify({ text: 'hello there, slowly' })}`);
    expect(await h.finished(second.run_id)).toBe('done');
    expect(h.tools('c1')[1]).toMatchObject({ tool: 'fx__echo', state: 'ok' });
    expect(h.events.slice(before).filter((e) => e.type === 'tool-input')).toEqual([]);
  });
});
