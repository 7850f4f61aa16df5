/**
 * The window with many conversations (docs/ARCHITECTURE.md "Conversations"): 1,000 conversations
 * in the sidebar and a 5,000-entry conversation open (reopened at start), against a window with one
 * conversation of 40 entries (the same-run floor), in real Chromium through the browser shell:
 *
 * 1. First paint: page load → the frame that shows the sidebar's rows and the newest entry (and,
 *    apart, the cost over the floor: the time the many conversations add; goal ≤ 150 ms).
 * 2. Long tasks (> 50 ms) while scrolling with the mouse wheel: the sidebar from top to bottom, and
 *    the transcript from the newest entry up to the oldest, showing earlier entries as a user would
 *    when they reach the top (goal: none). Counted twice: by wall clock (the page's 'longtask'
 *    observer, which other processes on a busy machine stretch) and by the main thread's own CPU
 *    time per task (a Chromium trace, bench/trace-tasks.ts). And, a count no load changes, the most
 *    entries the transcript added to the page in one commit (each is laid out in that task).
 * 3. Window memory: the page's JS heap (CDP `Performance.getMetrics`, JSHeapUsedSize, after a GC)
 *    and its DOM nodes, at open and after the scroll.
 *
 * Env: BENCH_MANY_CONVERSATIONS (default 1,000), BENCH_MANY_ENTRIES (default 5,000),
 * BENCH_MANY_SCROLL_SHOWS (times "Show earlier" is used while scrolling up; default: until all shown, at most 200),
 * BENCH_MANY_PROFILE=1 writes a Chromium CPU profile of the transcript scroll to artifacts/many-conversations.cpuprofile.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { startShell } from './conversations.js';
import { mainThreadTasks, type ThreadTask } from './trace-tasks.js';
import { ROOT, fmtBytes, fmtMs, makeStateDir, median, removeDir, runTsChild, type Row } from './util.js';

const PAINT_TARGET_MS = 150;
const PAINT_ROUNDS = 5;

interface Seeded {
  id: string;
  title: string;
  items: number;
  last_item_id: string;
}

interface Memory {
  heap: number;
  nodes: number;
}

interface LongTask {
  start: number;
  duration: number;
}

/** What one wheel-scroll through a list cost the window. */
interface Scrolled {
  steps: number;
  /** Long tasks by wall clock (the page's observer). */
  tasks: LongTask[];
  /** Main-thread tasks by their own CPU time (a trace of the scroll): those over 50 ms, the longest, all together. */
  cpuLong: ThreadTask[];
  cpuLongest: number;
  cpuTotal: number;
}

/** Counts, from now on, the entries the transcript adds to the page per DOM commit (one mutation batch). */
const ADDED_PROBE = `(() => {
  const a = (window.__added = { max: 0, commits: 0, entries: 0 });
  new MutationObserver((records) => {
    let n = 0;
    for (const r of records) for (const node of r.addedNodes) if (node.nodeType === 1 && node.matches('.item[data-item-id]')) n++;
    if (n) { a.commits++; a.entries += n; a.max = Math.max(a.max, n); }
  }).observe(document.querySelector('[data-testid="transcript"]'), { childList: true });
})()`;

/** Records, from the page's first script on, the frame that shows a sidebar row and the newest entry. */
const PAINT_PROBE = (lastItemId: string): string => `(() => {
  window.__paint = { shown: 0, rows: 0 };
  window.__long = [];
  try {
    new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__long.push({ start: e.startTime, duration: e.duration }); }).observe({ type: 'longtask', buffered: true });
  } catch {}
  const check = () => {
    const rows = document.querySelectorAll('[data-testid="conversation"]').length;
    if (rows > 0 && document.querySelector('[data-item-id="${lastItemId}"]')) {
      // The frame being prepared now is painted next: take the time after it (rAF → task).
      setTimeout(() => { window.__paint = { shown: performance.now(), rows }; }, 0);
      return;
    }
    requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
})()`;

async function heap(page: Page): Promise<Memory> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('Performance.enable');
  const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: Array<{ name: string; value: number }> };
  await cdp.detach();
  const get = (n: string): number => metrics.find((m) => m.name === n)?.value ?? NaN;
  return { heap: get('JSHeapUsedSize'), nodes: get('Nodes') };
}

/** One page load: ms from navigation start to the frame showing the sidebar and the newest entry. */
async function firstPaint(browser: Browser, url: string, last: Seeded): Promise<{ ms: number; fcp: number; rows: number; page: Page }> {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  await page.addInitScript(PAINT_PROBE(last.last_item_id));
  await page.goto(url);
  const deadline = Date.now() + 60_000;
  let p = { shown: 0, rows: 0 };
  while (!(p = (await page.evaluate('window.__paint')) as typeof p).shown) {
    if (Date.now() > deadline) throw new Error('the window did not show the conversation in time');
    await page.waitForTimeout(50);
  }
  const fcp = (await page.evaluate(`(performance.getEntriesByName('first-contentful-paint')[0] || { startTime: NaN }).startTime`)) as number;
  return { ms: p.shown, fcp, rows: p.rows, page };
}

/**
 * Wheel-scroll an element by `step` px until it reaches its end (or `max` steps); long tasks
 * meanwhile, by wall clock and by the main thread's CPU time (traced).
 */
async function wheelThrough(browser: Browser, page: Page, selector: string, step: number, onEnd?: () => Promise<boolean>): Promise<Scrolled> {
  const box = await page.locator(selector).boundingBox();
  if (!box) throw new Error(`${selector} is not on screen`);
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await browser.startTracing(page, { categories: ['toplevel'] });
  const t0 = (await page.evaluate('performance.now()')) as number;
  let steps = 0;
  for (let stuck = 0; stuck < 3 && steps < 5000; ) {
    const before = (await page.evaluate(`document.querySelector(${JSON.stringify(selector)}).scrollTop`)) as number;
    await page.mouse.wheel(0, step);
    await page.waitForTimeout(16);
    steps++;
    const after = (await page.evaluate(`document.querySelector(${JSON.stringify(selector)}).scrollTop`)) as number;
    if (after !== before) stuck = 0;
    else if (onEnd && (await onEnd())) stuck = 0;
    else stuck++;
  }
  await page.waitForTimeout(300);
  const thread = mainThreadTasks(await browser.stopTracing());
  const tasks = ((await page.evaluate('window.__long')) as LongTask[]).filter((t) => t.start + t.duration > t0);
  return {
    steps,
    tasks,
    cpuLong: thread.filter((t) => t.cpuMs > 50),
    cpuLongest: thread.reduce((m, t) => Math.max(m, t.cpuMs), 0),
    cpuTotal: thread.reduce((n, t) => n + t.cpuMs, 0),
  };
}

const fmtTasks = (ts: LongTask[]): string => (ts.length ? `${ts.length} (longest ${fmtMs(Math.max(...ts.map((t) => t.duration)))})` : 'none');
const fmtCpu = (s: Scrolled): string => `${s.cpuLong.length || 'none'} (longest ${fmtMs(s.cpuLongest)} CPU; all tasks ${fmtMs(s.cpuTotal)} CPU)`;

/** Run the many-conversations benchmark; returns table rows and the raw figures. */
export async function benchManyConversations(log: (m: string) => void): Promise<{ rows: Row[]; report: unknown }> {
  const convs = Number(process.env.BENCH_MANY_CONVERSATIONS ?? 1000);
  const entries = Number(process.env.BENCH_MANY_ENTRIES ?? 5000);
  const maxShows = Number(process.env.BENCH_MANY_SCROLL_SHOWS ?? 200);
  const manyDir = await makeStateDir({});
  const fewDir = await makeStateDir({});
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  try {
    log(`many conversations: seeding ${convs.toLocaleString('en')} conversations and one of ${entries.toLocaleString('en')} entries …`);
    const many = (await runTsChild<{ conversations: Seeded[] }>('window-seed-child.ts', ['many', manyDir, String(convs), String(entries)], [], 300_000)).result.conversations;
    const few = (await runTsChild<{ conversations: Seeded[] }>('window-seed-child.ts', ['few', fewDir, '40'], [], 60_000)).result.conversations;
    const bigOf = (xs: Seeded[]): Seeded => xs.find((c) => c.id === 'huge')!;
    const paint: Record<'many' | 'few', Array<{ ms: number; fcp: number }>> = { many: [], few: [] };
    const memory: Record<string, Memory> = {};
    let rowsShown = 0;
    let sidebar: Scrolled | null = null;
    let transcript: (Scrolled & { shows: number; shown: number; oldest: boolean; added: { max: number; commits: number; entries: number } }) | null = null;
    for (const [arm, dir, seeded] of [
      ['few', fewDir, few],
      ['many', manyDir, many],
    ] as const) {
      const shell = await startShell(dir);
      try {
        // A warm-up load (disk cache, code caches), then the timed loads.
        await (await firstPaint(browser, shell.url, bigOf(seeded))).page.close();
        for (let i = 0; i < PAINT_ROUNDS; i++) {
          const r = await firstPaint(browser, shell.url, bigOf(seeded));
          paint[arm].push({ ms: r.ms, fcp: r.fcp });
          rowsShown = arm === 'many' ? r.rows : rowsShown;
          log(`many conversations (${arm}): first paint ${fmtMs(r.ms)} (FCP ${fmtMs(r.fcp)}, ${r.rows} rows in the DOM)`);
          if (i < PAINT_ROUNDS - 1) await r.page.close();
          else {
            const page = r.page;
            await page.waitForTimeout(500);
            memory[`${arm}Open`] = await heap(page);
            if (arm === 'many') {
              log('many conversations: wheel-scrolling the sidebar to the bottom …');
              sidebar = await wheelThrough(browser, page, '.conv-list', 400);
              log(`many conversations: sidebar scrolled in ${sidebar.steps} steps, long tasks ${fmtTasks(sidebar.tasks)}, tasks > 50 ms of CPU ${fmtCpu(sidebar)}`);
              let shows = 0;
              const earlier = page.locator('.transcript > .earlier');
              await page.evaluate(ADDED_PROBE);
              const cdp = process.env.BENCH_MANY_PROFILE ? await page.context().newCDPSession(page) : null;
              if (cdp) {
                await cdp.send('Profiler.enable');
                await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
                await cdp.send('Profiler.start');
              }
              const t = await wheelThrough(browser, page, '[data-testid="transcript"]', -400, async () => {
                if (shows >= maxShows || !(await earlier.count())) return false;
                // The button can go meanwhile (scrolling near the top shows earlier entries by itself).
                if (!(await earlier.click({ timeout: 2000 }).then(() => true, () => false))) return false;
                shows++;
                return true;
              });
              if (cdp) {
                const { profile } = (await cdp.send('Profiler.stop')) as { profile: unknown };
                mkdirSync(path.join(ROOT, 'artifacts'), { recursive: true });
                writeFileSync(path.join(ROOT, 'artifacts/many-conversations.cpuprofile'), JSON.stringify(profile));
                log('many conversations: CPU profile of the transcript scroll in artifacts/many-conversations.cpuprofile');
                await cdp.detach();
              }
              const shown = (await page.locator('.transcript [data-item-id]').count()) as number;
              const oldest = (await page.locator('[data-item-id="h0"]').count()) > 0;
              const added = (await page.evaluate('window.__added')) as { max: number; commits: number; entries: number };
              transcript = { ...t, shows, shown, oldest, added };
              log(`many conversations: transcript scrolled up in ${t.steps} steps (${shows} × show earlier clicked, oldest entry ${oldest ? '' : 'not '}reached, ${shown} entries in the DOM), long tasks ${fmtTasks(t.tasks)}, tasks > 50 ms of CPU ${fmtCpu(t)}, at most ${added.max} entries added in one commit`);
              memory.manyScrolled = await heap(page);
            }
            await page.close();
          }
        }
      } finally {
        shell.stop();
      }
    }
    const m = (arm: 'many' | 'few'): number => median(paint[arm].map((p) => p.ms));
    const fcp = (arm: 'many' | 'few'): number => median(paint[arm].map((p) => p.fcp));
    const extra = m('many') - m('few');
    const mem = (k: string): string => (memory[k] ? `JS heap ${fmtBytes(memory[k]!.heap)}, ${memory[k]!.nodes.toLocaleString('en')} DOM nodes` : 'not measured');
    const what = `${convs.toLocaleString('en')} conversations, one of ${entries.toLocaleString('en')} entries open`;
    const rows: Row[] = [
      { bench: `Window with ${what}: page load → sidebar and newest entry painted`, measurement: `${fmtMs(m('many'))} median (FCP ${fmtMs(fcp('many'))}; ${rowsShown} sidebar rows in the DOM)`, target: '', mark: '' },
      { bench: '  floor: one conversation of 40 entries', measurement: `${fmtMs(m('few'))} median (FCP ${fmtMs(fcp('few'))})`, target: '', mark: '' },
      { bench: '  first paint: time the many conversations add over the floor', measurement: fmtMs(extra), target: `≤ ${PAINT_TARGET_MS} ms`, mark: extra <= PAINT_TARGET_MS ? 'OK' : 'OVER' },
      ...(sidebar
        ? [
            { bench: `  wheel-scrolling the sidebar top → bottom (${sidebar.steps} steps): long tasks > 50 ms`, measurement: fmtTasks(sidebar.tasks), target: 'none', mark: sidebar.tasks.length === 0 ? 'OK' : 'OVER' },
            { bench: '    main-thread tasks > 50 ms of CPU (thread time: not stretched by other processes)', measurement: fmtCpu(sidebar), target: 'none', mark: sidebar.cpuLong.length === 0 ? 'OK' : 'OVER' },
          ]
        : [{ bench: '  sidebar scroll', measurement: 'not measured', target: '', mark: '' }]),
      ...(transcript
        ? [
            {
              bench: `  wheel-scrolling the transcript up ${transcript.oldest ? 'to its oldest entry' : '(oldest entry NOT reached)'} (${transcript.steps} steps, ${transcript.shows} × "Show earlier" clicked, ${transcript.shown.toLocaleString('en')} entries in the DOM at the end): long tasks`,
              measurement: fmtTasks(transcript.tasks),
              target: 'none',
              mark: transcript.tasks.length === 0 ? 'OK' : 'OVER',
            },
            { bench: '    main-thread tasks > 50 ms of CPU (thread time: not stretched by other processes)', measurement: fmtCpu(transcript), target: 'none', mark: transcript.cpuLong.length === 0 ? 'OK' : 'OVER' },
            { bench: '    most entries added to the page in one commit (all laid out in that task)', measurement: `${transcript.added.max} (${transcript.added.entries.toLocaleString('en')} in ${transcript.added.commits} commits)`, target: 'report', mark: '' },
          ]
        : [{ bench: '  transcript scroll', measurement: 'not measured', target: '', mark: '' }]),
      { bench: '  window memory at open (after GC)', measurement: `${mem('manyOpen')} (floor: ${mem('fewOpen')})`, target: 'report', mark: '' },
      { bench: '  window memory after scrolling to the oldest entry', measurement: mem('manyScrolled'), target: 'report', mark: '' },
    ];
    return { rows, report: { convs, entries, paint, memory, sidebar, transcript, rowsShown } };
  } finally {
    await browser.close();
    await removeDir(manyDir);
    await removeDir(fewDir);
  }
}
