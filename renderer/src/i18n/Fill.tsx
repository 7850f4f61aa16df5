import { Fragment, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Strings } from './en.js';

type Section = keyof Strings;
/** Keys of the strings whose `{{slot}}` placeholders may be filled with elements (every two-level key). */
export type SlotKey = { [S in Section]: { [K in keyof Strings[S]]: Strings[S][K] extends string ? `${S & string}.${K & string}` : never }[keyof Strings[S]] }[Section];

/**
 * A translated sentence whose `{{slot}}` placeholders are filled with React elements (a server
 * name in monospace, a bold title). Data never goes through a markup parser: the sentence is
 * split at its placeholders and each slot's element is put in between, so a name like `<b>` stays
 * text. `values` fill the other placeholders as i18next does (a `{{n, number}}` formatted, a
 * `count` choosing the plural form).
 * @param k the key in ../i18n/en.ts; @param slots element per placeholder name; @param values plain values
 */
export function Fill({ k, slots, values = {} }: { k: SlotKey; slots: Record<string, ReactNode>; values?: Record<string, string | number> }) {
  const { t } = useTranslation();
  // Each placeholder is given itself as its value, so the sentence comes back with `{{name}}` intact.
  const keep = Object.fromEntries(Object.keys(slots).map((n) => [n, `{{${n}}}`]));
  const text = (t as (key: string, o: Record<string, unknown>) => string)(k, { ...values, ...keep, interpolation: { escapeValue: false } });
  const parts = text.split(/\{\{(\w+)\}\}/);
  return (
    <>
      {parts.map((p, i) => (i % 2 === 1 ? <Fragment key={i}>{slots[p] ?? p}</Fragment> : p ? <Fragment key={i}>{p}</Fragment> : null))}
    </>
  );
}
