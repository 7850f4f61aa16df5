/**
 * One refresh per refresh token: parallel requests with an expired access token (each answered
 * 401, each making the SDK refresh) must not send the same rotating refresh token twice — an
 * authorization server with reuse detection (oidc-provider here) would revoke the whole grant.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FetchLike } from '@modelcontextprotocol/client';
import { PersistentOAuthProvider } from '../../../../main/mcp/oauth/provider.js';
import { OAuthSignIns } from '../../../../main/mcp/oauth/flow.js';
import { createGuardedFetch } from '../../../../main/mcp/oauth/safe-fetch.js';
import { MemorySecretStore } from '../../../../main/secrets/store.js';
import { startWorld, type World } from '../../../fixtures/oauth/world.js';
import { headlessBrowser } from '../../../fixtures/oauth/browser.js';
import { connect, installTestClock, sleep, type TestClock } from './oauth-helpers.js';

let world: World;
let clock: TestClock;
beforeAll(async () => {
  clock = installTestClock();
  world = await startWorld({ accessTokenTTL: 2 });
});
afterAll(async () => {
  await world?.close();
  clock?.restore();
});

describe('refresh-token grants', () => {
  it('parallel calls with an expired access token share one refresh; the grant survives', async () => {
    const store = new MemorySecretStore();
    const provider = new PersistentOAuthProvider({ serverName: 'race', store, openUrl: headlessBrowser().open });
    await new OAuthSignIns().signIn({ provider, serverUrl: world.mcpUrl });
    const { client } = await connect(world.mcpUrl, provider);
    clock.advance(2600); // the access token has expired
    const sentBefore = world.refreshTokensSent.length;
    const errors = world.stats.refreshErrors;
    const results = await Promise.all([1, 2, 3].map((i) => client.callTool({ name: 'echo', arguments: { text: `call ${i}` } })));
    expect(results.map((r) => r.content)).toEqual([1, 2, 3].map((i) => [{ type: 'text', text: `call ${i}` }]));
    // The 401s share one refresh: the signed-in refresh token goes out once. (A request whose 401
    // is handled after the rotated tokens were saved refreshes with the new token: no reuse.)
    const sent = world.refreshTokensSent.slice(sentBefore);
    expect(sent.length).toBeGreaterThan(0);
    expect(new Set(sent).size).toBe(sent.length);
    expect(world.stats.refreshErrors).toBe(errors);
    expect(provider.authState).toBe('authorized');
    // Still signed in afterwards: the grant was not revoked for reuse.
    expect((await client.callTool({ name: 'whoami', arguments: {} })).content).toEqual([{ type: 'text', text: 'authorized' }]);
    await client.close();
  });

  it('coalesces by refresh token only; other requests and failures are not shared', async () => {
    let sent = 0;
    const base: FetchLike = async (_url, init) => {
      sent++;
      await sleep(20);
      const p = new URLSearchParams(String(init?.body ?? ''));
      const bad = p.get('refresh_token') === 'bad';
      return new Response(JSON.stringify(bad ? { error: 'invalid_grant' } : { access_token: `at-${sent}`, token_type: 'Bearer', expires_in: 60 }), {
        status: bad ? 400 : 200,
        headers: { 'content-type': 'application/json' },
      });
    };
    const f = createGuardedFetch({ base, allowPrivateHosts: ['127.0.0.1'] });
    const token = 'http://127.0.0.1:1/token';
    const refresh = (rt: string) => f(token, { method: 'POST', body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: rt }) });

    // Concurrent and just-after requests with one refresh token: one request, same answer for all.
    const [a, b] = await Promise.all([refresh('rt-1'), refresh('rt-1')]);
    const c = await refresh('rt-1');
    expect(sent).toBe(1);
    const bodies = await Promise.all([a, b, c].map((r) => r.json()));
    expect(new Set(bodies.map((x) => (x as { access_token: string }).access_token))).toEqual(new Set(['at-1']));

    // Another refresh token, another request; other grants are never shared.
    await refresh('rt-2');
    expect(sent).toBe(2);
    const code = () => f(token, { method: 'POST', body: new URLSearchParams({ grant_type: 'authorization_code', code: 'x' }) });
    await Promise.all([code(), code()]);
    expect(sent).toBe(4);

    // A rejected refresh is not kept.
    expect((await refresh('bad')).status).toBe(400);
    await sleep(10);
    expect((await refresh('bad')).status).toBe(400);
    expect(sent).toBe(6);
  });
});
