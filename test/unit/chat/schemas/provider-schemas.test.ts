/**
 * Schemas every provider accepts, end to end: a real host with a plain server and one whose tools
 * carry schemas real providers refuse at depth (test/fixtures/poisoned-schema-server.mjs), the
 * real chat, and scripted providers that validate tools like the real ones
 * (test/fixtures/provider-schema-rules.ts) — a refused tool fails the whole request with a 400.
 * Each chat still answers, even one that calls the poisoned tool; a tool the family cannot express
 * is left out and named on its server's card.
 */
import path from 'node:path';
import { streamText, stepCountIs } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProfileStore } from '../../../../main/chat/profiles.js';
import { createModel } from '../../../../main/chat/providers.js';
import { RunRecorder } from '../../../../main/chat/run-recorder.js';
import { buildRunTools } from '../../../../main/chat/run-tools.js';
import { fitToolsFor } from '../../../../main/chat/schemas/index.js';
import { SettingsStore } from '../../../../main/chat/settings.js';
import { ConfigStore } from '../../../../main/mcp/config.js';
import { McpHost } from '../../../../main/mcp/host.js';
import { MemorySecretStore } from '../../../../main/secrets/store.js';
import type { ServerIssue } from '../../../../preload/contract/index.js';
import { startFakeAnthropic } from '../../../fixtures/fake-anthropic.js';
import { startFakeModel, type WireRequest } from '../../../fixtures/fake-model.js';
import { anthropicProblem, geminiProblem, openaiProblem } from '../../../fixtures/provider-schema-rules.js';
import { chatHarness, type ChatHarness } from '../../chat-harness.js';
import { descendantPids, makeTempDir, removeDir, ROOT, sdkCommand, waitNoChildren } from '../../helpers.js';

const POISONED = path.join(ROOT, 'test', 'fixtures', 'poisoned-schema-server.mjs');
/** Arguments for the poisoned tool that use its nested parts. */
const POISON_ARGS = JSON.stringify({ text: 'hi', address: { city: 'Oslo' }, mode: 'fast', nested: { deep: { when: '2026-01-01T00:00:00Z', n: 2 } } });

let dir: string;
let host: McpHost;
let h: ChatHarness | undefined;
const closers: Array<() => Promise<void>> = [];

beforeEach(async () => {
  dir = makeTempDir('op-schemas-');
  const store = new ConfigStore(dir);
  await store.load();
  await store.put('fx', { type: 'local', command: sdkCommand(), env: {}, enabled: true, timeout_seconds: 20 });
  await store.put('bad', { type: 'local', command: [process.execPath, POISONED], env: {}, enabled: true, timeout_seconds: 20 });
  host = new McpHost(store);
  host.startAll();
  await host.whenStarted();
  expect(host.view('bad').state.kind).toBe('ready');
});

afterEach(async () => {
  await h?.chat.stopAll();
  h?.close();
  h = undefined;
  await host.shutdown();
  for (const c of closers.splice(0)) await c();
  expect(await waitNoChildren(), `child processes left: ${descendantPids().join(', ')}`).toBe(true);
  await removeDir(dir);
});

/** The first problem an OpenAI-compatible request's tools have for `judge`, or null. */
const wireJudge =
  (judge: (name: string, params: unknown, strict: boolean, i: number) => string | null) =>
  (tools: NonNullable<WireRequest['tools']>): string | null => {
    for (const [i, t] of tools.entries()) {
      const p = judge(t.function.name, t.function.parameters, t.function.strict === true, i);
      if (p) return p;
    }
    return null;
  };
const geminiWire = wireJudge((_n, params, _s, i) => geminiProblem(i, params));
const openaiWire = wireJudge((n, params, strict) => openaiProblem(n, params, strict));

async function chatWith(provider: 'openai-compatible' | 'anthropic', baseUrl: string, model: string): Promise<ChatHarness> {
  const profiles = new ProfileStore(dir, new MemorySecretStore());
  await new SettingsStore(profiles).set({ provider, base_url: baseUrl, model, api_key: 'sk-test-0000' });
  h = await chatHarness(host, profiles, dir);
  return h;
}

const leftOut = (server: string): Array<Extract<ServerIssue, { kind: 'tool_left_out_for_provider' }>> =>
  host.view(server).issues.filter((i): i is Extract<ServerIssue, { kind: 'tool_left_out_for_provider' }> => i.kind === 'tool_left_out_for_provider');

describe('the scripted providers refuse the schemas as listed', () => {
  it('each validator refuses at least one of the poisoned server’s tools as listed (so the chats below prove the fitting)', () => {
    const listed = host.ready('bad')!.tools;
    const poisoned = listed.find((t) => t.name === 'poisoned')!.inputSchema;
    expect(geminiProblem(0, poisoned)).toMatch(/Unknown name/);
    expect(openaiProblem('bad__poisoned', poisoned, false)).toMatch(/array schema missing items/);
    expect(openaiProblem('bad__poisoned', poisoned, true)).not.toBeNull();
    expect(anthropicProblem(0, poisoned)).toMatch(/malformed/);
    expect(anthropicProblem(0, listed.find((t) => t.name === 'top_anyof')!.inputSchema)).toMatch(/at the top level/);
  });
});

describe('a chat with a poisoned server still answers', () => {
  it('Gemini-style validation: plain chat and a call of the poisoned tool answer; the recursive tool is left out and on the card', async () => {
    const model = await startFakeModel({ chunkDelayMs: 1, validateTools: geminiWire });
    closers.push(() => model.close());
    const chat = await chatWith('openai-compatible', model.baseUrl, 'gemini-2.5-flash');
    const a = await chat.chat.send('g1', 'hello');
    expect(await chat.finished(a.run_id)).toBe('done');
    expect(chat.answer('g1', a.run_id)).toBe('echo: hello');
    const offered = model.requests[0]!.body.tools!.map((t) => t.function.name);
    expect(offered).toEqual(expect.arrayContaining(['fx__echo', 'bad__plain', 'bad__poisoned', 'bad__top_anyof']));
    expect(offered).not.toContain('bad__recursive');
    const b = await chat.chat.send('g2', `call bad__poisoned ${POISON_ARGS}`);
    expect(await chat.finished(b.run_id)).toBe('done');
    expect(chat.tools('g2')[0]).toMatchObject({ state: 'ok', server: 'bad', original_name: 'poisoned' });
    expect(chat.answer('g2', b.run_id)).toContain('poisoned got {"text":"hi"');
    expect(chat.items('g2').some((i) => i.kind === 'notice')).toBe(false);
    // The card: which tool, for which family, why.
    expect(leftOut('bad')).toEqual([{ kind: 'tool_left_out_for_provider', tool: 'recursive', family: 'gemini', reason: 'recursive' }]);
    expect(leftOut('fx')).toEqual([]);
  });

  it('OpenAI-compatible validation (arrays need items): the poisoned and recursive tools are offered and answer', async () => {
    const model = await startFakeModel({ chunkDelayMs: 1, validateTools: openaiWire });
    closers.push(() => model.close());
    const chat = await chatWith('openai-compatible', model.baseUrl, 'fake-1');
    const r = await chat.chat.send('o1', `call bad__poisoned ${POISON_ARGS}`);
    expect(await chat.finished(r.run_id)).toBe('done');
    expect(chat.tools('o1')[0]).toMatchObject({ state: 'ok' });
    expect(model.requests[0]!.body.tools!.map((t) => t.function.name)).toEqual(expect.arrayContaining(['bad__recursive', 'bad__poisoned']));
  });

  it('Anthropic validation (no top-level anyOf, well-formed keywords): the chat answers and calls the fitted tools', async () => {
    const fake = await startFakeAnthropic({ validateTools: (tools) => tools.map((t, i) => anthropicProblem(i, t.input_schema)).find((p) => p) ?? null });
    closers.push(() => fake.close());
    const chat = await chatWith('anthropic', fake.baseUrl, 'claude-test');
    const r = await chat.chat.send('a1', 'call bad__top_anyof {"id":"7","value":"v"}');
    expect(await chat.finished(r.run_id)).toBe('done');
    expect(chat.answer('a1', r.run_id)).toContain('top_anyof got {"id":"7","value":"v"}');
    const tool = fake.requests[0]!.body.tools!.find((t) => t.name === 'bad__top_anyof')!;
    expect(tool.input_schema).toMatchObject({ type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' }, value: { type: 'string' } } });
  });

  it("OpenAI strict mode: tools go with strict: true, the strict validator accepts them, and the model's marker nulls never reach the server", async () => {
    const model = await startFakeModel({
      chunkDelayMs: 1,
      validateTools: openaiWire,
      script: (req) => {
        const last = req.messages.at(-1)!;
        if (last.role === 'tool') return { text: `Tool result: ${typeof last.content === 'string' ? last.content : ''}` };
        // A strict-mode model fills every property, null for the ones it leaves out.
        return { toolCalls: [{ name: 'bad__top_anyof', arguments: { id: '7', name: null, value: 'v' } }] };
      },
    });
    closers.push(() => model.close());
    const chat = await chatWith('openai-compatible', model.baseUrl, 'fake-1');
    chat.store.ensure('s1', 'strict');
    const { tools } = fitToolsFor(
      host.tools().filter((t) => t.server === 'bad'),
      'openai_strict',
    );
    expect(tools.find((t) => t.original_name === 'top_anyof')).toMatchObject({ strict: true });
    // A tool strict mode cannot express goes without strict mode (its `labels` is a map), not left out.
    expect(tools.find((t) => t.original_name === 'poisoned')).toMatchObject({ strict: false });
    const rec = new RunRecorder(chat.store, 's1', 'run-1', () => undefined);
    const ctrl = new AbortController();
    const result = streamText({
      model: createModel({ provider: 'openai-compatible', base_url: model.baseUrl, model: 'fake-1' }, 'sk-test-0000'),
      prompt: 'use the tool',
      tools: buildRunTools(host, chat.permissions.gate, tools, { conversationId: 's1', runId: 'run-1', signal: ctrl.signal, calls: new Map(), recorder: rec, images: { acceptsImages: false, imagesInToolResults: false }, followUpImages: [] }),
      stopWhen: stepCountIs(3),
      maxRetries: 0,
    });
    expect(await result.text).toBe('Tool result: top_anyof got {"id":"7","value":"v"}');
    const sent = model.requests[0]!.body.tools!;
    expect(sent.filter((t) => t.function.strict === true).map((t) => t.function.name)).toEqual(expect.arrayContaining(['bad__top_anyof', 'bad__plain']));
    expect(sent.find((t) => t.function.name === 'bad__poisoned')!.function.strict).toBeUndefined();
    expect(openaiWire(sent)).toBeNull();
  });
});
