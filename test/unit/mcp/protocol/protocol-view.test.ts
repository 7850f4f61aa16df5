/**
 * The protocol part of a server's view (docs/ARCHITECTURE.md "Protocol features"): the transport,
 * and whether an `http` server fell back to the legacy HTTP+SSE transport (against real HTTP
 * servers on loopback); the icons a real server declares, only https: and data: images kept.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AppCore } from '../../../../main/core.js';
import { MemorySecretStore } from '../../../../main/secrets/store.js';
import { startHttpFixture } from '../../../fixtures/http-server.js';
import path from 'node:path';
import { isSafeIconSrc, pickIcon } from '../../../../main/mcp/protocol/icons.js';
import { makeTempDir, removeDir, ROOT, waitFor } from '../../helpers.js';

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
    expect(await waitFor(() => ['old', 'new', 'declared'].every((n) => c.host.view(n).state.kind === 'ready'), 15_000)).toBe(true);
    expect(c.host.view('old').protocol).toMatchObject({ transport: 'legacy_sse', sse_fallback: true });
    expect(c.host.view('new').protocol).toMatchObject({ transport: 'streamable_http', sse_fallback: false });
    // A server configured as `sse` is not a fallback.
    expect(c.host.view('declared').protocol).toMatchObject({ transport: 'legacy_sse', sse_fallback: false });
  });
});

describe('icons in the server view', () => {
  it('keeps only https: and data: image icons of the server and its tools', async () => {
    const c = await core();
    await c.host.add('fx', { type: 'local', command: [process.execPath, path.join(ROOT, 'test/fixtures/protocol-server.mjs')] });
    expect(await waitFor(() => c.host.view('fx').state.kind === 'ready', 10_000)).toBe(true);
    const p = c.host.view('fx').protocol;
    expect(p.icon).toEqual({ src: 'https://icons.example.com/fixture.png', mime_type: 'image/png' });
    expect(p.tool_icons.open_link?.src).toMatch(/^data:image\/png;base64,/);
    expect(p.tool_icons.flood).toBeUndefined();
    expect(JSON.stringify(p)).not.toMatch(/javascript:|file:|text\/html|http:\/\//);
  });

  it('isSafeIconSrc and pickIcon', () => {
    expect(isSafeIconSrc('https://a.example/i.svg')).toBe(true);
    expect(isSafeIconSrc('https://u:p@a.example/i.svg')).toBe(false);
    expect(isSafeIconSrc('http://a.example/i.png')).toBe(false);
    expect(isSafeIconSrc('data:image/svg+xml;base64,PHN2Zy8+')).toBe(true);
    expect(isSafeIconSrc('data:image/png,notbase64')).toBe(false);
    expect(isSafeIconSrc('data:text/html;base64,PGI+')).toBe(false);
    expect(isSafeIconSrc(`data:image/png;base64,${'A'.repeat(70_000)}`)).toBe(false);
    expect(pickIcon([{ src: 'https://a.example/dark.png', theme: 'dark' }, { src: 'https://a.example/light.png', theme: 'light' }])?.src).toBe('https://a.example/light.png');
    expect(pickIcon([{ src: 'https://a.example/dark.png', theme: 'dark' }])?.src).toBe('https://a.example/dark.png');
    expect(pickIcon('nope')).toBeNull();
    expect(pickIcon([null, 3, { src: 7 }])).toBeNull();
  });
});
