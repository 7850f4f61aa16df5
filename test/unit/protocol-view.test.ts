/**
 * The protocol part of a server's view (docs/ARCHITECTURE.md "Protocol features"): the transport,
 * and whether an `http` server fell back to the legacy HTTP+SSE transport, against real HTTP
 * servers on loopback.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AppCore } from '../../main/core.js';
import { MemorySecretStore } from '../../main/secrets/store.js';
import { startHttpFixture } from '../fixtures/http-server.js';
import { makeTempDir, removeDir, waitFor } from './helpers.js';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function core(): Promise<AppCore> {
  const dir = makeTempDir('op-pview-');
  const c = new AppCore({ stateDir: dir, shell: 'browser', secrets: new MemorySecretStore() });
  cleanup.push(() => removeDir(dir));
  cleanup.push(() => c.shutdown());
  await c.start();
  return c;
}

describe('transport in the server view', () => {
  it('an http server that only speaks legacy SSE is shown as the SSE fallback; a Streamable HTTP one is not', async () => {
    const sse = await startHttpFixture({ mode: 'sse' });
    cleanup.push(() => sse.close());
    const streamable = await startHttpFixture();
    cleanup.push(() => streamable.close());
    const c = await core();
    await c.host.add('old', { type: 'http', url: sse.url });
    await c.host.add('new', { type: 'http', url: streamable.url });
    await c.host.add('declared', { type: 'sse', url: sse.url });
    expect(await waitFor(() => ['old', 'new', 'declared'].every((n) => c.host.view(n).status === 'ready'), 15_000)).toBe(true);
    expect(c.host.view('old').protocol).toMatchObject({ transport: 'legacy_sse', sse_fallback: true });
    expect(c.host.view('new').protocol).toMatchObject({ transport: 'streamable_http', sse_fallback: false });
    // A server configured as `sse` is not a fallback.
    expect(c.host.view('declared').protocol).toMatchObject({ transport: 'legacy_sse', sse_fallback: false });
  });
});
