/**
 * The live side of a server's log: every entry is pushed to the window as it is written
 * (`servers.log` event), and the server's own log notifications (MCP spec "Utilities: Logging",
 * `notifications/message`) are rate-limited so a flooding server cannot drown the view or the
 * IPC channel: what is over the limit is dropped and counted, and a lifecycle entry says how many
 * (docs/ARCHITECTURE.md "Protocol features").
 */
import type { LogEntry } from '../../../preload/contract/index.js';
import { LogRing } from '../connection.js';

/** Server log notifications accepted per second on average, and as a burst. */
export const LOG_RATE = { perSecond: 20, burst: 60 } as const;

/** Longest text of one entry, as the ring keeps it (characters). */
const MAX_TEXT = 4096;
/** How long new entries are gathered before they are pushed as one batch (ms). */
export const LOG_BATCH_MS = 50;

/** A server's log that pushes every entry to `listener` and rate-limits `server` entries. */
export class LiveLogRing extends LogRing {
  private tokens: number = LOG_RATE.burst;
  private refilledAt = Date.now();
  private dropped = 0;
  private noticeTimer: NodeJS.Timeout | null = null;
  /** Entries kept but not pushed yet (at most the ring's size), and the timer that pushes them. */
  private pending: LogEntry[] = [];
  private batchTimer: NodeJS.Timeout | null = null;

  /**
   * @param listener receives the entries kept since the last call, oldest first, at most every
   *   {@link LOG_BATCH_MS} ms (never a dropped one)
   * @param rate the limit for the server's own log notifications
   */
  constructor(
    private readonly listener: (entries: LogEntry[]) => void,
    private readonly rate: { perSecond: number; burst: number } = LOG_RATE,
    private readonly maxPending = 500,
  ) {
    super();
    this.tokens = rate.burst;
  }

  /** Whether one more server entry fits the rate now (token bucket). */
  private take(): boolean {
    const now = Date.now();
    this.tokens = Math.min(this.rate.burst, this.tokens + ((now - this.refilledAt) / 1000) * this.rate.perSecond);
    this.refilledAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Write the "N dropped" entry now, if any were dropped. */
  private flushDropped(origin: number): void {
    if (this.noticeTimer) clearTimeout(this.noticeTimer);
    this.noticeTimer = null;
    if (this.dropped === 0) return;
    const n = this.dropped;
    this.dropped = 0;
    this.keep('lifecycle', `${n} log message${n === 1 ? '' : 's'} from the server or its views were dropped: it sent more than ${this.rate.perSecond} a second.`, origin);
  }

  private keep(source: LogEntry['source'], text: string, origin: number): void {
    super.push(source, text, origin);
    this.pending.push({ ts: Date.now(), source, text: text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text });
    // A window that missed more than the ring holds reloads the log anyway; only the newest go live.
    if (this.pending.length > this.maxPending) this.pending.splice(0, this.pending.length - this.maxPending);
    if (!this.batchTimer) {
      this.batchTimer = setTimeout(() => this.flushBatch(), LOG_BATCH_MS);
      this.batchTimer.unref?.();
    }
  }

  /** Push the gathered entries now. */
  private flushBatch(): void {
    this.batchTimer = null;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    try {
      this.listener(batch);
    } catch {
      // A broken listener must not lose the entries for the Logs view's next load.
    }
  }

  /** Append an entry and push it; a `server` or `view` entry over the rate is dropped and counted instead. */
  override push(source: LogEntry['source'], text: string, origin = 0): void {
    if ((source === 'server' || source === 'view') && !this.take()) {
      this.dropped++;
      // Say so once the flood pauses, even if nothing else is logged after it.
      if (!this.noticeTimer) {
        this.noticeTimer = setTimeout(() => this.flushDropped(origin), 1000);
        this.noticeTimer.unref?.();
      }
      return;
    }
    this.flushDropped(origin);
    this.keep(source, text, origin);
  }
}
