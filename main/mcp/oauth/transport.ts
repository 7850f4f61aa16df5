/**
 * Remote transports with OAuth: the same Streamable HTTP / legacy SSE transports as
 * `../transports.ts#createRemoteTransport`, plus the SDK's `authProvider` hook (the SDK then adds
 * `Authorization: Bearer …`, and on a 401 runs `auth()` — refresh, or redirect) and our transport
 * fetch (guards OAuth requests, reports `WWW-Authenticate` challenges to the provider, keeps the
 * server's configured headers away from the authorization server).
 */
import { SSEClientTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { OAuthClientProvider, FetchLike, Transport } from '@modelcontextprotocol/client';
import type { RemoteServerConfig } from '../config.js';
import { createTransportFetch, type OAuthChallenge, type RefreshGrantCache } from './safe-fetch.js';
import { remoteEndpoint } from '../transports.js';

/** Options of {@link createOAuthRemoteTransport}. */
export interface OAuthTransportOptions {
  /** Base fetch (default global `fetch`). */
  fetch?: FetchLike;
  /** Bound on OAuth response bodies in bytes (default 1 MiB). */
  maxResponseBytes?: number;
}

/** A provider that may want to hear about challenges (our `PersistentOAuthProvider` does). */
export type ChallengeAwareProvider = OAuthClientProvider & { noteChallenge?(c: OAuthChallenge): void; readonly refreshGrants?: RefreshGrantCache };

/**
 * Create (not start) a remote transport that authenticates with `provider`.
 * Headers from `cfg.headers` go to the MCP endpoint only.
 */
export function createOAuthRemoteTransport(cfg: Pick<RemoteServerConfig, 'type' | 'url' | 'headers'>, provider: ChallengeAwareProvider, opts: OAuthTransportOptions = {}): Transport {
  // The userinfo is not sent with OAuth (the Authorization header carries the access token).
  const { url, headers } = remoteEndpoint(cfg, false);
  const requestInit: RequestInit = { headers };
  const fetchFn = createTransportFetch({
    serverUrl: url,
    base: opts.fetch,
    maxResponseBytes: opts.maxResponseBytes,
    stripHeaders: Object.keys(cfg.headers),
    ...(provider.refreshGrants ? { refreshGrants: provider.refreshGrants } : {}),
    onChallenge: (c) => provider.noteChallenge?.(c),
  });
  if (cfg.type === 'sse') return new SSEClientTransport(url, { requestInit, authProvider: provider, fetch: fetchFn });
  return new StreamableHTTPClientTransport(url, { requestInit, authProvider: provider, fetch: fetchFn });
}
