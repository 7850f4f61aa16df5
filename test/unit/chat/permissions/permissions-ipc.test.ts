/**
 * Permissions over the contract (the same dispatcher both shells use), with a real app core and
 * a real server-filesystem: the renderer can list and answer only approvals main issued; the
 * mode and per-tool settings channels persist; refusals carry the typed code `approval_invalid`.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApprovalView, EventName, Envelope } from '../../../../preload/contract/index.js';
import { AppCore } from '../../../../main/core.js';
import { APPROVAL_INTERRUPTED_RESULT } from '../../../../main/chat/interruption.js';
import { createDispatcher, type Dispatcher } from '../../../../main/ipc/dispatch.js';
import { MemorySecretStore } from '../../../../main/secrets/store.js';
import { makeTempDir, removeDir, ROOT, waitFor, waitNoChildren } from '../../helpers.js';

const FS_SERVER = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

let dir: string;
let work: string;
let core: AppCore;
let d: Dispatcher;
let events: Array<{ event: EventName; payload: unknown }>;

beforeEach(async () => {
  dir = makeTempDir('op-perm-ipc-');
  work = makeTempDir('op-perm-ipc-work-');
  core = new AppCore({ stateDir: dir, shell: 'browser', secrets: new MemorySecretStore() });
  events = [];
  core.subscribe((event, payload) => events.push({ event, payload }));
  await core.start();
  d = createDispatcher(core);
  const add = await d.invoke('servers.add', { name: 'files', config: { type: 'local', command: [process.execPath, FS_SERVER, work] } });
  expect(add.ok).toBe(true);
  expect(await waitFor(() => core.host.view('files').state.kind === 'ready', 20_000)).toBe(true);
});

afterEach(async () => {
  await core.shutdown();
  expect(await waitNoChildren(15_000)).toBe(true);
  await removeDir(dir);
  await removeDir(work);
});

const ok = <T>(e: Envelope<unknown>): T => {
  if (!e.ok) throw new Error(`${e.error.code}: ${e.error.message}`);
  return e.value as T;
};

describe('permissions over IPC', () => {
  it('mode: default ask_unless_read_only; setMode persists; bad values are refused', async () => {
    expect(ok(await d.invoke('permissions.getMode', {}))).toEqual({ mode: 'ask_unless_read_only' });
    expect(ok(await d.invoke('permissions.setMode', { mode: 'ask_all' }))).toEqual({ mode: 'ask_all' });
    expect(JSON.parse(readFileSync(path.join(dir, 'permissions.json'), 'utf8'))).toEqual({ mode: 'ask_all' });
    const bad = await d.invoke('permissions.setMode', { mode: 'yolo' });
    expect(bad.ok === false && bad.error.code).toBe('invalid_input');
    expect(ok(await d.invoke('permissions.getMode', {}))).toEqual({ mode: 'ask_all' });
  });

  it('setToolSettings / bulkToolSettings change the view and the file; bad input is refused', async () => {
    const v = ok<{ tools: Array<{ original_name: string; enabled: boolean; approval: string | null }> }>(
      await d.invoke('servers.setToolSettings', { name: 'files', tool: 'write_file', settings: { enabled: false } }),
    );
    expect(v.tools.find((t) => t.original_name === 'write_file')).toMatchObject({ enabled: false });
    expect(events.some((e) => e.event === 'servers.changed')).toBe(true);
    const bad = await d.invoke('servers.setToolSettings', { name: 'files', tool: 'write_file', settings: { approval: 'maybe' } });
    expect(bad.ok === false && bad.error.code).toBe('invalid_input');
    const extra = await d.invoke('servers.setToolSettings', { name: 'files', tool: 'write_file', settings: { enabled: false, admin: true } });
    expect(extra.ok === false && extra.error.code).toBe('invalid_input');
    const missing = await d.invoke('servers.bulkToolSettings', { name: 'nope', action: 'enable_all' });
    expect(missing.ok === false && missing.error.code).toBe('not_found');
    ok(await d.invoke('servers.bulkToolSettings', { name: 'files', action: 'allow_read_only' }));
    const file = JSON.parse(readFileSync(path.join(dir, 'mcp_servers.json'), 'utf8')) as { servers: { files: { tools: Record<string, unknown> } } };
    expect(file.servers.files.tools.write_file).toEqual({ enabled: false });
    expect(file.servers.files.tools.read_text_file).toEqual({ approval: 'always_allow' });
  });

  it('a pending approval is listed (reload), answered once through the channel, and every other answer is refused with approval_invalid', async () => {
    const target = path.join(work, 'w.txt');
    const args = { path: target, content: 'from the model' };
    const auth = core.permissions.gate.authorize({ conversation_id: 'c1', run_id: 'r1', call_id: 'k1', tool: core.host.tool('files__write_file')!, args });
    expect(await waitFor(() => events.some((e) => e.event === 'approvals.request'), 15_000)).toBe(true);
    const card = events.find((e) => e.event === 'approvals.request')!.payload as ApprovalView;
    // A reloaded window asks main for what is pending.
    expect(ok<ApprovalView[]>(await d.invoke('approvals.list', {}))).toEqual([card]);

    const forged = await d.invoke('approvals.respond', { id: 'f'.repeat(32), decision: 'allow_once' });
    expect(forged.ok === false && forged.error.code).toBe('approval_invalid');
    const otherArgs = await d.invoke('approvals.respond', { id: card.id, decision: 'allow_once', args_sha256: '0'.repeat(64) });
    expect(otherArgs.ok === false && otherArgs.error.code).toBe('approval_invalid');

    ok(await d.invoke('approvals.respond', { id: card.id, decision: 'deny', reason: 'no', args_sha256: card.args_sha256 }));
    expect(await auth).toMatchObject({ allowed: false, message: 'Denied by the user: no' });
    expect(existsSync(target)).toBe(false);
    expect(events.some((e) => e.event === 'approvals.closed' && JSON.stringify(e.payload) === JSON.stringify({ id: card.id, outcome: 'answered' }))).toBe(true);
    const twice = await d.invoke('approvals.respond', { id: card.id, decision: 'allow_once' });
    expect(twice.ok === false && twice.error.code).toBe('approval_invalid');
    expect(ok<ApprovalView[]>(await d.invoke('approvals.list', {}))).toEqual([]);
  });

  it('"Allow in this conversation" holds for that conversation until the conversation is deleted', async () => {
    core.conversationStore.ensure('c9', 'a conversation');
    const ask = (call: string) =>
      core.permissions.gate.authorize({ conversation_id: 'c9', run_id: 'r', call_id: call, tool: core.host.tool('files__create_directory')!, args: { path: path.join(work, call) } });
    const first = ask('d1');
    expect(await waitFor(() => core.permissions.pending().length === 1, 15_000)).toBe(true);
    ok(await d.invoke('approvals.respond', { id: core.permissions.pending()[0]!.id, decision: 'allow_conversation' }));
    expect(await first).toMatchObject({ allowed: true, decision: 'allow_conversation' });
    expect(await ask('d2')).toMatchObject({ allowed: true, via: 'conversation_grant', decision: null });
    ok(await d.invoke('conversations.remove', { id: 'c9' }));
    const third = ask('d3');
    expect(await waitFor(() => core.permissions.pending().length === 1, 15_000)).toBe(true);
    core.permissions.broker.cancelAll();
    expect(await third).toMatchObject({ allowed: false, reason: 'interrupted' });
  });

  it('shutdown ends pending approvals as interrupted by the app, not cancelled by the user', async () => {
    const auth = core.permissions.gate.authorize({ conversation_id: 'c1', run_id: 'r1', call_id: 'k1', tool: core.host.tool('files__write_file')!, args: { path: path.join(work, 'x'), content: '' } });
    expect(await waitFor(() => core.permissions.pending().length === 1, 15_000)).toBe(true);
    await core.shutdown();
    expect(await auth).toMatchObject({ allowed: false, reason: 'interrupted', message: APPROVAL_INTERRUPTED_RESULT });
  });
});
