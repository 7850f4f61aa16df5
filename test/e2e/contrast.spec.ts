/**
 * Filled buttons ("+ New chat", Send, Save, …) are readable in both themes: their text against
 * their own background meets WCAG AA's 4.5:1 (the dark theme's accent was 3.2:1 under white text).
 * Real renderer in real Chromium through the browser shell.
 */
import type { Page } from '@playwright/test';
import { contrast } from './colour.js';
import { expect, openApp, openChat, openSettings, test } from './helpers.js';

/** Every visible filled button's label, text colour and background colour. */
function filledButtons(page: Page): Promise<Array<{ label: string; text: string; background: string }>> {
  return page.locator('button.primary:visible').evaluateAll((els) =>
    els.map((el) => ({ label: (el.textContent ?? '').trim(), text: getComputedStyle(el).color, background: getComputedStyle(el).backgroundColor })),
  );
}

for (const scheme of ['light', 'dark'] as const) {
  test(`filled buttons (${scheme}): text on the button at least 4.5:1`, async ({ page, shell }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await openApp(page, shell.current);
    await openChat(page);
    await page.getByRole('textbox', { name: 'Message' }).fill('hello');
    const seen: string[] = [];
    for (const where of ['chat', 'Model', 'MCP servers'] as const) {
      if (where !== 'chat') await openSettings(page, where);
      const buttons = await filledButtons(page);
      expect(buttons.length, `filled buttons in ${where}`).toBeGreaterThan(0);
      for (const b of buttons) {
        seen.push(b.label);
        expect(contrast(b.text, b.background), `“${b.label}”: ${b.text} on ${b.background}`).toBeGreaterThanOrEqual(4.5);
      }
    }
    expect(seen).toEqual(expect.arrayContaining(['Send']));
  });
}
