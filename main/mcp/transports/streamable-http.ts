/**
 * The `http` transport: Streamable HTTP (MCP spec 2025-03-26 and later; docs/ARCHITECTURE.md
 * "Transports"). Its fetch (main/mcp/sse-detect.ts) turns a 2xx answer to the session-opening
 * POST that is not MCP into a `LegacySseHintError`, and such a hint or a 4xx other than 401/403
 * lets the connection try legacy HTTP+SSE once (`legacyFallback`).
 */
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { RemoteServerConfig } from '../config.js';
import { oauthTransportOptions } from '../oauth/transport.js';
import { withLegacySseDetection } from '../sse-detect.js';
import { remoteEndpoint } from './endpoint.js';
import type { TransportKind } from './kind.js';
import { remoteParts, staticAuthHeaders } from './remote.js';

/** The `http` (Streamable HTTP) descriptor. */
export const streamableHttpTransport: TransportKind<RemoteServerConfig> = {
  ...remoteParts,
  type: 'http',
  aliases: ['streamable-http', 'streamableHttp', 'remote'],
  legacyFallback: true,
  live: 'streamable_http',

  launch(cfg, ctx) {
    if (cfg.auth.kind === 'oauth' && ctx.oauth) {
      const { url, options } = oauthTransportOptions(cfg, ctx.oauth);
      return { transport: new StreamableHTTPClientTransport(url, options), resolvedCommand: null };
    }
    const { url, headers } = remoteEndpoint(cfg, true);
    // A 2xx from a legacy SSE server to the first POST becomes a LegacySseHintError (main/mcp/sse-detect.ts).
    const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers: staticAuthHeaders(cfg, headers) }, fetch: withLegacySseDetection() });
    return { transport, resolvedCommand: null };
  },
};
