/**
 * Cancelling one tool call from the UI (chat.cancelTool): the server receives
 * notifications/cancelled, the call ends as a tool error, and the run goes on (the model gets
 * "Cancelled by the user." and answers) instead of being aborted.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ProfileStore } from '../../../main/chat/profiles.js';
import { SettingsStore } from '../../../main/chat/settings.js';
import { ConfigStore } from '../../../main/mcp/config.js';
import { McpHost } from '../../../main/mcp/host.js';
import { MemorySecretStore } from '../../../main/secrets/store.js';
import { startFakeModel, type FakeModel } from '../../fixtures/fake-model.js';
import { chatHarness } from '../chat-harness.js';
import { descendantPids, makeTempDir, removeDir, SDK_SERVER, waitFor, waitNoChildren } from '../helpers.js';

let dir: string;
let host: McpHost;
let model: FakeModel;
let wireLog: string;

beforeEach(async () => {
  dir = makeTempDir('op-cancel-');
  const store = new ConfigStore(dir);
  await store.load();
  wireLog = path.join(dir, 'stdin.log');
  await store.put('fx', { type: 'local', command: ['bash', '-c', 'tee "$0" | "$1" "$2"', wireLog, process.execPath, SDK_SERVER], env: {}, enabled: true, timeout_seconds: 30 });
  host = new McpHost(store);
  host.startAll();
  await host.whenStarted();
  model = await startFakeModel({ chunkDelayMs: 2 });
});

afterEach(async () => {
  await host.shutdown();
  await model.close();
  expect(await waitNoChildren(), `child processes left: ${descendantPids().join(', ')}`).toBe(true);
  await removeDir(dir);
});

it('cancelTool ends one running call as an error and the run continues to a final answer', async () => {
  const profiles = new ProfileStore(dir, new MemorySecretStore());
  const settings = new SettingsStore(profiles);
  await settings.set({ provider: 'openai-compatible', base_url: model.baseUrl, model: 'fake' });
  const h = await chatHarness(host, profiles, dir);
  const { run_id } = await h.chat.send('c', 'call fx__sleep {"ms":20000}');
  expect(await waitFor(() => h.tools('c').length === 1, 10_000)).toBe(true);
  const started = h.tools('c')[0]!;
  expect(h.chat.cancelTool('c', 'no-such-call')).toEqual({ cancelled: false });
  const t0 = Date.now();
  expect(h.chat.cancelTool('c', started.call_id)).toEqual({ cancelled: true });
  expect(await h.finished(run_id, 10_000)).toBe('done');
  expect(Date.now() - t0).toBeLessThan(3000);
  // The model is told in English; the window words the entry by its code (the user cancelled it).
  expect(h.tools('c')[0]).toMatchObject({ state: 'cancelled', error: 'Cancelled by the user.', end: { code: 'cancelled', by: 'user' } });
  expect(h.answer('c', run_id)).toContain('Cancelled by the user.');
  expect(await waitFor(() => readFileSync(wireLog, 'utf8').includes('notifications/cancelled'), 3000)).toBe(true);
  h.close();
});
