/**
 * How a `PersistentOAuthProvider` (provider.ts) is configured, and the sign-in states and
 * refresh outcomes it reports (MCP spec "Authorization"; docs/ARCHITECTURE.md "OAuth").
 */
import type { SecretStore } from '../../secrets/store.js';

/** Where the browser is sent. Must not block on the user; must not use a shell. */
export type OpenUrl = (url: URL) => void | Promise<void>;

/** Sign-in state of one server, as the status line shows it. */
export type OAuthAuthState = 'unknown' | 'authorized' | 'needs_auth' | 'needs_reauth';

/** A client the user registered with the authorization server themselves. */
export interface PreRegisteredClient {
  client_id: string;
  /** Absent for public clients. */
  client_secret?: string;
  /**
   * The redirect URI registered for this client (`http://127.0.0.1:<port>/callback`). When absent
   * a free port is used, which works with servers that ignore the loopback port (RFC 8252 §7.3).
   */
  redirect_uri?: string;
}

/** Options of `PersistentOAuthProvider`. */
export interface PersistentOAuthProviderOptions {
  /** The configured server name; keys are `oauth:<serverName>:…`. */
  serverName: string;
  store: SecretStore;
  /** Opens the system browser (Electron `shell.openExternal`); called only with a safe URL. */
  openUrl: OpenUrl;
  /** `client_name` for dynamic registration (default "OpenProgram Desktop"). */
  clientName?: string;
  /** Scope to ask for when neither the server's challenge nor its PRM names one. */
  scope?: string;
  /** Client credentials the user entered; dynamic registration is not used then. */
  preRegistered?: PreRegisteredClient;
  /** An https URL of a Client ID Metadata Document (SEP-991), used when the AS supports it. */
  clientMetadataUrl?: string;
  /** Called whenever `PersistentOAuthProvider.authState` changes. */
  onStateChange?: (state: OAuthAuthState) => void;
  /** Clock in ms since the epoch (tests). */
  now?: () => number;
}

/** Result of a background refresh (flow.ts `refreshIfNeeded`). */
export type RefreshOutcome =
  /** The access token is valid for longer than the margin (or has no known expiry). */
  | 'fresh'
  /** A refresh succeeded and new tokens are stored. */
  | 'refreshed'
  /** No tokens are stored: sign in first. */
  | 'needs_auth'
  /** The refresh was rejected (or there is no refresh token): sign in again. */
  | 'needs_reauth';
