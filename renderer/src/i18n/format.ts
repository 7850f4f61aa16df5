/**
 * Times, dates and numbers in the UI's language: the one formatter of the window, `Intl` with the
 * language i18next speaks now (docs/ARCHITECTURE.md "Languages"). Components call these; a
 * translated sentence formats its quantities with `{{n, number}}`, which i18next hands to
 * {@link formatNumber} (./index.ts registers it), so a number reads the same in a sentence and
 * beside it. Nothing here keeps state: each call reads the current language.
 */
import i18next from 'i18next';

/** The BCP 47 tag `Intl` gets: the UI language (`en` or `zh-CN`), never the browser's own locale. */
function locale(): string {
  return i18next.language === 'zh-CN' ? 'zh-CN' : 'en';
}

/** A clock time with seconds (`ts` in ms since the epoch): "8:46:27 PM", "20:46:27". */
export function formatTime(ts: number): string {
  return new Intl.DateTimeFormat(locale(), { timeStyle: 'medium' }).format(ts);
}

/** A calendar date (`ts` in ms since the epoch): "12/6/26", "2026/12/6". */
export function formatDate(ts: number): string {
  return new Intl.DateTimeFormat(locale(), { dateStyle: 'short' }).format(ts);
}

/** A date with its clock time (`ts` in ms since the epoch): "12/6/26, 8:46:27 PM", "2026/12/6 20:46:27". */
export function formatDateTime(ts: number): string {
  return new Intl.DateTimeFormat(locale(), { dateStyle: 'short', timeStyle: 'medium' }).format(ts);
}

/** A number with the language's grouping and decimals: 180000 → "180,000". */
export function formatNumber(n: number, maxFractionDigits = 2): string {
  return new Intl.NumberFormat(locale(), { maximumFractionDigits: maxFractionDigits }).format(n);
}

/** A size in bytes, in kB or MB: 1234567 → "1.2 MB", 800 → "1 KB". */
export function formatBytes(bytes: number): string {
  return bytes >= 1_000_000 ? `${formatNumber(bytes / 1_000_000, 1)} MB` : `${formatNumber(Math.max(1, Math.round(bytes / 1000)), 0)} KB`;
}

/**
 * The `number` format of translated sentences (`{{n, number}}`): a number through
 * {@link formatNumber}; anything else (a slot `Fill` keeps as `{{n}}`, text) unchanged.
 */
export function sentenceNumber(value: unknown): string {
  return typeof value === 'number' ? formatNumber(value) : String(value);
}
