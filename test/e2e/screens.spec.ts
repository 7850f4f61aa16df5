/**
 * Screenshots of every screen for design review (docs/ARCHITECTURE.md "Visual design"): light and
 * dark, English and 简体中文, 800 px and 1440 px wide, into artifacts/screenshots/design/. Not a
 * test of behaviour (first-run.spec.ts and the others are): it runs only with
 * OPENPROGRAM_SCREENS=1, e.g. `OPENPROGRAM_SCREENS=1 npx playwright test test/e2e/screens.spec.ts`.
 * Real core, real server-filesystem, a scripted fake model found as a local Ollama.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { defaultScript, startFakeModel, textOf, type FakeModel, type WireRequest } from '../fixtures/fake-model.js';
import { SCREENSHOTS, expect, tempDir, test } from './helpers.js';

const OUT = path.join(SCREENSHOTS, 'design');
const WIDTHS = [800, 1440] as const;

const RICH = [
  'Here is what the folder holds, by kind:',
  '',
  '| File | Kind | Size | Last changed | What it is for |',
  '| --- | --- | ---: | --- | --- |',
  '| plan.md | Markdown | 1.2 kB | yesterday | The plan for the spring release, with owners and dates |',
  '| budget.csv | Table | 8.4 kB | 3 days ago | Costs per month, one row per supplier |',
  '| hello.txt | Text | 6 B | today | A greeting — 你好，世界 👋 |',
  '',
  'To count the rows of the table yourself:',
  '',
  '```python',
  'import csv',
  'with open("budget.csv", newline="") as f:',
  '    rows = list(csv.DictReader(f))',
  'print(f"{len(rows)} rows, total {sum(float(r[\'amount\']) for r in rows):.2f}")',
  '```',
  '',
  'Nothing in the folder was changed.',
].join('\n');

const LONG = Array.from({ length: 60 }, (_, i) => `Sentence ${i + 1} of a long answer that is stopped halfway.`).join(' ');

function script(req: WireRequest) {
  const user = textOf([...req.messages].reverse().find((m) => m.role === 'user')).trim();
  const last = req.messages[req.messages.length - 1];
  if (last?.role !== 'tool' && user === 'rich') return { text: RICH };
  if (last?.role !== 'tool' && user === 'long') return { text: LONG };
  return defaultScript(req);
}

let model: FakeModel;
let work: string;
test.skip(!process.env.OPENPROGRAM_SCREENS, 'design screenshots: set OPENPROGRAM_SCREENS=1');
test.beforeAll(async () => {
  model = await startFakeModel({ models: ['llama3.2:3b'], chunkDelayMs: 25, script });
  process.env.OPENPROGRAM_LOCAL_MODEL_PROBES = `ollama=${model.baseUrl},lmstudio=http://127.0.0.1:9/v1`;
  work = tempDir('screens');
  mkdirSync(path.join(work, 'Documents'));
  for (const f of ['plan.md', 'budget.csv', 'hello.txt']) writeFileSync(path.join(work, 'Documents', f), 'x\n');
  mkdirSync(OUT, { recursive: true });
});
test.afterAll(async () => {
  process.env.OPENPROGRAM_LOCAL_MODEL_PROBES = 'none';
  await model?.close();
  rmSync(work, { recursive: true, force: true });
});

/** Screenshot the page at each width. */
async function shoot(page: Page, name: string, tag: string): Promise<void> {
  for (const w of WIDTHS) {
    await page.setViewportSize({ width: w, height: 860 });
    await page.waitForTimeout(120);
    await page.screenshot({ path: path.join(OUT, `${name}-${tag}-${w}.png`) });
  }
  await page.setViewportSize({ width: 1440, height: 860 });
}

async function settings(page: Page, nav: number): Promise<void> {
  await page.getByRole('tab').nth(1).click();
  await page.locator('.settings-nav button').nth(nav).click();
}

async function send(page: Page, text: string): Promise<void> {
  await page.locator('.composer textarea').fill(text);
  await page.locator('.composer textarea').press('Enter');
}

for (const scheme of ['light', 'dark'] as const)
  for (const lang of ['en', 'zh-CN'] as const)
    test.describe(`${scheme} ${lang}`, () => {
      test.use({ colorScheme: scheme, viewport: { width: 1440, height: 860 } });
      test(`every screen (${scheme}, ${lang})`, async ({ page, shell }) => {
        test.setTimeout(240_000);
        const tag = `${scheme}-${lang}`;
        await page.addInitScript((l) => localStorage.setItem('openprogram.language', l), lang);
        await page.goto('about:blank');
        await page.goto(shell.current.url);
        await expect(page.getByTestId('first-run')).toBeVisible();
        await expect(page.getByTestId('local-offer-ollama')).toBeVisible();
        await shoot(page, '01-first-run', tag);

        await settings(page, 0);
        await expect(page.getByTestId('servers-empty')).toBeVisible();
        await shoot(page, '02-servers-empty', tag);
        await page.getByRole('tab').nth(0).click();

        await page.locator('.guide-folder input').fill(path.join(work, 'Documents'));
        await page.locator('.guide-folder button[type=submit]').click();
        await expect(page.getByTestId('first-run-server-state')).toHaveAttribute('data-status', 'ready', { timeout: 90_000 });
        await page.getByTestId('local-offer-ollama').locator('button.primary').click();
        await expect(page.getByTestId('first-run-model')).toHaveAttribute('data-done', 'true');
        await page.locator('.guide-example').first().click();
        await shoot(page, '03-first-run-done', tag);

        await send(page, `call list_directory ${JSON.stringify({ path: path.join(work, 'Documents') })}`);
        const allow = page.locator('.approval-card button.primary').first();
        const answer = page.getByTestId('msg-assistant').last();
        await expect(allow.or(answer)).toBeVisible({ timeout: 30_000 });
        if (await allow.isVisible()) await allow.click();
        await expect(answer).toContainText('hello.txt');
        await send(page, 'rich');
        await expect(page.getByTestId('msg-assistant').last().locator('table')).toBeVisible();
        await expect(page.locator('.msg-wrap.assistant').last().locator('.msg-action')).toHaveCount(2);
        await shoot(page, '04-chat', tag);

        await send(page, 'long');
        await page.waitForTimeout(1200);
        await page.locator('.composer button.danger').click();
        await expect(page.getByTestId('chat-notice').last()).toBeVisible();
        await shoot(page, '05-chat-stopped', tag);

        await page.locator('.sidebar input[type=search]').fill('zebra');
        await expect(page.getByTestId('search-empty')).toBeVisible();
        await shoot(page, '06-search-empty', tag);
        await page.locator('.sidebar input[type=search]').fill('');

        await settings(page, 0);
        await expect(page.getByTestId('server-files')).toBeVisible();
        await shoot(page, '07-servers', tag);
        await page.getByTestId('server-files').locator('.server-actions .icon-button').click();
        await expect(page.locator('.server-menu')).toBeVisible();
        await page.screenshot({ path: path.join(OUT, `08-servers-menu-${tag}-1440.png`) });
        await page.keyboard.press('Escape');
        await page.getByTestId('server-files').locator('.server-actions button').nth(0).click();
        await expect(page.getByTestId('tools-list')).toBeVisible();
        await shoot(page, '09-server-tools', tag);

        await settings(page, 2);
        await shoot(page, '10-model', tag);
        await settings(page, 3);
        await shoot(page, '11-permissions', tag);
        await settings(page, 4);
        await shoot(page, '12-language', tag);
      });
    });
