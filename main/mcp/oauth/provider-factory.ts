/**
 * The one OAuth provider factory: given a server's config and where OAuth state lives, build the
 * `OAuthClientProvider` (a `PersistentOAuthProvider`) that the transports and the sign-in flow use
 * (docs/ARCHITECTURE.md "Processes and rooms", mcp/oauth). It needs no app core: a secret store
 * (a `MemorySecretStore` will do) and a redirect handler are enough, so the host and a headless
 * client (the conformance client) build providers the same way.
 */
import type { SecretStore } from '../../secrets/store.js';
import type { ServerConfig } from '../config.js';
import { transportFor } from '../transports/registry.js';
import { PersistentOAuthProvider, type OAuthAuthState, type PreRegisteredClient } from './provider.js';

/** What a provider is built from besides the server's config. */
export interface OAuthProviderDeps {
  /** Where tokens, registrations and PKCE verifiers are kept (`oauth:<server>:…` keys). */
  store: SecretStore;
  /**
   * Sends the user to an authorization URL (the system browser, or a headless redirect handler).
   * Called only with a URL that passed the safety check (https:, or http: to loopback).
   */
  openUrl: (url: URL, server: string) => void | Promise<void>;
  /** Called with the server's name whenever its sign-in state changes. */
  onStateChange?: (server: string, state: OAuthAuthState) => void;
  /** `client_name` for dynamic registration (RFC 7591); default the provider's ("OpenProgram Desktop"). */
  clientName?: string;
  /**
   * An https URL of a Client ID Metadata Document (SEP-991), offered when the user entered no
   * client of their own. The app offers none.
   */
  clientMetadataUrl?: string;
}

/**
 * What identifies a provider's stored state: the resource URL and the pre-registered client.
 * Tokens and registrations belong to one resource and one client, so a provider whose identity
 * changed must not be reused.
 */
export function oauthProviderIdentity(cfg: ServerConfig): string | null {
  const t = transportFor(cfg);
  const auth = t.auth(cfg);
  if (auth.kind !== 'oauth') return null;
  return JSON.stringify([t.url(cfg), auth.client_id ?? null, auth.client_secret ?? null]);
}

/**
 * Build the OAuth provider of server `name`, or null when its auth kind is not `oauth` (a stdio
 * server, no auth, a bearer token). The scope and the user's pre-registered client (client_id,
 * client_secret) come from `cfg.auth`; without a client_id the provider registers dynamically
 * (RFC 7591) or uses `deps.clientMetadataUrl` (SEP-991).
 * @throws Error when `name` is empty.
 */
export function createOAuthProvider(name: string, cfg: ServerConfig, deps: OAuthProviderDeps): PersistentOAuthProvider | null {
  const auth = transportFor(cfg).auth(cfg);
  if (auth.kind !== 'oauth') return null;
  const preRegistered: PreRegisteredClient | undefined = auth.client_id ? { client_id: auth.client_id, ...(auth.client_secret ? { client_secret: auth.client_secret } : {}) } : undefined;
  return new PersistentOAuthProvider({
    serverName: name,
    store: deps.store,
    openUrl: (url: URL) => deps.openUrl(url, name),
    ...(deps.clientName !== undefined ? { clientName: deps.clientName } : {}),
    scope: auth.scope,
    preRegistered,
    clientMetadataUrl: preRegistered ? undefined : deps.clientMetadataUrl,
    onStateChange: (state) => deps.onStateChange?.(name, state),
  });
}
