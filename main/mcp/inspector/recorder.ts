/**
 * The traffic recorder — this file's one job: one {@link TrafficRing} per configured server, and
 * the live batches of what they record (docs/ARCHITECTURE.md "Protocol inspector").
 *
 * A ring outlives its server's restarts (like the server's log) and goes when the server is
 * removed. What is recorded is pushed to `listener` in batches, at most every
 * {@link TRAFFIC_BATCH_MS} ms and at most {@link MAX_BATCH_BYTES} of JSON per batch (the rest is
 * counted as `dropped`, and the window reloads the ring), so a busy server never makes the window
 * wait on one event per message. Memory only: nothing is written unless the user saves. The
 * user can switch recording off per server ({@link RecorderSwitches}, kept across restarts).
 */
import type { InspectorLimits, InspectorMessage } from '../../../preload/contract/index.js';
import { TRAFFIC_LIMITS, TrafficRing, type Redactor } from './ring.js';
import { RecorderSwitches } from './switches.js';

/** How long recorded messages are gathered before they are pushed as one batch (ms). */
export const TRAFFIC_BATCH_MS = 100;
/** JSON bytes of one batch at most; messages past it are counted, not sent. */
export const MAX_BATCH_BYTES = 1024 * 1024;

/** Receives one server's messages recorded since the last batch, oldest first. */
export type TrafficListener = (server: string, messages: InspectorMessage[], dropped: number) => void;

/** The rings of one app core. */
export class TrafficRecorder {
  private readonly rings = new Map<string, TrafficRing>();
  /** The name each ring's batches go out under (a rename changes it; the ring stays). */
  private readonly ringNames = new WeakMap<TrafficRing, { server: string }>();
  private readonly pending = new Map<string, { messages: InspectorMessage[]; bytes: number; dropped: number }>();
  private timer: NodeJS.Timeout | null = null;

  /**
   * @param redactor the core's secret redactor, applied to every message
   * @param listener the live batches (null: none, e.g. a benchmark)
   * @param switches which servers are recorded (default: all, nothing stored)
   */
  constructor(
    private readonly redactor: Redactor,
    private readonly listener: TrafficListener | null = null,
    readonly limits: InspectorLimits = TRAFFIC_LIMITS,
    private readonly switches: RecorderSwitches = new RecorderSwitches(null),
  ) {}

  /** The ring of `server` (created empty on first use, on or off as the user last chose). */
  ring(server: string): TrafficRing {
    let ring = this.rings.get(server);
    if (!ring) {
      const named = { server };
      this.rings.set(server, (ring = new TrafficRing(this.redactor, (m) => this.queue(named.server, m), this.limits)));
      this.ringNames.set(ring, named);
      ring.enabled = this.switches.recording(server);
    }
    return ring;
  }

  /** Whether `server`'s traffic is recorded. */
  recording(server: string): boolean {
    return this.switches.recording(server);
  }

  /**
   * Switch recording of `server` on or off, at once and across restarts (what was kept stays).
   * @throws the fs error of storing the choice (it holds until the app quits)
   */
  async setRecording(server: string, on: boolean): Promise<void> {
    const ring = this.rings.get(server);
    if (ring) {
      ring.drain();
      ring.enabled = on;
    }
    await this.switches.set(server, on);
  }

  /** The ring of `server` if it has one. */
  existing(server: string): TrafficRing | undefined {
    return this.rings.get(server);
  }

  /**
   * A server was renamed: its ring (what was recorded so far) and its on/off choice move to the
   * new name; the unsent batch goes out under the old one first (docs/ARCHITECTURE.md "Renaming a
   * server"). @throws the fs error of storing the choice (nothing moved then)
   */
  async rename(from: string, to: string): Promise<void> {
    if (from === to) return;
    await this.switches.rename(from, to);
    this.flush();
    this.rings.delete(to);
    const ring = this.rings.get(from);
    if (!ring) return;
    this.rings.delete(from);
    this.rings.set(to, ring);
    this.ringNames.get(ring)!.server = to;
  }

  /** Drop a removed server's ring and its unsent batch. */
  forget(server: string): void {
    this.rings.delete(server);
    this.pending.delete(server);
    void this.switches.forget(server).catch(() => undefined);
  }

  private queue(server: string, m: InspectorMessage): void {
    if (!this.listener) return;
    let batch = this.pending.get(server);
    if (!batch) this.pending.set(server, (batch = { messages: [], bytes: 0, dropped: 0 }));
    const size = m.json?.length ?? m.preview?.length ?? 0;
    if (batch.bytes + size > MAX_BATCH_BYTES && batch.messages.length > 0) batch.dropped++;
    else {
      batch.messages.push(m);
      batch.bytes += size;
    }
    if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), TRAFFIC_BATCH_MS);
      this.timer.unref?.();
    }
  }

  /** Push every gathered batch now. */
  flush(): void {
    for (const ring of this.rings.values()) ring.drain();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batches = [...this.pending];
    this.pending.clear();
    for (const [server, b] of batches) {
      try {
        this.listener?.(server, b.messages, b.dropped);
      } catch {
        // A broken listener loses nothing: the ring still holds the messages.
      }
    }
  }
}
