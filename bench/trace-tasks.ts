/**
 * The window's main-thread tasks in a Chromium trace, with the CPU time each used (shared by the
 * window benchmarks: bench/streaming.ts, bench/many-conversations.ts). A long task counted by wall
 * clock (the page's PerformanceObserver 'longtask') is stretched when other processes take the
 * CPU; the thread's own CPU time is not, so both are reported.
 */

/** The fields of a Chromium trace event used here. */
interface TraceEvent {
  ph: string;
  name: string;
  pid: number;
  tid: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

/** One task of the renderer's main thread: its own CPU time (`tdur`) and its wall time, in ms. */
export interface ThreadTask {
  cpuMs: number;
  wallMs: number;
}

/**
 * The renderer main thread's tasks in a Chromium trace (JSON, 'toplevel' category), each with the
 * thread's own CPU time (`tdur`) and its wall time, in ms.
 */
export function mainThreadTasks(trace: Buffer): ThreadTask[] {
  const parsed = JSON.parse(trace.toString('utf8')) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);
  const main = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  return events
    .filter((e) => e.ph === 'X' && e.name === 'ThreadControllerImpl::RunTask' && main.has(`${e.pid}:${e.tid}`))
    .map((e) => ({ cpuMs: (e.tdur ?? 0) / 1000, wallMs: (e.dur ?? 0) / 1000 }));
}
