/**
 * The log of one configured server: a bounded ring of entries shared by the connections a
 * server has had across restarts, each entry tagged with the connection that wrote it.
 * docs/ARCHITECTURE.md "Processes and rooms".
 */
import type { LogEntry } from '../../../preload/contract/index.js';

/** Bounded ring of log entries; the oldest entries are dropped first. */
export class LogRing {
  private entries: LogEntry[] = [];
  constructor(private readonly max = 500) {}
  private origins: number[] = [];
  private lastOrigin = 0;
  /** A new origin tag for one connection writing into this ring (1, 2, …). */
  nextOrigin(): number {
    return ++this.lastOrigin;
  }
  /** Append an entry (text is cut to 4 KiB); `origin` tells which connection wrote it. */
  push(source: LogEntry['source'], text: string, origin = 0): void {
    this.entries.push({ ts: Date.now(), source, text: text.length > 4096 ? `${text.slice(0, 4096)}…` : text });
    this.origins.push(origin);
    if (this.origins.length > this.max) this.origins.splice(0, this.origins.length - this.max);
    if (this.entries.length > this.max) this.entries.splice(0, this.entries.length - this.max);
  }
  /** A copy of every entry, oldest first. */
  all(): LogEntry[] {
    return this.entries.slice();
  }
  /** The last `n` entries of one source, as text; only those of `origin` when given. */
  tail(source: LogEntry['source'], n: number, origin?: number): string[] {
    const out: string[] = [];
    for (let i = this.entries.length - 1; i >= 0 && out.length < n; i--) {
      if (this.entries[i]!.source === source && (origin === undefined || this.origins[i] === origin)) out.unshift(this.entries[i]!.text);
    }
    return out;
  }
}
