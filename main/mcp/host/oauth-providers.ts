/**
 * The host's OAuth provider registry: one provider per OAuth server (built by
 * ../oauth/provider-factory.ts), shared by the server's connection and its sign-in, and the
 * sign-ins in progress. A provider is replaced (its stored state forgotten) when the server's URL
 * or pre-registered client changes.
 */
import type { McpConnection } from '../connection.js';
import type { ServerConfig } from '../config.js';
import { OAuthSignIns } from '../oauth/flow.js';
import type { PersistentOAuthProvider } from '../oauth/provider.js';
import { createOAuthProvider, oauthProviderIdentity, type OAuthProviderDeps } from '../oauth/provider-factory.js';
import { moveStoredState } from '../oauth/stored-state.js';
import type { AuthStatus } from './views.js';

/** OAuth providers by server name, and the sign-ins running for them. */
export class OAuthProviderRegistry {
  private readonly providers = new Map<string, { provider: PersistentOAuthProvider; identity: string }>();
  /** One sign-in per server at a time; cancelled on shutdown. */
  readonly signIns = new OAuthSignIns();

  constructor(private readonly deps: OAuthProviderDeps) {}

  /**
   * The OAuth provider of a server whose auth kind is `oauth` (null otherwise). One per server;
   * replaced (and its stored state forgotten) when the URL or the pre-registered client changes,
   * since tokens and registrations belong to one resource and one client.
   */
  providerFor(name: string, cfg: ServerConfig): PersistentOAuthProvider | null {
    const identity = oauthProviderIdentity(cfg);
    if (identity === null) return null;
    const existing = this.providers.get(name);
    if (existing?.identity === identity) return existing.provider;
    const provider = createOAuthProvider(name, cfg, this.deps)!;
    if (existing) void existing.provider.forget().catch(() => undefined);
    this.providers.set(name, { provider, identity });
    return provider;
  }

  /** The sign-in state a server's view shows; null for a server without a provider. */
  authStatus(name: string, conn: McpConnection | undefined): AuthStatus | null {
    const p = this.providers.get(name)?.provider;
    return p ? { state: this.signIns.inProgress(name) ? 'signing_in' : p.authState, expiresAt: conn?.oauthExpiresAt ?? null } : null;
  }

  /**
   * A server was renamed: its stored tokens, registration and discovery move to the new name in
   * one store write; its provider (built for the old name) is dropped without forgetting anything,
   * and the next {@link providerFor} builds one for the new name that reads them back. A sign-in in
   * progress is cancelled. @throws the secret store's error (nothing moved then)
   */
  async rename(from: string, to: string): Promise<void> {
    this.signIns.cancel(from);
    await moveStoredState(this.deps.store, from, to);
    this.providers.delete(from);
    this.providers.delete(to);
  }

  /** Drop a server's OAuth provider and its stored tokens/registration; cancels its sign-in. */
  async forget(name: string): Promise<void> {
    const p = this.providers.get(name)?.provider;
    this.providers.delete(name);
    this.signIns.cancel(name);
    await p?.forget().catch(() => undefined);
  }
}
