/**
 * Crash recovery of the host's servers: a server that exits (or whose connection drops) after it
 * was ready is restarted with capped exponential backoff and jitter, and gives up — saying so in
 * the server's state — after too many failed restarts in a row (docs/ARCHITECTURE.md "Status").
 */
import type { ServerRetry } from '../../../preload/contract/index.js';
import type { McpConnection } from '../connection.js';

/**
 * Where a server's automatic restarts stand: none pending (`none`), one scheduled or given up
 * (a `ServerRetry`, shown with the `error` state), or restart number `attempt` running now
 * (`restarting`, shown with the `starting` state).
 */
export type RecoveryView = { kind: 'none' } | ServerRetry | { kind: 'restarting'; attempt: number };

/**
 * Crash recovery: a server that exits (or whose connection drops) after it was ready is restarted
 * with capped exponential backoff and jitter. After `maxAttempts` failed restarts in a row it is
 * left in `error` with a `gave_up` retry; a server that stayed up `stableMs` starts counting afresh.
 */
export const RECOVERY = { maxAttempts: 5, baseDelayMs: 1000, maxDelayMs: 30_000, stableMs: 60_000 };

/** A recovery policy: attempts, delays in ms (see {@link RECOVERY}). */
export type RecoveryPolicy = typeof RECOVERY;

/** Backoff before restart attempt `n` (1-based), in ms: base·2^(n−1) capped, then jittered to 50–100 %. */
export function backoffDelay(n: number, random = Math.random, policy = RECOVERY): number {
  const d = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (n - 1));
  return Math.round(d / 2 + (random() * d) / 2);
}

interface RecoveryState {
  attempts: number;
  timer: NodeJS.Timeout | null;
  nextAt: number | null;
  gaveUp: boolean;
}

/**
 * The restart bookkeeping of every server: attempts, the pending timer, whether it gave up.
 * `restart(conn)` is called when a timer fires; it decides whether `conn` is still the server's
 * connection and whether the server should still run.
 */
export class CrashRecovery {
  /** The policy in force (tests shorten it). */
  policy: RecoveryPolicy = { ...RECOVERY };
  private readonly states = new Map<string, RecoveryState>();

  constructor(private readonly restart: (conn: McpConnection) => void) {}

  /**
   * A connection went to `error`: schedule a restart when it crashed after being ready, or when
   * it was itself a restart attempt that failed.
   */
  onError(conn: McpConnection): void {
    const r = this.states.get(conn.name);
    const crashed = conn.state.kind === 'error' && conn.state.failure.kind === 'exited' && conn.readyAt !== null;
    const retryFailed = r !== undefined && r.attempts > 0 && !r.gaveUp && r.timer === null;
    if (crashed || retryFailed) this.schedule(conn);
  }

  private schedule(conn: McpConnection): void {
    const name = conn.name;
    const policy = this.policy;
    const r = this.states.get(name) ?? { attempts: 0, timer: null, nextAt: null, gaveUp: false };
    this.states.set(name, r);
    if (conn.readyAt !== null && Date.now() - conn.readyAt >= policy.stableMs) r.attempts = 0;
    if (r.attempts >= policy.maxAttempts) {
      r.gaveUp = true;
      r.nextAt = null;
      conn.log.push('lifecycle', `not restarting automatically after ${r.attempts} failed restarts in a row; use Restart`);
      return;
    }
    r.attempts += 1;
    const delay = backoffDelay(r.attempts, Math.random, policy);
    r.nextAt = Date.now() + delay;
    conn.log.push('lifecycle', `restart attempt ${r.attempts} of ${policy.maxAttempts} in ${delay} ms`);
    r.timer = setTimeout(() => {
      r.timer = null;
      r.nextAt = null;
      this.restart(conn);
    }, delay);
    r.timer.unref?.();
  }

  /** Where a server's automatic restarts stand (see {@link RecoveryView}). */
  view(name: string): RecoveryView {
    const r = this.states.get(name);
    if (!r || r.attempts === 0) return { kind: 'none' };
    if (r.gaveUp) return { kind: 'gave_up', restarts: r.attempts };
    if (r.nextAt !== null) return { kind: 'scheduled', attempt: r.attempts, at: r.nextAt };
    return { kind: 'restarting', attempt: r.attempts };
  }

  /** Forget a server's recovery (a pending restart is cancelled). */
  clear(name: string): void {
    const r = this.states.get(name);
    if (r?.timer) clearTimeout(r.timer);
    this.states.delete(name);
  }

  /** Forget every server's recovery (shutdown). */
  clearAll(): void {
    for (const name of [...this.states.keys()]) this.clear(name);
  }
}
