/**
 * One interactive sign-in as the SDK's `auth()` sees it: a {@link SignInView} over the server's
 * {@link PersistentOAuthProvider} with this sign-in's loopback redirect URI, `state`, PKCE verifier
 * and browser hand-off (docs/ARCHITECTURE.md "OAuth"). Created by
 * `PersistentOAuthProvider.beginInteractive` for the sign-in flow (flow.ts).
 */
import type { DpopSession, OAuthClientInformationContext, OAuthClientInformationMixed, OAuthClientMetadata, OAuthDiscoveryState, OAuthClientProvider, OAuthTokens } from '@modelcontextprotocol/client';
import type { OpenUrl } from './provider-options.js';
import type { PersistentOAuthProvider } from './provider.js';

/** One sign-in's own state (see {@link SignInView}). */
export interface InteractiveSession {
  redirectUrl: string;
  state: string;
  openUrl: OpenUrl;
  opened: boolean;
  verifierSaved: boolean;
  cancelled: boolean;
}

/** The provider-internal steps of one sign-in that a {@link SignInView} calls. */
export interface SignInSteps {
  saveVerifier(v: string): Promise<void>;
  verifier(): Promise<string>;
  open(url: URL): Promise<void>;
}

/**
 * The provider of one sign-in (interactive mode): the same stored state as its
 * {@link PersistentOAuthProvider} (tokens, registration, discovery), plus this sign-in's loopback
 * redirect URI, `state`, PKCE verifier and browser hand-off. Only the flow's own `auth()` calls
 * see it; connections keep using the background provider.
 */
export class SignInView implements OAuthClientProvider {
  constructor(
    private readonly base: PersistentOAuthProvider,
    private readonly session: Readonly<InteractiveSession>,
    private readonly steps: SignInSteps,
  ) {}

  /** The loopback callback of this sign-in. */
  get redirectUrl(): string {
    return this.session.redirectUrl;
  }

  /** The client ID metadata document URL (SEP-991), when configured. */
  get clientMetadataUrl(): string | undefined {
    return this.base.clientMetadataUrl;
  }

  /** RFC 7591 metadata with this sign-in's redirect URI. */
  get clientMetadata(): OAuthClientMetadata {
    return this.base.metadataFor(this.session.redirectUrl);
  }

  /** This sign-in's `state`. */
  state(): string {
    return this.session.state;
  }

  /** The client for `ctx.issuer`, or undefined so the SDK registers (or uses the CIMD URL). */
  clientInformation(ctx?: OAuthClientInformationContext): Promise<OAuthClientInformationMixed | undefined> {
    return this.base.clientFor(ctx);
  }

  /** Store the registration with this sign-in's redirect URI. */
  saveClientInformation(info: OAuthClientInformationMixed): Promise<void> {
    return this.base.saveClientWith(info, this.session.redirectUrl);
  }

  /** See {@link PersistentOAuthProvider.tokens}. */
  tokens(ctx?: OAuthClientInformationContext): Promise<OAuthTokens | undefined> {
    return this.base.tokens(ctx);
  }

  /** See {@link PersistentOAuthProvider.saveTokens}. */
  saveTokens(tokens: OAuthTokens): Promise<void> {
    return this.base.saveTokens(tokens);
  }

  /** Hand the checked URL to the browser, once. @throws UnsafeUrlError, CancelledError */
  redirectToAuthorization(url: URL): Promise<void> {
    return this.steps.open(url);
  }

  /** Save this sign-in's PKCE verifier under its `state` (the first one wins). */
  saveCodeVerifier(v: string): Promise<void> {
    return this.steps.saveVerifier(v);
  }

  /** This sign-in's PKCE verifier. @throws Error when none was saved. */
  codeVerifier(): Promise<string> {
    return this.steps.verifier();
  }

  /** See {@link PersistentOAuthProvider.dpop}. */
  dpop(): DpopSession | undefined {
    return this.base.dpop();
  }

  /** See {@link PersistentOAuthProvider.saveDiscoveryState}. */
  saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    return this.base.saveDiscoveryState(state);
  }

  /** See {@link PersistentOAuthProvider.discoveryState}. */
  discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    return this.base.discoveryState();
  }

  /** See {@link PersistentOAuthProvider.invalidateCredentials}. */
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    return this.base.invalidateWith(scope, true);
  }
}
