/**
 * The MCP Apps benchmark (docs/ARCHITECTURE.md "MCP Apps"): in real Chromium through the browser
 * shell, with the real server-basic-react over stdio and the fake model. Measured: (1) the time
 * from the frame that shows a tool call's result to the first contentful paint of its app view (the
 * view's own `first-contentful-paint` entry, both on the machine's epoch clock); (2) renderer long
 * tasks (> 50 ms, PerformanceObserver 'longtask') while a conversation holding N app views is
 * scrolled from top to bottom and back. Env: BENCH_APPS_VIEWS (default 20).
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { startFakeModel } from '../test/fixtures/fake-model.js';
import { startShell } from './conversations.js';
import { ROOT, fmtMs, makeStateDir, removeDir, type Row } from './util.js';

const FIRST_PAINT_TARGET_MS = 1000;
const LONG_TASK_TARGET = 0;

/** The app view of the n-th tool call, two frames deep. */
function viewFrame(page: Page, n: number) {
  return page.getByTestId('app-view-frame').nth(n).contentFrame().locator('iframe').contentFrame();
}

/** Run the apps benchmark; returns table rows and the raw figures. */
export async function benchApps(log: (m: string) => void): Promise<{ rows: Row[]; report: unknown }> {
  const views = Number(process.env.BENCH_APPS_VIEWS ?? 20);
  const model = await startFakeModel();
  const stateDir = await makeStateDir({
    clock: { type: 'local', command: ['node', path.join(ROOT, 'node_modules/@modelcontextprotocol/server-basic-react/dist/index.js'), '--stdio'], env: {}, enabled: true, timeout_seconds: 30 },
  });
  await writeFile(path.join(stateDir, 'permissions.json'), JSON.stringify({ mode: 'never_ask' }));
  const shell = await startShell(stateDir);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    await page.goto(shell.url);
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.locator('.settings-nav').getByRole('button', { name: 'Model', exact: true }).click();
    await page.getByLabel('Base URL').fill(model.baseUrl);
    await page.getByLabel('Model name').fill('fake-bench');
    await page.getByRole('button', { name: 'Save model' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await page.getByRole('tab', { name: 'Chat' }).click();
    await page.getByText('1 tool available').waitFor({ timeout: 60_000 });

    log(`apps: ${views} tool calls with app views …`);
    const firstPaint: number[] = [];
    for (let i = 0; i < views; i++) {
      // The frame that first shows the i-th result as done, on the epoch clock.
      await page.evaluate(`(() => {
        window.__okEpoch = 0;
        const want = ${i + 1};
        const check = () => {
          if (document.querySelectorAll('[data-testid="tool-card"][data-state="ok"]').length >= want) { setTimeout(() => { window.__okEpoch = performance.timeOrigin + performance.now(); }, 0); return; }
          requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      })()`);
      await page.getByRole('textbox', { name: 'Message' }).fill('call get-time');
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      const v = viewFrame(page, i);
      await v.locator('code').filter({ hasText: /^\d{4}-/ }).waitFor({ timeout: 30_000 });
      const fcp = (await v.locator('body').evaluate(`performance.timeOrigin + (performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN)`)) as number;
      const ok = (await page.evaluate('window.__okEpoch')) as number;
      firstPaint.push(fcp - ok);
    }

    log('apps: scrolling the conversation …');
    await page.evaluate(`(() => {
      window.__long = [];
      new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__long.push(e.duration); }).observe({ type: 'longtask' });
    })()`);
    const transcript = page.getByTestId('transcript');
    for (const dir of [-1, 1]) {
      for (let s = 0; s < 40; s++) {
        await transcript.evaluate(`(el) => { el.scrollBy(0, ${dir} * 400); }`);
        await page.waitForTimeout(50);
      }
    }
    await page.waitForTimeout(500);
    const long = (await page.evaluate('window.__long')) as number[];
    const sorted = [...firstPaint].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    const max = sorted[sorted.length - 1]!;
    const maxLong = long.reduce((m, d) => Math.max(m, d), 0);
    const rows: Row[] = [
      { bench: 'apps: tool result shown → view first paint (median)', measurement: `${fmtMs(median)} (max ${fmtMs(max)}, n=${sorted.length})`, target: `≤ ${FIRST_PAINT_TARGET_MS} ms`, mark: median <= FIRST_PAINT_TARGET_MS ? 'OK' : 'OVER' },
      { bench: `apps: long tasks scrolling ${views} views`, measurement: `${long.length}${long.length ? ` (max ${fmtMs(maxLong)})` : ''}`, target: `${LONG_TASK_TARGET}`, mark: long.length <= LONG_TASK_TARGET ? 'OK' : 'OVER' },
    ];
    return { rows, report: { views, firstPaintMs: firstPaint, longTasksMs: long } };
  } finally {
    await browser.close();
    shell.stop();
    await model.close();
    await removeDir(stateDir);
  }
}
