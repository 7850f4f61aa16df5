/**
 * OAuth robustness against a real authorization server (oidc-provider) and a JWT-validating MCP
 * server: one registration and one flow per server while other requests of the same server get a
 * 401 or reconnect; a failed sign-in always says why; a revoked grant turns the server to
 * needs_auth and takes its tools off the model's list.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigStore } from '../../../../main/mcp/config.js';
import { McpConnection } from '../../../../main/mcp/connection.js';
import { McpHost } from '../../../../main/mcp/host.js';
import { OAuthSignIns } from '../../../../main/mcp/oauth/flow.js';
import { AuthorizationDeniedError, InteractionRequiredError, IssuerMismatchSignInError, OAuthServerRefusedError, signInFailure } from '../../../../main/mcp/oauth/errors.js';
import { PersistentOAuthProvider } from '../../../../main/mcp/oauth/provider.js';
import { MemorySecretStore } from '../../../../main/secrets/store.js';
import { UnauthorizedError } from '@modelcontextprotocol/client';
import { headlessBrowser } from '../../../fixtures/oauth/browser.js';
import { startWorld, type World } from '../../../fixtures/oauth/world.js';
import { makeTempDir, removeDir } from '../../helpers.js';
import { connect, installTestClock, sleep, type TestClock } from './oauth-helpers.js';

const cfg = (url: string) => ({ type: 'http' as const, url, headers: {}, auth: { kind: 'oauth' as const }, enabled: true, timeout_seconds: 15 });

describe('one registration and one flow per server', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld({ accessTokenTTL: 30 });
  });
  afterAll(async () => {
    await world?.close();
  });

  it('a sign-in completes while other requests of the server get a 401 and the server reconnects', async () => {
    const store = new MemorySecretStore();
    const browser = headlessBrowser();
    // The user takes a moment in the browser: navigation starts only when released.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const opened: URL[] = [];
    const provider = new PersistentOAuthProvider({ serverName: 'srv', store, openUrl: () => undefined });
    const openUrl = (url: URL) => {
      opened.push(url);
      void gate.then(() => browser.open(url));
    };
    const regs = world.stats.registrations;
    const signIns = new OAuthSignIns();
    const signIn = signIns.signIn({ provider, serverUrl: world.mcpUrl, openUrl });
    // At the same moment: the server's connection (re)starts and another request gets its 401.
    const conns = [new McpConnection('srv', cfg(world.mcpUrl), undefined, undefined, provider), new McpConnection('srv', cfg(world.mcpUrl), undefined, undefined, provider)];
    const background = await Promise.all([...conns.map((c) => c.start()), connect(world.mcpUrl, provider).then(() => null, (e: unknown) => e)]);
    // The other request is refused for want of a sign-in: our InteractionRequiredError, or the SDK's
    // UnauthorizedError when it joined a probe's auth attempt (negotiating connections probe first).
    expect(background[2] instanceof InteractionRequiredError || background[2] instanceof UnauthorizedError).toBe(true);
    for (const c of conns) expect(c.status).toBe('needs_auth');
    // A second click on "Sign in" joins the running flow.
    const joined = signIns.signIn({ provider, serverUrl: world.mcpUrl, openUrl });
    await sleep(200);
    release();
    const [a, b] = await Promise.all([signIn, joined]);
    expect(a.openedBrowser && b.openedBrowser).toBe(true);
    expect(opened).toHaveLength(1);
    expect(world.stats.registrations - regs).toBe(1);
    const after = new McpConnection('srv', cfg(world.mcpUrl), undefined, undefined, provider);
    await after.start();
    expect(after.status).toBe('ready');
    expect(after.tools.map((t) => t.name).sort()).toEqual(['echo', 'whoami']);
    await Promise.all([...conns, after].map((c) => c.close()));
  });
});

describe('a failed sign-in says why', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld({ accessTokenTTL: 30, stripErrorDescriptions: true });
  });
  afterAll(async () => {
    await world?.close();
  });

  const attempt = async (mutateCallback: (u: URL) => URL) => {
    const browser = headlessBrowser({ mutateCallback });
    const provider = new PersistentOAuthProvider({ serverName: 'srv', store: new MemorySecretStore(), openUrl: browser.open });
    return new OAuthSignIns().signIn({ provider, serverUrl: world.mcpUrl, timeoutMs: 10_000 }).then(() => null, (e: unknown) => e as Error);
  };

  it('a token request refused without error_description names the error code', async () => {
    const err = await attempt((u) => {
      u.searchParams.set('code', 'not-a-code-the-server-issued');
      return u;
    });
    expect(err).toBeInstanceOf(OAuthServerRefusedError);
    expect((err as OAuthServerRefusedError).code).toBe('invalid_grant');
    expect(err!.message).toContain('invalid_grant');
    // The window words it from the failure's facts; the OAuth code is data.
    expect(signInFailure(err)).toMatchObject({ code: 'refused', step: 'request', oauth_error: 'invalid_grant' });
  });

  it('an error callback with the right iss names its code; one without iss from an AS that promised it is a mix-up', async () => {
    const denied = await attempt((u) => new URL(`${u.origin}${u.pathname}?error=access_denied&state=${u.searchParams.get('state')}&iss=${encodeURIComponent(world.issuer)}`));
    expect(denied).toBeInstanceOf(AuthorizationDeniedError);
    expect(denied!.message).toContain('access_denied');
    expect(signInFailure(denied)).toEqual({ code: 'denied', oauth_error: 'access_denied', said: null });
    const forged = await attempt((u) => new URL(`${u.origin}${u.pathname}?error=access_denied&error_description=Call+this+number&state=${u.searchParams.get('state')}&iss=${encodeURIComponent('https://evil.example')}`));
    expect(forged).toBeInstanceOf(IssuerMismatchSignInError);
    expect(forged!.message).not.toContain('number');
    expect(forged!.message).not.toContain('evil');
    // Nothing the forged answer said reaches the window: only where the mix-up was found.
    expect(signInFailure(forged)).toEqual({ code: 'issuer_mismatch', where: 'authorization_response' });
  });
});

describe('a revoked grant', () => {
  let world: World;
  let dir: string;
  let host: McpHost;
  let clock: TestClock;
  beforeEach(async () => {
    clock = installTestClock();
    world = await startWorld({ accessTokenTTL: 3 });
    dir = makeTempDir('op-oauth-revoke-');
  });
  afterEach(async () => {
    await host?.shutdown();
    await removeDir(dir);
    await world?.close();
    clock?.restore();
  });

  it('turns the server to needs_auth (needs_reauth) and its tools leave the model\'s list', async () => {
    const secrets = new MemorySecretStore();
    const store = new ConfigStore(dir, secrets);
    await store.load();
    const browser = headlessBrowser();
    host = new McpHost(store, { secrets, openUrl: (u) => browser.open(u) });
    await host.add('remote', { type: 'http', url: world.mcpUrl, auth: { kind: 'oauth' }, enabled: true });
    await host.signIn('remote');
    for (let i = 0; i < 100 && host.view('remote').state.kind !== 'ready'; i++) await sleep(50);
    expect(host.view('remote').state.kind).toBe('ready');
    expect(host.tools().map((t) => t.name).sort()).toEqual(['remote__echo', 'remote__whoami']);

    expect(await world.revokeAllGrants()).toBeGreaterThan(0);
    // The model calls a tool once the access token has expired: the refresh is refused.
    clock.advance(3200);
    const reached = world.stats.mcpAuthorized;
    const err = await host.callTool('remote__whoami', {}).then(() => null, (e: unknown) => e);
    // Whichever noticed first (the call or the background refresh), the call is refused and
    // nothing reaches the server with the lost sign-in.
    expect(err).toBeInstanceOf(Error);
    expect(world.stats.mcpAuthorized).toBe(reached);
    for (let i = 0; i < 100 && host.view('remote').state.kind === 'ready'; i++) await sleep(50);
    const v = host.view('remote');
    expect(v.state).toEqual({ kind: 'needs_auth', reason: 'needs_reauth' });
    expect(host.tools()).toEqual([]);
  });

  it('a call refused after the revocation turns the server to needs_auth even when no refresh timer runs', async () => {
    const store = new MemorySecretStore();
    const browser = headlessBrowser();
    const provider = new PersistentOAuthProvider({ serverName: 'srv', store, openUrl: browser.open });
    await new OAuthSignIns().signIn({ provider, serverUrl: world.mcpUrl });
    // As from an authorization server that sends no expires_in: nothing to schedule a refresh by.
    const t = JSON.parse((await store.get('oauth:srv:tokens'))!) as Record<string, unknown>;
    delete t.expires_at;
    await store.set('oauth:srv:tokens', JSON.stringify(t));
    const conn = new McpConnection('srv', cfg(world.mcpUrl), undefined, undefined, provider);
    await conn.start();
    expect(conn.status).toBe('ready');
    await world.revokeAllGrants();
    clock.advance(3200); // the JWT access token expires at the MCP server
    await expect(conn.callTool('whoami', {})).rejects.toThrow();
    expect(conn.state).toEqual({ kind: 'needs_auth', reason: 'needs_reauth' });
    expect(conn.tools).toEqual([]);
    await conn.close();
  });
});
