/**
 * `PersistentOAuthProvider`: the SDK's `OAuthClientProvider` (MCP spec "Authorization",
 * OAuth 2.1 + RFC 7591/8414/8707/9728) over our `SecretStore`. What it keeps per server, and how,
 * is in stored-state.ts; its options and states in provider-options.ts.
 *
 * Two modes:
 * - **background** (default): used by connections. The SDK may refresh tokens (on a 401) but the
 *   browser is never opened: when the SDK would redirect, the provider records `needs_auth` /
 *   `needs_reauth` instead and the SDK throws `UnauthorizedError`. With nothing registered yet,
 *   `clientInformation()` throws {@link InteractionRequiredError} so no registration is made with
 *   a redirect URI we will not listen on.
 * - **interactive**: a {@link SignInView} that the sign-in flow (`flow.ts`) gets from
 *   {@link PersistentOAuthProvider.beginInteractive} for one sign-in, with the loopback redirect
 *   URI and the expected `state`, and hands to the SDK's `auth()`. Its `redirectToAuthorization`
 *   hands the URL — after {@link isSafeAuthorizationUrl} passed — to the injected `openUrl`, at
 *   most once per sign-in. The provider itself stays in background mode meanwhile, so a
 *   connection of the same server that gets a 401 (or reconnects) while the user is in the
 *   browser cannot register a second client, overwrite the sign-in's PKCE verifier or open a
 *   second page: one registration and one flow per server (docs/ARCHITECTURE.md "OAuth").
 *
 * Credentials are bound to the authorization server that issued them (SEP-2352): the SDK stamps
 * `issuer` on what it saves, we store the objects verbatim, and a read whose `ctx.issuer` names
 * another authorization server (the server moved to a new one) gets nothing — the old client id
 * and tokens are never offered to the new server.
 */
import type { DpopSession, OAuthClientInformationContext, OAuthClientProvider, OAuthDiscoveryState, OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/client';
import { CancelledError, InteractionRequiredError, UnsafeUrlError } from './errors.js';
import { RefreshGrantCache, type OAuthChallenge } from './safe-fetch.js';
import { assertSafeAuthorizationServerMetadata, describeUrl, isSafeAuthorizationUrl } from './url-safety.js';
import type { OAuthAuthState, OpenUrl, PersistentOAuthProviderOptions, PreRegisteredClient, RefreshOutcome } from './provider-options.js';
import { dropPkceVerifier, parseJson, readPkce, sameIssuer, savePkceVerifier, type StoredClient, type StoredEntry, type StoredTokens } from './stored-state.js';
import { SignInView, type InteractiveSession } from './sign-in-view.js';
import { newState } from './state-param.js';

export type { OAuthAuthState, OpenUrl, PersistentOAuthProviderOptions, PreRegisteredClient, RefreshOutcome } from './provider-options.js';
export { PKCE_TTL_MS, type StoredClient, type StoredPkce, type StoredTokens } from './stored-state.js';
export { SignInView } from './sign-in-view.js';
export { newState } from './state-param.js';

/** Redirect URI used only to build URLs that are never opened (background mode, nothing stored). */
const PLACEHOLDER_REDIRECT = 'http://127.0.0.1/callback';

/**
 * The app's `OAuthClientProvider` for one server. See the module header for what it stores and
 * its two modes. Methods never log and never put secrets into error messages.
 */
export class PersistentOAuthProvider implements OAuthClientProvider {
  private session: InteractiveSession | null = null;
  private view: SignInView | null = null;
  private discoveryCache: OAuthDiscoveryState | undefined;
  private clientCache: StoredClient | undefined;
  private hadTokens = false;
  private state_: OAuthAuthState = 'unknown';
  private challenge: OAuthChallenge | undefined;
  /** This server's clock (ms epoch; `opts.now`, default `Date.now`): token expiry is judged by it. */
  readonly now: () => number;
  /** This server's refresh grants, shared by every guarded fetch of the server (safe-fetch.ts). */
  readonly refreshGrants = new RefreshGrantCache();
  /** The background refresh running for this server, if any (flow.ts `refreshIfNeeded`). */
  pendingRefresh: Promise<RefreshOutcome> | null = null;

  /** @throws Error when `serverName` is empty or `preRegistered.client_id` is empty. */
  constructor(private readonly opts: PersistentOAuthProviderOptions) {
    if (!opts.serverName) throw new Error('serverName is required');
    if (opts.preRegistered && !opts.preRegistered.client_id) throw new Error('preRegistered.client_id is required');
    this.now = opts.now ?? Date.now;
  }

  /** The configured server name this provider belongs to. */
  get serverName(): string {
    return this.opts.serverName;
  }

  /** The key prefix of this server's entries: `oauth:<serverName>:`. */
  get keyPrefix(): string {
    return `oauth:${this.opts.serverName}:`;
  }

  private key(name: StoredEntry): string {
    return `${this.keyPrefix}${name}`;
  }

  /** Current sign-in state (not persisted; derived from what happened in this process). */
  get authState(): OAuthAuthState {
    return this.state_;
  }

  private setState(s: OAuthAuthState): void {
    if (this.state_ === s) return;
    this.state_ = s;
    this.opts.onStateChange?.(s);
  }

  /** The pre-registered client, if the user configured one. */
  get preRegistered(): PreRegisteredClient | undefined {
    return this.opts.preRegistered;
  }

  // ---- OAuthClientProvider: identity ---------------------------------------------------------

  /**
   * Redirect URI: the loopback callback of the sign-in in progress; otherwise the one the stored
   * registration (or the pre-registered client) uses; otherwise a placeholder that is never opened.
   */
  get redirectUrl(): string {
    return this.opts.preRegistered?.redirect_uri ?? this.clientCache?.redirect_uri ?? PLACEHOLDER_REDIRECT;
  }

  /** SEP-991 client metadata document URL, when configured. */
  get clientMetadataUrl(): string | undefined {
    return this.opts.clientMetadataUrl;
  }

  /**
   * RFC 7591 client metadata for dynamic registration: a native public client (RFC 8252) with the
   * loopback redirect URI, authorization_code + refresh_token grants. The token endpoint auth
   * method is `none` unless the AS metadata (already discovered when this is read) lacks it.
   */
  get clientMetadata(): OAuthClientMetadata {
    return this.metadataFor(this.redirectUrl);
  }

  /** {@link clientMetadata} for a given redirect URI (the sign-in's loopback callback). */
  metadataFor(redirectUrl: string): OAuthClientMetadata {
    const supported = this.discoveryCache?.authorizationServerMetadata?.token_endpoint_auth_methods_supported;
    let method = 'none';
    if (supported && supported.length && !supported.includes('none')) {
      method = supported.includes('client_secret_basic') ? 'client_secret_basic' : supported.includes('client_secret_post') ? 'client_secret_post' : supported[0]!;
    }
    const md: OAuthClientMetadata = {
      client_name: this.opts.clientName ?? 'OpenProgram Desktop',
      redirect_uris: [redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: method,
      ...(this.opts.scope ? { scope: this.opts.scope } : {}),
    };
    // OIDC Registration / RFC 8252: loopback redirect URIs belong to native apps.
    return Object.assign(md, { application_type: 'native' });
  }

  /** A fresh random OAuth `state` (background mode: the URL it goes into is never opened). */
  state(): string {
    return newState();
  }

  // ---- client registration -------------------------------------------------------------------

  /** The stored registration record (no secrets are logged; callers must not log it either). */
  async storedClient(): Promise<StoredClient | undefined> {
    const rec = parseJson<StoredClient>(await this.opts.store.get(this.key('client')));
    this.clientCache = rec && rec.v === 1 && rec.info && typeof rec.info.client_id === 'string' ? rec : undefined;
    return this.clientCache;
  }

  /**
   * The client to use: the pre-registered one, else the stored registration.
   * @throws InteractionRequiredError in background mode when there is none (a registration needs
   *   the loopback redirect URI of a sign-in).
   */
  async clientInformation(ctx?: OAuthClientInformationContext): Promise<OAuthClientInformationMixed | undefined> {
    const info = await this.clientFor(ctx);
    if (info) return info;
    const kind = this.hadTokens ? 'needs_reauth' : 'needs_auth';
    this.setState(kind);
    throw new InteractionRequiredError(kind);
  }

  /**
   * The pre-registered client, else the stored registration when it belongs to `ctx.issuer`
   * (SEP-2352: a registration stamped with another authorization server's issuer is not ours to
   * offer), else undefined.
   */
  async clientFor(ctx?: OAuthClientInformationContext): Promise<OAuthClientInformationMixed | undefined> {
    const pre = this.opts.preRegistered;
    const rec = await this.storedClient();
    if (pre && (!rec || rec.kind === 'pre')) {
      // The user's client, stamped with the authorization server it was first used at (SEP-2352).
      const issuer = rec?.kind === 'pre' && rec.info.client_id === pre.client_id ? rec.info.issuer : undefined;
      const info = { client_id: pre.client_id, ...(pre.client_secret ? { client_secret: pre.client_secret } : {}), ...(issuer ? { issuer } : {}) };
      return sameIssuer(info, ctx) ? info : undefined;
    }
    if (!rec || !sameIssuer(rec.info, ctx)) return undefined;
    return rec.info;
  }

  /**
   * Persist client information from dynamic registration (or a CIMD client id), together with
   * the redirect URI it was registered with. For a pre-registered client this is a no-op (the
   * credentials live in the server config; the SDK only asks to stamp them with the issuer).
   */
  async saveClientInformation(info: OAuthClientInformationMixed): Promise<void> {
    await this.saveClientWith(info, this.clientCache?.redirect_uri);
  }

  /** {@link saveClientInformation} recording `redirectUri` as the one the registration was made with. */
  async saveClientWith(info: OAuthClientInformationMixed, redirectUri: string | undefined): Promise<void> {
    const pre = this.opts.preRegistered;
    if (pre && info.client_id === pre.client_id) {
      // Keep only the issuer stamp; the client's secret stays in the server's config.
      const issuer = (info as { issuer?: unknown }).issuer;
      if (typeof issuer !== 'string') return;
      const stamp: StoredClient = { v: 1, kind: 'pre', info: { client_id: pre.client_id, issuer } as OAuthClientInformationMixed, saved_at: this.now() };
      await this.opts.store.set(this.key('client'), JSON.stringify(stamp));
      this.clientCache = stamp;
      return;
    }
    const rec: StoredClient = {
      v: 1,
      kind: this.opts.clientMetadataUrl && info.client_id === this.opts.clientMetadataUrl ? 'cimd' : 'dynamic',
      info,
      redirect_uri: redirectUri,
      saved_at: this.now(),
    };
    await this.opts.store.set(this.key('client'), JSON.stringify(rec));
    this.clientCache = rec;
  }

  // ---- tokens --------------------------------------------------------------------------------

  /** Stored tokens as saved (with `expires_at`), or undefined. Never log the result. */
  async storedTokens(): Promise<StoredTokens | undefined> {
    const t = parseJson<StoredTokens>(await this.opts.store.get(this.key('tokens')));
    return t && typeof t.access_token === 'string' ? t : undefined;
  }

  /**
   * Tokens for the SDK: the stored ones with `expires_in` recomputed from `expires_at`
   * (seconds left, never negative). An expired access token is still returned; the server answers
   * 401 and the SDK refreshes with the refresh token.
   */
  async tokens(ctx?: OAuthClientInformationContext): Promise<OAuthTokens | undefined> {
    const t = await this.storedTokens();
    if (!t) return undefined;
    // SEP-2352: tokens of another authorization server are not offered to this one. Without a
    // ctx (the transport's per-request Authorization header) the stored set is the answer.
    if (!sameIssuer(t, ctx)) {
      this.hadTokens = true;
      return undefined;
    }
    this.hadTokens = true;
    if (this.state_ === 'unknown') this.setState('authorized');
    const { expires_at, saved_at: _saved, ...rest } = t;
    const out: OAuthTokens = { ...rest };
    if (typeof expires_at === 'number') out.expires_in = Math.max(0, Math.floor((expires_at - this.now()) / 1000));
    return out;
  }

  /**
   * Save a token response (first grant or refresh; a rotated refresh token replaces the old one).
   * `expires_in` (seconds) becomes the absolute `expires_at` (ms epoch) at save time. One store
   * write. A refresh response without a refresh token keeps the previous one (the SDK merges it in).
   */
  async saveTokens(tokens: OAuthTokens): Promise<void> {
    const { expires_in, ...rest } = tokens;
    const rec: StoredTokens = { ...rest, saved_at: this.now() };
    if (typeof expires_in === 'number' && Number.isFinite(expires_in)) rec.expires_at = this.now() + expires_in * 1000;
    await this.opts.store.set(this.key('tokens'), JSON.stringify(rec));
    this.hadTokens = true;
    this.setState('authorized');
  }

  // ---- PKCE ----------------------------------------------------------------------------------

  /**
   * Background mode (this provider always is): stores nothing — the authorization URL this PKCE
   * verifier (RFC 7636) belongs to is never opened. A sign-in's verifier is saved through its
   * {@link SignInView} (`saveCodeVerifier`: under the sign-in's `state`, the first one wins,
   * entries older than `PKCE_TTL_MS` of stored-state.ts dropped).
   */
  async saveCodeVerifier(_codeVerifier: string): Promise<void> {
    // Background mode: the URL this verifier belongs to is never opened.
  }

  /** Save `codeVerifier` for the sign-in `s` (first one wins; stale entries pruned). */
  private async saveVerifierFor(s: InteractiveSession, codeVerifier: string): Promise<void> {
    if (s.verifierSaved) return;
    await savePkceVerifier(this.opts.store, this.key('pkce'), s.state, codeVerifier, this.now());
    s.verifierSaved = true;
  }

  /**
   * Background mode: there is never a verifier here (a sign-in's own is read through its
   * {@link SignInView}); the SDK asks for it only to exchange an authorization code, which
   * connections never do.
   * @throws Error always.
   */
  async codeVerifier(): Promise<string> {
    throw new Error('No sign-in is in progress here, so there is no PKCE verifier.');
  }

  /** The verifier saved for the sign-in `s`. @throws Error when none was saved. */
  private async verifierFor(s: InteractiveSession): Promise<string> {
    const v = (await readPkce(this.opts.store, this.key('pkce')))[s.state];
    if (!v) throw new Error('No PKCE verifier was saved for this sign-in.');
    return v.verifier;
  }

  private async dropVerifier(state: string): Promise<void> {
    await dropPkceVerifier(this.opts.store, this.key('pkce'), state);
  }

  // ---- redirect ------------------------------------------------------------------------------

  /**
   * Background mode: open nothing; record `needs_auth`/`needs_reauth` unless a refresh token is
   * still stored. Never throws. (A sign-in's {@link SignInView} is what checks the URL with
   * {@link isSafeAuthorizationUrl} and hands it to `openUrl`, once.)
   */
  async redirectToAuthorization(_authorizationUrl: URL): Promise<void> {
    // Background: never open anything. If a refresh token is still stored, the refresh failed
    // for a passing reason (the SDK drops tokens the server rejected), so the state stays.
    const t = await this.storedTokens();
    if (!t?.refresh_token) this.setState(this.hadTokens || t ? 'needs_reauth' : 'needs_auth');
  }

  /** Hand `authorizationUrl` to the sign-in `s`'s browser (checked; once). */
  private async openFor(s: InteractiveSession, authorizationUrl: URL): Promise<void> {
    if (s.cancelled) throw new CancelledError();
    if (s.opened) return;
    if (!isSafeAuthorizationUrl(authorizationUrl)) {
      throw new UnsafeUrlError(`Refused to open the authorization URL (${describeUrl(authorizationUrl)}): only https: URLs, or http: to this computer, are opened.`, 'authorization_url', null, describeUrl(authorizationUrl));
    }
    s.opened = true;
    await s.openUrl(new URL(authorizationUrl.href));
  }

  // ---- discovery -----------------------------------------------------------------------------

  /**
   * Save discovery results (RFC 9728 PRM, RFC 8414/OIDC AS metadata) so a later refresh — even
   * after a restart — goes to the real token endpoint without rediscovery.
   * @throws UnsafeUrlError when the AS metadata fails {@link assertSafeAuthorizationServerMetadata}
   *   (the SDK's `auth()` then fails and nothing is opened or sent).
   */
  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    if (state.authorizationServerMetadata) assertSafeAuthorizationServerMetadata(state.authorizationServerMetadata, state.authorizationServerUrl, state.resourceMetadata !== undefined);
    this.discoveryCache = state;
    await this.opts.store.set(this.key('discovery'), JSON.stringify(state));
  }

  /** Saved discovery state; a stored state that no longer passes our checks is dropped. */
  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    const st = parseJson<OAuthDiscoveryState>(await this.opts.store.get(this.key('discovery')));
    if (!st || typeof st.authorizationServerUrl !== 'string') {
      this.discoveryCache = undefined;
      return undefined;
    }
    if (st.authorizationServerMetadata) {
      try {
        assertSafeAuthorizationServerMetadata(st.authorizationServerMetadata, st.authorizationServerUrl, st.resourceMetadata !== undefined);
      } catch {
        await this.opts.store.delete(this.key('discovery'));
        this.discoveryCache = undefined;
        return undefined;
      }
    }
    this.discoveryCache = st;
    return st;
  }

  // ---- invalidation --------------------------------------------------------------------------

  /**
   * Drop credentials the server rejected (SDK semantics): `all` = tokens, registration, verifiers
   * and discovery; `client` = the registration (never the pre-registered config); `tokens`;
   * `verifier`; `discovery`.
   */
  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    await this.invalidateWith(scope, false);
  }

  /**
   * {@link invalidateCredentials}; `fromSignIn` = asked by the sign-in's own `auth()`. A
   * background request (another connection's 401) never deletes the PKCE verifier of a sign-in
   * that is waiting for the browser.
   */
  async invalidateWith(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery', fromSignIn: boolean): Promise<void> {
    const st = this.opts.store;
    if (scope === 'all' || scope === 'tokens') {
      if ((await st.get(this.key('tokens'))) !== undefined) this.hadTokens = true;
      await st.delete(this.key('tokens'));
    }
    if (scope === 'all' || scope === 'client') {
      await st.delete(this.key('client'));
      this.clientCache = undefined;
    }
    if ((scope === 'all' || scope === 'verifier') && (fromSignIn || !this.session)) {
      await st.delete(this.key('pkce'));
      if (this.session) this.session.verifierSaved = false;
    }
    if (scope === 'all' || scope === 'discovery') {
      await st.delete(this.key('discovery'));
      this.discoveryCache = undefined;
    }
  }

  /** Remove everything stored for this server (server deleted, or "sign out"). */
  async forget(): Promise<void> {
    await this.invalidateCredentials('all');
    this.hadTokens = false;
    this.setState('needs_auth');
  }

  // ---- DPoP (RFC 9449) -------------------------------------------------------------------------

  private dpopSession: DpopSession | undefined;

  /**
   * Sender-constrain tokens with DPoP (RFC 9449, SEP-1932) using `session`'s key: the SDK then
   * signs a proof into token requests and presents `token_type: DPoP` tokens with the `DPoP`
   * scheme and a fresh proof per request. The app does not call this (the key would have to be
   * kept in the secret store to outlive the process, or every restart would need a new sign-in);
   * the conformance client does.
   */
  useDpop(session: DpopSession): void {
    this.dpopSession = session;
  }

  /** The DPoP session, when {@link useDpop} was called (SDK `OAuthClientProvider.dpop`). */
  dpop(): DpopSession | undefined {
    return this.dpopSession;
  }

  // ---- challenge hints -----------------------------------------------------------------------

  /** Record the `WWW-Authenticate` challenge of a 401/403 from the MCP endpoint (no secrets). */
  noteChallenge(challenge: OAuthChallenge): void {
    this.challenge = { ...challenge };
  }

  /** The last challenge seen, used by the sign-in for `scope` and `resource_metadata`. */
  lastChallenge(): OAuthChallenge | undefined {
    return this.challenge ? { ...this.challenge } : undefined;
  }

  // ---- interactive sessions (used by flow.ts) -------------------------------------------------

  /** Whether a sign-in is in progress on this provider. */
  get interactive(): boolean {
    return this.session !== null;
  }

  /**
   * Start one sign-in and get the provider the flow hands to the SDK's `auth()` for it (see
   * {@link SignInView}); this provider stays in background mode.
   * @param redirectUrl the loopback callback URL that is listening
   * @param state the OAuth `state` the callback expects
   * @param openUrl overrides the provider's `openUrl` for this sign-in
   * @throws Error when a sign-in is already in progress on this provider
   */
  beginInteractive(redirectUrl: string, state: string, openUrl?: OpenUrl): SignInView {
    if (this.session) throw new Error('A sign-in is already in progress for this server.');
    const s: InteractiveSession = { redirectUrl, state, openUrl: openUrl ?? this.opts.openUrl, opened: false, verifierSaved: false, cancelled: false };
    this.session = s;
    this.view = new SignInView(this, s, {
      saveVerifier: (v) => this.saveVerifierFor(s, v),
      verifier: () => this.verifierFor(s),
      open: (url) => this.openFor(s, url),
    });
    return this.view;
  }

  /** The sign-in in progress, if any. */
  get signInView(): SignInView | null {
    return this.view;
  }

  /** Whether the current sign-in has handed a URL to the browser. */
  get browserOpened(): boolean {
    return this.session?.opened ?? false;
  }

  /** Mark the current sign-in cancelled: no URL is opened after this. */
  cancelInteractive(): void {
    if (this.session) this.session.cancelled = true;
  }

  /** Leave interactive mode and delete the sign-in's PKCE verifier. Idempotent. */
  async endInteractive(): Promise<void> {
    const s = this.session;
    this.session = null;
    this.view = null;
    if (s) await this.dropVerifier(s.state);
  }
}
