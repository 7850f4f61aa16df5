/**
 * A replay's approval is scoped to that replay (docs/ARCHITECTURE.md "Protocol inspector",
 * "Permissions"), against a real server-filesystem through the real McpHost, traffic recorder,
 * permission gate and inspector service: "Allow in this conversation" on a replay's card allows
 * that replay only — a later replay asks again, and so does a chat conversation whatever its id;
 * "Always allow" on a replay's card stores exactly that tool's setting and nothing else.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApprovalDecision, ApprovalView } from '../../../../preload/contract/index.js';
import { conversationIdSchema } from '../../../../preload/contract/index.js';
import { ConfigStore } from '../../../../main/mcp/config.js';
import { McpHost } from '../../../../main/mcp/host.js';
import { Permissions } from '../../../../main/chat/permissions/index.js';
import { TrafficRecorder } from '../../../../main/mcp/inspector/recorder.js';
import { InspectorService, replayConversation } from '../../../../main/mcp/inspector/service.js';
import { SecretRedactor } from '../../../../main/secrets/redact.js';
import { localServer, makeTempDir, removeDir, ROOT, waitFor, waitNoChildren } from '../../helpers.js';

const FS_SERVER = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

let stateDir: string;
let work: string;
let host: McpHost;
let perms: Permissions;
let recorder: TrafficRecorder;
let inspector: InspectorService;
let opened: ApprovalView[];

beforeEach(async () => {
  stateDir = makeTempDir('op-replay-state-');
  work = makeTempDir('op-replay-work-');
  const store = new ConfigStore(stateDir);
  await store.load();
  await store.put('files', localServer([process.execPath, FS_SERVER, work]));
  recorder = new TrafficRecorder(new SecretRedactor());
  host = new McpHost(store, { traffic: recorder });
  opened = [];
  perms = new Permissions(stateDir, host, { opened: (v) => opened.push(v) });
  inspector = new InspectorService({
    recorder,
    host: { has: (n) => store.has(n), allTools: () => host.allTools(), callResolved: (r, a, o) => host.callResolved(r, a, o) },
    gate: perms.gate,
    grants: perms.grants,
    stateDir,
  });
  host.startAll();
  expect(await waitFor(() => host.view('files').state.kind === 'ready', 20_000)).toBe(true);
  await perms.setMode('ask_all');
});

afterEach(async () => {
  perms.broker.cancelAll();
  await host.shutdown();
  expect(await waitNoChildren(15_000)).toBe(true);
  await removeDir(stateDir);
  await removeDir(work);
});

/** The seq of the recorded tools/call of write_file (made by a direct host call). */
async function recordedWrite(): Promise<number> {
  await host.callTool('files__write_file', { path: path.join(work, 'seed.txt'), content: 'seed' });
  const m = inspector.list('files').messages.find((x) => x.dir === 'out' && x.method === 'tools/call');
  expect(m).toBeDefined();
  return m!.seq;
}

/** Replay with `args`; answer its card with `decision` when one opens. Returns the outcome and whether a card opened. */
async function replay(seq: number, args: Record<string, unknown>, decision: ApprovalDecision | null) {
  const before = opened.length;
  const p = inspector.replay('files', seq, args);
  const asked = await waitFor(() => opened.length > before, decision === null ? 1500 : 15_000);
  if (asked && decision !== null) {
    const card = opened.at(-1)!;
    perms.broker.answer(card.id, { decision }, card.args_sha256);
  } else if (asked) perms.broker.cancelAll();
  return { result: await p, asked, card: asked ? opened.at(-1)! : null };
}

describe('replay approval scope (real server-filesystem)', () => {
  it('"Allow in this conversation" on a replay allows that replay only: the next replay and a chat conversation ask again', async () => {
    const seq = await recordedWrite();
    const a = path.join(work, 'a.txt');
    const first = await replay(seq, { path: a, content: 'one' }, 'allow_conversation');
    expect(first.asked).toBe(true);
    expect(first.result.kind).toBe('ok');
    expect(readFileSync(a, 'utf8')).toBe('one');
    // Its scope is the replay's own, which no chat conversation id can be.
    expect(first.card!.conversation_id).toBe(replayConversation(first.result.tag));
    expect(conversationIdSchema.safeParse(first.card!.conversation_id).success).toBe(false);
    expect(perms.grants.list(first.card!.conversation_id)).toEqual([]);

    // A second replay of the same tool asks again (answer: cancel → refused, nothing written).
    const b = path.join(work, 'b.txt');
    const second = await replay(seq, { path: b, content: 'two' }, null);
    expect(second.asked).toBe(true);
    expect(second.result.kind).toBe('refused');
    expect(existsSync(b)).toBe(false);

    // A chat conversation, even one named like the old shared id, is not allowed by it.
    for (const conversation of ['inspector', 'conv-1']) {
      const before = opened.length;
      const auth = perms.gate.authorize({ conversation_id: conversation, run_id: 'r', call_id: `c-${conversation}`, tool: host.tool('files__write_file')!, args: { path: b, content: 'x' } });
      expect(await waitFor(() => opened.length > before, 15_000), `asks in ${conversation}`).toBe(true);
      perms.broker.cancelAll();
      expect((await auth).allowed).toBe(false);
    }
  });

  it('"Always allow" on a replay stores that tool\'s setting and nothing wider', async () => {
    const seq = await recordedWrite();
    const a = path.join(work, 'a.txt');
    const r = await replay(seq, { path: a, content: 'one' }, 'always_allow');
    expect(r.result.kind).toBe('ok');
    expect(host.toolSetting('files', 'write_file')).toMatchObject({ approval: 'always_allow' });
    expect(host.toolSetting('files', 'edit_file')?.approval).toBeUndefined();
    expect(host.toolSetting('files', 'move_file')?.approval).toBeUndefined();
    // The next replay runs without a card (the user chose "Always"); another tool still asks.
    const again = await replay(seq, { path: path.join(work, 'c.txt'), content: 'two' }, null);
    expect(again.asked).toBe(false);
    expect(again.result.kind).toBe('ok');
    const before = opened.length;
    const other = perms.gate.authorize({ conversation_id: 'conv-1', run_id: 'r', call_id: 'c-move', tool: host.tool('files__move_file')!, args: { source: a, destination: path.join(work, 'd.txt') } });
    expect(await waitFor(() => opened.length > before, 15_000)).toBe(true);
    perms.broker.cancelAll();
    expect((await other).allowed).toBe(false);
  });
});
