/**
 * Hostile servers and the canary: refused metadata never opens anything; no token, code or PKCE
 * verifier appears in any thrown error message or console output.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PersistentOAuthProvider } from '../../../../main/mcp/oauth/provider.js';
import { OAuthSignIns } from '../../../../main/mcp/oauth/flow.js';
import { OAuthFetchRefusedError, UnsafeUrlError, IssuerMismatchSignInError } from '../../../../main/mcp/oauth/errors.js';
import { createGuardedFetch } from '../../../../main/mcp/oauth/safe-fetch.js';
import { MemorySecretStore } from '../../../../main/secrets/store.js';
import { startMetadataServer, startWorld, type World } from '../../../fixtures/oauth/world.js';
import { headlessBrowser } from '../../../fixtures/oauth/browser.js';
import { connect, installTestClock, type TestClock } from './oauth-helpers.js';

type Meta = Record<string, unknown>;

function evilAs(overrides: (base: string) => Meta, extra?: (url: URL, base: string) => { status: number; headers?: Record<string, string>; body?: string } | undefined) {
  return startMetadataServer((url, base, _req, res) => {
    const x = extra?.(url, base);
    if (x) {
      res.writeHead(x.status, { 'Content-Type': 'application/json', ...(x.headers ?? {}) }).end(x.body ?? '');
      return true;
    }
    if (url.pathname === '/.well-known/oauth-protected-resource/mcp') {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ resource: `${base}/mcp`, authorization_servers: [base] }));
      return true;
    }
    if (url.pathname === '/.well-known/oauth-authorization-server') {
      const meta = { issuer: base, authorization_endpoint: `${base}/authorize`, token_endpoint: `${base}/token`, registration_endpoint: `${base}/register`, response_types_supported: ['code'], code_challenge_methods_supported: ['S256'], ...overrides(base) };
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(meta));
      return true;
    }
    if (url.pathname === '/register') {
      res.writeHead(201, { 'Content-Type': 'application/json' }).end(JSON.stringify({ client_id: 'evil-client', redirect_uris: ['http://127.0.0.1/callback'] }));
      return true;
    }
  });
}

async function attempt(mcpUrl: string) {
  const openUrl = vi.fn();
  const provider = new PersistentOAuthProvider({ serverName: 'evil', store: new MemorySecretStore(), openUrl });
  const err = await new OAuthSignIns().signIn({ provider, serverUrl: mcpUrl, timeoutMs: 5000 }).then(() => null, (e: unknown) => e);
  return { err: err as Error, openUrl, provider };
}

describe('hostile authorization servers', () => {
  it('authorization_endpoint file: → refused, nothing opened', async () => {
    const s = await evilAs(() => ({ authorization_endpoint: 'file:///etc/passwd' }));
    const { err, openUrl, provider } = await attempt(s.mcpUrl);
    expect(err).toBeInstanceOf(UnsafeUrlError);
    expect(openUrl).not.toHaveBeenCalled();
    expect(provider.interactive).toBe(false);
    expect(s.hits).not.toContain('/register');
    await s.close();
  });

  it('authorization_endpoint javascript: → refused, nothing opened', async () => {
    const s = await evilAs(() => ({ authorization_endpoint: 'javascript:alert(document.cookie)' }));
    const { err, openUrl } = await attempt(s.mcpUrl);
    expect(err).toBeInstanceOf(Error);
    expect(openUrl).not.toHaveBeenCalled();
    await s.close();
  });

  it('authorization_endpoint plain http to a remote host → refused', async () => {
    const s = await evilAs(() => ({ authorization_endpoint: 'http://phish.example.com/authorize' }));
    const { err, openUrl } = await attempt(s.mcpUrl);
    expect(err).toBeInstanceOf(UnsafeUrlError);
    expect(openUrl).not.toHaveBeenCalled();
    await s.close();
  });

  it('issuer mismatch and a plain-http remote token endpoint → refused', async () => {
    const a = await evilAs(() => ({ issuer: 'https://someone-else.example.com' }));
    const mixUp = await attempt(a.mcpUrl);
    // RFC 8414 §3.3 (the SDK's check, mapped to our typed error): nothing opened.
    expect(mixUp.err).toBeInstanceOf(IssuerMismatchSignInError);
    expect((mixUp.err as IssuerMismatchSignInError).kind).toBe('metadata');
    expect(mixUp.openUrl).not.toHaveBeenCalled();
    await a.close();
    const b = await evilAs(() => ({ token_endpoint: 'http://tokens.example.com/token' }));
    const r = await attempt(b.mcpUrl);
    expect(r.err).toBeInstanceOf(UnsafeUrlError);
    expect(r.openUrl).not.toHaveBeenCalled();
    await b.close();
  });

  it('metadata larger than 1 MiB → refused', async () => {
    const s = await evilAs(() => ({ padding: 'x'.repeat(1100 * 1024) }));
    const { err, openUrl } = await attempt(s.mcpUrl);
    expect(err).toBeInstanceOf(OAuthFetchRefusedError);
    expect(openUrl).not.toHaveBeenCalled();
    await s.close();
  });

  it('a redirect to a private non-loopback address → refused without contacting it', async () => {
    const s = await evilAs(() => ({}), (url) => (url.pathname === '/.well-known/oauth-authorization-server' ? { status: 302, headers: { Location: 'http://10.0.0.1/.well-known/oauth-authorization-server' } } : undefined));
    const { err, openUrl } = await attempt(s.mcpUrl);
    expect(err).toBeInstanceOf(OAuthFetchRefusedError);
    expect(openUrl).not.toHaveBeenCalled();
    await s.close();
  });

  it('the guarded fetch refuses private targets and streams bigger than the bound', async () => {
    const f = createGuardedFetch({ maxResponseBytes: 10 });
    await expect(f('http://169.254.169.254/latest/meta-data')).rejects.toBeInstanceOf(OAuthFetchRefusedError);
    await expect(f('http://user:pw@127.0.0.1:1/')).rejects.toBeInstanceOf(OAuthFetchRefusedError);
    const s = await startMetadataServer((url, _b, _req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.write('0123456789');
      res.end('more');
      return true;
    });
    await expect(f(`${s.base}/x`)).rejects.toBeInstanceOf(OAuthFetchRefusedError);
    await s.close();
  });
});

describe('canary: secrets never reach error messages or console output', () => {
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

  it('across sign-in, refresh, revoked refresh and a failed code exchange', async () => {
    const output: string[] = [];
    const record = (...args: unknown[]) => void output.push(args.map(String).join(' '));
    for (const m of ['log', 'info', 'warn', 'error', 'debug'] as const) vi.spyOn(console, m).mockImplementation(record);
    const origOut = process.stdout.write.bind(process.stdout);
    const origErr = process.stderr.write.bind(process.stderr);
    vi.spyOn(process.stdout, 'write').mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
      output.push(String(chunk));
      return (origOut as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof process.stdout.write);
    vi.spyOn(process.stderr, 'write').mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
      output.push(String(chunk));
      return (origErr as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof process.stderr.write);

    const secrets = new Set<string>();
    const errors: string[] = [];
    const store = new MemorySecretStore();
    const harvest = async () => {
      const t = await store.get('oauth:canary:tokens');
      if (t) {
        const j = JSON.parse(t);
        for (const k of ['access_token', 'refresh_token', 'id_token']) if (j[k]) secrets.add(j[k]);
      }
      const p = await store.get('oauth:canary:pkce');
      if (p) for (const v of Object.values(JSON.parse(p) as Record<string, { verifier: string }>)) secrets.add(v.verifier);
    };
    const browser = headlessBrowser();
    const provider = new PersistentOAuthProvider({ serverName: 'canary', store, openUrl: browser.open });
    const origSave = provider.saveCodeVerifier.bind(provider);
    vi.spyOn(provider, 'saveCodeVerifier').mockImplementation(async (v: string) => {
      secrets.add(v);
      await origSave(v);
    });
    const signIns = new OAuthSignIns();

    // 1. background attempt, sign-in, use, refresh.
    await connect(world.mcpUrl, provider).catch((e: Error) => errors.push(`${e.name}: ${e.message}`));
    await signIns.signIn({ provider, serverUrl: world.mcpUrl });
    await harvest();
    const { client } = await connect(world.mcpUrl, provider);
    clock.advance(2600); // the access token has expired
    await client.callTool({ name: 'whoami', arguments: {} });
    await harvest();
    await client.close();

    // 2. revoked refresh token → needs_reauth error.
    const t = JSON.parse((await store.get('oauth:canary:tokens'))!);
    await world.revokeRefreshToken(t.refresh_token);
    clock.advance(2600); // and the refreshed one too
    await connect(world.mcpUrl, provider).catch((e: Error) => errors.push(`${e.name}: ${e.message}`));

    // 3. a forged code: the token endpoint rejects it; the error names no code or verifier.
    const forged = `forged-${'z'.repeat(30)}`;
    secrets.add(forged);
    const evil = headlessBrowser({ mutateCallback: (u) => {
      const m = new URL(u);
      m.searchParams.set('code', forged);
      return m;
    } });
    const e3 = await signIns.signIn({ provider, serverUrl: world.mcpUrl, openUrl: evil.open }).then(() => null, (e: Error) => e);
    expect(e3).toBeInstanceOf(Error);
    errors.push(`${e3!.name}: ${e3!.message}`);
    for (const c of [...browser.codes, ...evil.codes]) secrets.add(c);

    vi.restoreAllMocks();
    expect(secrets.size).toBeGreaterThan(5);
    const haystack = [...output, ...errors].join('\n');
    for (const s of secrets) expect(haystack.includes(s), `secret of length ${s.length} leaked`).toBe(false);
    expect(errors.length).toBe(3);
  });
});
