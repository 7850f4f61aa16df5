/**
 * An approval is bound to the server that asked, not to a tool name (docs/ARCHITECTURE.md
 * "Permissions"). A real app core (AppCore, its McpHost, permission gate and broker, the chat
 * service with the fake model over loopback) and two real SDK fixture servers whose names share
 * one tool namespace — `my_fs` and `my.fs`, from a config file written before names were checked.
 * Each server records the calls it really runs in its own file (`--record`), so the tests see
 * where a call went:
 * - a call approved for `my_fs` does not run on `my.fs` when `my_fs` drops out (removed, disabled,
 *   crashed) before the card is answered, nor when the gate allowed it and `my_fs` dropped out
 *   before the call was made (`McpHost.callResolved`);
 * - a card answered after `my_fs` restarted with another command runs nothing and stores nothing;
 * - a name offered to the model for `my_fs` that `my.fs` took meanwhile is not called on `my.fs`;
 * - an MCP App view's call keeps to the same binding;
 * - "Allow in this conversation" is not inherited by a server re-added (or edited) under the same
 *   name with another command, and survives a plain restart.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Envelope, TranscriptItem } from '../../../../preload/contract/index.js';
import { AppCore } from '../../../../main/core.js';
import { createDispatcher, toIpcError, type Dispatcher } from '../../../../main/ipc/dispatch.js';
import { ConfigStore } from '../../../../main/mcp/config.js';
import { ServerChangedError } from '../../../../main/mcp/host.js';
import { MemorySecretStore } from '../../../../main/secrets/store.js';
import { startFakeModel, type FakeModel, type Turn, type WireRequest } from '../../../fixtures/fake-model.js';
import { makeTempDir, removeDir, sdkCommand, waitFor, waitNoChildren } from '../../helpers.js';

let dir: string;
/** Where the servers' record files go: not the state folder, which a sandboxed server never sees. */
let notesDir: string;
let core: AppCore;
let d: Dispatcher;
let model: FakeModel;
/** The record files of `my_fs`, `my.fs`, and of a replacement command. */
let A: string;
let B: string;
let C: string;
let script: ((req: WireRequest) => Turn) | null;

const ok = <T>(e: Envelope<unknown>): T => {
  if (!e.ok) throw new Error(`${e.error.code}: ${e.error.message}`);
  return e.value as T;
};
/** The lines a server's record file holds (what really ran there). */
const notes = (file: string): string[] => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);

beforeEach(async () => {
  dir = makeTempDir('op-bind-');
  notesDir = makeTempDir('op-bind-notes-');
  A = path.join(notesDir, 'notes-my_fs.txt');
  B = path.join(notesDir, 'notes-my.fs.txt');
  C = path.join(notesDir, 'notes-replacement.txt');
  // A config file from before names were checked: both entries load.
  const s = new ConfigStore(dir);
  await s.load();
  await s.put('my_fs', { type: 'local', command: sdkCommand(`--record=${A}`), env: {}, enabled: true, timeout_seconds: 30 });
  await s.put('my.fs', { type: 'local', command: sdkCommand(`--record=${B}`), env: {}, enabled: true, timeout_seconds: 30 });
  script = null;
  model = await startFakeModel({ chunkDelayMs: 1, script: (req) => (script ? script(req) : defaultTurn(req)) });
  core = new AppCore({ stateDir: dir, shell: 'browser', secrets: new MemorySecretStore(), viewOrigins: { originFor: (label) => `http://${label}.localhost:9` } });
  await core.start();
  d = createDispatcher(core);
  ok(await d.invoke('settings.setModel', { provider: 'openai-compatible', base_url: model.baseUrl, model: 'fake' }));
  ok(await d.invoke('permissions.setMode', { mode: 'ask_all' }));
  expect(await waitFor(() => core.host.view('my_fs').state.kind === 'ready' && core.host.view('my.fs').state.kind === 'ready', 20_000)).toBe(true);
});

afterEach(async () => {
  await core.shutdown();
  await model.close();
  expect(await waitNoChildren(15_000)).toBe(true);
  await removeDir(dir);
  await removeDir(notesDir);
});

/** The fake model's default: `call <name> <json>` calls that offered tool; a tool result ends the turn. */
function defaultTurn(req: WireRequest): Turn {
  const last = req.messages.at(-1)!;
  if (last.role === 'tool') return { text: 'done' };
  const m = /^call (\S+) (.*)$/s.exec(typeof last.content === 'string' ? last.content : '');
  return m ? { toolCalls: [{ name: m[1]!, arguments: JSON.parse(m[2]!) }] } : { text: 'nothing to do' };
}

/** The saved tool entries of a conversation (as the conversation database holds them). */
function toolEntries(id: string): Array<Extract<TranscriptItem, { kind: 'tool' }>> {
  return core.conversationStore.get(id).items.filter((i): i is Extract<TranscriptItem, { kind: 'tool' }> => i.kind === 'tool');
}

/** Send `text`, wait for its approval card, return it. */
async function sendAndWaitForCard(conversation: string, text: string) {
  ok(await d.invoke('chat.send', { conversation_id: conversation, text }));
  expect(await waitFor(() => core.permissions.pending().length === 1, 15_000), 'an approval card opened').toBe(true);
  return core.permissions.pending()[0]!;
}

const finished = (conversation: string): Promise<boolean> => waitFor(() => !core.chat.isRunning(conversation), 15_000);

describe('two servers of one tool namespace (a config file written before names were checked)', () => {
  it('both load, each card warns of the other, and the collision suffix keeps their tools apart', () => {
    expect(core.host.view('my_fs').shares_namespace_with).toEqual(['my.fs']);
    expect(core.host.view('my.fs').shares_namespace_with).toEqual(['my_fs']);
    const mine = core.host.tool('my_fs__write_note')!;
    expect(mine).toMatchObject({ server: 'my_fs', original_name: 'write_note' });
    const theirs = core.host.tools().find((t) => t.server === 'my.fs' && t.original_name === 'write_note')!;
    expect(theirs.name).toMatch(/^my_fs__write_note_[0-9a-f]{6}$/);
    expect(core.host.view('my.fs').issues).toContainEqual({ kind: 'tool_renamed', tool: 'write_note', like: 'write_note', like_server: 'my_fs', offered_as: theirs.name });
  });
});

describe('an approval answered after the server that asked dropped out runs nowhere', () => {
  const dropOuts: Array<[string, () => Promise<unknown>]> = [
    ['removed', () => core.host.remove('my_fs')],
    ['disabled', () => core.host.setEnabled('my_fs', false)],
    [
      'crashed',
      async () => {
        // No restart during the test: the crashed server stays down, its name free for the other.
        core.host.recoveryPolicy = { maxAttempts: 3, baseDelayMs: 60_000, maxDelayMs: 60_000, stableMs: 60_000 };
        process.kill(core.host.connection('my_fs')!.pid!, 'SIGKILL');
        expect(await waitFor(() => core.host.view('my_fs').state.kind === 'error', 10_000)).toBe(true);
      },
    ],
  ];
  for (const [how, dropOut] of dropOuts) {
    it(`my_fs ${how} while its card was open: allowing it does not run the call on my.fs`, async () => {
      const card = await sendAndWaitForCard('c1', 'call my_fs__write_note {"text":"meant for my_fs"}');
      expect(card).toMatchObject({ server: 'my_fs', tool: 'write_note', namespaced_tool: 'my_fs__write_note' });
      await dropOut();
      // The attack's premise: the name the model used now means my.fs's tool.
      expect(core.host.tool('my_fs__write_note')?.server).toBe('my.fs');
      ok(await d.invoke('approvals.respond', { id: card.id, decision: 'allow_once', args_sha256: card.args_sha256 }));
      expect(await finished('c1')).toBe(true);
      expect(notes(B)).toEqual([]);
      expect(notes(A)).toEqual([]);
      const [entry] = toolEntries('c1');
      expect(entry).toMatchObject({ server: 'my_fs', original_name: 'write_note', state: 'denied', permission: { allowed: false, via: 'server_changed' }, end: { code: 'refused', via: 'server_changed', reason: null } });
      expect(entry!.error).toMatch(/my_fs.*stopped or restarted/);
    });
  }

  it('a call the gate allowed runs only on the connection it was allowed on (McpHost.callResolved)', async () => {
    ok(await d.invoke('permissions.setMode', { mode: 'never_ask' }));
    const auth = await core.permissions.gate.authorize({ conversation_id: 'c2', run_id: 'r', call_id: 'k', tool: core.host.tool('my_fs__write_note')!, args: { text: 'allowed for my_fs' } });
    expect(auth).toMatchObject({ allowed: true, via: 'mode_never_ask' });
    if (!auth.allowed) return;
    expect(auth.resolved.connection).toBe(core.host.connection('my_fs'));
    await core.host.remove('my_fs');
    expect(core.host.tool('my_fs__write_note')?.server).toBe('my.fs');
    const err = await core.host.callResolved(auth.resolved, { text: 'allowed for my_fs' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServerChangedError);
    expect(toIpcError(err)).toMatchObject({ code: 'gone' });
    expect(notes(B)).toEqual([]);
    // The other server's own tool still runs, under its current name.
    ok(await d.invoke('permissions.setMode', { mode: 'never_ask' }));
    const own = await core.permissions.gate.authorize({ conversation_id: 'c2', run_id: 'r', call_id: 'k2', tool: core.host.tool('my_fs__write_note')!, args: { text: 'for my.fs' } });
    if (!own.allowed) throw new Error('not allowed');
    await core.host.callResolved(own.resolved, { text: 'for my.fs' });
    expect(notes(B)).toEqual(['for my.fs']);
  });

  it('a card answered after my_fs restarted with another command runs nothing, and "Always allow" is not stored for the new command', async () => {
    const card = await sendAndWaitForCard('c3', 'call my_fs__write_note {"text":"approved for the old command"}');
    await core.host.update('my_fs', { command: sdkCommand(`--record=${C}`) });
    expect(core.host.view('my_fs').state.kind).toBe('ready');
    ok(await d.invoke('approvals.respond', { id: card.id, decision: 'always_allow', args_sha256: card.args_sha256 }));
    expect(await finished('c3')).toBe(true);
    expect([...notes(A), ...notes(B), ...notes(C)]).toEqual([]);
    const [entry] = toolEntries('c3');
    expect(entry).toMatchObject({ state: 'denied', permission: { via: 'server_changed' } });
    expect(core.host.toolSetting('my_fs', 'write_note')).toBeUndefined();
    // The next call asks again — about the server as it is now.
    const again = await sendAndWaitForCard('c3', 'call my_fs__write_note {"text":"asked again"}');
    ok(await d.invoke('approvals.respond', { id: again.id, decision: 'allow_once', args_sha256: again.args_sha256 }));
    expect(await finished('c3')).toBe(true);
    expect(notes(C)).toEqual(['asked again']);
  });

  it('a tool name offered for my_fs that my.fs took during the run is not called on my.fs', async () => {
    ok(await d.invoke('permissions.setMode', { mode: 'never_ask' }));
    // Step 1: my.fs's own sleep (meanwhile my_fs is removed); step 2: the name offered for my_fs.
    script = (req) => {
      const last = req.messages.at(-1)!;
      const results = req.messages.filter((m) => m.role === 'tool').length;
      if (last.role !== 'tool') return { toolCalls: [{ name: req.tools!.find((t) => /^my_fs__sleep_[0-9a-f]{6}$/.test(t.function.name))!.function.name, arguments: { ms: 1500 } }] };
      if (results === 1) return { toolCalls: [{ name: 'my_fs__write_note', arguments: { text: 'meant for my_fs' } }] };
      return { text: 'done' };
    };
    ok(await d.invoke('chat.send', { conversation_id: 'c4', text: 'go' }));
    expect(await waitFor(() => toolEntries('c4').some((t) => t.original_name === 'sleep' && t.state === 'running'), 10_000)).toBe(true);
    await core.host.remove('my_fs');
    expect(core.host.tool('my_fs__write_note')?.server).toBe('my.fs');
    expect(await finished('c4')).toBe(true);
    expect(notes(B)).toEqual([]);
    const entries = toolEntries('c4');
    expect(entries.map((e) => [e.original_name, e.state])).toEqual([
      ['sleep', 'ok'],
      ['write_note', 'denied'],
    ]);
    expect(entries[1]).toMatchObject({ server: 'my_fs', permission: { via: 'unknown_tool' } });
  });

  it("an MCP App view's call is bound the same way: answered after its server restarted with another command, it runs nowhere", async () => {
    // The model shows my_fs's notes view (a real call, allowed once); the window loads that view.
    ok(await d.invoke('chat.send', { conversation_id: 'c5', text: 'call my_fs__show_notes {}' }));
    expect(await waitFor(() => core.permissions.pending().length === 1, 15_000)).toBe(true);
    const first = core.permissions.pending()[0]!;
    ok(await d.invoke('approvals.respond', { id: first.id, decision: 'allow_once', args_sha256: first.args_sha256 }));
    expect(await finished('c5')).toBe(true);
    const shown = toolEntries('c5').find((t) => t.original_name === 'show_notes')!;
    const load = ok<{ kind: string; view_instance: string }>(await d.invoke('apps.view', { conversation_id: 'c5', run_id: shown.run_id, call_id: shown.call_id, server: 'my_fs', tool: 'show_notes' }));
    expect(load.kind).toBe('ready');
    const pending = core.apps.callTool(load.view_instance, 'write_note', { text: 'from the view' }).catch((e: unknown) => e);
    expect(await waitFor(() => core.permissions.pending().length === 1, 15_000)).toBe(true);
    const card = core.permissions.pending()[0]!;
    expect(card).toMatchObject({ server: 'my_fs', tool: 'write_note', run_id: 'app-view' });
    await core.host.update('my_fs', { command: sdkCommand(`--record=${C}`) });
    ok(await d.invoke('approvals.respond', { id: card.id, decision: 'allow_once', args_sha256: card.args_sha256 }));
    const err = await pending;
    expect(toIpcError(err)).toMatchObject({ code: 'forbidden', message: expect.stringMatching(/stopped or restarted/) });
    expect([...notes(A), ...notes(B), ...notes(C)]).toEqual([]);
  });
});

describe('"Allow in this conversation" is bound to the server identity', () => {
  /** Ask the gate about `solo`'s write_note in conversation `c`; answer a card with `answer` if one opens. */
  async function ask(c: string, answer: 'allow_conversation' | 'allow_once' | null): Promise<{ via: string; card: boolean }> {
    const before = core.permissions.pending().length;
    const p = core.permissions.gate.authorize({ conversation_id: c, run_id: 'r', call_id: `k${Math.random()}`, tool: core.host.tool('solo__write_note')!, args: { text: 'x' } });
    const card = await waitFor(() => core.permissions.pending().length > before, 1000);
    if (card) {
      const v = core.permissions.pending().at(-1)!;
      if (answer) core.permissions.broker.answer(v.id, { decision: answer }, v.args_sha256);
      else core.permissions.broker.cancelAll();
    }
    const r = await p;
    return { via: r.allowed ? r.via : r.reason, card };
  }
  const D = (n: string): string => path.join(notesDir, `solo-${n}.txt`);
  const readySolo = (): Promise<boolean> => waitFor(() => core.host.view('solo').state.kind === 'ready' && core.host.tool('solo__write_note') !== undefined, 20_000);

  it('a restart keeps it; a server removed and added again with another command, or edited to one, does not inherit it', async () => {
    await core.host.add('solo', { type: 'local', command: sdkCommand(`--record=${D('1')}`) });
    expect(await readySolo()).toBe(true);
    expect(await ask('c6', 'allow_conversation')).toEqual({ via: 'user', card: true });
    expect(await ask('c6', null)).toEqual({ via: 'conversation_grant', card: false });
    // A restart is a new connection of the same configuration: the grant holds.
    await core.host.restart('solo');
    expect(await readySolo()).toBe(true);
    expect(await ask('c6', null)).toEqual({ via: 'conversation_grant', card: false });
    // Removed, then added again under the same name with another command: asked again.
    await core.host.remove('solo');
    await core.host.add('solo', { type: 'local', command: sdkCommand(`--record=${D('2')}`) });
    expect(await readySolo()).toBe(true);
    expect(await ask('c6', 'allow_conversation')).toEqual({ via: 'user', card: true });
    expect(await ask('c6', null)).toEqual({ via: 'conversation_grant', card: false });
    // Edited to another command: asked again too.
    await core.host.update('solo', { command: sdkCommand(`--record=${D('3')}`) });
    expect(await readySolo()).toBe(true);
    expect(await ask('c6', 'allow_once')).toEqual({ via: 'user', card: true });
  });
});
