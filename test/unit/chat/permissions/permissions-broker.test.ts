/**
 * The approval broker (main/chat/permissions/broker.ts): random single-use ids bound to one call
 * and its arguments; forged, duplicate, late and mismatched answers are refused with typed errors.
 */
import { describe, expect, it } from 'vitest';
import type { ApprovalView } from '../../../../preload/contract/index.js';
import { ApprovalBroker, ApprovalError, type ApprovalCall } from '../../../../main/chat/permissions/broker.js';
import { argsHash, canonicalJson } from '../../../../main/chat/permissions/args-hash.js';
import { AppInterruption } from '../../../../main/chat/interruption.js';
import { sleep } from '../../helpers.js';

function call(over: Partial<ApprovalCall> = {}): ApprovalCall {
  return {
    conversation_id: 'c1',
    run_id: 'r1',
    call_id: 'call-1',
    server: 'files',
    tool: 'write_file',
    namespaced_tool: 'files__write_file',
    title: 'Write file',
    annotations: { destructiveHint: true },
    args: { path: '/tmp/x', content: 'hi' },
    pin: { kind: 'pinned' },
    ...over,
  };
}

function setup(timeoutMs?: number) {
  const opened: ApprovalView[] = [];
  const closed: Array<{ id: string; outcome: string }> = [];
  const broker = new ApprovalBroker({ opened: (v) => opened.push(v), closed: (id, outcome) => closed.push({ id, outcome }) }, timeoutMs);
  return { broker, opened, closed };
}

function refusedKind(fn: () => void): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ApprovalError);
    expect((err as ApprovalError).code).toBe('approval_invalid');
    return (err as ApprovalError).kind;
  }
  throw new Error('the answer was accepted');
}

describe('approval broker', () => {
  it('opens a card with a random id bound to the call and the hash of its arguments, then resolves with the answer', async () => {
    const { broker, opened, closed } = setup();
    const p = broker.request(call());
    expect(opened).toHaveLength(1);
    const v = opened[0]!;
    expect(v.id).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(v).toMatchObject({ conversation_id: 'c1', run_id: 'r1', call_id: 'call-1', server: 'files', tool: 'write_file', args: { path: '/tmp/x', content: 'hi' } });
    expect(v.args_sha256).toBe(argsHash({ content: 'hi', path: '/tmp/x' }));
    expect(broker.pending().map((x) => x.id)).toEqual([v.id]);
    broker.answer(v.id, { decision: 'deny', reason: '  not that file ' });
    expect(await p).toEqual({ outcome: 'answered', answer: { decision: 'deny', reason: 'not that file' }, args_sha256: v.args_sha256 });
    expect(closed).toEqual([{ id: v.id, outcome: 'answered' }]);
    expect(broker.pending()).toEqual([]);
  });

  it('issues a different id for every request, even for identical calls', () => {
    const { broker, opened } = setup();
    for (let i = 0; i < 50; i++) void broker.request(call());
    expect(new Set(opened.map((v) => v.id)).size).toBe(50);
    broker.cancelAll();
  });

  it('an id is single-use: a second answer is refused as already answered', async () => {
    const { broker, opened } = setup();
    const p = broker.request(call());
    const id = opened[0]!.id;
    broker.answer(id, { decision: 'allow_once' });
    await p;
    expect(refusedKind(() => broker.answer(id, { decision: 'always_allow' }))).toBe('already_answered');
  });

  it('a forged (never issued) id is refused and changes nothing', async () => {
    const { broker, opened } = setup();
    const p = broker.request(call());
    expect(refusedKind(() => broker.answer('A'.repeat(32), { decision: 'allow_once' }))).toBe('unknown_id');
    expect(refusedKind(() => broker.answer(opened[0]!.id.slice(0, -1) + (opened[0]!.id.endsWith('x') ? 'y' : 'x'), { decision: 'allow_once' }))).toBe('unknown_id');
    expect(broker.pending()).toHaveLength(1);
    broker.answer(opened[0]!.id, { decision: 'allow_once' });
    expect((await p).outcome).toBe('answered');
  });

  it('an answer for other arguments is refused and the card stays pending', async () => {
    const { broker, opened } = setup();
    const p = broker.request(call());
    const v = opened[0]!;
    expect(refusedKind(() => broker.answer(v.id, { decision: 'allow_once' }, argsHash({ path: '/etc/passwd', content: 'hi' })))).toBe('args_mismatch');
    expect(broker.pending()).toHaveLength(1);
    broker.answer(v.id, { decision: 'allow_once' }, v.args_sha256);
    expect((await p).outcome).toBe('answered');
  });

  it('Stop (the signal) cancels the card; a late answer is refused as withdrawn', async () => {
    const { broker, opened, closed } = setup();
    const ctrl = new AbortController();
    const p = broker.request(call(), ctrl.signal);
    const id = opened[0]!.id;
    ctrl.abort();
    expect(await p).toEqual({ outcome: 'cancelled' });
    expect(closed).toEqual([{ id, outcome: 'cancelled' }]);
    expect(refusedKind(() => broker.answer(id, { decision: 'allow_once' }))).toBe('withdrawn');
  });

  it('an already aborted signal never opens a card', async () => {
    const { broker, opened } = setup();
    const ctrl = new AbortController();
    ctrl.abort();
    expect(await broker.request(call(), ctrl.signal)).toEqual({ outcome: 'cancelled' });
    expect(opened).toEqual([]);
    expect(broker.pending()).toEqual([]);
  });

  it('cancelRun cancels only that run’s cards', async () => {
    const { broker, opened } = setup();
    const a = broker.request(call({ run_id: 'r1', call_id: 'a' }));
    const b = broker.request(call({ run_id: 'r1', call_id: 'b' }));
    const c = broker.request(call({ run_id: 'r2', call_id: 'c' }));
    expect(broker.cancelRun('r1')).toBe(2);
    expect(await a).toEqual({ outcome: 'cancelled' });
    expect(await b).toEqual({ outcome: 'cancelled' });
    expect(broker.pending().map((v) => v.call_id)).toEqual(['c']);
    expect(refusedKind(() => broker.answer(opened[0]!.id, { decision: 'allow_once' }))).toBe('withdrawn');
    broker.answer(opened[2]!.id, { decision: 'allow_conversation' });
    expect((await c).outcome).toBe('answered');
  });

  it('cancelAll ends everything as interrupted by the app (shutdown); a late answer is refused as withdrawn', async () => {
    const { broker, opened, closed } = setup();
    const ps = [broker.request(call()), broker.request(call({ run_id: 'r9' }))];
    expect(broker.cancelAll()).toBe(2);
    expect(await Promise.all(ps)).toEqual([{ outcome: 'interrupted' }, { outcome: 'interrupted' }]);
    expect(closed.map((c) => c.outcome)).toEqual(['interrupted', 'interrupted']);
    expect(refusedKind(() => broker.answer(opened[0]!.id, { decision: 'allow_once' }))).toBe('withdrawn');
  });

  it('a signal aborted by the app (AppInterruption) interrupts the card; any other abort cancels it', async () => {
    const { broker, closed } = setup();
    const app = new AbortController();
    const user = new AbortController();
    const byApp = broker.request(call({ call_id: 'a' }), app.signal);
    const byUser = broker.request(call({ call_id: 'b' }), user.signal);
    app.abort(new AppInterruption());
    user.abort();
    expect(await byApp).toEqual({ outcome: 'interrupted' });
    expect(await byUser).toEqual({ outcome: 'cancelled' });
    expect(closed.map((c) => c.outcome)).toEqual(['interrupted', 'cancelled']);
  });

  it('an unanswered card times out; answering it afterwards is refused', async () => {
    const { broker, opened, closed } = setup(50);
    const r = await broker.request(call());
    expect(r).toEqual({ outcome: 'timed_out' });
    expect(closed[0]!.outcome).toBe('timed_out');
    expect(refusedKind(() => broker.answer(opened[0]!.id, { decision: 'allow_once' }))).toBe('withdrawn');
    await sleep(1);
  });
});

describe('canonical arguments', () => {
  it('sorts keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
    expect(argsHash({ a: 1, b: 2 })).toBe(argsHash({ b: 2, a: 1 }));
    expect(argsHash({ a: [1, 2] })).not.toBe(argsHash({ a: [2, 1] }));
    expect(argsHash({ a: 1, u: undefined })).toBe(argsHash({ a: 1 }));
  });
});
