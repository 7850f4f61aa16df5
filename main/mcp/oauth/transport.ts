/**
 * Remote transports with OAuth: the options the Streamable HTTP / legacy SSE descriptors
 * (main/mcp/transports/streamable-http.ts, sse.ts) give the SDK's transport when a server signs
 * in — the SDK's `authProvider` hook (the SDK then adds `Authorization: Bearer …`, and on a 401
 * runs `auth()` — refresh, or redirect) and our transport fetch (guards OAuth requests, reports
 * `WWW-Authenticate` challenges to the provider, keeps the server's configured headers away from
 * the authorization server).
 */
import { SSEClientTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { OAuthClientProvider, FetchLike, Transport } from '@modelcontextprotocol/client';
import type { RemoteServerConfig } from '../config.js';
import { createTransportFetch, type OAuthChallenge, type RefreshGrantCache } from './safe-fetch.js';
import { remoteEndpoint } from '../transports/endpoint.js';

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
 * The endpoint and SDK transport options of a remote server that authenticates with `provider`.
 * Headers from `cfg.headers` go to the MCP endpoint only.
 */
export function oauthTransportOptions(
  cfg: Pick<RemoteServerConfig, 'url' | 'headers'>,
  provider: ChallengeAwareProvider,
  opts: OAuthTransportOptions = {},
): { url: URL; options: { requestInit: RequestInit; authProvider: ChallengeAwareProvider; fetch: FetchLike } } {
  // The userinfo is not sent with OAuth (the Authorization header carries the access token).
  const { url, headers } = remoteEndpoint(cfg, false);
  const fetchFn = createTransportFetch({
    serverUrl: url,
    base: opts.fetch,
    maxResponseBytes: opts.maxResponseBytes,
    stripHeaders: Object.keys(cfg.headers),
    ...(provider.refreshGrants ? { refreshGrants: provider.refreshGrants } : {}),
    onChallenge: (c) => provider.noteChallenge?.(c),
  });
  return { url, options: { requestInit: { headers }, authProvider: provider, fetch: fetchFn } };
}

/**
 * Create (not start) a remote transport that authenticates with `provider`: legacy HTTP+SSE for
 * `type: 'sse'`, else Streamable HTTP (the connection itself launches through the descriptors).
 */
export function createOAuthRemoteTransport(cfg: Pick<RemoteServerConfig, 'type' | 'url' | 'headers'>, provider: ChallengeAwareProvider, opts: OAuthTransportOptions = {}): Transport {
  const { url, options } = oauthTransportOptions(cfg, provider, opts);
  return cfg.type === 'sse' ? new SSEClientTransport(url, options) : new StreamableHTTPClientTransport(url, options);
}
