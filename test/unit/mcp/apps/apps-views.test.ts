/**
 * A view's requests through the contract and a real AppCore, with a real MCP App server (the
 * hostile fixture) and the fake model (docs/ARCHITECTURE.md "MCP Apps: isolation"): `apps.view`
 * issues an instance only for a tool call the conversation really holds — of that tool, on that
 * server, under those ids — and every later request names only that instance, so it reaches
 * that server alone, only tools with "app" visibility, and nothing once the instance is released
 * or the page that asked for it went away.
 */
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppViewLoad, Envelope, TranscriptItem } from '../../../../preload/contract/index.js';
import { AppCore } from '../../../../main/core.js';
import { createDispatcher } from '../../../../main/ipc/dispatch.js';
import { MemorySecretStore } from '../../../../main/secrets/store.js';
import { startFakeModel, type FakeModel } from '../../../fixtures/fake-model.js';
import { makeTempDir, removeDir, ROOT, sdkCommand, waitFor } from '../../helpers.js';

const APP_SERVER = ['node', path.join(ROOT, 'test', 'fixtures', 'hostile-app-server.mjs')];
type ToolItem = Extract<TranscriptItem, { kind: 'tool' }>;

let dir: string;
let model: FakeModel;
let core: AppCore;
let d: ReturnType<typeof createDispatcher>;

const ok = (e: Envelope<unknown>): unknown => {
  if (!e.ok) throw new Error(`${e.error.code}: ${e.error.message}`);
  return e.value;
};
const codeOf = (e: Envelope<unknown>): string => (e.ok ? 'ok' : e.error.code);

/** The conversation's tool entries, as the window gets them. */
async function toolItems(conversation: string): Promise<ToolItem[]> {
  const view = ok(await d.invoke('conversations.get', { id: conversation })) as { items_json: string };
  return (JSON.parse(view.items_json) as TranscriptItem[]).filter((i): i is ToolItem => i.kind === 'tool');
}

async function send(conversation: string, text: string): Promise<void> {
  ok(await d.invoke('chat.send', { conversation_id: conversation, text }));
  expect(await waitFor(() => !core.chat.isRunning(conversation), 15_000)).toBe(true);
}

beforeEach(async () => {
  dir = makeTempDir('op-apps-views-');
  model = await startFakeModel(); // `call __draft {…}` calls the App server's tool
  core = new AppCore({ stateDir: dir, shell: 'browser', secrets: new MemorySecretStore(), viewOrigins: { originFor: (label) => `http://${label}.localhost:9` } });
  await core.start();
  d = createDispatcher(core);
  ok(await d.invoke('settings.setModel', { provider: 'openai-compatible', base_url: model.baseUrl, model: 'fake' }));
  ok(await d.invoke('permissions.setMode', { mode: 'never_ask' }));
  ok(await d.invoke('servers.add', { name: 'app', config: { type: 'local', command: APP_SERVER, env: {} } }));
  ok(await d.invoke('servers.add', { name: 'other', config: { type: 'local', command: sdkCommand(), env: {} } }));
  expect(await waitFor(() => core.host.view('app').state.kind === 'ready' && core.host.view('other').state.kind === 'ready', 15_000)).toBe(true);
});
afterEach(async () => {
  await core.shutdown();
  await model.close();
  await removeDir(dir);
});

describe('apps.view issues a view only for a real tool call', () => {
  it('a made-up call id, another run, another conversation, another server or another tool gets no view; the real call gets one on an origin of its own', async () => {
    await send('c', 'call __draft {"text":"hello"}');
    await send('d', 'something else');
    const [call] = await toolItems('c');
    expect(call).toMatchObject({ server: 'app', original_name: 'draft', state: 'ok' });
    const real = { conversation_id: 'c', run_id: call!.run_id, call_id: call!.call_id, server: 'app', tool: 'draft' };
    const notACall = { kind: 'unavailable', reason: 'not_a_call' };
    for (const forged of [
      { ...real, call_id: 'call_made_up' },
      { ...real, run_id: 'run-made-up' },
      { ...real, conversation_id: 'd' },
      { ...real, conversation_id: 'no-such-conversation' },
      { ...real, tool: 'probe' },
      { ...real, server: 'other', tool: 'echo' },
    ])
      expect(ok(await d.invoke('apps.view', forged)), JSON.stringify(forged)).toEqual(notACall);

    const a = ok(await d.invoke('apps.view', real)) as Extract<AppViewLoad, { kind: 'ready' }>;
    const b = ok(await d.invoke('apps.view', real)) as Extract<AppViewLoad, { kind: 'ready' }>;
    expect(a.kind).toBe('ready');
    expect(a.view_instance).not.toBe(b.view_instance);
    expect(a.sandbox_url).toMatch(/^http:\/\/v[0-9a-f]{32}\.localhost:9\/sandbox\.html$/);
    expect(a.sandbox_origin).toBe(new URL(a.sandbox_url).origin);
    // Its sandbox page is served with its policy while it is shown, and not once both are released.
    const label = new URL(a.sandbox_url).hostname.split('.')[0]!;
    expect(core.apps.sandboxCsp(label)).toEqual({});
    ok(await d.invoke('apps.releaseView', { view_instance: a.view_instance }));
    ok(await d.invoke('apps.releaseView', { view_instance: b.view_instance }));
    expect(core.apps.sandboxCsp(label)).toBeNull();
  });
});

describe("a view's requests name only its instance", () => {
  async function shownView(): Promise<string> {
    await send('c', 'call __draft {"text":"hello"}');
    const [call] = await toolItems('c');
    const load = ok(await d.invoke('apps.view', { conversation_id: 'c', run_id: call!.run_id, call_id: call!.call_id, server: 'app', tool: 'draft' })) as Extract<AppViewLoad, { kind: 'ready' }>;
    return load.view_instance;
  }

  it('reach its own server only, only tools with "app" visibility; another server\'s tool is unknown to it', async () => {
    const instance = await shownView();
    const appOnly = ok(await d.invoke('apps.callTool', { view_instance: instance, tool: 'app_only', arguments: {} })) as { content: Array<{ text: string }> };
    expect(appOnly.content[0]!.text).toBe('app-only ran');
    // visibility ["model"]: the view may not call it.
    const modelOnly = await d.invoke('apps.callTool', { view_instance: instance, tool: 'model_only', arguments: {} });
    expect(modelOnly).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    // The other server's tool, named by the view: looked up on the view's own server, where it does not exist.
    expect(await d.invoke('apps.callTool', { view_instance: instance, tool: 'echo', arguments: { text: 'x' } })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    // A resource read goes to the view's server: its own view document is there.
    const read = ok(await d.invoke('apps.readResource', { view_instance: instance, uri: 'ui://hostile/draft.html' })) as { contents: Array<{ uri: string }> };
    expect(read.contents[0]!.uri).toBe('ui://hostile/draft.html');
    // Its log lines land in its server's log.
    expect(ok(await d.invoke('apps.log', { view_instance: instance, level: 'info', data: 'from the draft view' }))).toEqual({ kept: true });
    expect(core.host.logs('app').some((e) => e.text.includes('from the draft view'))).toBe(true);
    expect(core.host.logs('other').some((e) => e.text.includes('from the draft view'))).toBe(false);
  });

  it('a view\'s deeply nested arguments: too deep to encode is refused as bad input; deep but encodable is bounded before the permission gate and the server see it', async () => {
    const instance = await shownView();
    const nest = (levels: number): unknown => {
      let v: unknown = 'bottom';
      for (let i = 0; i < levels; i++) v = [v];
      return v;
    };
    expect(await d.invoke('apps.callTool', { view_instance: instance, tool: 'app_only', arguments: { deep: nest(100_000) } })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: expect.stringMatching(/nested too deeply/) },
    });
    // Asking: the gate hashes the arguments and the card shows them (both walk the whole value).
    ok(await d.invoke('permissions.setMode', { mode: 'ask_all' }));
    try {
      const call = d.invoke('apps.callTool', { view_instance: instance, tool: 'app_only', arguments: { deep: nest(3_000) } });
      let pending: Array<{ id: string }> = [];
      for (let i = 0; i < 100 && pending.length === 0; i++) {
        pending = ok(await d.invoke('approvals.list', {})) as Array<{ id: string }>;
        if (!pending.length) await new Promise((r) => setTimeout(r, 20));
      }
      expect(pending).toHaveLength(1);
      ok(await d.invoke('approvals.respond', { id: pending[0]!.id, decision: 'allow_once' }));
      expect(await call).toMatchObject({ ok: true });
    } finally {
      ok(await d.invoke('permissions.setMode', { mode: 'never_ask' }));
    }
  });

  it('once released — or once the page that asked for it went away — it reaches nothing', async () => {
    const instance = await shownView();
    ok(await d.invoke('apps.releaseView', { view_instance: instance }));
    for (const [channel, input] of [
      ['apps.callTool', { view_instance: instance, tool: 'app_only', arguments: {} }],
      ['apps.readResource', { view_instance: instance, uri: 'ui://hostile/draft.html' }],
      ['apps.updateModelContext', { view_instance: instance, text: 'late' }],
      ['apps.log', { view_instance: instance, level: 'info', data: 'late' }],
    ] as const)
      expect(codeOf(await d.invoke(channel, input)), channel).toBe('forbidden');

    // A page's view: the carrier aborts the page's signal when it reloads or disconnects.
    const [call] = await toolItems('c');
    const page = new AbortController();
    const load = ok(await d.invoke('apps.view', { conversation_id: 'c', run_id: call!.run_id, call_id: call!.call_id, server: 'app', tool: 'draft' }, { signal: page.signal })) as Extract<AppViewLoad, { kind: 'ready' }>;
    expect(codeOf(await d.invoke('apps.callTool', { view_instance: load.view_instance, tool: 'app_only', arguments: {} }))).toBe('ok');
    page.abort();
    expect(codeOf(await d.invoke('apps.callTool', { view_instance: load.view_instance, tool: 'app_only', arguments: {} }))).toBe('forbidden');
  });
});
