/**
 * Long messages in the window (docs/ARCHITECTURE.md "Conversations", folding): conversations of 40
 * entries, one of them 5 MB of text — a pasted log (user message), a markdown answer, a tool result
 * — against a conversation of 40 short messages (the same-run floor), in real Chromium through the
 * browser shell. Timed in the page from the click in the sidebar until the newest entry is in the
 * transcript's view, one frame later (goal ≤ 300 ms), with the longest task meanwhile. Then the
 * fold control: "Show the rest" on the 5 MB answer, until all of it is in the page, and the longest
 * task while that happens (goal: none over 50 ms).
 *
 * Env: BENCH_LONG_CHARS (default 5,000,000), BENCH_LONG_ROUNDS (default 5).
 */
import { chromium, type Page } from '@playwright/test';
import { startShell } from './conversations.js';
import { fmtMs, makeStateDir, median, removeDir, runTsChild, type Row } from './util.js';

const OPEN_TARGET_MS = 300;
const ROUNDS = Number(process.env.BENCH_LONG_ROUNDS ?? 5);
const LONG_TASK_MS = 50;

interface Seeded {
  id: string;
  title: string;
  items: number;
  last_item_id: string;
}

interface OpenSample {
  ms: number;
  longest: number;
}

const mark = (v: number, t: number): string => (v <= t ? 'OK' : 'OVER');

/** Install the page's long-task recorder (once). A string, not a function: the tsx loader would add helpers the page does not have. */
const RECORDER = `(() => {
  if (window.__long) return;
  window.__long = [];
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__long.push({ start: e.startTime, duration: e.duration }); }).observe({ type: 'longtask' });
})()`;

/** Click the conversation titled `title` in the sidebar; ms until its newest entry is in view and painted. */
async function openOnce(page: Page, c: Seeded): Promise<OpenSample> {
  await page.getByRole('button', { name: '+ New chat' }).click();
  await page.locator('.transcript .empty').waitFor();
  await page.waitForTimeout(200);
  return (await page.evaluate(`(async () => {
    const row = [...document.querySelectorAll('.conv-open')].find((b) => b.querySelector('.conv-title').textContent === ${JSON.stringify(c.title)});
    const t0 = performance.now();
    row.click();
    await new Promise((resolve) => {
      const check = () => {
        const el = document.querySelector('[data-item-id="${c.last_item_id}"]');
        const box = document.querySelector('[data-testid="transcript"]').getBoundingClientRect();
        const r = el && el.getBoundingClientRect();
        if (r && r.bottom > box.top && r.top < box.bottom) requestAnimationFrame(() => setTimeout(resolve, 0));
        else requestAnimationFrame(check);
      };
      check();
    });
    const ms = performance.now() - t0;
    const longest = window.__long.filter((t) => t.start + t.duration > t0).reduce((m, t) => Math.max(m, t.duration), 0);
    return { ms, longest };
  })()`)) as OpenSample;
}

/** Unfold the newest entry's fold ("Show the rest"); ms until all of it is shown, and the longest task meanwhile. */
async function unfold(page: Page, c: Seeded, chars: number): Promise<{ ms: number; longest: number; tasksOver: number; shownChars: number } | null> {
  const item = page.locator(`[data-item-id="${c.last_item_id}"]`);
  const button = item.getByTestId('fold-rest');
  if (!(await button.count())) return null;
  await page.waitForTimeout(300);
  const t0 = (await page.evaluate('performance.now()')) as number;
  await button.click();
  await item.getByTestId('fold-rest').waitFor({ state: 'detached', timeout: 120_000 });
  await item.getByTestId('fold-progress').waitFor({ state: 'detached', timeout: 120_000 });
  return (await page.evaluate(`(async () => {
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    const ms = performance.now() - ${t0};
    const tasks = window.__long.filter((t) => t.start + t.duration > ${t0});
    const el = document.querySelector('[data-item-id="${c.last_item_id}"]');
    return { ms, longest: tasks.reduce((m, t) => Math.max(m, t.duration), 0), tasksOver: tasks.length, shownChars: el.textContent.length, chars: ${chars} };
  })()`)) as { ms: number; longest: number; tasksOver: number; shownChars: number };
}

/** Run the long-message benchmark; returns table rows and the raw figures. */
export async function benchLongMessage(log: (m: string) => void): Promise<{ rows: Row[]; report: unknown }> {
  const chars = Number(process.env.BENCH_LONG_CHARS ?? 5_000_000);
  const stateDir = await makeStateDir({});
  try {
    log(`long message: seeding conversations with a ${(chars / 1e6).toFixed(1)} MB message …`);
    const { result } = await runTsChild<{ conversations: Seeded[] }>('window-seed-child.ts', ['long', stateDir, String(chars)], [], 300_000);
    const convs = result.conversations;
    const shell = await startShell(stateDir);
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
    try {
      const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
      await page.goto(shell.url);
      await page.getByRole('button', { name: /Short messages/ }).waitFor();
      await page.evaluate(RECORDER);
      const samples: Record<string, OpenSample[]> = Object.fromEntries(convs.map((c) => [c.id, []]));
      // A warm-up open of each, then rounds in a rotating order.
      for (const c of convs) await openOnce(page, c);
      for (let i = 0; i < ROUNDS; i++) {
        const k = i % convs.length;
        for (const c of [...convs.slice(k), ...convs.slice(0, k)]) {
          const s = await openOnce(page, c);
          samples[c.id]!.push(s);
          log(`long message: ${c.title} → ${fmtMs(s.ms)} (longest task ${fmtMs(s.longest)})`);
        }
      }
      const answer = convs.find((c) => c.id === 'big-answer')!;
      await openOnce(page, answer);
      const unfolded = await unfold(page, answer, chars);
      const med = (id: string): number => median(samples[id]!.map((s) => s.ms));
      const longest = (id: string): number => Math.max(...samples[id]!.map((s) => s.longest));
      const range = (id: string): string => `${fmtMs(Math.min(...samples[id]!.map((s) => s.ms)))}–${fmtMs(Math.max(...samples[id]!.map((s) => s.ms)))}`;
      const floor = med('floor');
      const mb = `${(chars / 1e6).toFixed(0)} MB`;
      const rows: Row[] = [
        { bench: 'Open a conversation of 40 short messages (floor): click → newest entry in view, painted', measurement: `${fmtMs(floor)} median (${range('floor')})`, target: '', mark: '' },
      ];
      for (const [id, what] of [
        ['big-user', `a ${mb} user message (pasted log)`],
        ['big-answer', `a ${mb} markdown answer (the newest entry)`],
        ['big-tool', `a ${mb} tool result (the newest entry)`],
      ] as const) {
        rows.push({
          bench: `  40 entries, one ${what}`,
          measurement: `${fmtMs(med(id))} median (${range(id)}), ${(med(id) / floor).toFixed(1)}× floor; longest task ${fmtMs(longest(id))}`,
          target: `≤ ${OPEN_TARGET_MS} ms`,
          mark: mark(med(id), OPEN_TARGET_MS),
        });
      }
      if (unfolded)
        rows.push({
          bench: `  "Show the rest" of the ${mb} answer: click → all of it shown`,
          measurement: `${fmtMs(unfolded.ms)}; ${unfolded.tasksOver} tasks > ${LONG_TASK_MS} ms (longest ${fmtMs(unfolded.longest)}); ${unfolded.shownChars.toLocaleString('en')} characters in the entry`,
          target: 'no task > 50 ms',
          mark: unfolded.tasksOver === 0 ? 'OK' : 'OVER',
        });
      else rows.push({ bench: `  "Show the rest" of the ${mb} answer`, measurement: 'no fold control (the whole message is laid out at once)', target: '', mark: '' });
      return { rows, report: { chars, samples, unfolded } };
    } finally {
      await browser.close();
      shell.stop();
    }
  } finally {
    await removeDir(stateDir);
  }
}
