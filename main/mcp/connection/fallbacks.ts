/**
 * Opening a session with the fallbacks a server allows — this file's one job, the decision of
 * what to try next when an attempt fails (docs/ARCHITECTURE.md "Protocol eras"; MCP spec
 * "Backwards Compatibility"):
 * - a local server that ends at the `server/discover` probe (an older server) is started once
 *   more with the 2025 initialize handshake;
 * - a local server that refuses the 2025 handshake (it speaks only newer revisions; a stale or
 *   timed-out verdict) is started once more and probed, with the whole timeout;
 * - a Streamable HTTP attempt that fails as a legacy HTTP+SSE server would (a 4xx, or a 2xx that
 *   is not MCP) is tried once over legacy SSE — never for a sign-in failure.
 * McpConnection runs it; each attempt is its own (a fresh process or connection).
 */
import type { ServerConfig } from '../config.js';
import { probeEndedLine } from '../failure-log.js';
import { isLegacyHandshakeRefused, isLegacySseCandidate, isLocalProbeFailure } from '../failures.js';
import type { EraMemory, EraMode } from '../negotiation.js';
import type { ProcessExit } from './launch.js';

/** What the fallbacks are run with. */
export interface FallbackSteps {
  config: ServerConfig;
  /** Era verdicts shared across connections; null = none kept. */
  eras: EraMemory | null;
  /** Whether the server is remote (no era fallbacks: a remote server's era is the SDK's to negotiate). */
  remote: boolean;
  /** Whether its transport may fall back to legacy HTTP+SSE. */
  legacyFallback: boolean;
  /** One attempt at a session in `mode`. @throws its failure */
  attempt(mode: EraMode): Promise<void>;
  /** Close the failed attempt's transport and process. */
  reset(): Promise<void>;
  /** How the failed attempt's process ended, when known. */
  exit(): ProcessExit | null;
  /** Whether `err` is a sign-in failure. */
  isAuthFailure(err: unknown): boolean;
  /** Switch the next attempts to legacy HTTP+SSE. */
  useLegacySse(): void;
  /** Whether the connection is closing (nothing more is tried). */
  closing(): boolean;
  /** Write a line to the server's log. */
  note(text: string): void;
}

/**
 * Attempt a session (the remembered era first), then the fallbacks above, each at most once.
 * @throws the last attempt's failure
 */
export async function openWithFallbacks(s: FallbackSteps): Promise<void> {
  try {
    try {
      await s.attempt('remembered');
    } catch (err) {
      if (s.closing() || s.remote) throw err;
      if (isLocalProbeFailure(err)) {
        // Our stdio transport probes `server/discover` in place (main/mcp/negotiation.ts): a
        // legacy server that exits on a request before `initialize` fails the probe.
        await s.reset();
        // The SDK's own wording of this failure names its internals; the log says what happened.
        s.note(probeEndedLine(s.exit()));
        s.eras?.remember(s.config, 'legacy');
        await s.attempt('legacy');
      } else if (isLegacyHandshakeRefused(err)) {
        // Refused after a probe that timed out on a slow start, or on a remembered legacy
        // verdict that is stale (the server was upgraded). A verdict is a hint.
        await s.reset();
        s.note('the server refused the 2025 initialize handshake (it speaks only newer revisions); starting it again and asking with server/discover');
        s.eras?.remember(s.config, 'modern');
        await s.attempt('probe');
      } else throw err;
    }
  } catch (err) {
    if (s.closing() || !s.legacyFallback || !isLegacySseCandidate(err) || s.isAuthFailure(err)) throw err;
    await s.reset();
    s.note(`Streamable HTTP failed (${(err as Error).message}); trying the legacy HTTP+SSE transport`);
    s.useLegacySse();
    await s.attempt('remembered');
  }
}
