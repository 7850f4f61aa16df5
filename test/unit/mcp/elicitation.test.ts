/**
 * Elicitation end to end in main: a real server (SDK fixture) asks for input during a tool call;
 * the request reaches the app as an `elicitation.request` event; the user's answer goes back
 * through the `elicitation.respond` channel; omitted fields get the schema's defaults
 * (SEP-1034); decline and timeouts work; a withdrawn request cannot be answered.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventPayloads } from '../../../preload/contract/index.js';
import { AppCore } from '../../../main/core.js';
import { createDispatcher } from '../../../main/ipc/dispatch.js';
import { UserRequestBroker } from '../../../main/mcp/elicitation.js';
import { MemorySecretStore } from '../../../main/secrets/store.js';
import { descendantPids, makeTempDir, removeDir, sdkCommand, waitFor, waitNoChildren } from '../helpers.js';

let dir: string;
let core: AppCore;
let requests: EventPayloads['elicitation.request'][];
let closed: string[];

beforeEach(async () => {
  dir = makeTempDir('op-elicit-');
  core = new AppCore({ stateDir: dir, shell: 'browser', secrets: new MemorySecretStore() });
  requests = [];
  closed = [];
  core.subscribe((event, payload) => {
    if (event === 'elicitation.request') requests.push(payload as EventPayloads['elicitation.request']);
    if (event === 'elicitation.closed') closed.push((payload as { id: string }).id);
  });
  await core.start();
  await core.host.add('fx', { type: 'local', command: sdkCommand() });
  expect(await waitFor(() => core.host.view('fx').state.kind === 'ready', 10_000)).toBe(true);
});

afterEach(async () => {
  await core.shutdown();
  expect(await waitNoChildren(), `child processes left: ${descendantPids().join(', ')}`).toBe(true);
  await removeDir(dir);
});

const text = (r: unknown) => (r as { content: Array<{ text: string }> }).content[0]!.text;

describe('elicitation', () => {
  it('accept: the form reaches the app, the answer reaches the server, omitted fields get their defaults', async () => {
    const d = createDispatcher(core);
    const call = core.host.callTool('fx__ask', {});
    expect(await waitFor(() => requests.length === 1, 5000)).toBe(true);
    const req = requests[0]!;
    expect(req.server).toBe('fx');
    expect(req.message).toBe('Who are you?');
    expect(Object.keys(req.requested_schema.properties as object)).toEqual(['name', 'age', 'color']);
    const r = await d.invoke('elicitation.respond', { id: req.id, action: 'accept', content: { name: 'Ada' } });
    expect(r.ok).toBe(true);
    expect(JSON.parse(text(await call))).toEqual({ action: 'accept', content: { name: 'Ada', age: 30, color: 'green' } });
    // Answered once: a second answer is refused with a typed error.
    const again = await d.invoke('elicitation.respond', { id: req.id, action: 'decline' });
    expect(again).toMatchObject({ ok: false, error: { code: 'gone' } });
  });

  it('decline reaches the server without content', async () => {
    const call = core.host.callTool('fx__ask', {});
    expect(await waitFor(() => requests.length === 1, 5000)).toBe(true);
    const d = createDispatcher(core);
    await d.invoke('elicitation.respond', { id: requests[0]!.id, action: 'decline', content: { name: 'ignored' } });
    expect(JSON.parse(text(await call))).toEqual({ action: 'decline' });
  });

  it('a cancelled tool call withdraws the form', async () => {
    const ctrl = new AbortController();
    const call = core.host.callTool('fx__ask', {}, { signal: ctrl.signal });
    expect(await waitFor(() => requests.length === 1, 5000)).toBe(true);
    ctrl.abort();
    await expect(call).rejects.toThrow();
    expect(await waitFor(() => closed.includes(requests[0]!.id), 5000)).toBe(true);
  });

  it('an unanswered form is cancelled after the timeout and withdrawn', async () => {
    const shown: string[] = [];
    const withdrawn: string[] = [];
    const broker = new UserRequestBroker<{ server: string; message: string }, { action: string }>((e) => shown.push(e.id), (id) => withdrawn.push(id), { action: 'cancel' }, 50);
    const answer = await broker.ask({ server: 's', message: 'm' }, new AbortController().signal);
    expect(answer).toEqual({ action: 'cancel' });
    expect(withdrawn).toEqual(shown);
  });
});
