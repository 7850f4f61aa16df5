import { describe, expect, it, vi } from 'vitest';
import { PersistentOAuthProvider, PKCE_TTL_MS } from '../../../../main/mcp/oauth/provider.js';
import { CancelledError, InteractionRequiredError, UnsafeUrlError } from '../../../../main/mcp/oauth/errors.js';
import { CountingStore } from './oauth-helpers.js';

function make(extra: Partial<ConstructorParameters<typeof PersistentOAuthProvider>[0]> = {}) {
  const store = new CountingStore();
  let now = 1_000_000;
  const openUrl = vi.fn();
  const provider = new PersistentOAuthProvider({ serverName: 'srv', store, openUrl, now: () => now, ...extra });
  return { store, provider, openUrl, tick: (ms: number) => (now += ms), now: () => now };
}

describe('PersistentOAuthProvider', () => {
  it('saves tokens with an absolute expires_at, one write per save; tokens() recomputes expires_in', async () => {
    const { store, provider, tick } = make();
    await provider.saveTokens({ access_token: 'at-1', token_type: 'Bearer', expires_in: 300, refresh_token: 'rt-1' });
    const raw = JSON.parse((await store.get('oauth:srv:tokens'))!);
    expect(raw.expires_at).toBe(1_000_000 + 300_000);
    expect(raw.expires_in).toBeUndefined();
    tick(100_000);
    expect((await provider.tokens())?.expires_in).toBe(200);
    tick(1_000_000);
    expect((await provider.tokens())?.expires_in).toBe(0);
    // A rotated refresh token replaces the old one in a single write.
    await provider.saveTokens({ access_token: 'at-2', token_type: 'Bearer', expires_in: 60, refresh_token: 'rt-2' });
    expect(store.writes.get('oauth:srv:tokens')).toBe(2);
    expect((await provider.tokens())?.refresh_token).toBe('rt-2');
    expect(provider.authState).toBe('authorized');
  });

  it('background mode: no registration without a sign-in, redirect opens nothing', async () => {
    const { provider, openUrl } = make();
    await expect(provider.clientInformation()).rejects.toBeInstanceOf(InteractionRequiredError);
    expect(provider.authState).toBe('needs_auth');
    await provider.redirectToAuthorization(new URL('https://as.example.com/authorize'));
    expect(openUrl).not.toHaveBeenCalled();
    await provider.saveCodeVerifier('v');
    await expect(provider.codeVerifier()).rejects.toThrow();
  });

  it('interactive mode: stores the registration with its redirect URI and the verifier under the state; opens once', async () => {
    const { store, provider, openUrl } = make();
    const view = provider.beginInteractive('http://127.0.0.1:5555/callback', 'state-A');
    expect(view.redirectUrl).toBe('http://127.0.0.1:5555/callback');
    expect(view.clientMetadata.redirect_uris).toEqual(['http://127.0.0.1:5555/callback']);
    expect(view.clientMetadata.token_endpoint_auth_method).toBe('none');
    expect(view.state()).toBe('state-A');
    expect(await view.clientInformation()).toBeUndefined();
    // Meanwhile the provider itself stays in background mode (another connection's 401).
    expect(provider.state()).not.toBe('state-A');
    await expect(provider.clientInformation()).rejects.toBeInstanceOf(InteractionRequiredError);
    await view.saveClientInformation({ client_id: 'c1', issuer: 'https://as.example.com' } as never);
    const rec = JSON.parse((await store.get('oauth:srv:client'))!);
    expect(rec).toMatchObject({ kind: 'dynamic', redirect_uri: 'http://127.0.0.1:5555/callback', info: { client_id: 'c1', issuer: 'https://as.example.com' } });
    await view.saveCodeVerifier('verifier-1');
    await view.saveCodeVerifier('verifier-2');
    // A background request cannot replace or delete the sign-in's verifier.
    await provider.saveCodeVerifier('background-verifier');
    await provider.invalidateCredentials('verifier');
    expect(JSON.parse((await store.get('oauth:srv:pkce'))!)['state-A'].verifier).toBe('verifier-1');
    expect(await view.codeVerifier()).toBe('verifier-1');
    await provider.redirectToAuthorization(new URL('https://as.example.com/authorize?x=0'));
    expect(openUrl).not.toHaveBeenCalled();
    await view.redirectToAuthorization(new URL('https://as.example.com/authorize?x=1'));
    await view.redirectToAuthorization(new URL('https://as.example.com/authorize?x=2'));
    expect(openUrl).toHaveBeenCalledTimes(1);
    await provider.endInteractive();
    expect(await store.get('oauth:srv:pkce')).toBeUndefined();
    // Outside a sign-in the stored registration's redirect URI is used.
    expect(provider.redirectUrl).toBe('http://127.0.0.1:5555/callback');
  });

  it('refuses unsafe authorization URLs and honours cancellation', async () => {
    const { provider, openUrl } = make();
    const view = provider.beginInteractive('http://127.0.0.1:1/callback', 's');
    await expect(view.redirectToAuthorization(new URL('file:///etc/passwd'))).rejects.toBeInstanceOf(UnsafeUrlError);
    await expect(view.redirectToAuthorization(new URL('javascript:alert(1)'))).rejects.toBeInstanceOf(UnsafeUrlError);
    await expect(view.redirectToAuthorization(new URL('http://evil.example.com/authorize'))).rejects.toBeInstanceOf(UnsafeUrlError);
    provider.cancelInteractive();
    await expect(view.redirectToAuthorization(new URL('https://as.example.com/a'))).rejects.toBeInstanceOf(CancelledError);
    expect(openUrl).not.toHaveBeenCalled();
    await provider.endInteractive();
  });

  it('prunes stale verifiers', async () => {
    const { store, provider, tick } = make();
    await provider.beginInteractive('http://127.0.0.1:1/callback', 'old').saveCodeVerifier('v-old');
    provider.cancelInteractive();
    // Simulate a crash: the session is gone but the entry stays.
    (provider as unknown as { session: null }).session = null;
    tick(PKCE_TTL_MS + 1);
    await provider.beginInteractive('http://127.0.0.1:1/callback', 'new').saveCodeVerifier('v-new');
    expect(Object.keys(JSON.parse((await store.get('oauth:srv:pkce'))!))).toEqual(['new']);
    await provider.endInteractive();
  });

  it('pre-registered clients are returned as configured; only their issuer stamp is stored, never the secret', async () => {
    const { store, provider } = make({ preRegistered: { client_id: 'pre', client_secret: 'pre-secret-value', redirect_uri: 'http://127.0.0.1:7777/callback' } });
    expect(await provider.clientInformation()).toEqual({ client_id: 'pre', client_secret: 'pre-secret-value' });
    await provider.saveClientInformation({ client_id: 'pre', client_secret: 'pre-secret-value', issuer: 'https://as' } as never);
    const raw = (await store.get('oauth:srv:client'))!;
    expect(raw).not.toContain('pre-secret-value');
    expect(JSON.parse(raw)).toMatchObject({ kind: 'pre', info: { client_id: 'pre', issuer: 'https://as' } });
    expect(await provider.clientInformation({ issuer: 'https://as' })).toEqual({ client_id: 'pre', client_secret: 'pre-secret-value', issuer: 'https://as' });
    // The server moved to another authorization server: the user's client is not sent there.
    expect(await provider.clientFor({ issuer: 'https://other-as' })).toBeUndefined();
    expect(provider.redirectUrl).toBe('http://127.0.0.1:7777/callback');
  });

  it('invalidateCredentials follows the SDK scopes', async () => {
    const { store, provider } = make();
    await store.set('oauth:srv:tokens', JSON.stringify({ access_token: 'a', token_type: 'Bearer', saved_at: 1 }));
    await store.set('oauth:srv:client', JSON.stringify({ v: 1, kind: 'dynamic', info: { client_id: 'c' }, saved_at: 1 }));
    await store.set('oauth:srv:discovery', JSON.stringify({ authorizationServerUrl: 'https://as' }));
    await store.set('oauth:srv:pkce', JSON.stringify({}));
    await provider.invalidateCredentials('tokens');
    expect(await store.get('oauth:srv:tokens')).toBeUndefined();
    expect(await store.get('oauth:srv:client')).toBeDefined();
    await provider.invalidateCredentials('discovery');
    expect(await store.get('oauth:srv:discovery')).toBeUndefined();
    await provider.invalidateCredentials('all');
    for (const k of ['tokens', 'client', 'discovery', 'pkce']) expect(await store.get(`oauth:srv:${k}`)).toBeUndefined();
    // After losing tokens, a background redirect reports needs_reauth.
    await provider.redirectToAuthorization(new URL('https://as.example.com/a'));
    expect(provider.authState).toBe('needs_reauth');
  });

  it('validates discovery state: unsafe metadata is refused on save and dropped on load', async () => {
    const { store, provider } = make();
    const meta = { issuer: 'https://as.example.com', authorization_endpoint: 'file:///x', token_endpoint: 'https://as.example.com/token', response_types_supported: ['code'] };
    await expect(provider.saveDiscoveryState({ authorizationServerUrl: 'https://as.example.com', authorizationServerMetadata: meta })).rejects.toBeInstanceOf(UnsafeUrlError);
    await store.set('oauth:srv:discovery', JSON.stringify({ authorizationServerUrl: 'https://as.example.com', authorizationServerMetadata: meta }));
    expect(await provider.discoveryState()).toBeUndefined();
    expect(await store.get('oauth:srv:discovery')).toBeUndefined();
    const good = { ...meta, authorization_endpoint: 'https://as.example.com/authorize', token_endpoint_auth_methods_supported: ['client_secret_post'] };
    await provider.saveDiscoveryState({ authorizationServerUrl: 'https://as.example.com', authorizationServerMetadata: good });
    expect((await provider.discoveryState())?.authorizationServerMetadata?.token_endpoint).toBe('https://as.example.com/token');
    // The registration asks for what the AS supports.
    expect(provider.clientMetadata.token_endpoint_auth_method).toBe('client_secret_post');
  });

  it('credentials are bound to the authorization server that issued them (SEP-2352)', async () => {
    const { provider } = make();
    const view = provider.beginInteractive('http://127.0.0.1:5555/callback', 'st');
    await view.saveClientInformation({ client_id: 'as1-client', issuer: 'https://as1.example' } as never);
    await view.saveTokens({ access_token: 'as1-access-token', token_type: 'Bearer', refresh_token: 'as1-refresh-token', issuer: 'https://as1.example' } as never);
    // The same authorization server, or no ctx (the per-request Authorization header): offered.
    expect((await view.clientInformation({ issuer: 'https://as1.example' }))?.client_id).toBe('as1-client');
    expect((await provider.tokens({ issuer: 'https://as1.example' }))?.access_token).toBe('as1-access-token');
    expect((await provider.tokens())?.access_token).toBe('as1-access-token');
    // The server moved to another authorization server: nothing of the old one is offered.
    expect(await view.clientInformation({ issuer: 'https://as2.example' })).toBeUndefined();
    expect(await provider.tokens({ issuer: 'https://as2.example' })).toBeUndefined();
    await provider.endInteractive();
    await expect(provider.clientInformation({ issuer: 'https://as2.example' })).rejects.toMatchObject({ kind: 'needs_reauth' });
  });
});
