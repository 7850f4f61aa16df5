/**
 * Pinned tool definitions at the permission gate (docs/ARCHITECTURE.md "Pinned tool
 * definitions"), through the real McpHost, a real config file and pins folder, and a real stdio
 * server whose tool changes while it runs (test/fixtures/shifting-server.mjs): a changed tool
 * never runs on an earlier "Always allow" or conversation grant; the card carries the diff;
 * allowing accepts the definition; a restart keeps the pin. Also: "Always allow" on the host's
 * own tools (`host__*`) is saved (host_tools.json) and sticks.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApprovalView } from '../../../../preload/contract/index.js';
import { ConfigStore } from '../../../../main/mcp/config.js';
import { McpHost } from '../../../../main/mcp/host.js';
import { Permissions } from '../../../../main/chat/permissions/index.js';
import type { AuthorizeResult } from '../../../../main/chat/permissions/gate.js';
import { localServer, makeTempDir, removeDir, ROOT, sleep, waitFor, waitNoChildren } from '../../helpers.js';

const SHIFTING = path.join(ROOT, 'test/fixtures/shifting-server.mjs');

let stateDir: string;
let work: string;
let control: string;
let record: string;
let host: McpHost;
let perms: Permissions;
let opened: ApprovalView[];

async function boot(): Promise<void> {
  const store = new ConfigStore(stateDir);
  await store.load();
  host = new McpHost(store);
  opened = [];
  perms = new Permissions(stateDir, host, { opened: (v) => opened.push(v) });
  host.startAll();
  expect(await waitFor(() => host.view('notes').state.kind === 'ready', 20_000)).toBe(true);
}

async function restart(): Promise<void> {
  perms.broker.cancelAll();
  await host.shutdown();
  await boot();
}

beforeEach(async () => {
  stateDir = makeTempDir('op-pins-gate-state-');
  work = makeTempDir('op-pins-gate-work-');
  control = path.join(work, 'control.json');
  record = path.join(work, 'notes.txt');
  writeFileSync(control, JSON.stringify({ variant: 'v1' }));
  const s = new ConfigStore(stateDir);
  await s.load();
  await s.put('notes', localServer([process.execPath, SHIFTING, work]));
  await boot();
});

afterEach(async () => {
  perms.broker.cancelAll();
  await host.shutdown();
  expect(await waitNoChildren(15_000)).toBe(true);
  await removeDir(stateDir);
  await removeDir(work);
});

const notes = (): string[] => (existsSync(record) ? readFileSync(record, 'utf8').split('\n').filter(Boolean) : []);
const pinOf = (tool: string) => host.view('notes').tools.find((t) => t.original_name === tool)?.pin;

let seq = 0;
function call(namespaced: string, args: Record<string, unknown>, conversation = 'conv-1'): Promise<{ auth: AuthorizeResult; ran: boolean }> {
  const ref = host.tool(namespaced) ?? { name: namespaced, server: 'notes', original_name: namespaced.replace(/^notes__/, '') };
  return perms.gate.authorize({ conversation_id: conversation, run_id: 'run-1', call_id: `c${++seq}`, tool: ref, args }).then(async (auth) => {
    if (!auth.allowed) return { auth, ran: false };
    await host.callResolved(auth.resolved, args);
    return { auth, ran: true };
  });
}

async function cardFor(p: Promise<unknown>, before: number): Promise<ApprovalView> {
  void p;
  expect(await waitFor(() => opened.length > before, 15_000), 'an approval card opened').toBe(true);
  return opened[opened.length - 1]!;
}

async function shift(): Promise<void> {
  writeFileSync(control, JSON.stringify({ variant: 'v2' }));
  expect(await waitFor(() => pinOf('write_note')?.kind === 'changed', 15_000), 'the re-listed tool is marked changed').toBe(true);
}

describe('pinned tool definitions at the gate (real stdio server)', () => {
  it('a tool changed after "Always allow" asks with the diff, runs nothing before the answer; allowing pins it, and a restart keeps the pin', async () => {
    await perms.setMode('ask_all');
    expect(pinOf('write_note')).toEqual({ kind: 'pinned' });
    let before = opened.length;
    const first = call('notes__write_note', { text: 'one' });
    perms.broker.answer((await cardFor(first, before)).id, { decision: 'always_allow' });
    expect((await first).ran).toBe(true);
    expect((await call('notes__write_note', { text: 'two' })).ran).toBe(true); // no card: always allowed
    expect(opened.length).toBe(before + 1);

    await shift();
    expect(pinOf('wipe_notes')).toEqual({ kind: 'new' });
    before = opened.length;
    const third = call('notes__write_note', { text: 'three' });
    const card = await cardFor(third, before);
    expect(card.pin).toMatchObject({ kind: 'changed', program_changed: false });
    expect(card.pin.kind === 'changed' && card.pin.diff).toEqual(
      expect.arrayContaining([
        { kind: 'description', before: 'Append a note.', after: 'Append a note, or wipe the notebook.' },
        { kind: 'property_added', schema: 'input', path: 'wipe', after: '{"type":"boolean"}' },
        { kind: 'annotation', hint: 'readOnlyHint', before: true, after: false },
        { kind: 'annotation', hint: 'destructiveHint', before: false, after: true },
      ]),
    );
    await sleep(300);
    expect(notes()).toEqual(['one', 'two']); // nothing ran while the card waits
    perms.broker.answer(card.id, { decision: 'allow_once' });
    expect((await third).ran).toBe(true);
    expect(pinOf('write_note')).toEqual({ kind: 'pinned' });
    // Accepted: the earlier "Always allow" holds again for the definition the user accepted.
    expect((await call('notes__write_note', { text: 'four' })).ran).toBe(true);
    expect(opened.length).toBe(before + 1);

    await restart();
    expect(pinOf('write_note')).toEqual({ kind: 'pinned' });
    expect((await call('notes__write_note', { text: 'five' })).ran).toBe(true);
    expect(opened).toHaveLength(0);
    expect(notes()).toEqual(['one', 'two', 'three', 'four', 'five']);
  });

  it('Deny on a changed tool runs nothing and keeps it changed; a conversation grant does not carry over either', async () => {
    await perms.setMode('ask_all');
    let before = opened.length;
    const first = call('notes__write_note', { text: 'granted' });
    perms.broker.answer((await cardFor(first, before)).id, { decision: 'allow_conversation' });
    expect((await first).ran).toBe(true);
    await shift();
    before = opened.length;
    const next = call('notes__write_note', { text: 'no' });
    const card = await cardFor(next, before);
    expect(card.pin.kind).toBe('changed');
    perms.broker.answer(card.id, { decision: 'deny' });
    expect((await next).auth).toMatchObject({ allowed: false, reason: 'denied' });
    expect(pinOf('write_note')?.kind).toBe('changed');
    before = opened.length;
    const again = call('notes__write_note', { text: 'no again' });
    perms.broker.answer((await cardFor(again, before)).id, { decision: 'deny' });
    await again;
    expect(notes()).toEqual(['granted']);
  });

  it('a new tool is not allowed by an "Always allow" stored for its name; holding back keeps unaccepted tools from the model and refuses them', async () => {
    await host.setToolSettings('notes', 'wipe_notes', { approval: 'always_allow' });
    await shift();
    const before = opened.length;
    const wipe = call('notes__wipe_notes', {});
    const card = await cardFor(wipe, before);
    expect(card.pin).toEqual({ kind: 'new' });
    perms.broker.answer(card.id, { decision: 'deny' });
    await wipe;

    expect(host.tools().map((t) => t.name)).toContain('notes__write_note');
    await host.setPinSettings({ hold_unaccepted: true });
    expect(host.tools().map((t) => t.name)).not.toContain('notes__write_note');
    expect(host.tools().map((t) => t.name)).not.toContain('notes__wipe_notes');
    expect(host.view('notes').tool_count).toBe(0);
    expect((await call('notes__write_note', { text: 'held' })).auth).toMatchObject({ allowed: false, reason: 'held_back' });
    await host.acceptToolDefinitions('notes');
    expect(host.tools().map((t) => t.name)).toEqual(expect.arrayContaining(['notes__write_note', 'notes__wipe_notes']));
    expect(pinOf('write_note')).toEqual({ kind: 'pinned' });
    expect(notes()).toEqual([]);
  });

  it('a server edited to run another program does not inherit "Always allow": its tools are changed (program_changed) until accepted', async () => {
    await host.setToolSettings('notes', 'write_note', { approval: 'always_allow' });
    expect((await call('notes__write_note', { text: 'same program' })).ran).toBe(true);
    const otherWork = makeTempDir('op-pins-gate-other-');
    const other = path.join(otherWork, 'notes.txt');
    writeFileSync(path.join(otherWork, 'control.json'), JSON.stringify({ variant: 'v1' }));
    await host.update('notes', { command: [process.execPath, SHIFTING, otherWork] });
    expect(await waitFor(() => host.view('notes').state.kind === 'ready' && pinOf('write_note')?.kind === 'changed', 20_000)).toBe(true);
    expect(pinOf('write_note')).toMatchObject({ kind: 'changed', diff: [], program_changed: true });
    const before = opened.length;
    const p = call('notes__write_note', { text: 'other program' });
    const card = await cardFor(p, before);
    expect(card.pin).toMatchObject({ kind: 'changed', program_changed: true });
    perms.broker.answer(card.id, { decision: 'allow_once' });
    expect((await p).ran).toBe(true);
    expect((await call('notes__write_note', { text: 'accepted' })).ran).toBe(true);
    expect(readFileSync(other, 'utf8').split('\n').filter(Boolean)).toEqual(['other program', 'accepted']);
    await removeDir(otherWork);
  });

  it('editing only the variables a server gets keeps its pins: the same program, no new question', async () => {
    await host.setToolSettings('notes', 'write_note', { approval: 'always_allow' });
    expect((await call('notes__write_note', { text: 'before' })).ran).toBe(true);
    await host.update('notes', { env: { EXTRA_SETTING: 'on' } });
    expect(await waitFor(() => host.view('notes').state.kind === 'ready', 20_000)).toBe(true);
    expect(pinOf('write_note')).toEqual({ kind: 'pinned' });
    const before = opened.length;
    expect((await call('notes__write_note', { text: 'after' })).ran).toBe(true);
    expect(opened.length).toBe(before);
  });

  it('"Always allow" on a host__* tool is saved in host_tools.json and holds after a restart (it used to be dropped)', async () => {
    await perms.setMode('ask_all');
    const before = opened.length;
    const p = call('host__list_resources', {});
    const card = await cardFor(p, before);
    expect(card.server).toBe('@host');
    perms.broker.answer(card.id, { decision: 'always_allow' });
    const r = await p;
    expect(r.ran).toBe(true);
    expect(r.auth.allowed && r.auth.via === 'user' && r.auth.warning).toBe(null);
    expect(JSON.parse(readFileSync(path.join(stateDir, 'host_tools.json'), 'utf8'))).toEqual({ tools: { list_resources: { approval: 'always_allow' } } });
    expect((await call('host__list_resources', {})).auth).toMatchObject({ allowed: true, via: 'always_allow' });
    await restart();
    await perms.setMode('ask_all');
    expect((await call('host__list_resources', {})).auth).toMatchObject({ allowed: true, via: 'always_allow' });
    expect(opened).toHaveLength(0);
  });
});
