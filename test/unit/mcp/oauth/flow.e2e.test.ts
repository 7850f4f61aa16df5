/**
 * End-to-end OAuth against a real authorization server (oidc-provider) and a Streamable HTTP MCP
 * server that validates JWT access tokens (audience = its resource URL).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SdkErrorCode, SdkHttpError, UnauthorizedError } from '@modelcontextprotocol/client';
import { PersistentOAuthProvider } from '../../../../main/mcp/oauth/provider.js';
import { OAuthSignIns, classifyAuthFailure, refreshIfNeeded } from '../../../../main/mcp/oauth/flow.js';
import { CancelledError, InteractionRequiredError } from '../../../../main/mcp/oauth/errors.js';
import { MemorySecretStore } from '../../../../main/secrets/store.js';
import { startWorld, type World } from '../../../fixtures/oauth/world.js';
import { headlessBrowser } from '../../../fixtures/oauth/browser.js';
import { connect, installTestClock, occupy, portIsFree, sleep, type TestClock } from './oauth-helpers.js';

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
afterEach(() => {
  vi.restoreAllMocks();
});

function makeProvider(store: MemorySecretStore, openUrl: (u: URL) => void | Promise<void> = () => undefined, name = 'remote') {
  return new PersistentOAuthProvider({ serverName: name, store, openUrl });
}

async function signedIn(name: string) {
  const store = new MemorySecretStore();
  const browser = headlessBrowser();
  const provider = makeProvider(store, browser.open, name);
  const signIns = new OAuthSignIns();
  await signIns.signIn({ provider, serverUrl: world.mcpUrl });
  return { store, browser, provider, signIns };
}

describe('sign-in against oidc-provider', () => {
  it('first connect needs auth, sign-in via the browser, then the transport connects and lists tools', async () => {
    const store = new MemorySecretStore();
    const browser = headlessBrowser();
    const states: string[] = [];
    const provider = new PersistentOAuthProvider({ serverName: 'remote', store, openUrl: browser.open, onStateChange: (s) => states.push(s) });

    // Background connect: the server says 401; nothing is registered, nothing opened.
    const err = await connect(world.mcpUrl, provider).then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(InteractionRequiredError);
    expect(classifyAuthFailure(err, provider)).toBe('needs_auth');
    // A 401 however the SDK types it (an auth error, an HTTP error with the status) reads the
    // provider's state; other errors and statuses are not auth failures. Never by message text.
    expect(classifyAuthFailure(new SdkHttpError(SdkErrorCode.ClientHttpAuthentication, 'x', { status: 401, statusText: 'Unauthorized', text: '' }), provider)).toBe('needs_auth');
    expect(classifyAuthFailure(new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, 'x', { status: 404, statusText: 'Not Found', text: '' }), provider)).toBeNull();
    expect(classifyAuthFailure(new Error('401 Unauthorized'), provider)).toBeNull();
    expect(browser.opened).toHaveLength(0);
    expect(provider.lastChallenge()?.resourceMetadataUrl).toBe(world.prmUrl);
    const regsBefore = world.stats.registrations;

    const signIns = new OAuthSignIns();
    const result = await signIns.signIn({ provider, serverUrl: world.mcpUrl });
    expect(result.openedBrowser).toBe(true);
    expect(browser.opened).toHaveLength(1);
    expect(browser.opened[0]!.searchParams.get('code_challenge_method')).toBe('S256');
    expect(browser.opened[0]!.searchParams.get('resource')).toBe(world.mcpUrl);
    expect(browser.lastCallbackStatus).toBe(200);
    expect(world.stats.registrations).toBe(regsBefore + 1);
    expect(provider.authState).toBe('authorized');
    expect(states).toContain('authorized');

    // What is stored: tokens with an absolute expiry, the registration with its redirect URI,
    // discovery state, and no leftover PKCE verifier.
    const tokens = JSON.parse((await store.get('oauth:remote:tokens'))!);
    expect(typeof tokens.expires_at).toBe('number');
    expect(tokens.expires_at).toBeGreaterThan(Date.now() - 5000);
    expect(tokens.expires_in).toBeUndefined();
    expect(tokens.refresh_token).toBeTruthy();
    const client = JSON.parse((await store.get('oauth:remote:client'))!);
    expect(client.redirect_uri).toBe(result.redirectUri);
    expect(client.info.redirect_uris).toEqual([result.redirectUri]);
    const discovery = JSON.parse((await store.get('oauth:remote:discovery'))!);
    expect(discovery.authorizationServerMetadata.token_endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/token$/);
    expect(await store.get('oauth:remote:pkce')).toBeUndefined();

    const { client: mcp } = await connect(world.mcpUrl, provider);
    const tools = await mcp.listTools();
    expect(tools.tools.map((t) => t.name).sort()).toEqual(['echo', 'whoami']);
    const r = await mcp.callTool({ name: 'whoami', arguments: {} });
    expect(r.content).toEqual([{ type: 'text', text: 'authorized' }]);
    await mcp.close();

    // The callback port is free again.
    expect(await portIsFree(Number(new URL(result.redirectUri).port))).toBe(true);
  });

  it('a restart with the same store reconnects without the browser', async () => {
    const { store } = await signedIn('restart');
    const openUrl = vi.fn();
    const fresh = makeProvider(store, openUrl, 'restart');
    const { client } = await connect(world.mcpUrl, fresh);
    expect((await client.listTools()).tools.length).toBe(2);
    await client.close();
    expect(openUrl).not.toHaveBeenCalled();
  });

  it('an expired access token is refreshed silently (rotated refresh token saved)', async () => {
    const { store } = await signedIn('expiry');
    const openUrl = vi.fn();
    const provider = makeProvider(store, openUrl, 'expiry');
    const before = JSON.parse((await store.get('oauth:expiry:tokens'))!);
    const { client } = await connect(world.mcpUrl, provider);
    clock.advance(2600); // the access token has expired
    const refreshes = world.stats.refreshGrants;
    const r = await client.callTool({ name: 'echo', arguments: { text: 'still here' } });
    expect(r.content).toEqual([{ type: 'text', text: 'still here' }]);
    expect(world.stats.refreshGrants).toBeGreaterThan(refreshes);
    const after = JSON.parse((await store.get('oauth:expiry:tokens'))!);
    expect(after.access_token).not.toBe(before.access_token);
    expect(after.refresh_token).not.toBe(before.refresh_token);
    expect(after.expires_at).toBeGreaterThan(before.expires_at);
    expect(openUrl).not.toHaveBeenCalled();
    await client.close();
  });

  it('refreshIfNeeded refreshes ahead of expiry in the background, using stored discovery after a restart', async () => {
    const { store } = await signedIn('ahead');
    const provider = makeProvider(store, vi.fn(), 'ahead');
    expect(await refreshIfNeeded(provider, world.mcpUrl, { marginMs: 0, now: () => Date.now() - 60_000 })).toBe('fresh');
    // Without a clock of its own it goes by the provider's: a minute behind, the token is fresh.
    const behind = new PersistentOAuthProvider({ serverName: 'ahead', store, openUrl: vi.fn(), now: () => Date.now() - 60_000 });
    expect(await refreshIfNeeded(behind, world.mcpUrl, { marginMs: 30_000 })).toBe('fresh');
    const n = world.stats.refreshGrants;
    expect(await refreshIfNeeded(provider, world.mcpUrl, { marginMs: 60_000 })).toBe('refreshed');
    expect(world.stats.refreshGrants).toBe(n + 1);
    expect(await refreshIfNeeded(makeProvider(new MemorySecretStore(), vi.fn(), 'none'), world.mcpUrl)).toBe('needs_auth');
  });

  it('a revoked refresh token makes the provider report needs_reauth without opening anything', async () => {
    const { store } = await signedIn('revoked');
    const tokens = JSON.parse((await store.get('oauth:revoked:tokens'))!);
    await world.revokeRefreshToken(tokens.refresh_token);
    clock.advance(2600); // access token expired too
    const openUrl = vi.fn();
    const provider = makeProvider(store, openUrl, 'revoked');
    const err = await connect(world.mcpUrl, provider).then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(UnauthorizedError);
    expect(provider.authState).toBe('needs_reauth');
    expect(classifyAuthFailure(err, provider)).toBe('needs_reauth');
    expect(openUrl).not.toHaveBeenCalled();
    expect(await store.get('oauth:revoked:tokens')).toBeUndefined();
    // The registration and discovery survive, so signing in again reuses them.
    expect(await store.get('oauth:revoked:client')).toBeDefined();
  });

  it('one sign-in per server: a second call joins the first', async () => {
    const store = new MemorySecretStore();
    const browser = headlessBrowser();
    const provider = makeProvider(store, browser.open, 'join');
    const signIns = new OAuthSignIns();
    const a = signIns.signIn({ provider, serverUrl: world.mcpUrl });
    const b = signIns.signIn({ provider, serverUrl: world.mcpUrl });
    expect(signIns.inProgress('join')).toBe(true);
    const [ra, rb] = await Promise.all([a, b]);
    expect(ra).toEqual(rb);
    expect(browser.opened).toHaveLength(1);
    expect(signIns.inProgress('join')).toBe(false);
  });

  it('cancel while waiting for the browser closes the loopback socket and rejects', async () => {
    const store = new MemorySecretStore();
    const opened: URL[] = [];
    const provider = makeProvider(store, (u) => void opened.push(u), 'cancel');
    const signIns = new OAuthSignIns();
    const p = signIns.signIn({ provider, serverUrl: world.mcpUrl });
    for (let i = 0; i < 100 && opened.length === 0; i++) await sleep(50);
    expect(opened).toHaveLength(1);
    const port = Number(new URL(opened[0]!.searchParams.get('redirect_uri')!).port);
    expect(await portIsFree(port)).toBe(false);
    expect(signIns.cancel('cancel')).toBe(true);
    await expect(p).rejects.toBeInstanceOf(CancelledError);
    expect(await portIsFree(port)).toBe(true);
    expect(await store.get('oauth:cancel:tokens')).toBeUndefined();
    expect(await store.get('oauth:cancel:pkce')).toBeUndefined();
    expect(provider.interactive).toBe(false);
  });

  it('cancel through the caller signal before anything happened leaves no listener', async () => {
    const provider = makeProvider(new MemorySecretStore(), vi.fn(), 'early');
    const ac = new AbortController();
    ac.abort();
    await expect(new OAuthSignIns().signIn({ provider, serverUrl: world.mcpUrl, signal: ac.signal })).rejects.toBeInstanceOf(CancelledError);
  });

  it('timeout while waiting for the browser rejects and frees the port', async () => {
    const opened: URL[] = [];
    const provider = makeProvider(new MemorySecretStore(), (u) => void opened.push(u), 'timeout');
    const err = await new OAuthSignIns().signIn({ provider, serverUrl: world.mcpUrl, timeoutMs: 3000 }).catch((e: unknown) => e);
    expect((err as Error).name).toBe('CallbackTimeoutError');
    const port = Number(new URL(opened[0]!.searchParams.get('redirect_uri')!).port);
    expect(await portIsFree(port)).toBe(true);
  });

  it('reuses the registered redirect port; if it is taken, registers again instead of sending a mismatched redirect_uri', async () => {
    const { store, provider, signIns, browser } = await signedIn('ports');
    const first = JSON.parse((await store.get('oauth:ports:client'))!);
    const port = Number(new URL(first.redirect_uri).port);

    const again = await signIns.signIn({ provider, serverUrl: world.mcpUrl, forceNew: true });
    expect(again.redirectUri).toBe(first.redirect_uri);
    expect(JSON.parse((await store.get('oauth:ports:client'))!).info.client_id).toBe(first.info.client_id);

    const blocker = await occupy(port);
    try {
      const regs = world.stats.registrations;
      const third = await signIns.signIn({ provider, serverUrl: world.mcpUrl, forceNew: true });
      expect(third.redirectUri).not.toBe(first.redirect_uri);
      expect(world.stats.registrations).toBe(regs + 1);
      const rec = JSON.parse((await store.get('oauth:ports:client'))!);
      expect(rec.info.client_id).not.toBe(first.info.client_id);
      expect(rec.redirect_uri).toBe(third.redirectUri);
      expect(browser.lastCallbackStatus).toBe(200);
    } finally {
      await blocker.release();
    }
  });

  it('a denied consent rejects with AuthorizationDeniedError', async () => {
    const browser = headlessBrowser({ mutateCallback: (u) => {
      const d = new URL(u);
      d.searchParams.delete('code');
      d.searchParams.set('error', 'access_denied');
      return d;
    } });
    const provider = makeProvider(new MemorySecretStore(), browser.open, 'denied');
    const err = await new OAuthSignIns().signIn({ provider, serverUrl: world.mcpUrl }).catch((e: unknown) => e);
    expect((err as Error).name).toBe('AuthorizationDeniedError');
    expect((err as Error).message).toContain('access_denied');
  });
});
