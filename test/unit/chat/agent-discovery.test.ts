/**
 * Hundreds of tools (docs/ARCHITECTURE.md "Tool discovery"): a real McpHost with 150 tools over
 * two stdio servers, and the fake model refusing more than 128 tools the way OpenAI does. The
 * first message is answered: the run offers what fits plus `host__search_tools`, the model
 * searches, calls the tool it found (through the permission gate), and the run notes say what was
 * offered and found — the servers' tools counted as the chat counts them, the app's own tools
 * apart, and no note for a run that offers what the conversation's last note says. A tool the user disabled
 * is never found.
 */
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProfileStore } from '../../../main/chat/profiles.js';
import { SettingsStore } from '../../../main/chat/settings.js';
import { ConfigStore } from '../../../main/mcp/config.js';
import { McpHost } from '../../../main/mcp/host.js';
import { MemorySecretStore } from '../../../main/secrets/store.js';
import type { TranscriptItem } from '../../../preload/contract/index.js';
import { startFakeModel, textOf, type FakeModel, type Turn, type WireRequest } from '../../fixtures/fake-model.js';
import { chatHarness, type ChatHarness } from '../chat-harness.js';
import { makeTempDir, removeDir, ROOT, waitFor } from '../helpers.js';

const MANY = path.join(ROOT, 'test', 'fixtures', 'many-tools-stdio.mjs');
const RESOURCE_SERVER = path.join(ROOT, 'test', 'fixtures', 'resource-server.mjs');

let dir: string;
let host: McpHost;
let model: FakeModel;
let h: ChatHarness;

/** Search when the search tool is offered; call what it found that ends with `weather_forecast`; then answer. */
function discoveringScript(req: WireRequest): Turn {
  const last = req.messages[req.messages.length - 1]!;
  if (last.role === 'tool') {
    const text = textOf(last);
    if (text.includes('"found"')) {
      const doc = JSON.parse(text) as { found: Array<{ name: string }>; already_offered?: string[] };
      const found = [...doc.found.map((f) => f.name), ...(doc.already_offered ?? [])];
      const target = found.find((n) => n.endsWith('weather_forecast'));
      if (target && req.tools?.some((t) => t.function.name === target)) return { toolCalls: [{ name: target, arguments: { city: 'Paris' } }] };
      return { text: `found: ${found.join(',') || 'nothing'}` };
    }
    return { text: `Tool result: ${text}` };
  }
  if (req.tools?.some((t) => t.function.name === 'host__search_tools')) return { toolCalls: [{ name: 'host__search_tools', arguments: { query: 'weather forecast for a city' } }] };
  return { text: 'no search tool' };
}

beforeEach(async () => {
  dir = makeTempDir('op-discovery-');
  const store = new ConfigStore(dir);
  await store.load();
  await store.put('alpha', { type: 'local', command: [process.execPath, MANY, '--tools=100'], env: {}, enabled: true, timeout_seconds: 30 });
  await store.put('beta', { type: 'local', command: [process.execPath, MANY, '--tools=49', '--offset=7', '--weather'], env: {}, enabled: true, timeout_seconds: 30 });
  host = new McpHost(store);
  host.startAll();
  await host.whenStarted();
  model = await startFakeModel({ chunkDelayMs: 1, maxTools: 128, script: discoveringScript });
  const profiles = new ProfileStore(dir, new MemorySecretStore());
  // A remote-looking model name with a large window: the 128-tool cap is what applies.
  await new SettingsStore(profiles).set({ provider: 'openai-compatible', base_url: model.baseUrl, model: 'gpt-4o', api_key: 'sk-x' });
  h = await chatHarness(host, profiles, dir);
});

afterEach(async () => {
  await h?.chat.stopAll();
  h?.close();
  await host.shutdown();
  await model?.close();
  await removeDir(dir);
});

const notices = (items: TranscriptItem[]) => items.filter((i): i is Extract<TranscriptItem, { kind: 'notice' }> => i.kind === 'notice');

describe('150 tools against a provider capped at 128', () => {
  it('answers the first message: search, call the found tool, notes of what was offered and found', async () => {
    expect(host.tools().filter((t) => t.server !== '@host')).toHaveLength(150);
    // Nothing in the message matches the tool, so it is not among the first picks: it must be found.
    const { run_id } = await h.chat.send('c1', 'How should I dress in Paris tomorrow?');
    expect(await h.finished(run_id)).toBe('done');
    expect(model.refused).toEqual([]);
    for (const r of model.requests) expect(r.body.tools!.length).toBeLessThanOrEqual(128);
    expect(model.requests[0]!.body.tools!.map((t) => t.function.name)).toContain('host__search_tools');
    const tools = h.tools('c1');
    expect(tools.map((t) => [t.tool, t.state])).toEqual([
      ['host__search_tools', 'ok'],
      ['beta__weather_forecast', 'ok'],
    ]);
    // The found tool went through the permission gate (mode never_ask here).
    expect(tools[1]!.permission).toMatchObject({ allowed: true, via: 'mode_never_ask' });
    expect(h.answer('c1', run_id)).toBe('Tool result: weather_forecast: {"city":"Paris"}');
    const notes = notices(h.items('c1'));
    expect(notes[0]!.run_tools).toMatchObject({ stage: 'offered', total: 150, reason: 'count', max_tools: 128 });
    expect(notes[0]!.run_tools!.offered.length + notes[0]!.run_tools!.host_offered!.length).toBe(127);
    expect(notes.at(-1)!.run_tools).toMatchObject({ stage: 'found', found: ['beta__weather_forecast'] });
  });

  it('a tool the user disabled is never found', async () => {
    await host.setToolSettings('beta', 'weather_forecast', { enabled: false });
    const { run_id } = await h.chat.send('c2', 'What is the weather forecast in Paris?');
    expect(await h.finished(run_id)).toBe('done');
    const search = h.tools('c2')[0]!;
    expect(search.tool).toBe('host__search_tools');
    expect(JSON.stringify(search.content)).not.toContain('weather_forecast');
    expect(h.tools('c2').map((t) => t.tool)).toEqual(['host__search_tools']);
    for (const r of model.requests) expect(r.body.tools!.map((t) => t.function.name)).not.toContain('beta__weather_forecast');
  });
});

describe('the run notes', () => {
  const offeredNotes = (id: string) => notices(h.items(id)).filter((n) => n.run_tools?.stage === 'offered');

  it('count the servers’ tools as the chat shows them and the app’s own apart; a run that offers what the last note says gets no note', async () => {
    // A server with resources and prompts: the host's own tools (host__list_resources, …) join the candidates.
    await host.add('notes', { type: 'local', command: [process.execPath, RESOURCE_SERVER] });
    expect(await waitFor(() => host.view('notes').state.kind === 'ready', 15_000)).toBe(true);
    const hostTools = host.tools().filter((t) => t.server === '@host').map((t) => t.name);
    expect(hostTools).toContain('host__list_resources');
    // What the chat's header and "Tools: N" count: the ready servers' offered tools.
    const shown = host.list().reduce((n, v) => n + v.tool_count, 0);
    expect(shown).toBe(151);

    const first = await h.chat.send('c3', 'How should I dress in Paris tomorrow?');
    expect(await h.finished(first.run_id)).toBe('done');
    const [note] = offeredNotes('c3');
    expect(note!.run_tools).toMatchObject({ stage: 'offered', total: shown, reason: 'count' });
    expect(note!.run_tools!.offered.every((n) => !n.startsWith('host__'))).toBe(true);
    expect(note!.run_tools!.host_total).toBe(hostTools.length);
    expect(note!.run_tools!.host_offered!.every((n) => hostTools.includes(n))).toBe(true);
    expect(note!.run_tools!.offered.length + note!.run_tools!.host_offered!.length).toBe(127);
    expect(note!.text).toMatch(new RegExp(`^\\d+ of 151 tools were offered at first .* The app's own ${hostTools.length} tools for the servers' resources and prompts \\(host__…\\) are counted apart: \\d+ of them were offered at first\\.$`));

    // The same message again: the same offer, no second note.
    const again = await h.chat.send('c3', 'How should I dress in Paris tomorrow?');
    expect(await h.finished(again.run_id)).toBe('done');
    expect(offeredNotes('c3')).toHaveLength(1);
    // A message that ranks other tools first: its run offers others, and says so.
    const other = await h.chat.send('c3', 'archive the music playlist and share the map of the video');
    expect(await h.finished(other.run_id)).toBe('done');
    const notes = offeredNotes('c3');
    expect(notes).toHaveLength(2);
    expect(notes[1]!.run_tools!.offered.sort()).not.toEqual(notes[0]!.run_tools!.offered.sort());
    // The first message again: its offer is the first note's, but the last note says otherwise — a note.
    const back = await h.chat.send('c3', 'How should I dress in Paris tomorrow?');
    expect(await h.finished(back.run_id)).toBe('done');
    expect(offeredNotes('c3')).toHaveLength(3);
    // And once more: nothing new, however many runs in a row.
    for (let k = 0; k < 2; k++) {
      const same = await h.chat.send('c3', 'How should I dress in Paris tomorrow?');
      expect(await h.finished(same.run_id)).toBe('done');
    }
    expect(offeredNotes('c3')).toHaveLength(3);
    // Regenerating the last answer: the same offer as the last note before it — still no note.
    const regen = await h.chat.regenerate('c3');
    expect(await h.finished(regen.run_id)).toBe('done');
    expect(offeredNotes('c3')).toHaveLength(3);
  });
});

describe('a request the app computes as too big', () => {
  it('is never sent: the run fails with the numbers, first step and mid-run alike', async () => {
    const profiles = new ProfileStore(dir, new MemorySecretStore());
    // A small window; the model answers a tool call whose own input is far larger than the window.
    const small = await profiles.save({ name: 'Small', provider: 'openai-compatible', base_url: model.baseUrl, model: 'tiny', context_window: 4096, make_default: true });
    await model.close();
    model = await startFakeModel({
      chunkDelayMs: 1,
      script: (req) => (req.messages.at(-1)!.role === 'tool' ? { text: 'never reached' } : { toolCalls: [{ name: req.tools!.find((t) => t.function.name !== 'host__search_tools')!.function.name, arguments: { id: 'x'.repeat(40_000) } }] }),
    });
    await profiles.save({ id: small.id, name: 'Small', provider: 'openai-compatible', base_url: model.baseUrl, model: 'tiny', context_window: 4096 });
    h.close();
    h = await chatHarness(host, profiles, dir);

    // First step: the message alone is larger than the window — nothing is sent.
    const first = await h.chat.send('big', 'y'.repeat(20_000));
    expect(await h.finished(first.run_id)).toBe('failed');
    expect(model.requests).toHaveLength(0);
    const note = notices(h.items('big')).at(-1)!;
    expect(note.tone).toBe('error');
    expect(note.context_overflow).toMatchObject({ context_window: 4096, answer_reserve: 1024 });
    expect(note.text).toMatch(/^Not sent: this request needs about \d+ tokens, more than the model's context window of 4096/);

    // Mid-run: the step after the call would carry the call's 40,000-character input — not sent.
    const mid = await h.chat.send('mid', 'go');
    expect(await h.finished(mid.run_id)).toBe('failed');
    expect(model.requests).toHaveLength(1);
    expect(notices(h.items('mid')).at(-1)!.context_overflow).toMatchObject({ context_window: 4096 });
  });
});

