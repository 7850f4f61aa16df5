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
 * re-checked: a server upgraded to speak only 2026-07-28 refuses that handshake, and the
 * connection probes again. A slow modern-only server whose probe timed out refuses the fallback
 * `initialize` the same way, and is probed again with the whole start timeout.
 */
import { createHash } from 'node:crypto';
import type { ClientOptions, PriorDiscovery } from '@modelcontextprotocol/client';
import type { ServerConfig } from './config.js';
import { transportFor, transportOf } from './transports/registry.js';

/**
 * The `versionNegotiation` client option (MCP spec 2026-07-28 "Lifecycle: Version Negotiation"):
 * `auto`. On stdio a silent probe means a legacy server that ignores unknown requests, so the
 * probe gets half the start timeout — long enough for a server that is merely slow to start
 * (`npx` fetching a package), leaving the other half for `initialize` — unless the server is
 * known to speak 2026-07-28 (`knownModern`: a remembered verdict, or a refused `initialize`),
 * when the probe gets the whole start timeout. Over HTTP silence is an outage; the probe has the
 * whole start timeout (the SDK's default: the `connect()` timeout).
 */
export function versionNegotiation(type: ServerConfig['type'], startTimeoutMs: number, knownModern = false): NonNullable<ClientOptions['versionNegotiation']> {
  const probe = knownModern ? null : transportOf(type).probeTimeoutMs(startTimeoutMs);
  return probe === null ? { mode: 'auto' } : { mode: 'auto', probe: { timeoutMs: probe } };
}

/**
 * How one session attempt opens: `remembered` — as the remembered verdict says (a legacy one
 * skips the probe), else probe; `legacy` — the 2025 `initialize` handshake only; `probe` —
 * `server/discover` first whatever was remembered, the probe having the whole start timeout.
 */
export type EraMode = 'remembered' | 'legacy' | 'probe';

/** The negotiated era of a ready connection, as the server view shows it. */
export interface NegotiatedProtocol {
  /** `modern` = 2026-07-28 and later (no `initialize`); `legacy` = the 2024/2025 revisions. */
  era: 'modern' | 'legacy';
  /** The protocol revision in use, e.g. `2026-07-28` or `2025-06-18`; null when the SDK does not say. */
  version: string | null;
}

/** What identifies "the same server" for a remembered verdict: transport, target and its settings. */
function fingerprint(config: ServerConfig): string {
  return createHash('sha256').update(JSON.stringify([config.type, ...transportFor(config).fingerprint(config)])).digest('hex');
}

/**
 * Era verdicts per server configuration, for one app session (owned by the host, shared by every
 * connection of every server; nothing is persisted). A verdict is a hint, re-checked when it
 * fails (docs/ARCHITECTURE.md "Protocol eras"): a legacy verdict becomes the SDK's
 * `connect(transport, { prior: { kind: 'legacy' } })`, which skips the `server/discover` probe
 * (MCP spec 2026-07-28 "Lifecycle: Version Negotiation") and goes straight to `initialize`
 * (2025-11-25 "Lifecycle: Initialization"); if the server refuses that handshake, the connection
 * probes again and the verdict turns modern. A modern verdict is not replayed as a `prior` (the
 * probe is one round trip, and a stale one would fail at the first call) — it only lets the
 * probe of a slow stdio server wait the whole start timeout instead of falling back to
 * `initialize` halfway.
 */
export class EraMemory {
  private readonly verdicts = new Map<string, 'modern' | 'legacy'>();

  /** The `prior` to connect with for `config`, or undefined to probe. */
  prior(config: ServerConfig): PriorDiscovery | undefined {
    return this.verdicts.get(fingerprint(config)) === 'legacy' ? { kind: 'legacy' } : undefined;
  }

  /** Whether `config` was last seen speaking 2026-07-28 or later. */
  knownModern(config: ServerConfig): boolean {
    return this.verdicts.get(fingerprint(config)) === 'modern';
  }

  /** Record the era a connection of `config` landed on (or turned out to need). */
  remember(config: ServerConfig, era: 'modern' | 'legacy'): void {
    this.verdicts.set(fingerprint(config), era);
  }

  /** Forget the verdict for `config` (the next connection probes again, with the default probe time). */
  forget(config: ServerConfig): void {
    this.verdicts.delete(fingerprint(config));
  }
}
