/**
 * Start admission: decides when the next queued server may begin its start (docs/ARCHITECTURE.md
 * "Readiness"). A start is partly CPU (a process boots, imports its SDK, `npx` resolves a
 * package) and partly waiting (the server's own initialisation, the network, a sign-in). A fixed
 * bound makes waiting servers queue behind each other; admitting everything at once makes twenty
 * Node processes fight for two cores while the window waits. {@link CpuAwareAdmission} admits as
 * many starts as the machine has cores, then one more each time the machine shows spare CPU — so
 * servers that are only waiting never hold a place, and CPU-bound starts never pile up past the
 * cores. {@link FixedAdmission} is the plain bound (an explicit `concurrency`).
 */
import os from 'node:os';

/** Runs `each` over `items`, deciding when each one begins. Resolves when all have settled. */
export interface StartAdmission {
  run<T>(items: T[], each: (item: T) => Promise<void>): Promise<void>;
}

/** At most `limit` at once, each begun when an earlier one settled. */
export class FixedAdmission implements StartAdmission {
  constructor(private readonly limit: number) {}

  async run<T>(items: T[], each: (item: T) => Promise<void>): Promise<void> {
    const worker = async (): Promise<void> => {
      for (let item = items.shift(); item !== undefined; item = items.shift()) await each(item);
    };
    await Promise.all(Array.from({ length: Math.min(Math.max(1, this.limit), items.length) }, worker));
  }
}

/** Cumulative CPU times of the whole machine, ms (summed over cores), as `os.cpus()` gives them. */
export interface MachineCpuTimes {
  idleMs: number;
  totalMs: number;
}

/** Reads the machine's cumulative CPU times (every core, every process — a server's children too). */
export function machineCpuTimes(): MachineCpuTimes {
  let idle = 0;
  let total = 0;
  for (const c of os.cpus()) {
    const t = c.times;
    idle += t.idle;
    total += t.user + t.nice + t.sys + t.idle + t.irq;
  }
  return { idleMs: idle, totalMs: total };
}

/** What {@link CpuAwareAdmission} needs; every field has a default for the real machine. */
export interface CpuAwareOptions {
  /** Cores of the machine (default `os.availableParallelism()`). */
  cpus?: number;
  /** The machine's cumulative CPU times (default {@link machineCpuTimes}). */
  sample?: () => MachineCpuTimes;
  /** How often the machine is looked at while starts are queued, ms (default 50). */
  tickMs?: number;
  /** Starts in flight at most, waiting or not (default 64): a bound on open processes, not on CPU. */
  maxInFlight?: number;
  /** Idle share of one core, over a tick, that counts as spare (default 0.5). */
  spareCore?: number;
}

/**
 * Admits `cpus` starts at once, then, every tick while items are queued, as many more as the
 * machine had whole cores idle over the last tick (at least one when half a core was idle),
 * up to `maxInFlight`. A start that settles frees its place at once. Where the machine reports no
 * CPU times (`totalMs` not advancing), it behaves as a fixed bound of `cpus`.
 */
export class CpuAwareAdmission implements StartAdmission {
  private readonly cpus: number;
  private readonly sample: () => MachineCpuTimes;
  private readonly tickMs: number;
  private readonly maxInFlight: number;
  private readonly spareCore: number;

  constructor(opts: CpuAwareOptions = {}) {
    this.cpus = Math.max(1, opts.cpus ?? os.availableParallelism?.() ?? os.cpus().length);
    this.sample = opts.sample ?? machineCpuTimes;
    this.tickMs = opts.tickMs ?? 50;
    this.maxInFlight = Math.max(this.cpus, opts.maxInFlight ?? 64);
    this.spareCore = opts.spareCore ?? 0.5;
  }

  /** How many more starts the last interval's idle CPU allows (0 when the machine is busy). */
  private spare(prev: MachineCpuTimes, now: MachineCpuTimes): number {
    const total = now.totalMs - prev.totalMs;
    if (total <= 0) return 0;
    // Idle cores over the interval: the idle share of all cores' time, times the cores.
    const idleCores = ((now.idleMs - prev.idleMs) / total) * this.cpus;
    if (idleCores < this.spareCore) return 0;
    return Math.max(1, Math.floor(idleCores));
  }

  run<T>(items: T[], each: (item: T) => Promise<void>): Promise<void> {
    if (items.length === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      let inFlight = 0;
      let timer: NodeJS.Timeout | null = null;
      let last = this.sample();
      const begin = (): void => {
        const item = items.shift();
        if (item === undefined) return;
        inFlight++;
        void each(item)
          .catch(() => undefined)
          .finally(() => {
            inFlight--;
            if (items.length > 0 && inFlight < this.cpus) begin();
            settle();
          });
      };
      const settle = (): void => {
        if (items.length > 0) return;
        if (timer) {
          clearInterval(timer);
          timer = null;
        }
        if (inFlight === 0) resolve();
      };
      for (let i = 0; i < this.cpus && items.length > 0; i++) begin();
      if (items.length === 0) return;
      timer = setInterval(() => {
        const now = this.sample();
        const more = Math.min(this.spare(last, now), this.maxInFlight - inFlight, items.length);
        last = now;
        for (let i = 0; i < more; i++) begin();
        settle();
      }, this.tickMs);
      timer.unref?.();
    });
  }
}
