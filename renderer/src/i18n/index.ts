/**
 * The UI's languages: English (the source) and Simplified Chinese, through i18next +
 * react-i18next. One namespace (`translation`) with keys grouped by screen (./en.ts).
 *
 * Which language: the user's pick (Settings → Language, kept in this window's localStorage under
 * `openprogram.language`), else the OS/browser locale (`navigator.languages`: any `zh*` → zh-CN,
 * anything else → en). The `<html lang>` follows. Times, dates and numbers go through the one
 * formatter, `Intl` with the current language (./format.ts); a sentence's `{{n, number}}` too.
 *
 * Errors from main are translated by their code in ../api.ts (`ApiError`); see
 * docs/ARCHITECTURE.md "Languages".
 */
import i18next from 'i18next';
import { initReactI18next, Trans, useTranslation } from 'react-i18next';
import { useSyncExternalStore } from 'react';
import { en } from './en.js';
import { zhCN } from './zh-CN.js';
import { sentenceNumber } from './format.js';

/** The languages the UI speaks. */
export type Language = 'en' | 'zh-CN';
/** What the user picked: a language, or `system` (follow the OS/browser locale). */
export type LanguagePreference = Language | 'system';

const STORAGE_KEY = 'openprogram.language';

/** The UI language for a list of BCP 47 locales (best first): any `zh*` → zh-CN, else en. */
export function languageForLocales(locales: readonly string[]): Language {
  const first = locales[0]?.toLowerCase() ?? 'en';
  return first.startsWith('zh') ? 'zh-CN' : 'en';
}

/** The language the OS/browser asks for. */
export function systemLanguage(): Language {
  const list = typeof navigator === 'undefined' ? [] : navigator.languages?.length ? navigator.languages : [navigator.language];
  return languageForLocales(list);
}

/** The stored pick (`system` when none or unreadable). */
export function languagePreference(): LanguagePreference {
  try {
    const v = localStorage.getItem(STORAGE_KEY);
    return v === 'en' || v === 'zh-CN' ? v : 'system';
  } catch {
    return 'system';
  }
}

function resolve(pref: LanguagePreference): Language {
  return pref === 'system' ? systemLanguage() : pref;
}

void i18next.use(initReactI18next).init({
  resources: { en: { translation: en }, 'zh-CN': { translation: zhCN } },
  lng: resolve(languagePreference()),
  fallbackLng: 'en',
  supportedLngs: ['en', 'zh-CN'],
  interpolation: { escapeValue: false }, // React escapes
  returnNull: false,
  initAsync: false,
});
// A sentence's `{{n, number}}` uses the window's one number formatter (./format.ts).
i18next.services.formatter?.add('number', sentenceNumber);
if (typeof document !== 'undefined') document.documentElement.lang = i18next.language;

const prefListeners = new Set<() => void>();

/** Store the user's pick and switch the UI to it at once. */
export function setLanguagePreference(pref: LanguagePreference): void {
  try {
    if (pref === 'system') localStorage.removeItem(STORAGE_KEY);
    else localStorage.setItem(STORAGE_KEY, pref);
  } catch {
    // Storage refused (private mode): the pick holds for this session only.
  }
  void i18next.changeLanguage(resolve(pref));
  document.documentElement.lang = i18next.language;
  prefListeners.forEach((l) => l());
}

/** The stored pick, re-rendering when it changes (for the Settings select). */
export function useLanguagePreference(): LanguagePreference {
  return useSyncExternalStore(
    (l) => {
      prefListeners.add(l);
      return () => prefListeners.delete(l);
    },
    languagePreference,
  );
}

/** The current UI language. */
export function currentLanguage(): Language {
  return i18next.language === 'zh-CN' ? 'zh-CN' : 'en';
}

export { formatBytes, formatDate, formatDateTime, formatNumber, formatTime } from './format.js';

/** Translate outside React (stores, error classes). */
export const t = i18next.t.bind(i18next);
export { Trans, useTranslation };
export { i18next };
