/**
 * The `sse` transport: legacy HTTP+SSE (MCP spec 2024-11-05; docs/ARCHITECTURE.md "Transports"),
 * from the start for `type: 'sse'`, and once as the fallback of an `http` server (its launch
 * serves any remote config).
 */
import { SSEClientTransport } from '@modelcontextprotocol/client';
import type { RemoteServerConfig } from '../config.js';
import { oauthTransportOptions } from '../oauth/transport.js';
import { remoteEndpoint } from './endpoint.js';
import type { TransportKind } from './kind.js';
import { remoteParts, staticAuthHeaders } from './remote.js';

/** The `sse` (legacy HTTP+SSE) descriptor. */
export const sseTransport: TransportKind<RemoteServerConfig> = {
  ...remoteParts,
  type: 'sse',
  aliases: [],
  legacyFallback: false,
  live: 'legacy_sse',

  launch(cfg, ctx) {
    if (cfg.auth.kind === 'oauth' && ctx.oauth) {
      const { url, options } = oauthTransportOptions(cfg, ctx.oauth);
      return { transport: new SSEClientTransport(url, options), resolvedCommand: null };
    }
    const { url, headers } = remoteEndpoint(cfg, true);
    return { transport: new SSEClientTransport(url, { requestInit: { headers: staticAuthHeaders(cfg, headers) } }), resolvedCommand: null };
  },
};
