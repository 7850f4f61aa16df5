/**
 * Protocol era negotiation for one connection (docs/ARCHITECTURE.md "Protocol eras"): the options
 * the SDK `Client` gets (`versionNegotiation: { mode: 'auto' }`: probe with `server/discover`,
 * fall back to the `initialize` handshake of the 2025 revisions), and the era verdicts the host
 * remembers per server configuration for the rest of the app session.
 *
 * Why remember: our stdio transport (main/mcp/stdio.ts) is a custom stdio-shaped transport, so the
 * SDK probes in place on the server's one process. A legacy server that ignores the unknown
 * request costs the probe timeout; one that exits on it (servers built on rmcp do) fails the
 * probe, and the connection retries once on a fresh process with the legacy handshake. Either
 * way the verdict is "legacy", and the next start of the same configuration goes straight to
 * `initialize` (`connect(transport, { prior: { kind: 'legacy' } })`). A stale legacy verdict is
 * harmless: servers that speak 2026-07-28 also serve the 2025 handshake. Modern verdicts are not
 * replayed (a probe is one round trip, and a stale modern verdict would fail at the first call).
 */
import { createHash } from 'node:crypto';
import type { ClientOptions, PriorDiscovery } from '@modelcontextprotocol/client';
import type { ServerConfig } from './config.js';

/**
 * The `versionNegotiation` client option (MCP spec 2026-07-28 "Lifecycle: Version Negotiation"):
 * `auto`. On stdio a silent probe means a legacy server that ignores unknown requests, so the
 * probe gets half the start timeout — long enough for a server that is merely slow to start
 * (`npx` fetching a package), leaving the other half for `initialize`. Over HTTP silence is an
 * outage; the probe has the whole start timeout (the SDK's default: the `connect()` timeout).
 */
export function versionNegotiation(type: ServerConfig['type'], startTimeoutMs: number): NonNullable<ClientOptions['versionNegotiation']> {
  if (type !== 'local') return { mode: 'auto' };
  return { mode: 'auto', probe: { timeoutMs: Math.max(100, Math.floor(startTimeoutMs / 2)) } };
}

/** The negotiated era of a ready connection, as the server view shows it. */
export interface NegotiatedProtocol {
  /** `modern` = 2026-07-28 and later (no `initialize`); `legacy` = the 2024/2025 revisions. */
  era: 'modern' | 'legacy';
  /** The protocol revision in use, e.g. `2026-07-28` or `2025-06-18`; null when the SDK does not say. */
  version: string | null;
}

/** What identifies "the same server" for a remembered verdict: transport, target and its settings. */
function fingerprint(config: ServerConfig): string {
  const target = config.type === 'local' ? [config.command, config.env] : [config.url, config.headers];
  return createHash('sha256').update(JSON.stringify([config.type, ...target])).digest('hex');
}

/**
 * Era verdicts per server configuration, for one app session (owned by the host, shared by every
 * connection of every server; nothing is persisted). Only legacy verdicts are kept: they become
 * the SDK's `connect(transport, { prior: { kind: 'legacy' } })`, which skips the
 * `server/discover` probe (MCP spec 2026-07-28 "Lifecycle: Version Negotiation") and goes
 * straight to `initialize` (2025-11-25 "Lifecycle: Initialization").
 */
export class EraMemory {
  private readonly legacy = new Set<string>();

  /** The `prior` to connect with for `config`, or undefined to probe. */
  prior(config: ServerConfig): PriorDiscovery | undefined {
    return this.legacy.has(fingerprint(config)) ? { kind: 'legacy' } : undefined;
  }

  /** Record the era a connection of `config` landed on. */
  remember(config: ServerConfig, era: 'modern' | 'legacy'): void {
    const key = fingerprint(config);
    if (era === 'legacy') this.legacy.add(key);
    else this.legacy.delete(key);
  }

  /** Forget the verdict for `config` (the next connection probes again). */
  forget(config: ServerConfig): void {
    this.legacy.delete(fingerprint(config));
  }
}
