/**
 * The protocol part of a server's masked view (`ServerView.protocol`): transport (and the legacy
 * SSE fallback), logging, roots and icons. Called by main/mcp/host/views.ts `toView`; holds no
 * secrets (docs/ARCHITECTURE.md "Protocol features").
 */
import type { ServerProtocolView } from '../../../preload/contract/index.js';
import type { ServerConfig } from '../config.js';
import { transportFor } from '../transports/registry.js';
import type { McpConnection } from '../connection.js';
import { iconsByKey, pickIcon } from './icons.js';

/**
 * @param cfg the stored config (only `type` and `roots` are read)
 * @param conn the live connection, if any
 * @param defaultRoots the default root folders
 */
export function protocolView(cfg: ServerConfig, conn: McpConnection | undefined, defaultRoots: readonly string[]): ServerProtocolView {
  const ready = conn?.status === 'ready';
  const transport = ready ? conn.transportKind : null;
  return {
    transport,
    sse_fallback: transportFor(cfg).legacyFallback && transport === 'legacy_sse',
    logging: { supported: ready ? conn.supportsLogging : false, level: ready ? conn.loggingLevel : null },
    roots: { own: cfg.roots ? [...cfg.roots] : null, effective: [...(cfg.roots ?? defaultRoots)] },
    icon: ready ? pickIcon(conn.serverIcons) : null,
    tool_icons: ready ? iconsByKey(conn.tools, (t) => t.name, (t) => (t as { icons?: unknown }).icons) : {},
    prompt_icons: ready ? iconsByKey(conn.prompts, (p) => p.name, (p) => (p as { icons?: unknown }).icons) : {},
    resource_icons: ready ? iconsByKey(conn.resources, (r) => r.uri, (r) => (r as { icons?: unknown }).icons) : {},
  };
}
