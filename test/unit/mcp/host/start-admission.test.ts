/**
 * main/mcp/host/start-admission.ts: servers that are only waiting never queue behind each other,
 * CPU-bound starts never pile up past the cores. The machine's CPU times are injected (a scripted
 * machine whose busy cores are the starts in their CPU phase), so what is checked is the decision,
 * with real timers and real promises.
 */
import { describe, expect, it } from 'vitest';
import { CpuAwareAdmission, FixedAdmission, type MachineCpuTimes } from '../../../../main/mcp/host/start-admission.js';

/**
 * A scripted machine of `cpus` cores: `busy` of them are busy (set by the starts as they enter and
 * leave their CPU phase); its idle and total times integrate that over the wall clock.
 */
class Machine {
  private busyCores = 0;
  private idle = 0;
  private total = 0;
  private at = performance.now();
  constructor(private readonly cpus: number) {}
  private advance(): void {
    const now = performance.now();
    const dt = (now - this.at) * this.cpus;
    this.at = now;
    this.idle += dt * ((this.cpus - Math.min(this.cpus, this.busyCores)) / this.cpus);
    this.total += dt;
  }
  set busy(n: number) {
    this.advance();
    this.busyCores = n;
  }
  get busy(): number {
    return this.busyCores;
  }
  readonly sample = (): MachineCpuTimes => {
    this.advance();
    return { idleMs: this.idle, totalMs: this.total };
  };
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Runs `n` starts that spend `cpuMs` on a core of `m`, then wait `waitMs`; returns the peaks in flight and on the CPU. */
async function runStarts(m: Machine, admission: { run: CpuAwareAdmission['run'] }, n: number, cpuMs: number, waitMs: number): Promise<{ peak: number; peakCpu: number; done: number }> {
  let inFlight = 0;
  let peak = 0;
  let peakCpu = 0;
  let done = 0;
  await admission.run(
    Array.from({ length: n }, (_, i) => i),
    async () => {
      inFlight++;
      m.busy = m.busy + 1;
      peak = Math.max(peak, inFlight);
      peakCpu = Math.max(peakCpu, m.busy);
      await sleep(cpuMs);
      m.busy = m.busy - 1;
      if (waitMs > 0) await sleep(waitMs);
      inFlight--;
      done++;
    },
  );
  return { peak, peakCpu, done };
}

describe('CpuAwareAdmission', () => {
  it('admits more starts while the ones in flight are only waiting: twenty waiting servers do not start in waves of the core count', async () => {
    const m = new Machine(2);
    const r = await runStarts(m, new CpuAwareAdmission({ cpus: 2, sample: m.sample, tickMs: 10 }), 20, 20, 400);
    expect(r.done).toBe(20);
    // With a fixed bound of 2 they would start in ten waves; here nearly all wait together.
    expect(r.peak).toBeGreaterThanOrEqual(12);
  });

  it('never lets CPU-bound starts run past the cores while the machine is busy', async () => {
    // Every start is all CPU: the machine is never idle while two run, so no third is admitted.
    const m = new Machine(2);
    const r = await runStarts(m, new CpuAwareAdmission({ cpus: 2, sample: m.sample, tickMs: 10 }), 8, 60, 0);
    expect(r.done).toBe(8);
    expect(r.peakCpu).toBe(2);
    expect(r.peak).toBe(2);
  });

  it('keeps to maxInFlight however idle the machine is', async () => {
    const idle = new Machine(2);
    const r = await runStarts(new Machine(2), new CpuAwareAdmission({ cpus: 2, sample: idle.sample, tickMs: 5, maxInFlight: 5 }), 20, 1, 200);
    expect(r.done).toBe(20);
    expect(r.peak).toBe(5);
  });

  it('a machine that reports no CPU times is a fixed bound of the cores; a failing start frees its place', async () => {
    let inFlight = 0;
    let peak = 0;
    const seen: number[] = [];
    await new CpuAwareAdmission({ cpus: 3, sample: () => ({ idleMs: 0, totalMs: 0 }), tickMs: 5 }).run([1, 2, 3, 4, 5, 6, 7], async (i) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await sleep(20);
      inFlight--;
      seen.push(i);
      if (i % 2 === 0) throw new Error('start failed');
    });
    expect(peak).toBe(3);
    expect(seen.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('an empty queue resolves at once', async () => {
    await new CpuAwareAdmission({ cpus: 2 }).run([], async () => undefined);
  });
});

describe('FixedAdmission', () => {
  it('runs at most the bound at once', async () => {
    const r = await runStarts(new Machine(3), new FixedAdmission(3), 9, 5, 30);
    expect(r.done).toBe(9);
    expect(r.peak).toBe(3);
  });
});
