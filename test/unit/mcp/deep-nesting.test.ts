/**
 * JSON nested 10,000 levels deep, from a server's tool result and from a model's tool arguments,
 * is bounded where it enters main (main/mcp/nesting.ts; README "Security"): the deeper parts
 * become a marker, the call completes, its entry is saved, and the conversation reloads from its
 * real SQLite file and can still send. Real parts: a raw stdio server writing the deep result as
 * JSON text, the SDK fixture server, the fake model over loopback HTTP, the real ChatService.
 */
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProfileStore } from '../../../main/chat/profiles.js';
import { SettingsStore } from '../../../main/chat/settings.js';
import { exceedsDepth } from '../../../main/mcp/adapter.js';
import { ConfigStore } from '../../../main/mcp/config.js';
import { McpHost } from '../../../main/mcp/host.js';
import { MAX_NESTING, NESTED_TOO_DEEP } from '../../../main/mcp/nesting.js';
import { MemorySecretStore } from '../../../main/secrets/store.js';
import type { TranscriptItem } from '../../../preload/contract/index.js';
import { startFakeModel, type FakeModel } from '../../fixtures/fake-model.js';
import { chatHarness, type ChatHarness } from '../chat-harness.js';
import { descendantPids, makeTempDir, removeDir, ROOT, SDK_SERVER, waitNoChildren } from '../helpers.js';

const RAW = path.join(ROOT, 'test', 'fixtures', 'raw-server.mjs');
const LEVELS = 10_000;

let dir: string;
let host: McpHost;
let model: FakeModel;
let profiles: ProfileStore;
let h: ChatHarness | null = null;

beforeEach(async () => {
  dir = makeTempDir('op-deep-');
  const config = new ConfigStore(dir);
  await config.load();
  await config.put('fx', { type: 'local', command: [process.execPath, SDK_SERVER], env: {}, enabled: true, timeout_seconds: 30 });
  await config.put('raw', { type: 'local', command: [process.execPath, RAW, 'deep-result'], env: {}, enabled: true, timeout_seconds: 30 });
  host = new McpHost(config);
  host.startAll();
  await host.whenStarted();
  expect(host.view('fx').state.kind).toBe('ready');
  expect(host.view('raw').state.kind).toBe('ready');
  model = await startFakeModel({ chunkDelayMs: 1 });
  profiles = new ProfileStore(dir, new MemorySecretStore());
  // A model name with a large context window: the user's message of deep JSON text is long.
  await new SettingsStore(profiles).set({ provider: 'openai-compatible', base_url: model.baseUrl, model: 'gpt-4o-mini', api_key: 'sk-test-key-0000' });
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

type ToolItem = Extract<TranscriptItem, { kind: 'tool' }>;

/** Send and wait for the run; returns its outcome and the run id. */
async function sendAndWait(conversationId: string, text: string): Promise<{ outcome: string; runId: string }> {
  const { run_id } = await h!.chat.send(conversationId, text);
  return { outcome: await h!.finished(run_id), runId: run_id };
}

/** Close the chat and open the same database file again, as the next start of the app does. */
async function reload(): Promise<void> {
  h!.close();
  h = await chatHarness(host, profiles, dir);
}

/** The value `steps` levels down a chain of `key` (objects) and first members (arrays). */
function down(v: unknown, steps: number, key: string): unknown {
  for (let i = 0; i < steps; i++) v = Array.isArray(v) ? v[0] : (v as Record<string, unknown>)[key];
  return v;
}

describe('JSON nested 10,000 levels deep', () => {
  it("in a server's tool result (structuredContent): the call completes with the tree bounded, saved, reloaded, and the chat still sends", async () => {
    const first = await sendAndWait('c1', 'call deep');
    expect(first.outcome).toBe('done');
    const check = (): void => {
      const tool = h!.tools('c1')[0]!;
      expect(tool).toMatchObject({ tool: 'raw__deep', state: 'ok', error: null });
      // The text block, and no size-limit notice: the structured content was bounded, not dropped.
      expect(tool.content).toEqual([{ type: 'text', text: 'a deep tree' }]);
      const structured = tool.structured_content as { tree: unknown };
      expect(exceedsDepth(structured, MAX_NESTING)).toBe(false);
      // The result is level 0, its structuredContent level 1: the tree (level 2) keeps levels 2 … 63.
      expect(down(structured.tree, MAX_NESTING - 3, 'level')).toEqual([NESTED_TOO_DEEP]);
      expect(down(structured.tree, MAX_NESTING - 2, 'level')).toBe(NESTED_TOO_DEEP);
      expect(JSON.stringify(structured)).toContain(NESTED_TOO_DEEP);
      expect(JSON.stringify(structured)).not.toContain('bottom');
      expect(h!.answer('c1', first.runId)).toBe('Tool result: a deep tree');
    };
    check();
    await reload();
    check();
    expect(h!.store.search('deep tree').map((hit) => hit.kind)).toContain('tool');
    const again = await sendAndWait('c1', 'still here?');
    expect(again.outcome).toBe('done');
    expect(h!.answer('c1', again.runId)).toBe('echo: still here?');
  });

  it("in a model's tool arguments: the call runs with the arguments bounded, is saved, reloaded, and the chat still sends", async () => {
    const deep = `${'{"a":['.repeat(LEVELS / 2)}"bottom"${']}'.repeat(LEVELS / 2)}`;
    const first = await sendAndWait('c2', `call echo {"text":"hi from deep","deep":${deep}}`);
    expect(first.outcome).toBe('done');
    const check = (): void => {
      const tool = h!.tools('c2')[0]! as ToolItem;
      expect(tool).toMatchObject({ tool: 'fx__echo', state: 'ok', content: [{ type: 'text', text: 'hi from deep' }] });
      const args = tool.args as { text: string; deep: unknown };
      expect(args.text).toBe('hi from deep');
      expect(exceedsDepth(args, MAX_NESTING)).toBe(false);
      // The arguments are level 0, `deep` level 1: it keeps levels 1 … 63.
      expect(down(args.deep, MAX_NESTING - 1, 'a')).toBe(NESTED_TOO_DEEP);
      expect(JSON.stringify(args)).toContain(NESTED_TOO_DEEP);
      expect(JSON.stringify(args)).not.toContain('bottom');
      expect(h!.answer('c2', first.runId)).toBe('Tool result: hi from deep');
    };
    check();
    // The model was sent the bounded call in the next step (nothing failed to encode).
    const followUp = model.requests.at(-1)!.body.messages.find((m) => m.tool_calls?.length);
    expect(followUp!.tool_calls![0]!.function.arguments).toContain(NESTED_TOO_DEEP);
    await reload();
    check();
    const again = await sendAndWait('c2', 'and now?');
    expect(again.outcome).toBe('done');
    expect(h!.answer('c2', again.runId)).toBe('echo: and now?');
  });

  it('in arguments passed to McpHost.callTool (any caller, MCP Apps views too): sent bounded, the call completes', async () => {
    const deep = JSON.parse(`${'['.repeat(LEVELS)}"bottom"${']'.repeat(LEVELS)}`) as unknown;
    const result = await host.callTool('fx__echo', { text: 'plain', deep });
    expect(result.content).toEqual([{ type: 'text', text: 'plain' }]);
  });
});
