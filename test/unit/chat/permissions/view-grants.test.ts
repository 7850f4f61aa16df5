/**
 * "Allow in this conversation" and MCP App views (docs/ARCHITECTURE.md "Permissions"): a grant of
 * tool T of server S given on the model's card also decides a call of T that a view of S made in
 * the same conversation and that still waits for its own card (the card closes as `covered`), and
 * covers the view's later calls of T. It never covers another tool, the same tool in another
 * conversation, a view of another server, or a tool the user disabled. Real server-filesystem
 * through the real McpHost, the real gate and broker.
 */
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApprovalView } from '../../../../preload/contract/index.js';
import { ConfigStore } from '../../../../main/mcp/config.js';
import { McpHost } from '../../../../main/mcp/host.js';
import { Permissions } from '../../../../main/chat/permissions/index.js';
import type { AuthorizeRequest, AuthorizeResult } from '../../../../main/chat/permissions/gate.js';
import { localServer, makeTempDir, removeDir, ROOT, waitFor, waitNoChildren } from '../../helpers.js';

const FS_SERVER = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

let stateDir: string;
let work: string;
let host: McpHost;
let perms: Permissions;
let opened: ApprovalView[];
let closed: Array<{ id: string; outcome: string }>;

beforeEach(async () => {
  stateDir = makeTempDir('op-vgrant-state-');
  work = makeTempDir('op-vgrant-work-');
  const store = new ConfigStore(stateDir);
  await store.load();
  await store.put('files', localServer([process.execPath, FS_SERVER, work]));
  host = new McpHost(store);
  opened = [];
  closed = [];
  perms = new Permissions(stateDir, host, { opened: (v) => opened.push(v), closed: (id, outcome) => closed.push({ id, outcome }) });
  host.startAll();
  expect(await waitFor(() => host.view('files').state.kind === 'ready', 20_000)).toBe(true);
});

afterEach(async () => {
  perms.broker.cancelAll();
  await host.shutdown();
  expect(await waitNoChildren(15_000)).toBe(true);
  await removeDir(stateDir);
  await removeDir(work);
});

let seq = 0;
/** One call through the gate: the model's (no `view`) or a view's of server `view`. */
function ask(tool: string, opts: { conversation?: string; view?: string } = {}): Promise<AuthorizeResult> {
  const req: AuthorizeRequest = {
    conversation_id: opts.conversation ?? 'conv-1',
    run_id: opts.view ? 'app-view' : 'run-1',
    call_id: `${opts.view ? 'app:v:' : ''}call-${++seq}`,
    tool: host.tool(`files__${tool}`)!,
    args: { path: path.join(work, `d${seq}`) },
    ...(opts.view ? { caller: { kind: 'view' as const, server: opts.view } } : {}),
  };
  return perms.gate.authorize(req);
}

/** Wait until `n` cards have opened; returns the last one. */
async function card(n: number): Promise<ApprovalView> {
  expect(await waitFor(() => opened.length >= n, 15_000), `card ${n} opened`).toBe(true);
  return opened[n - 1]!;
}

/** The model calls `tool` in conv-1 and the user answers "Allow in this conversation". */
async function grantOnModelCard(tool: string, n: number): Promise<void> {
  const p = ask(tool);
  const c = await card(n);
  expect(c.run_id).toBe('run-1');
  perms.broker.answer(c.id, { decision: 'allow_conversation' }, c.args_sha256);
  expect(await p).toMatchObject({ allowed: true, via: 'user', decision: 'allow_conversation' });
}

/** Whether `p` is still unsettled after a short while. */
async function stillWaiting(p: Promise<unknown>): Promise<boolean> {
  const marker = Symbol('waiting');
  return (await Promise.race([p, new Promise((r) => setTimeout(() => r(marker), 300))])) === marker;
}

describe('a conversation grant and the views of its server', () => {
  it("covers the same tool's call by its server's view in that conversation, even while the view's own card waits", async () => {
    const viewCall = ask('create_directory', { view: 'files' });
    const viewCard = await card(1);
    await grantOnModelCard('create_directory', 2);
    expect(await viewCall).toMatchObject({ allowed: true, via: 'conversation_grant' });
    expect(closed).toContainEqual({ id: viewCard.id, outcome: 'covered' });
    expect(perms.pending()).toEqual([]);
    // Its later calls run without a card.
    expect(await ask('create_directory', { view: 'files' })).toMatchObject({ allowed: true, via: 'conversation_grant' });
    expect(opened).toHaveLength(2);
  });

  it('(a) does not cover another tool of the same server', async () => {
    const other = ask('write_file', { view: 'files' });
    const otherCard = await card(1);
    await grantOnModelCard('create_directory', 2);
    expect(await stillWaiting(other)).toBe(true);
    expect(perms.pending().map((v) => v.id)).toEqual([otherCard.id]);
    perms.broker.answer(otherCard.id, { decision: 'deny' }, otherCard.args_sha256);
    expect(await other).toMatchObject({ allowed: false, reason: 'denied' });
    // A new call of the other tool asks too.
    const again = ask('write_file', { view: 'files' });
    await card(3);
    perms.broker.cancelAll();
    expect((await again).allowed).toBe(false);
  });

  it('(b) does not cover the same tool in another conversation', async () => {
    const elsewhere = ask('create_directory', { view: 'files', conversation: 'conv-2' });
    const elsewhereCard = await card(1);
    await grantOnModelCard('create_directory', 2);
    expect(await stillWaiting(elsewhere)).toBe(true);
    expect(perms.pending().map((v) => v.id)).toEqual([elsewhereCard.id]);
    perms.broker.cancelAll();
    expect((await elsewhere).allowed).toBe(false);
    const again = ask('create_directory', { view: 'files', conversation: 'conv-2' });
    await card(3);
    perms.broker.cancelAll();
    expect((await again).allowed).toBe(false);
  });

  it("(c) does not cover a view of another server, waiting or new; the server's own view is covered", async () => {
    const foreign = ask('create_directory', { view: 'weather' });
    const foreignCard = await card(1);
    await grantOnModelCard('create_directory', 2);
    expect(await stillWaiting(foreign)).toBe(true);
    expect(perms.pending().map((v) => v.id)).toEqual([foreignCard.id]);
    perms.broker.cancelAll();
    expect((await foreign).allowed).toBe(false);
    const again = ask('create_directory', { view: 'weather' });
    await card(3);
    perms.broker.cancelAll();
    expect((await again).allowed).toBe(false);
    expect(await ask('create_directory', { view: 'files' })).toMatchObject({ allowed: true, via: 'conversation_grant' });
  });

  it('(d) does not cover a tool the user disabled: the waiting view call is decided again and refused', async () => {
    const viewCall = ask('create_directory', { view: 'files' });
    await card(1);
    const modelCall = ask('create_directory');
    const modelCard = await card(2);
    // The user disables the tool, then answers the model's card that was already open.
    await host.setToolSettings('files', 'create_directory', { enabled: false });
    perms.broker.answer(modelCard.id, { decision: 'allow_conversation' }, modelCard.args_sha256);
    await modelCall;
    expect(await viewCall).toMatchObject({ allowed: false, reason: 'disabled' });
    expect(await ask('create_directory', { view: 'files' })).toMatchObject({ allowed: false, reason: 'disabled' });
  });
});
