/**
 * A run the app ends (shutdown or restart: `ChatService.stopAll`) is recorded as interrupted by the
 * app, never as cancelled by the user: a call waiting for approval ends `approval_interrupted`
 * (it never ran), a running one `interrupted`, the answer `interrupted`; the next run's model is told
 * so. The user's own Stop still records a cancellation. Real host (SDK fixture), real fake model,
 * real SQLite store.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { APPROVAL_INTERRUPTED_RESULT } from '../../../main/chat/interruption.js';
import { INTERRUPTED_RESULT } from '../../../main/chat/conversations/history.js';
import { ProfileStore } from '../../../main/chat/profiles.js';
import { SettingsStore } from '../../../main/chat/settings.js';
import { ConfigStore } from '../../../main/mcp/config.js';
import { McpHost } from '../../../main/mcp/host.js';
import { MemorySecretStore } from '../../../main/secrets/store.js';
import { startFakeModel, textOf, type FakeModel } from '../../fixtures/fake-model.js';
import { chatHarness, type ChatHarness } from '../chat-harness.js';
import { descendantPids, makeTempDir, removeDir, sdkCommand, waitFor, waitNoChildren } from '../helpers.js';

let dir: string;
let host: McpHost;
let model: FakeModel;
let h: ChatHarness;

beforeEach(async () => {
  dir = makeTempDir('op-interrupt-');
  const store = new ConfigStore(dir);
  await store.load();
  await store.put('fx', { type: 'local', command: sdkCommand(`--record=${dir}/notes.txt`), env: {}, enabled: true, timeout_seconds: 30 });
  host = new McpHost(store);
  host.startAll();
  await host.whenStarted();
  model = await startFakeModel({ chunkDelayMs: 2 });
  const profiles = new ProfileStore(dir, new MemorySecretStore());
  await new SettingsStore(profiles).set({ provider: 'openai-compatible', base_url: model.baseUrl, model: 'fake' });
  h = await chatHarness(host, profiles, dir);
});

afterEach(async () => {
  await h.chat.stopAll();
  h.close();
  await host.shutdown();
  await model.close();
  expect(await waitNoChildren(), `child processes left: ${descendantPids().join(', ')}`).toBe(true);
  await removeDir(dir);
});

it('a call waiting for approval when the app stops is approval_interrupted, not "Cancelled by the user"', async () => {
  await h.permissions.setMode('ask_all');
  const { run_id } = await h.chat.send('c', 'call fx__write_note {"text":"x"}');
  expect(await waitFor(() => h.permissions.pending().length === 1, 10_000)).toBe(true);
  await h.chat.stopAll();
  expect(await h.finished(run_id)).toBe('interrupted');
  const [tool] = h.tools('c');
  expect(tool).toMatchObject({ state: 'approval_interrupted', error: null, permission: { allowed: false, via: 'interrupted', decision: null } });
  expect(h.items('c').some((i) => i.kind === 'notice' && i.text === 'Stopped.')).toBe(false);
  expect(h.permissions.pending()).toHaveLength(0);
  // The next run's model learns the call never ran and why.
  await h.permissions.setMode('never_ask');
  const next = await h.chat.send('c', 'what happened?');
  await h.finished(next.run_id);
  const msgs = model.requests.at(-1)!.body.messages;
  expect(msgs.map((m) => textOf(m)).join('\n')).toContain(APPROVAL_INTERRUPTED_RESULT);
  expect(msgs.map((m) => textOf(m)).join('\n')).not.toContain('Cancelled by the user.');
});

it('a running call when the app stops is interrupted (it may have taken effect); the user\'s Stop still cancels', async () => {
  const first = await h.chat.send('a', 'call fx__sleep {"ms":20000}');
  expect(await waitFor(() => h.tools('a')[0]?.state === 'running', 10_000)).toBe(true);
  await h.chat.stopAll();
  expect(await h.finished(first.run_id)).toBe('interrupted');
  expect(h.tools('a')[0]).toMatchObject({ state: 'interrupted', error: null });
  const next = await h.chat.send('a', 'and?');
  await h.finished(next.run_id);
  expect(model.requests.at(-1)!.body.messages.map((m) => textOf(m)).join('\n')).toContain(INTERRUPTED_RESULT);

  const second = await h.chat.send('b', 'call fx__sleep {"ms":20000}');
  expect(await waitFor(() => h.tools('b')[0]?.state === 'running', 10_000)).toBe(true);
  h.chat.stop('b');
  expect(await h.finished(second.run_id)).toBe('stopped');
  expect(h.tools('b')[0]).toMatchObject({ state: 'cancelled', error: 'Cancelled by the user.' });
});

it('an entry left awaiting approval by a killed app reads as approval_interrupted at the next start', async () => {
  await h.permissions.setMode('ask_all');
  await h.chat.send('k', 'call fx__write_note {"text":"y"}');
  expect(await waitFor(() => h.permissions.pending().length === 1, 10_000)).toBe(true);
  expect(h.tools('k')[0]?.state).toBe('awaiting_approval');
  // As if the process died here: the store is flushed and reopened without the run ending.
  h.store.flush();
  const reopened = await chatHarness(host, new ProfileStore(dir, new MemorySecretStore()), dir);
  try {
    expect(reopened.tools('k')[0]).toMatchObject({ state: 'approval_interrupted', error: null });
  } finally {
    reopened.close();
  }
});
