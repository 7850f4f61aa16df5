/**
 * Sampling end to end in main: a real server (SDK fixture) asks the host's model for a
 * completion during a tool call; the user sees a `sampling.request` event and approves or
 * declines through `sampling.respond`; on approval the configured model (the fake OpenAI-compatible
 * server) answers; without a model the server gets a clear error.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventPayloads } from '../../../preload/contract/index.js';
import { AppCore } from '../../../main/core.js';
import { createDispatcher } from '../../../main/ipc/dispatch.js';
import { MemorySecretStore } from '../../../main/secrets/store.js';
import { startFakeModel, type FakeModel } from '../../fixtures/fake-model.js';
import { descendantPids, makeTempDir, removeDir, sdkCommand, waitFor, waitNoChildren } from '../helpers.js';

let dir: string;
let core: AppCore;
let model: FakeModel;
let requests: EventPayloads['sampling.request'][];

beforeEach(async () => {
  dir = makeTempDir('op-sampling-');
  model = await startFakeModel({ chunkDelayMs: 1 });
  core = new AppCore({ stateDir: dir, shell: 'browser', secrets: new MemorySecretStore() });
  requests = [];
  core.subscribe((event, payload) => {
    if (event === 'sampling.request') requests.push(payload as EventPayloads['sampling.request']);
  });
  await core.start();
  await core.host.add('fx', { type: 'local', command: sdkCommand() });
  expect(await waitFor(() => core.host.view('fx').state.kind === 'ready', 10_000)).toBe(true);
});

afterEach(async () => {
  await core.shutdown();
  await model.close();
  expect(await waitNoChildren(), `child processes left: ${descendantPids().join(', ')}`).toBe(true);
  await removeDir(dir);
});

const text = (r: unknown) => (r as { content: Array<{ text: string }> }).content[0]!.text;

describe('sampling', () => {
  it('approved: the user sees who asks and what; the configured model answers the server', async () => {
    await core.settings.set({ provider: 'openai-compatible', base_url: model.baseUrl, model: 'fake-sampler' });
    const call = core.host.callTool('fx__summarize', { text: 'long text here' });
    expect(await waitFor(() => requests.length === 1, 5000)).toBe(true);
    expect(requests[0]).toMatchObject({ server: 'fx', system_prompt: 'Be brief.', messages: [{ role: 'user', text: 'long text here' }], max_tokens: 100 });
    expect(model.requests).toHaveLength(0); // nothing reaches the model before approval
    const r = await createDispatcher(core).invoke('sampling.respond', { id: requests[0]!.id, approve: true });
    expect(r.ok).toBe(true);
    expect(text(await call)).toBe('model fake-sampler said: echo: long text here');
    expect(model.requests[0]!.body.messages[0]).toMatchObject({ role: 'system', content: 'Be brief.' });
  });

  it('declined: the server gets an error and the model is never called', async () => {
    await core.settings.set({ provider: 'openai-compatible', base_url: model.baseUrl, model: 'fake-sampler' });
    const call = core.host.callTool('fx__summarize', { text: 'x' });
    expect(await waitFor(() => requests.length === 1, 5000)).toBe(true);
    await createDispatcher(core).invoke('sampling.respond', { id: requests[0]!.id, approve: false });
    const r = (await call) as { isError?: boolean };
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/declined/);
    expect(model.requests).toHaveLength(0);
  });

  it('without a configured model the server gets a clear error and no dialog is shown', async () => {
    const r = (await core.host.callTool('fx__summarize', { text: 'x' })) as { isError?: boolean };
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/no model configured/);
    expect(requests).toHaveLength(0);
  });
});
