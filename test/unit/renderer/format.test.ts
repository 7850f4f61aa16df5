/**
 * The window's one formatter of times, dates and numbers (renderer/src/i18n/format.ts,
 * docs/ARCHITECTURE.md "Languages"): it follows the UI language — not the browser's locale — in
 * components and inside translated sentences (`{{n, number}}`), and no other file of the window
 * formats a time, date or number by itself.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatNumber, formatTime, i18next, t } from '../../../renderer/src/i18n/index.js';
import { ROOT } from '../helpers.js';

const tt = t as unknown as (key: string, o?: Record<string, unknown>) => string;
// 2026-12-06 20:46:27 in the machine's time zone.
const TS = new Date(2026, 11, 6, 20, 46, 27).getTime();

afterEach(async () => {
  await i18next.changeLanguage('en');
});

describe('times, dates and numbers follow the UI language', () => {
  it('English: a 12-hour clock, month/day/year, grouped numbers', () => {
    expect(formatTime(TS)).toBe('8:46:27 PM');
    expect(formatDate(TS)).toBe('12/6/26');
    expect(formatDateTime(TS)).toBe('12/6/26, 8:46:27 PM');
    expect(formatNumber(180000)).toBe('180,000');
  });

  it('简体中文: a 24-hour clock, year/month/day — the same in the Tasks list, the logs and the inspector', async () => {
    await i18next.changeLanguage('zh-CN');
    expect(formatTime(TS)).toBe('20:46:27');
    expect(formatDate(TS)).toBe('2026/12/6');
    expect(formatDateTime(TS)).toBe('2026/12/6 20:46:27');
    expect(formatNumber(180000)).toBe('180,000');
  });

  it('a sentence’s quantities are grouped by the same formatter; a plural still counts', async () => {
    expect(tt('tool.ms', { n: 1212 })).toBe('1,212 ms');
    expect(tt('composer.pastedLabel', { count: 180000 })).toBe('pasted text (180,000 characters)');
    expect(tt('fold.more', { count: 1, n: 1 })).toBe('Show 1 more character');
    expect(tt('fold.more', { count: 2500, n: 2500 })).toBe('Show 2,500 more characters');
    await i18next.changeLanguage('zh-CN');
    expect(tt('overflow.notSent', { needed: 35142, window: 8192 })).toBe('未发送：此请求约需 35,142 个 token，超过了模型 8,192 个 token 的上下文窗口。');
  });
});

/** Every .ts/.tsx file under a folder. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    return statSync(p).isDirectory() ? sources(p) : /\.tsx?$/.test(f) ? [p] : [];
  });
}

describe('one formatter', () => {
  it('no file of the window but i18n/format.ts formats a time, date or number itself (toLocale…String, Intl formats)', () => {
    const own = path.join(ROOT, 'renderer/src/i18n/format.ts');
    const files = sources(path.join(ROOT, 'renderer/src')).filter((f) => f !== own);
    expect(files.length).toBeGreaterThan(50);
    // `Intl.DateTimeFormat().resolvedOptions()` reads the time zone (an MCP App's host context); it formats nothing.
    const formats = /\.toLocale(Date|Time)?String\(|new Intl\.(DateTimeFormat|NumberFormat|RelativeTimeFormat)\(|Intl\.DateTimeFormat\(\)\.format/;
    for (const f of files) {
      readFileSync(f, 'utf8')
        .split('\n')
        .forEach((line, i) => expect(line, `${path.relative(ROOT, f)}:${i + 1}`).not.toMatch(formats));
    }
  });
});
