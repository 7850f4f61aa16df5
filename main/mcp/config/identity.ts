/**
 * What makes two configurations "the same server", in one place (docs/ARCHITECTURE.md
 * "Permissions", "Security"). Pure functions, no state.
 *
 * - {@link serverDestination}: where requests go — the command line of a stdio server (program and
 *   arguments), the URL origin of a remote one. Stored secrets follow an entry only to the same
 *   destination (import).
 * - {@link serverIdentity}: the destination narrowed to the URL path, with the transport type and
 *   the names (never the values) of the env variables or headers. Approvals and "Allow in this
 *   conversation" grants hold only for the identity they were given to.
 * - {@link programIdentity}: the program alone — the transport type and the command line or URL
 *   origin + path, without the env or header names. Pinned tool definitions (main/mcp/pins) hold
 *   for it: editing which variables a server gets is not "another program".
 * - {@link toolNamespace}: the prefix a server's tools are offered under (`{server}__{tool}`),
 *   compared ignoring case; two servers of one namespace would share tool names.
 */
import { createHash } from 'node:crypto';
import { sanitizeNamePart } from '../adapter.js';
import type { ServerConfig } from './schema.js';
import { transportFor } from '../transports/registry.js';

/**
 * Where a server's requests go: `local:` + the JSON of its command line, or `url:` + the URL's
 * origin (scheme, host, port) for `http`/`sse`. Null for a URL that does not parse.
 */
export function serverDestination(cfg: ServerConfig): string | null {
  return transportFor(cfg).destination(cfg);
}

/** Whether two configurations send requests to the same destination ({@link serverDestination}). */
export function sameDestination(a: ServerConfig, b: ServerConfig): boolean {
  const d = serverDestination(a);
  return d !== null && d === serverDestination(b);
}

/**
 * The identity of a server's configuration, as a SHA-256 hex digest of: the transport type; the
 * command line (stdio; secret arguments as `***`) or the URL's origin and path (remote: no user
 * info, no query, no fragment); the sorted
 * names of its env variables or headers. Values never enter it, so changing a secret keeps the
 * identity and nothing secret can be read back from it; changing the program, its arguments, the
 * host or path, or which variables it gets, makes another identity.
 */
export function serverIdentity(cfg: ServerConfig): string {
  const { target, names } = transportFor(cfg).identity(cfg);
  return createHash('sha256')
    .update(JSON.stringify([cfg.type, target, [...names].sort()]))
    .digest('hex');
}

/**
 * The identity of the program a configuration runs, as a SHA-256 hex digest of the transport type
 * and the command line (stdio; secret arguments as `***`) or the URL's origin and path (remote).
 * Unlike {@link serverIdentity} it leaves out the env or header names: a pin is about which program
 * answers, and adding or removing a variable does not change that.
 */
export function programIdentity(cfg: ServerConfig): string {
  const { target } = transportFor(cfg).identity(cfg);
  return createHash('sha256').update(JSON.stringify([cfg.type, target])).digest('hex');
}

/**
 * The namespace a server's tools are offered under: its name as it appears in `{server}__{tool}`
 * (characters outside `[A-Za-z0-9_-]` become `_`, main/mcp/adapter.ts), lower-cased, because
 * names that differ only in case are duplicates already. `my.fs` and `My_FS` share one.
 */
export function toolNamespace(name: string): string {
  return sanitizeNamePart(name).toLowerCase();
}
