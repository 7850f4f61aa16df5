/**
 * Guards a mutation check found untested: saving the model key as
 * `""` deletes it; a stale connection (one the host replaced) cannot publish anything.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SettingsStore } from '../../../../main/chat/settings.js';
import { profileKeySecret, ProfileStore } from '../../../../main/chat/profiles.js';
import { ConfigStore } from '../../../../main/mcp/config.js';
import type { ConnectionState, McpConnection } from '../../../../main/mcp/connection.js';
import { McpHost } from '../../../../main/mcp/host.js';
import { MemorySecretStore } from '../../../../main/secrets/store.js';
import { makeTempDir, removeDir, sdkCommand, sleep, waitFor } from '../../helpers.js';

let dir: string;
beforeEach(() => {
  dir = makeTempDir('op-gaps-');
});
afterEach(async () => {
  await removeDir(dir);
});

describe('the model API key', () => {
  it('"" deletes it; absent keeps it; a value replaces it', async () => {
    const secrets = new MemorySecretStore();
    const profiles = new ProfileStore(dir, secrets);
    const s = new SettingsStore(profiles);
    const base = { provider: 'openai-compatible' as const, base_url: 'http://127.0.0.1:9/v1', model: 'm' };
    await s.set({ ...base, api_key: 'sk-first-0123456789abcdef' });
    await s.set(base);
    const key = profileKeySecret((await profiles.list())[0]!.id);
    expect(await secrets.get(key)).toBe('sk-first-0123456789abcdef');
    await s.set({ ...base, api_key: '' });
    expect(await secrets.get(key)).toBeUndefined();
    expect(await secrets.keys()).not.toContain(key);
    expect((await s.view()).api_key).toEqual({ has_value: false, masked: '' });
  });
});

describe('a stale connection', () => {
  it('cannot publish: its late "crash" neither schedules a restart nor replaces the live one', async () => {
    const secrets = new MemorySecretStore();
    const store = new ConfigStore(dir, secrets);
    await store.load();
    const host = new McpHost(store, { secrets });
    host.recoveryPolicy = { maxAttempts: 5, baseDelayMs: 20, maxDelayMs: 40, stableMs: 60_000 };
    const seen: string[] = [];
    try {
      await host.add('s', { type: 'local', command: sdkCommand() });
      expect(await waitFor(() => host.view('s').state.kind === 'ready', 15_000)).toBe(true);
      const old = host.connection('s')!;
      await host.restart('s');
      expect(await waitFor(() => host.view('s').state.kind === 'ready' && host.connection('s') !== old, 15_000)).toBe(true);
      const live = host.connection('s')!;
      // The replaced connection reports a crash late (as a dying process would).
      (old as unknown as { current: ConnectionState }).current = { kind: 'error', failure: { kind: 'exited', running: true, exit: null, server_message: null } };
      old.readyAt = Date.now() - 1000;
      (old as unknown as { onChange: (c: McpConnection) => void }).onChange(old);
      await sleep(300);
      const v = host.view('s');
      seen.push(v.state.kind);
      expect(v.state).toEqual({ kind: 'ready' });
      expect(host.connection('s')).toBe(live);
      expect(host.tools().some((t) => t.server === 's')).toBe(true);
    } finally {
      await host.shutdown();
    }
  }, 30_000);
});
