/**
 * Remote servers against real HTTP servers on loopback (the SDK's own server transports):
 * Streamable HTTP, legacy SSE, the spec's fallback from Streamable HTTP to SSE, bearer tokens,
 * a session the server expired (re-initialized once, transparently), and concurrent calls.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { McpConnection } from '../../../../main/mcp/connection.js';
import type { RemoteServerConfig } from '../../../../main/mcp/config.js';
import { startHttpFixture, type HttpFixture } from '../../../fixtures/http-server.js';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanup.splice(0).map((f) => f()));
});

async function fixture(opts: Parameters<typeof startHttpFixture>[0] = {}): Promise<HttpFixture> {
  const f = await startHttpFixture(opts);
  cleanup.push(() => f.close());
  return f;
}

function connect(cfg: Partial<RemoteServerConfig> & { url: string }): McpConnection {
  const c = new McpConnection('remote', { type: 'http', headers: {}, auth: { kind: 'none' }, enabled: true, timeout_seconds: 10, ...cfg });
  cleanup.push(() => c.close());
  return c;
}

const text = (r: unknown) => ((r as { content: Array<{ text: string }> }).content[0]!.text);

describe('remote servers', () => {
  it('Streamable HTTP: connects, lists, calls', async () => {
    const f = await fixture();
    const c = connect({ url: f.url });
    await c.start();
    expect(c.status).toBe('ready');
    expect(c.tools.map((t) => t.name)).toEqual(['echo', 'sleep']);
    expect(text(await c.callTool('echo', { text: 'hi' }))).toBe('hi');
    expect(c.useLegacySse).toBe(false);
  });

  it('legacy SSE with type sse, and as the fallback of type http after a 4xx', async () => {
    const f = await fixture({ mode: 'sse' });
    const direct = connect({ url: f.url, type: 'sse' });
    await direct.start();
    expect(direct.status).toBe('ready');
    expect(text(await direct.callTool('echo', { text: 'via sse' }))).toBe('via sse');
    const auto = connect({ url: f.url, type: 'http' });
    await auto.start();
    expect(auto.status).toBe('ready');
    expect(auto.useLegacySse).toBe(true);
    expect(auto.log.all().some((e) => /trying the legacy HTTP\+SSE transport/.test(e.text))).toBe(true);
    expect(text(await auto.callTool('echo', { text: 'fallback' }))).toBe('fallback');
  });

  for (const ssePost of ['404', 'html', 'endpoint'] as const) {
    it(`a legacy SSE server that answers the first POST with ${ssePost === '404' ? 'a 404' : ssePost === 'html' ? 'a 200 web page' : 'a 200 SSE stream opening with an endpoint event'} is recognized`, async () => {
      const f = await fixture({ mode: 'sse', ssePost });
      const auto = connect({ url: f.url, type: 'http' });
      await auto.start();
      expect(auto.state).toEqual({ kind: 'ready' });
      expect(auto.status).toBe('ready');
      expect(auto.useLegacySse).toBe(true);
      expect(auto.protocol?.era).toBe('legacy');
      expect(text(await auto.callTool('echo', { text: `after ${ssePost}` }))).toBe(`after ${ssePost}`);
    });
  }

  it('bearer: the token is sent on every request; a wrong one gives auth_failed', async () => {
    const f = await fixture({ bearer: 'right-token-0123456789' });
    const bad = connect({ url: f.url, auth: { kind: 'bearer', token: 'wrong-token' } });
    await bad.start();
    expect(bad.status).toBe('error');
    expect(bad.state).toEqual({ kind: 'error', failure: { kind: 'auth_failed', http_status: 401, server_message: null } });
    expect(JSON.stringify(bad.state)).not.toContain('wrong-token');
    const good = connect({ url: f.url, auth: { kind: 'bearer', token: 'right-token-0123456789' } });
    await good.start();
    expect(good.status).toBe('ready');
    expect(text(await good.callTool('echo', { text: 'x' }))).toBe('x');
    expect(f.requests.filter((r) => r.authorization === 'Bearer right-token-0123456789').length).toBeGreaterThanOrEqual(3);
  });

  it('a session the server expired is re-initialized once, transparently; concurrent callers share it', async () => {
    const f = await fixture();
    const c = connect({ url: f.url });
    await c.start();
    expect(f.sessionsCreated()).toBe(1);
    f.expireSessions();
    const results = await Promise.all([c.callTool('echo', { text: 'a' }), c.callTool('echo', { text: 'b' })]);
    expect(results.map(text)).toEqual(['a', 'b']);
    expect(f.sessionsCreated()).toBe(2);
    expect(c.status).toBe('ready');
    expect(c.log.all().some((e) => /expired the session/.test(e.text))).toBe(true);
  });

  it('twenty concurrent calls to one remote server take about one call’s time', async () => {
    const f = await fixture();
    const c = connect({ url: f.url });
    await c.start();
    const t0 = Date.now();
    await Promise.all(Array.from({ length: 20 }, () => c.callTool('sleep', { ms: 300 })));
    expect(Date.now() - t0).toBeLessThan(1500);
  });

  it('an unreachable URL gives connect_failed with the URL, quickly', async () => {
    const c = connect({ url: 'http://127.0.0.1:9/mcp' });
    await c.start();
    expect(c.status).toBe('error');
    expect(c.state).toMatchObject({ kind: 'error', failure: { kind: 'connect_failed', url: 'http://127.0.0.1:9/mcp', server_message: null } });
  });
});
