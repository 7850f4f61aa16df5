/**
 * A sentence made of facts (docs/ARCHITECTURE.md "Languages"): a key and what fills its
 * `{{slots}}`. Main sends facts, never sentences; the window picks the sentence by the facts' codes
 * and fills it. Data — a name, a command, a URI, a path, a code such as `invalid_grant` — is shown
 * as sent inside an element marked as data (`translate="no"`); a server's or the system's own
 * words likewise, as prose; plain values (numbers, translated phrases) go through i18next, so a
 * sentence's `{{n, number}}` is formatted by the window's one formatter. The same sentence can be
 * had as plain text ({@link sentenceText}) for a place that shows text only.
 */
import type { ReactNode } from 'react';
import type { NetworkCode } from '../../../preload/contract/index.js';
import { Fill, type SlotKey } from './Fill.js';
import { t as translate, useTranslation } from './index.js';

/** What fills a slot: data shown as sent, someone's own words as sent, a network code's phrase, or a plain value. */
export type Slot = { data: string } | { said: string } | { net: NetworkCode } | string | number;

/** One sentence: its key and what fills its `{{slots}}`. */
export interface Sentence {
  k: SlotKey;
  slots: Record<string, Slot>;
}

/** Data inside a sentence (a command, a URL, a name): shown as sent, never translated. */
export function data(value: string): Slot {
  return { data: value };
}

/** Someone's own words inside a sentence (a server's, an authorization server's, the system's): shown as sent. */
export function said(value: string): Slot {
  return { said: value };
}

/** A slot as an element: data and words marked as such, a network code by its phrase. */
function slotNode(v: Exclude<Slot, string | number>): ReactNode {
  if ('net' in v) return <NetworkWhy code={v.net} />;
  if ('said' in v)
    return (
      <span className="said" translate="no" data-testid="said">
        {v.said}
      </span>
    );
  return (
    <code className="mono server-data" translate="no" data-testid="server-data">
      {v.data}
    </code>
  );
}

/** The translated phrase of a network system code. */
function NetworkWhy({ code }: { code: NetworkCode }) {
  const { t } = useTranslation();
  return <>{t(`serverState.net_${code}`)}</>;
}

/** A sentence with its data and words as marked elements. */
export function SentenceView({ s }: { s: Sentence }) {
  const slots: Record<string, ReactNode> = {};
  const values: Record<string, string | number> = {};
  for (const [name, v] of Object.entries(s.slots)) {
    if (typeof v === 'object') slots[name] = slotNode(v);
    else values[name] = v;
  }
  return <Fill k={s.k} slots={slots} values={values} />;
}

/** Sentences one after the other, the way the current language puts them side by side. */
export function SentencesView({ sentences }: { sentences: readonly Sentence[] }) {
  return sentences.slice(1).reduce<ReactNode>((first, s, i) => <Fill key={i} k="common.sentences" slots={{ first, then: <SentenceView s={s} /> }} />, sentences[0] ? <SentenceView s={sentences[0]} /> : null);
}

/** A sentence as plain text in the current language (data and words as sent, unmarked). */
export function sentenceText(s: Sentence): string {
  const tt = translate as unknown as (key: string, o: Record<string, unknown>) => string;
  const values = Object.fromEntries(Object.entries(s.slots).map(([k, v]) => [k, typeof v !== 'object' ? v : 'net' in v ? translate(`serverState.net_${v.net}`) : 'said' in v ? v.said : v.data]));
  return tt(s.k, { ...values, interpolation: { escapeValue: false } });
}

/** Two sentences as one text, the way the current language puts them side by side. */
export function joinSentences(first: string, then: string): string {
  return translate('common.sentences', { first, then, interpolation: { escapeValue: false } });
}

/** Sentences as one plain text (see {@link sentenceText}). */
export function sentencesText(sentences: readonly Sentence[]): string {
  const texts = sentences.map(sentenceText);
  return texts.length ? texts.reduce((first, then) => joinSentences(first, then)) : '';
}
