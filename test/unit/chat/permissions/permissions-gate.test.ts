/**
 * The permission gate against a real MCP server (server-filesystem in a temp dir) through the
 * real McpHost and a real config file: the calls run exactly as the agent will run them —
 * `gate.authorize()` first, `host.callTool()` only when allowed.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApprovalView, PermissionMode } from '../../../../preload/contract/index.js';
import { ConfigStore } from '../../../../main/mcp/config.js';
import { McpHost, ToolDisabledError } from '../../../../main/mcp/host.js';
import { Permissions } from '../../../../main/chat/permissions/index.js';
import type { AuthorizeResult } from '../../../../main/chat/permissions/gate.js';
import { localServer, makeTempDir, removeDir, ROOT, waitFor, waitNoChildren } from '../../helpers.js';

const FS_SERVER = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

let stateDir: string;
let work: string;
let store: ConfigStore;
let host: McpHost;
let perms: Permissions;
let opened: ApprovalView[];
let closed: Array<{ id: string; outcome: string }>;

async function boot(): Promise<void> {
  store = new ConfigStore(stateDir);
  await store.load();
  host = new McpHost(store);
  opened = [];
  closed = [];
  perms = new Permissions(stateDir, host, { opened: (v) => opened.push(v), closed: (id, outcome) => closed.push({ id, outcome }) });
  host.startAll();
  expect(await waitFor(() => host.view('files').state.kind === 'ready', 20_000)).toBe(true);
}

beforeEach(async () => {
  stateDir = makeTempDir('op-gate-state-');
  work = makeTempDir('op-gate-work-');
  const s = new ConfigStore(stateDir);
  await s.load();
  await s.put('files', localServer([process.execPath, FS_SERVER, work]));
  await boot();
});

afterEach(async () => {
  perms.broker.cancelAll();
  await host.shutdown();
  expect(await waitNoChildren(15_000)).toBe(true);
  await removeDir(stateDir);
  await removeDir(work);
});

let callSeq = 0;
/** What the agent does: authorize, then call only when allowed. */
async function agentCall(tool: string, args: Record<string, unknown>, opts: { conversation?: string; signal?: AbortSignal; run?: string } = {}): Promise<{ auth: AuthorizeResult; text: string | null }> {
  const auth = await perms.gate.authorize({
    conversation_id: opts.conversation ?? 'conv-1',
    run_id: opts.run ?? 'run-1',
    call_id: `call-${++callSeq}`,
    tool: host.tool(`files__${tool}`) ?? { name: `files__${tool}`, server: 'files', original_name: tool },
    args,
    signal: opts.signal,
  });
  if (!auth.allowed) return { auth, text: null };
  const r = await host.callResolved(auth.resolved, args);
  return { auth, text: ((r.content ?? []) as Array<{ text?: string }>).map((b) => b.text ?? '').join('') };
}

/** Start a call and answer its card once it opens. */
async function answered(tool: string, args: Record<string, unknown>, decision: 'allow_once' | 'allow_conversation' | 'always_allow' | 'deny', reason?: string, conversation?: string) {
  const before = opened.length;
  const p = agentCall(tool, args, { conversation });
  expect(await waitFor(() => opened.length > before, 15_000), 'an approval card opened').toBe(true);
  const card = opened[opened.length - 1]!;
  perms.broker.answer(card.id, { decision, ...(reason ? { reason } : {}) }, card.args_sha256);
  return { ...(await p), card };
}

const setMode = (m: PermissionMode) => perms.setMode(m);

describe('permission gate (real server-filesystem)', () => {
  it('default mode: a read-only tool runs without a card; write_file asks, with server, title, annotations and the exact arguments', async () => {
    writeFileSync(path.join(work, 'a.txt'), 'hello');
    const read = await agentCall('read_text_file', { path: path.join(work, 'a.txt') });
    expect(read.auth).toMatchObject({ allowed: true, via: 'read_only_hint', decision: null });
    expect(read.text).toContain('hello');
    expect(opened).toEqual([]);

    const target = path.join(work, 'b.txt');
    const { auth, card } = await answered('write_file', { path: target, content: 'x' }, 'allow_once');
    expect(card).toMatchObject({ server: 'files', tool: 'write_file', namespaced_tool: 'files__write_file', args: { path: target, content: 'x' }, conversation_id: 'conv-1', run_id: 'run-1' });
    expect(card.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(auth).toMatchObject({ allowed: true, via: 'user', decision: 'allow_once', warning: null, not_saved: [] });
    expect(readFileSync(target, 'utf8')).toBe('x');
  });

  it('Deny: no file is written and the model gets "Denied by the user" with the reason', async () => {
    const target = path.join(work, 'denied.txt');
    const { auth, text } = await answered('write_file', { path: target, content: 'x' }, 'deny', 'not in this folder');
    // The user's own words are kept apart too, for the window to show as theirs.
    expect(auth).toEqual({ allowed: false, reason: 'denied', message: 'Denied by the user: not in this folder', decision: 'deny', said: 'not in this folder' });
    expect(text).toBeNull();
    expect(existsSync(target)).toBe(false);
    const again = await answered('write_file', { path: target, content: 'x' }, 'deny');
    expect(again.auth).toMatchObject({ allowed: false, message: 'Denied by the user.' });
  });

  it('Allow once allows only that call: the next one asks again', async () => {
    await answered('write_file', { path: path.join(work, '1.txt'), content: '1' }, 'allow_once');
    const n = opened.length;
    const second = await answered('write_file', { path: path.join(work, '2.txt'), content: '2' }, 'allow_once');
    expect(opened.length).toBe(n + 1);
    expect(second.auth.allowed).toBe(true);
  });

  it('Allow in this conversation: later calls in that conversation run without a card, other conversations still ask', async () => {
    await answered('write_file', { path: path.join(work, 'c1.txt'), content: '1' }, 'allow_conversation');
    const n = opened.length;
    const again = await agentCall('write_file', { path: path.join(work, 'c2.txt'), content: '2' });
    expect(again.auth).toMatchObject({ allowed: true, via: 'conversation_grant', decision: null });
    expect(opened.length).toBe(n);
    expect(readFileSync(path.join(work, 'c2.txt'), 'utf8')).toBe('2');
    const other = await answered('write_file', { path: path.join(work, 'c3.txt'), content: '3' }, 'deny', undefined, 'conv-2');
    expect(other.auth.allowed).toBe(false);
  });

  it('Always allow that cannot be saved still allows the call, and says what was not saved by code with the system’s words', async () => {
    // The config file cannot be replaced (a folder stands in its place), so the choice cannot be written.
    rmSync(store.file);
    mkdirSync(store.file);
    writeFileSync(path.join(store.file, 'keep'), '');
    const target = path.join(work, 'unsaved.txt');
    const { auth } = await answered('write_file', { path: target, content: 'x' }, 'always_allow');
    expect(auth).toMatchObject({ allowed: true, via: 'user', decision: 'always_allow', warning: expect.stringMatching(/^Could not save "Always allow": /), not_saved: [{ what: 'always_allow', said: expect.stringMatching(/^E[A-Z]+/) }] });
    expect(readFileSync(target, 'utf8')).toBe('x');
  });

  it('Always allow is stored with the server (mcp_servers.json) and survives a restart of the core', async () => {
    await answered('write_file', { path: path.join(work, 'a1.txt'), content: '1' }, 'always_allow');
    const disk = JSON.parse(readFileSync(store.file, 'utf8')) as { servers: Record<string, { tools?: unknown }> };
    expect(disk.servers.files!.tools).toEqual({ write_file: { approval: 'always_allow' } });
    expect(host.view('files').tools.find((t) => t.original_name === 'write_file')).toMatchObject({ approval: 'always_allow', enabled: true });

    const n = opened.length;
    expect((await agentCall('write_file', { path: path.join(work, 'a2.txt'), content: '2' })).auth).toMatchObject({ allowed: true, via: 'always_allow', decision: null });
    expect(opened.length).toBe(n);

    // Restart: a new config store, host and permission room over the same state dir.
    await host.shutdown();
    await boot();
    expect((await agentCall('write_file', { path: path.join(work, 'a3.txt'), content: '3' }, { conversation: 'fresh' })).auth.allowed).toBe(true);
    expect(opened).toEqual([]);
    expect(readFileSync(path.join(work, 'a3.txt'), 'utf8')).toBe('3');
  });

  it('a disabled tool is not offered, is refused by the gate, and is refused by the host even when named directly', async () => {
    await host.setToolSettings('files', 'write_file', { enabled: false });
    expect(host.tools().map((t) => t.name)).not.toContain('files__write_file');
    expect(host.tools().map((t) => t.name)).toContain('files__read_text_file');
    const target = path.join(work, 'never.txt');
    const r = await agentCall('write_file', { path: target, content: 'x' });
    expect(r.auth).toMatchObject({ allowed: false, reason: 'disabled' });
    expect(opened).toEqual([]);
    await expect(host.callTool('files__write_file', { path: target, content: 'x' })).rejects.toBeInstanceOf(ToolDisabledError);
    await expect(host.callTool('files__write_file', { path: target, content: 'x' })).rejects.toMatchObject({ code: 'forbidden' });
    expect(existsSync(target)).toBe(false);
    // Even "never ask" plus "always allow" does not run it.
    await setMode('never_ask');
    await host.setToolSettings('files', 'write_file', { approval: 'always_allow' });
    expect((await agentCall('write_file', { path: target, content: 'x' })).auth).toMatchObject({ allowed: false, reason: 'disabled' });
    expect(existsSync(target)).toBe(false);
  });

  it('Stop cancels a pending card: the call is not run and a late answer is refused', async () => {
    const ctrl = new AbortController();
    const target = path.join(work, 'stopped.txt');
    const p = agentCall('write_file', { path: target, content: 'x' }, { signal: ctrl.signal });
    expect(await waitFor(() => opened.length === 1, 15_000)).toBe(true);
    ctrl.abort();
    expect((await p).auth).toMatchObject({ allowed: false, reason: 'cancelled' });
    expect(closed).toEqual([{ id: opened[0]!.id, outcome: 'cancelled' }]);
    expect(() => perms.broker.answer(opened[0]!.id, { decision: 'allow_once' })).toThrow(/no longer waiting/);
    expect(existsSync(target)).toBe(false);
  });

  it('modes: never_ask runs write_file without a card; ask_all asks even for a read-only tool; a per-tool "ask" beats never_ask', async () => {
    await setMode('never_ask');
    expect((await agentCall('write_file', { path: path.join(work, 'n.txt'), content: 'n' })).auth).toMatchObject({ allowed: true, via: 'mode_never_ask', decision: null });
    await setMode('ask_all');
    const r = await answered('list_allowed_directories', {}, 'deny');
    expect(r.card.annotations.readOnlyHint).toBe(true);
    await setMode('never_ask');
    await host.setToolSettings('files', 'list_allowed_directories', { approval: 'ask' });
    expect((await answered('list_allowed_directories', {}, 'allow_once')).auth.allowed).toBe(true);
    // The mode is stored.
    expect(JSON.parse(readFileSync(path.join(stateDir, 'permissions.json'), 'utf8'))).toEqual({ mode: 'never_ask' });
  });

  it('refuses when the arguments change while the card is open', async () => {
    const args: Record<string, unknown> = { path: path.join(work, 'swap.txt'), content: 'shown' };
    const p = perms.gate.authorize({ conversation_id: 'c', run_id: 'r', call_id: 'x', tool: host.tool('files__write_file')!, args });
    expect(await waitFor(() => opened.length === 1, 15_000)).toBe(true);
    args.content = 'swapped';
    perms.broker.answer(opened[0]!.id, { decision: 'allow_once' });
    expect(await p).toMatchObject({ allowed: false, reason: 'args_changed' });
  });

  it('refuses an unknown tool name', async () => {
    expect(await perms.gate.authorize({ conversation_id: 'c', run_id: 'r', call_id: 'x', tool: { name: 'files__no_such', server: 'files', original_name: 'no_such' }, args: {} })).toMatchObject({ allowed: false, reason: 'unknown_tool' });
  });
});
