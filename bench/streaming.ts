/**
 * The streaming benchmark: an answer of 10,000 markdown tokens
 * streamed at 200 tokens/s by the fake OpenAI-compatible model into a transcript that already holds
 * 500 messages (seeded in the conversation database by bench/streaming-seed-child.ts), in real
 * Chromium through the browser shell. Measured in the page: renderer long tasks (> 50 ms,
 * PerformanceObserver 'longtask') while the answer streams — target none — and the time from the
 * model writing its last token to the frame that shows it (and to the frame that shows the answer
 * finished). Also from a Chromium trace of the stream ('toplevel' category): the window's main-thread
 * tasks that used more than 50 ms of CPU themselves — the same threshold counted in thread time,
 * which other processes on a busy machine do not stretch (the long-task count they do); and, for
 * scale, such tasks while the page opens with the conversation. Clocks: both sides use `performance.timeOrigin + performance.now()` (epoch ms) of the
 * same machine.
 *
 * Env: BENCH_STREAM_RATE (tokens/s, default 200), BENCH_STREAM_TOKENS (default 10,000),
 * BENCH_STREAM_MESSAGES (default 500), BENCH_STREAM_PROFILE=1 writes a Chromium CPU profile of the
 * stream to artifacts/streaming.cpuprofile.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { startFakeModel, textOf, type Turn, type WireRequest } from '../test/fixtures/fake-model.js';
import { startShell } from './conversations.js';
import { markdownWords } from './markdown-text.js';
import { mainThreadTasks } from './trace-tasks.js';
import { ROOT, fmtMs, makeStateDir, removeDir, runTsChild, type Row } from './util.js';

const LONG_TASK_TARGET = 0;
const FINAL_PAINT_TARGET_MS = 100;
const MARKER = 'STREAM-END-MARKER';

/** Exactly `tokens` streamed chunks (the fake model streams one `\S+\s*|\s+` match per chunk), the last one the marker. */
function answerText(tokens: number): string {
  const parts = markdownWords(tokens * 2, 7).match(/\S+\s*|\s+/g) ?? [];
  return `${parts.slice(0, tokens - 1).join('')}${/\s$/.test(parts[tokens - 2] ?? ' ') ? '' : ' '}${MARKER}`;
}

interface PageResult {
  longTasks: Array<{ start: number; duration: number }>;
  /** Epoch ms of the first frame showing the marker, and of the first frame showing the answer done. */
  markerPaintEpoch: number;
  donePaintEpoch: number;
  /** Whether the answer was folded (its end behind Show more) when it was shown. */
  folded: boolean;
  sendEpoch: number;
  /** The page's performance.timeOrigin (epoch ms), to place its long tasks on the common clock. */
  origin: number;
  scrolls: number;
  commits: number;
}

/** Run the streaming benchmark; returns table rows and the raw figures. */
export async function benchStreaming(log: (m: string) => void): Promise<{ rows: Row[]; report: unknown }> {
  const rate = Number(process.env.BENCH_STREAM_RATE ?? 200);
  const tokens = Number(process.env.BENCH_STREAM_TOKENS ?? 10_000);
  const messages = Number(process.env.BENCH_STREAM_MESSAGES ?? 500);
  const text = answerText(tokens);
  const chunks = text.match(/\S+\s*|\s+/g)!.length;
  let lastTokenEpoch = 0;
  let firstTokenEpoch = 0;
  const script = (req: WireRequest): Turn => {
    firstTokenEpoch = performance.timeOrigin + performance.now();
    return { text: textOf(req.messages.at(-1)) === 'stream please' ? text : 'ok' };
  };
  const model = await startFakeModel({ script, tokensPerSecond: rate, onStreamEnd: (t) => (lastTokenEpoch = t) });
  const stateDir = await makeStateDir({});
  try {
    log(`streaming: seeding ${messages} messages …`);
    const { result: seeded } = await runTsChild<{ conversation_id: string; items: number; last_item_id: string }>('streaming-seed-child.ts', [stateDir, String(messages)]);
    const shell = await startShell(stateDir);
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
    try {
      const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
      // Opening the page (which shows the seeded conversation, code blocks and all) is traced too.
      await browser.startTracing(page, { categories: ['toplevel'] });
      await page.goto(shell.url);
      // A profile pointing at the fake model, through the UI.
      await page.getByRole('tab', { name: 'Settings' }).click();
      await page.locator('.settings-nav').getByRole('button', { name: 'Model', exact: true }).click();
      await page.getByLabel('Base URL').fill(model.baseUrl);
      await page.getByLabel('Model name').fill('fake-bench');
      await page.getByRole('button', { name: 'Save model' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      await page.getByRole('tab', { name: 'Chat' }).click();
      // The seeded conversation reopens (last opened): its newest message is on screen.
      await page.locator(`[data-item-id="${seeded.last_item_id}"]`).waitFor({ timeout: 60_000 });
      await page.waitForTimeout(1000);
      const opening = mainThreadTasks(await browser.stopTracing()).filter((t) => t.cpuMs > 50);
      const cdp = process.env.BENCH_STREAM_PROFILE ? await page.context().newCDPSession(page) : null;
      if (cdp) {
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
        await cdp.send('Profiler.start');
      }
      log(`streaming: ${chunks.toLocaleString('en')} tokens at ${rate} tokens/s into ${messages} messages (~${Math.round(chunks / rate)} s) …`);
      // A string, not a function: the tsx loader would add helpers the page does not have.
      await page.evaluate(`(() => {
        window.__bench = { longTasks: [], folded: false, markerPaintEpoch: 0, donePaintEpoch: 0, sendEpoch: 0, origin: performance.timeOrigin, scrolls: 0, commits: 0 };
        // Work counts that do not depend on how busy the machine is: scrolls (each forces a layout)
        // and DOM commits to the transcript (mutation batches; one per React commit that changed it).
        const scroll = Element.prototype.scrollIntoView;
        Element.prototype.scrollIntoView = function (...args) { window.__bench.scrolls++; return scroll.apply(this, args); };
        new MutationObserver(() => { window.__bench.commits++; }).observe(document.querySelector('[data-testid="transcript"]'), { childList: true, subtree: true, characterData: true });
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) window.__bench.longTasks.push({ start: e.startTime, duration: e.duration });
        }).observe({ type: 'longtask' });
      })()`);
      await page.getByRole('textbox', { name: 'Message' }).fill('stream please');
      await browser.startTracing(page, { categories: ['toplevel'] });
      await page.evaluate(`(() => {
        const b = window.__bench;
        const epoch = () => performance.timeOrigin + performance.now();
        const marker = ${JSON.stringify(MARKER)};
        b.sendEpoch = epoch();
        const check = () => {
          const all = document.querySelectorAll('[data-testid="msg-assistant"]');
          const el = all[all.length - 1];
          // Only the answer's last block is read (the whole answer's text each frame would cost the page itself).
          const blocks = el && el.querySelector('[data-testid="markdown"] > div');
          const tail = blocks && blocks.lastElementChild ? blocks.lastElementChild : el;
          // A long answer folds (docs/ARCHITECTURE.md "Conversations"): its end is behind Show more,
          // and the fold counts every character it holds — the last token is shown when that count is whole.
          const folded = el && el.querySelector('[data-testid="folded"]');
          if (folded) b.folded = true;
          const has = folded ? Number(folded.getAttribute('data-total')) >= ${JSON.stringify(text.length)} : tail && tail.textContent.includes(marker);
          // The frame being prepared now is painted next: take the time after it (rAF → task).
          if (has && !b.markerPaintEpoch) setTimeout(() => { if (!b.markerPaintEpoch) b.markerPaintEpoch = epoch(); }, 0);
          if (has && el.classList.contains('done')) { setTimeout(() => { b.donePaintEpoch = epoch(); }, 0); return; }
          requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      })()`);
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      // Polled from here (page.waitForFunction with a string needs eval, which the app's CSP forbids).
      const deadline = Date.now() + ((chunks / rate) * 3 + 60) * 1000;
      while (!((await page.evaluate('window.__bench.donePaintEpoch')) as number)) {
        if (Date.now() > deadline) throw new Error('the streamed answer was not shown as finished in time');
        await new Promise((r) => setTimeout(r, 1000));
      }
      await page.waitForTimeout(500);
      const tasks = mainThreadTasks(await browser.stopTracing());
      const cpuLong = tasks.filter((t) => t.cpuMs > 50);
      const topCpu = [...tasks].sort((a, b) => b.cpuMs - a.cpuMs).slice(0, 5);
      const cpuTotal = tasks.reduce((n, t) => n + t.cpuMs, 0);
      const r = (await page.evaluate('window.__bench')) as PageResult;
      if (cdp) {
        const { profile } = (await cdp.send('Profiler.stop')) as { profile: unknown };
        mkdirSync(path.join(ROOT, 'artifacts'), { recursive: true });
        writeFileSync(path.join(ROOT, 'artifacts/streaming.cpuprofile'), JSON.stringify(profile));
        log('streaming: CPU profile in artifacts/streaming.cpuprofile');
      }
      const streamS = (lastTokenEpoch - firstTokenEpoch) / 1000;
      const actualRate = chunks / streamS;
      const toMarker = r.markerPaintEpoch - lastTokenEpoch;
      const toDone = r.donePaintEpoch - lastTokenEpoch;
      // Each long task placed relative to the last token (negative: while the answer streamed).
      const long = r.longTasks.map((t) => ({ ...t, fromLastTokenMs: Math.round(r.origin + t.start - lastTokenEpoch) }));
      const afterEnd = long.filter((t) => t.fromLastTokenMs + t.duration > 0);
      const maxLong = long.reduce((m, t) => Math.max(m, t.duration), 0);
      const totalLong = long.reduce((n, t) => n + t.duration, 0);
      const what = `${chunks.toLocaleString('en')} markdown tokens at ${rate}/s (actual ${actualRate.toFixed(0)}/s) into ${messages} messages`;
      const rows: Row[] = [
        {
          bench: `Streaming ${what}: renderer long tasks > 50 ms`,
          measurement: long.length ? `${long.length} (max ${fmtMs(maxLong)}, total ${fmtMs(totalLong)} in ${streamS.toFixed(1)} s)` : `none in ${streamS.toFixed(1)} s`,
          target: 'none',
          mark: long.length <= LONG_TASK_TARGET ? 'OK' : 'OVER',
        },
        {
          bench: '  main-thread tasks > 50 ms of CPU (thread time: not stretched by other processes)',
          measurement: `${cpuLong.length ? cpuLong.length : 'none'} (longest ${fmtMs(topCpu[0]?.cpuMs ?? 0)} CPU; all tasks ${fmtMs(cpuTotal)} CPU)`,
          target: 'none',
          mark: cpuLong.length <= LONG_TASK_TARGET ? 'OK' : 'OVER',
        },
        {
          bench: '  for scale: opening the page and the conversation, tasks > 50 ms of CPU',
          measurement: opening.length ? `${opening.length} (longest ${fmtMs(Math.max(...opening.map((t) => t.cpuMs)))} CPU)` : 'none',
          target: 'report',
          mark: '',
        },
        { bench: '  work while streaming: DOM commits to the transcript / scrolls (each forces a layout)', measurement: `${r.commits.toLocaleString('en')} / ${r.scrolls.toLocaleString('en')}`, target: 'report', mark: '' },
        { bench: '  of which end after the last token', measurement: afterEnd.length ? afterEnd.map((t) => `${fmtMs(t.duration)} at +${t.fromLastTokenMs} ms`).join(', ') : 'none', target: '', mark: '' },
        { bench: `  last token → painted${r.folded ? ' (folded: the fold\'s count whole)' : ''}`, measurement: fmtMs(toMarker), target: `≤ ${FINAL_PAINT_TARGET_MS} ms`, mark: toMarker <= FINAL_PAINT_TARGET_MS ? 'OK' : 'OVER' },
        { bench: '  last token → painted as finished (final paint)', measurement: fmtMs(toDone), target: `≤ ${FINAL_PAINT_TARGET_MS} ms`, mark: toDone <= FINAL_PAINT_TARGET_MS ? 'OK' : 'OVER' },
      ];
      return { rows, report: { commits: r.commits, scrolls: r.scrolls, rate, actualRate, tokens: chunks, messages, streamSeconds: streamS, lastTokenToPaintMs: toMarker, lastTokenToFinalPaintMs: toDone, longTasks: long, cpuLongTasks: cpuLong, topCpuTasks: topCpu, tracedTasks: tasks.length, mainThreadCpuMs: cpuTotal, openingCpuLongTasks: opening } };
    } finally {
      await browser.close();
      shell.stop();
    }
  } finally {
    await model.close();
    await removeDir(stateDir);
  }
}
