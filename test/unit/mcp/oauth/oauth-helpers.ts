/** Shared helpers for the OAuth tests. */
import { createServer } from 'node:net';
import { vi } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import type { Transport } from '@modelcontextprotocol/client';
import { CLIENT_INFO } from '../../../../main/mcp/connection.js';
import { createOAuthRemoteTransport } from '../../../../main/mcp/oauth/transport.js';
import type { PersistentOAuthProvider } from '../../../../main/mcp/oauth/provider.js';
import type { SecretStore, SecretStoreInfo } from '../../../../main/secrets/store.js';
import { MemorySecretStore } from '../../../../main/secrets/store.js';

/** Whether a TCP port on 127.0.0.1 can be bound (i.e. nothing listens there). */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen({ port, host: '127.0.0.1', exclusive: true }, () => s.close(() => resolve(true)));
  });
}

/** Hold a port until released. */
export async function occupy(port = 0): Promise<{ port: number; release(): Promise<void> }> {
  const s = createServer();
  await new Promise<void>((resolve, reject) => {
    s.once('error', reject);
    s.listen({ port, host: '127.0.0.1', exclusive: true }, () => resolve());
  });
  const addr = s.address();
  return { port: typeof addr === 'object' && addr ? addr.port : 0, release: () => new Promise((r) => s.close(() => r())) };
}

/** A MemorySecretStore that counts writes per key. */
export class CountingStore implements SecretStore {
  readonly inner = new MemorySecretStore();
  readonly writes = new Map<string, number>();
  get(key: string) {
    return this.inner.get(key);
  }
  async set(key: string, value: string) {
    this.writes.set(key, (this.writes.get(key) ?? 0) + 1);
    await this.inner.set(key, value);
  }
  delete(key: string) {
    return this.inner.delete(key);
  }
  async update(set: Record<string, string>, remove: string[]) {
    for (const [k, v] of Object.entries(set)) await this.set(k, v);
    for (const k of remove) await this.inner.delete(k);
  }
  async keys(): Promise<string[]> {
    const inner = this.inner as unknown as { keys?: () => Promise<string[]> };
    return inner.keys ? inner.keys() : [];
  }
  info(): SecretStoreInfo {
    return this.inner.info();
  }
}

/** Connect an SDK client to `url` through the app's OAuth transport; the caller closes it. */
export async function connect(url: string, provider: PersistentOAuthProvider): Promise<{ client: Client; transport: Transport }> {
  const transport = createOAuthRemoteTransport({ type: 'http', url, headers: {} }, provider);
  const client = new Client(CLIENT_INFO, { capabilities: {} });
  try {
    await client.connect(transport, { timeout: 15_000 });
  } catch (err) {
    await client.close().catch(() => undefined);
    throw err;
  }
  return { client, transport };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A clock a test moves forward (see {@link installTestClock}). */
export interface TestClock {
  /** Jump `ms` milliseconds ahead; time keeps running from there. */
  advance(ms: number): void;
  /** Give the process its real `Date` back. */
  restore(): void;
}

/**
 * The test process's clock, so a token expires without waiting for it: `Date` — read by the
 * authorization server (oidc-provider stamps `exp` with it), the MCP server's JWT check (jose),
 * the app's provider (its `now` defaults to `Date.now`) and the SDK — keeps running with real time
 * and jumps forward on `advance`. Timers stay real, so sockets and timeouts behave as before.
 * Install it before the provider is made (the provider takes `Date.now` when constructed).
 */
export function installTestClock(): TestClock {
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  return {
    advance: (ms) => vi.setSystemTime(Date.now() + ms),
    restore: () => vi.useRealTimers(),
  };
}
