/**
 * Sign-in orchestration (MCP spec "Authorization"; OAuth 2.1 authorization code + PKCE with a
 * loopback redirect, RFC 8252 §7.3), built on the SDK's `auth()`:
 *
 * 1. start the loopback callback (reusing the port of the stored registration's redirect URI; if
 *    that port is taken, the registration is dropped and a new one is made — a mismatched
 *    `redirect_uri` is never sent);
 * 2. `auth()` → `'REDIRECT'` (the provider hands the checked URL to `openUrl`) — or
 *    `'AUTHORIZED'` straight away when a stored refresh token still works;
 * 3. wait for the callback (`state` checked there);
 * 4. `auth({authorizationCode})` → `'AUTHORIZED'` (tokens saved by the provider).
 *
 * One sign-in per server at a time: a second call joins the first. Cancelling (by
 * {@link OAuthSignIns.cancel} or the caller's signal) aborts in-flight requests, closes the
 * loopback socket and rejects with CancelledError at any step. Errors never carry secrets.
 *
 * Token refresh: the SDK refreshes by itself when the MCP server answers 401 and the transport has
 * our provider as `authProvider` (`StreamableHTTPClientTransport.send` → `auth()` →
 * `refreshAuthorization`). {@link refreshIfNeeded} refreshes ahead of expiry so that live
 * connections rarely see a 401 at all.
 */
import {
  auth,
  AuthorizationServerMismatchError,
  computeScopeUnion,
  InsecureTokenEndpointError,
  isStrictScopeSuperset,
  IssuerMismatchError,
  OAuthError,
  RegistrationRejectedError,
  SdkError,
  SdkErrorCode,
  UnauthorizedError,
  validateAuthorizationResponseIssuer,
} from '@modelcontextprotocol/client';
import type { FetchLike } from '@modelcontextprotocol/client';
import { CALLBACK_PATH, DEFAULT_CALLBACK_TIMEOUT_MS, startCallbackServer, type CallbackServer } from './callback.js';
import {
  AuthorizationDeniedError,
  CallbackTimeoutError,
  CancelledError,
  InteractionRequiredError,
  IssuerMismatchSignInError,
  OAuthFetchRefusedError,
  OAuthFlowError,
  OAuthServerRefusedError,
  PortInUseError,
  UnsafeUrlError,
  redact,
} from './errors.js';
import { newState, type OpenUrl, type PersistentOAuthProvider, type RefreshOutcome } from './provider.js';
import { createGuardedFetch } from './safe-fetch.js';
import { classifyHost } from './url-safety.js';
import { httpStatusOf } from '../failures.js';

/** Options of a sign-in. */
export interface SignInOptions {
  /** The server's provider (its `serverName` identifies the sign-in for joining/cancelling). */
  provider: PersistentOAuthProvider;
  /** The MCP endpoint URL (the protected resource). */
  serverUrl: string | URL;
  /** Overrides the provider's `openUrl` for this sign-in (e.g. a headless browser in tests). */
  openUrl?: OpenUrl;
  /** Scope to request; default: the last `WWW-Authenticate` challenge's, else the SDK's choice (PRM `scopes_supported`, then client metadata). */
  scope?: string;
  /** RFC 9728 metadata URL; default: the last challenge's `resource_metadata`, else discovery. */
  resourceMetadataUrl?: string | URL;
  /** Base fetch for OAuth requests (default global `fetch`); wrapped by {@link createGuardedFetch}. */
  fetch?: FetchLike;
  /** Time the user has to finish in the browser, ms (default 5 min). */
  timeoutMs?: number;
  /** Cancels this caller's wait. The sign-in itself is cancelled only when every joined caller is. */
  signal?: AbortSignal;
  /** Drop stored tokens first so the browser is used even if a refresh would work ("sign in again"). */
  forceNew?: boolean;
}

/** Outcome of a successful sign-in. */
export interface SignInResult {
  /** False when a stored refresh token was enough and no browser was needed. */
  openedBrowser: boolean;
  /** The redirect URI used, e.g. `http://127.0.0.1:53121/callback`. */
  redirectUri: string;
}

interface Inflight {
  promise: Promise<SignInResult>;
  controller: AbortController;
  waiters: number;
}

function loopbackPort(uri: string): number | null {
  try {
    const u = new URL(uri);
    if (u.protocol !== 'http:' || classifyHost(u.hostname) !== 'loopback' || u.pathname !== CALLBACK_PATH) return null;
    const port = Number(u.port);
    return Number.isInteger(port) && port > 0 && port < 65536 ? port : null;
  } catch {
    return null;
  }
}

const SAFE_ERRORS = [CancelledError, CallbackTimeoutError, AuthorizationDeniedError, UnsafeUrlError, OAuthFetchRefusedError, PortInUseError, InteractionRequiredError, OAuthFlowError, OAuthServerRefusedError, IssuerMismatchSignInError];

/** One sign-in per server name at a time; joins, cancels, and cancels all on shutdown. */
export class OAuthSignIns {
  private readonly inflight = new Map<string, Inflight>();

  /**
   * Run (or join) the sign-in of `opts.provider`'s server.
   * @returns when tokens are stored.
   * @throws CancelledError, CallbackTimeoutError, AuthorizationDeniedError (user denied),
   *   UnsafeUrlError (authorization URL or metadata refused; nothing opened), OAuthFetchRefusedError,
   *   PortInUseError (a pre-registered redirect port is taken), OAuthFlowError (anything else,
   *   message scrubbed of secrets).
   */
  signIn(opts: SignInOptions): Promise<SignInResult> {
    const name = opts.provider.serverName;
    let entry = this.inflight.get(name);
    if (!entry) {
      const controller = new AbortController();
      const created: Inflight = { controller, waiters: 0, promise: Promise.resolve() as unknown as Promise<SignInResult> };
      created.promise = runSignIn(opts, controller.signal).finally(() => {
        if (this.inflight.get(name) === created) this.inflight.delete(name);
      });
      created.promise.catch(() => undefined);
      this.inflight.set(name, created);
      entry = created;
    }
    return this.join(entry, opts.signal);
  }

  private join(entry: Inflight, signal: AbortSignal | undefined): Promise<SignInResult> {
    entry.waiters++;
    if (!signal) return entry.promise;
    return new Promise<SignInResult>((resolve, reject) => {
      const onAbort = () => {
        reject(new CancelledError());
        if (--entry.waiters <= 0) entry.controller.abort();
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      entry.promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  /** Whether a sign-in for `serverName` is running. */
  inProgress(serverName: string): boolean {
    return this.inflight.has(serverName);
  }

  /**
   * Cancel the sign-in of `serverName` (closes its loopback socket; every waiter gets CancelledError).
   * @returns whether one was running.
   */
  cancel(serverName: string): boolean {
    const e = this.inflight.get(serverName);
    if (!e) return false;
    e.controller.abort();
    return true;
  }

  /** Cancel every running sign-in and wait until each has cleaned up (app shutdown). */
  async cancelAll(): Promise<void> {
    const all = [...this.inflight.values()];
    for (const e of all) e.controller.abort();
    await Promise.allSettled(all.map((e) => e.promise));
  }
}

async function collectSecrets(provider: PersistentOAuthProvider, extra: Array<string | undefined>): Promise<string[]> {
  const out = extra.filter((s): s is string => !!s);
  try {
    const t = await provider.storedTokens();
    if (t) out.push(t.access_token, ...(t.refresh_token ? [t.refresh_token] : []), ...(t.id_token ? [t.id_token] : []));
    const c = await provider.storedClient();
    if (c && 'client_secret' in c.info && c.info.client_secret) out.push(c.info.client_secret);
    if (provider.preRegistered?.client_secret) out.push(provider.preRegistered.client_secret);
    const view = provider.signInView;
    if (view) out.push(await view.codeVerifier().catch(() => ''));
  } catch {
    // best effort
  }
  return out;
}

function isSafeError(err: unknown): err is Error {
  return SAFE_ERRORS.some((C) => err instanceof C);
}

async function runSignIn(opts: SignInOptions, signal: AbortSignal): Promise<SignInResult> {
  const { provider } = opts;
  const serverUrl = new URL(String(opts.serverUrl));
  let code: string | undefined;
  let cb: CallbackServer | undefined;
  const aborted = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(new CancelledError());
    signal.addEventListener('abort', () => reject(new CancelledError()), { once: true });
  });
  aborted.catch(() => undefined);
  const step = <T>(p: Promise<T>): Promise<T> => Promise.race([p, aborted]);
  const fetchFn = createGuardedFetch({ base: opts.fetch, signal, allowPrivateHosts: [serverUrl.hostname], refreshGrants: provider.refreshGrants });

  try {
    if (opts.forceNew) await provider.invalidateCredentials('tokens');

    // Which port: the pre-registered redirect URI's (fixed), else the stored registration's.
    const pre = provider.preRegistered;
    let port = 0;
    let redirectUri: string | undefined;
    let reusable = false;
    if (pre?.redirect_uri) {
      const p = loopbackPort(pre.redirect_uri);
      if (p === null) throw new OAuthFlowError('redirect_uri', `The configured redirect URI must be http://127.0.0.1:<port>${CALLBACK_PATH}.`);
      port = p;
      redirectUri = pre.redirect_uri;
    } else if (!pre) {
      const rec = await step(provider.storedClient());
      const p = rec?.kind === 'dynamic' && rec.redirect_uri ? loopbackPort(rec.redirect_uri) : null;
      if (p !== null && rec?.redirect_uri) {
        port = p;
        redirectUri = rec.redirect_uri;
        reusable = true;
      }
    }

    const state = newState();
    const timeoutMs = opts.timeoutMs ?? DEFAULT_CALLBACK_TIMEOUT_MS;
    try {
      cb = await step(startCallbackServer({ expectedState: state, port, timeoutMs, signal }));
    } catch (err) {
      if (!(err instanceof PortInUseError) || !reusable) throw err;
      // The registration's port is taken: register again on a free port rather than send a
      // redirect_uri the authorization server does not know.
      await provider.invalidateCredentials('client');
      redirectUri = undefined;
      cb = await step(startCallbackServer({ expectedState: state, port: 0, timeoutMs, signal }));
    }
    redirectUri ??= cb.redirectUri;

    const view = provider.beginInteractive(redirectUri, state, opts.openUrl);
    const challenge = provider.lastChallenge();
    // Scope (MCP spec "Scope Selection Strategy", SEP-2350 step-up): what the user configured,
    // what was asked for before, and what the server's last challenge names, as one union, so
    // a step-up never loses scope already granted.
    const stored = await step(provider.storedTokens());
    const scope = computeScopeUnion(opts.scope, stored?.scope, challenge?.scope);
    // A refresh cannot widen a grant (RFC 6749 §6): a step-up to more scope needs the browser.
    const forceReauthorization = challenge?.error === 'insufficient_scope' && isStrictScopeSuperset(scope, stored?.scope);
    const rmu = opts.resourceMetadataUrl ?? challenge?.resourceMetadataUrl;
    // Discover afresh: the server may have moved to another authorization server since the last
    // sign-in (SEP-2352); credentials stamped with the old issuer are then not offered to it.
    await step(provider.invalidateCredentials('discovery'));
    const authOptions = { serverUrl, scope, resourceMetadataUrl: rmu ? new URL(String(rmu)) : undefined, fetchFn, ...(forceReauthorization ? { forceReauthorization } : {}) };

    const first = await step(auth(view, authOptions));
    if (first === 'AUTHORIZED') return { openedBrowser: false, redirectUri };
    if (!provider.browserOpened) throw new OAuthFlowError('browser_not_opened', 'The sign-in page could not be opened.');

    let answer;
    try {
      answer = await step(cb.result);
    } catch (err) {
      // RFC 9207 §2.4: an error response is believed (and shown) only when its `iss` is the
      // authorization server this sign-in started at.
      if (err instanceof AuthorizationDeniedError) checkCallbackIssuer(err.iss, await provider.discoveryState());
      throw err;
    }
    code = answer.code;
    // RFC 9207 §2.4: the SDK checks the callback's `iss` against the recorded issuer.
    const second = await step(auth(view, { ...authOptions, authorizationCode: code, ...(answer.iss ? { iss: answer.iss } : {}) }));
    if (second !== 'AUTHORIZED') throw new OAuthFlowError('no_tokens', 'The authorization server did not issue tokens.');
    return { openedBrowser: true, redirectUri };
  } catch (err) {
    if (signal.aborted && !(err instanceof CancelledError)) throw new CancelledError();
    if (isSafeError(err)) throw err;
    const secrets = await collectSecrets(provider, [code]);
    const typed = classifySdkError(err, secrets);
    if (typed) throw typed;
    const e = err as Error;
    const said = redact(e?.message || e?.name || String(err), secrets);
    throw new OAuthFlowError('failed', `Sign-in failed: ${said}`, e?.name, said);
  } finally {
    provider.cancelInteractive();
    await cb?.close();
    await provider.endInteractive().catch(() => undefined);
  }
}

/**
 * RFC 9207 §2.4 for an error response: with an `iss`, it must be the recorded issuer; without
 * one, the authorization server must not have promised to send it.
 * @throws IssuerMismatchSignInError
 */
function checkCallbackIssuer(iss: string | undefined, discovery: { authorizationServerMetadata?: { issuer?: string; authorization_response_iss_parameter_supported?: boolean } } | undefined): void {
  const md = discovery?.authorizationServerMetadata;
  try {
    validateAuthorizationResponseIssuer({ iss, expectedIssuer: md?.issuer, issParameterSupported: md?.authorization_response_iss_parameter_supported === true });
  } catch {
    throw new IssuerMismatchSignInError('authorization_response');
  }
}

/**
 * The app's typed error for an SDK OAuth error, or null: mix-up defenses → IssuerMismatchSignInError;
 * an OAuth error response (token endpoint, registration) → OAuthServerRefusedError, whose
 * message names the `error` code when there is no description; a non-TLS token endpoint →
 * UnsafeUrlError; a changed authorization server mid-sign-in → OAuthFlowError.
 */
function classifySdkError(err: unknown, secrets: string[]): Error | null {
  if (err instanceof IssuerMismatchError) return new IssuerMismatchSignInError(err.kind);
  if (err instanceof AuthorizationServerMismatchError) return new OAuthFlowError('moved', 'The server moved to another authorization server during the sign-in; sign in again.', err.name);
  if (err instanceof InsecureTokenEndpointError) return new UnsafeUrlError('The token endpoint does not use https; credentials are not sent there.', 'token_endpoint');
  if (err instanceof OAuthError) {
    const code = /^[A-Za-z0-9_.-]{1,64}$/.test(err.code) ? err.code : 'server_error';
    return new OAuthServerRefusedError(code, 'request', err.message ? redact(err.message, secrets, 300) : undefined);
  }
  if (err instanceof RegistrationRejectedError) {
    let code = `HTTP ${err.status}`;
    let description: string | undefined;
    try {
      const body = JSON.parse(err.body) as { error?: unknown; error_description?: unknown };
      if (typeof body.error === 'string' && /^[A-Za-z0-9_.-]{1,64}$/.test(body.error)) code = body.error;
      if (typeof body.error_description === 'string') description = redact(body.error_description, secrets, 300);
    } catch {
      // not an RFC 7591 error body: the status says why
    }
    return new OAuthServerRefusedError(code, 'registration', description);
  }
  return null;
}

export type { RefreshOutcome } from './provider.js';



/**
 * Refresh the access token ahead of expiry, in the background (never opens a browser): when it
 * expires within `marginMs` (default 60 s) and a refresh token is stored, run the SDK's `auth()`
 * (which uses the stored discovery state, so a cold start goes straight to the real token
 * endpoint). Concurrent calls for one provider share one refresh. Call it on a timer (e.g. at
 * `expires_at - margin`) and before connecting; the SDK covers the rest on a 401. `opts.now`
 * (ms epoch) defaults to the provider's clock (`provider.now`).
 *
 * @throws OAuthFlowError for a failure that may pass (network, 5xx); tokens are kept then.
 */
export function refreshIfNeeded(provider: PersistentOAuthProvider, serverUrl: string | URL, opts: { marginMs?: number; fetch?: FetchLike; now?: () => number } = {}): Promise<RefreshOutcome> {
  const running = provider.pendingRefresh;
  if (running) return running;
  const p = (async (): Promise<RefreshOutcome> => {
    const t = await provider.storedTokens();
    if (!t) return 'needs_auth';
    const now = (opts.now ?? provider.now)();
    if (t.expires_at === undefined || t.expires_at - now > (opts.marginMs ?? 60_000)) return 'fresh';
    if (!t.refresh_token) return 'needs_reauth';
    if (provider.interactive) return 'fresh';
    const url = new URL(String(serverUrl));
    try {
      const r = await auth(provider, { serverUrl: url, fetchFn: createGuardedFetch({ base: opts.fetch, allowPrivateHosts: [url.hostname], refreshGrants: provider.refreshGrants }) });
      if (r === 'AUTHORIZED') return 'refreshed';
      if (provider.authState === 'needs_reauth' || provider.authState === 'needs_auth') return 'needs_reauth';
      throw new OAuthFlowError('refresh', 'The token could not be refreshed right now.');
    } catch (err) {
      if (err instanceof InteractionRequiredError) return 'needs_reauth';
      if (err instanceof OAuthFlowError) throw err;
      const secrets = await collectSecrets(provider, []);
      const said = redact((err as Error)?.message ?? String(err), secrets);
      throw new OAuthFlowError('refresh', `Refreshing the sign-in failed: ${said}`, (err as Error)?.name, said);
    }
  })().finally(() => {
    if (provider.pendingRefresh === p) provider.pendingRefresh = null;
  });
  provider.pendingRefresh = p;
  return p;
}

/**
 * Map a connection failure to the status the UI shows: `needs_auth` (never signed in),
 * `needs_reauth` (stored sign-in rejected), or null (some other error). Use it on what
 * `Client.connect` / a call rejected with when the transport has our provider.
 */
export function classifyAuthFailure(err: unknown, provider: PersistentOAuthProvider): 'needs_auth' | 'needs_reauth' | null {
  if (err instanceof InteractionRequiredError) return err.kind;
  if (provider.authState === 'needs_auth' || provider.authState === 'needs_reauth') {
    if (err instanceof UnauthorizedError || httpStatusOf(err) === 401 || (err instanceof SdkError && err.code === SdkErrorCode.ClientHttpAuthentication)) return provider.authState;
  }
  return null;
}
