/**
 * The Anthropic provider entry: the same agent loop, a real host with the SDK fixture server, and
 * a fake of Anthropic's streaming Messages API. The key goes in `x-api-key`; a tool call round
 * trip works; switching provider is only a settings change.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ProfileStore } from '../../../main/chat/profiles.js';
import { SettingsStore } from '../../../main/chat/settings.js';
import { ConfigStore } from '../../../main/mcp/config.js';
import { McpHost } from '../../../main/mcp/host.js';
import { MemorySecretStore } from '../../../main/secrets/store.js';
import { startFakeAnthropic, type FakeAnthropic } from '../../fixtures/fake-anthropic.js';
import { chatHarness } from '../chat-harness.js';
import { descendantPids, makeTempDir, removeDir, sdkCommand, waitNoChildren } from '../helpers.js';

let dir: string;
let host: McpHost;
let fake: FakeAnthropic;

beforeEach(async () => {
  dir = makeTempDir('op-anthropic-');
  const store = new ConfigStore(dir);
  await store.load();
  await store.put('fx', { type: 'local', command: sdkCommand(), env: {}, enabled: true, timeout_seconds: 20 });
  host = new McpHost(store);
  host.startAll();
  await host.whenStarted();
  fake = await startFakeAnthropic();
});

afterEach(async () => {
  await host.shutdown();
  await fake.close();
  expect(await waitNoChildren(), `child processes left: ${descendantPids().join(', ')}`).toBe(true);
  await removeDir(dir);
});

it('Anthropic: streamed answer after a tool call round trip; the key is sent as x-api-key', async () => {
  const profiles = new ProfileStore(dir, new MemorySecretStore());
  const settings = new SettingsStore(profiles);
  const view = await settings.set({ provider: 'anthropic', base_url: fake.baseUrl, model: 'claude-test', api_key: 'sk-ant-test-0123456789' });
  expect(view).toMatchObject({ provider: 'anthropic', configured: true, api_key: { has_value: true } });
  const h = await chatHarness(host, profiles, dir);
  const { run_id } = await h.chat.send('c', 'call fx__echo {"text":"from claude"}');
  expect(await h.finished(run_id)).toBe('done');
  expect(h.items('c').some((i) => i.kind === 'notice')).toBe(false);
  expect(h.tools('c')[0]).toMatchObject({ state: 'ok', content: [{ type: 'text', text: 'from claude' }] });
  expect(h.answer('c', run_id)).toBe('Tool result: from claude');
  expect(fake.requests.every((r) => r.apiKey === 'sk-ant-test-0123456789')).toBe(true);
  expect(fake.requests[0]!.body.tools?.some((t) => t.name === 'fx__echo')).toBe(true);
  h.close();
});
