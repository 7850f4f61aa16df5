/**
 * Tools bound to the server that offers them (docs/ARCHITECTURE.md "Permissions"): a namespaced
 * name is only a label the model uses; what the permission gate approves, and what is then
 * called, is a {@link ResolvedTool} — the tool, the live connection it was resolved on, and the
 * identity of that connection's configuration (../config/identity.ts). A call runs only while
 * that very connection is still the server's live, ready one, so an approval given for one
 * server can never run on another that took its tool name, nor on the same name after a restart
 * with another command.
 */
import type { RegisteredTool } from '../adapter.js';
import { serverIdentity } from '../config.js';
import type { McpConnection } from '../connection.js';
import { META_SERVER } from '../protocol/meta-tools.js';
import type { ToolRegistry } from './tool-table.js';

/** Which tool a caller means: the offered tool (its name, and the server and real name behind it). */
export type ToolRef = Pick<RegisteredTool, 'name' | 'server' | 'original_name'>;

/** A tool bound to the server instance it was resolved on. */
export interface ResolvedTool {
  /** The registered tool (its current namespaced name, server, real name, annotations). */
  readonly tool: RegisteredTool;
  /** The live, ready connection it was resolved on; null for the host's own tools (`@host`). */
  readonly connection: McpConnection | null;
  /**
   * The identity of that connection's configuration (`serverIdentity`: transport, command or URL
   * origin + path, env/header names); `@host` for the host's own tools.
   */
  readonly identity: string;
}

/** The live connections the binding is checked against (the runtime's map). */
export type LiveConnections = ReadonlyMap<string, McpConnection>;

/**
 * Bind `ref` to its server as it is now: the registered tool of `ref.server` with real name
 * `ref.original_name` (whatever name the table gives it now — never another server's tool that
 * took `ref.name`), on that server's live connection, which must be ready. Null when the server
 * no longer offers that tool or is not ready.
 */
export function resolveTool(tools: ToolRegistry, conns: LiveConnections, ref: ToolRef): ResolvedTool | null {
  const named = tools.byName(ref.name);
  const tool = named && named.server === ref.server && named.original_name === ref.original_name ? named : tools.ofServer(ref.server).find((t) => t.original_name === ref.original_name);
  if (!tool) return null;
  if (tool.server === META_SERVER) return { tool, connection: null, identity: META_SERVER };
  const connection = conns.get(tool.server);
  if (!connection || connection.status !== 'ready') return null;
  return { tool, connection, identity: serverIdentity(connection.config) };
}

/** Whether `resolved`'s connection is still its server's live, ready connection (always, for `@host`). */
export function isLive(conns: LiveConnections, resolved: ResolvedTool): boolean {
  if (resolved.connection === null) return true;
  const live = conns.get(resolved.tool.server);
  return live === resolved.connection && live.status === 'ready' && !live.closed;
}
