/**
 * The highlighting that runs in the worker (docs/ARCHITECTURE.md "Code highlighting off the main
 * thread"): shiki with its JavaScript regex engine (no WebAssembly, no eval), grammars and themes
 * loaded on first use. Knows nothing of workers or the DOM, so it also runs under Node (tests).
 *
 * While a code block streams, it is asked again for every few characters. The tokens of its
 * finished lines and the grammar state after them are remembered (a few per language), so each
 * request tokenizes only the lines added since and the unfinished last line.
 */
import { bundledLanguagesInfo, bundledThemes, createHighlighter, type BundledLanguage, type BundledTheme, type GrammarState, type Highlighter, type ThemedToken } from 'shiki';
import { createJavaScriptRegexEngine } from 'shiki/engine/javascript';
import type { HighlightReply, HighlightRequest, WireToken, WireTokens } from './protocol.js';

/** Each language name and alias → the grammar's id. */
const LANGUAGE_IDS: ReadonlyMap<string, BundledLanguage> = new Map(
  bundledLanguagesInfo.flatMap((l) => [l.id, ...(l.aliases ?? [])].map((name) => [name, l.id as BundledLanguage] as const)),
);
/** Remembered finished-lines states per language and theme pair. */
const PREFIXES_PER_KEY = 4;
const PLAIN = 'text';
/** A grammar to tokenize with: a bundled one, or none (plain text). */
type Grammar = BundledLanguage | typeof PLAIN;

/** The finished lines of a code block, tokenized, and the grammar state after them. */
interface Prefix {
  text: string;
  rows: WireToken[][];
  state: GrammarState | undefined;
}

/** Makes the highlighter (one per engine); the default loads shiki's bundled grammars and themes lazily. */
export type HighlighterFactory = () => Promise<Highlighter>;

const defaultFactory: HighlighterFactory = () => createHighlighter({ themes: [], langs: [], engine: createJavaScriptRegexEngine({ forgiving: true }) });

/** Answers {@link HighlightRequest}s. One per worker. */
export class HighlightEngine {
  private highlighter: Promise<Highlighter> | null = null;
  private readonly prefixes = new Map<string, Prefix[]>();

  constructor(private readonly factory: HighlighterFactory = defaultFactory) {}

  /** Every language name and alias this engine highlights (others are shown as plain text). */
  languageNames(): string[] {
    return [...LANGUAGE_IDS.keys()];
  }

  /** The grammar id for a fence's language name (case and surrounding space ignored); unknown → plain text. */
  static grammarFor(language: string): Grammar {
    return LANGUAGE_IDS.get(language.trim().toLowerCase()) ?? PLAIN;
  }

  /**
   * Highlight one request. Never throws: an unknown theme, or a grammar or theme that fails to
   * load, answers `failed` (the block stays plain text).
   */
  async answer(req: HighlightRequest): Promise<HighlightReply> {
    try {
      const [light, dark] = req.themes;
      if (!isTheme(light) || !isTheme(dark)) return { kind: 'failed', id: req.id, message: 'unknown theme' };
      const lang = HighlightEngine.grammarFor(req.language);
      const h = await this.ready(lang, [light, dark]);
      return { kind: 'tokens', id: req.id, result: this.tokenize(h, req.code, lang, light, dark) };
    } catch (err) {
      return { kind: 'failed', id: req.id, message: err instanceof Error ? err.message : String(err) };
    }
  }

  /** The highlighter with `lang` and both themes loaded. */
  private async ready(lang: Grammar, themes: [BundledTheme, BundledTheme]): Promise<Highlighter> {
    this.highlighter ??= this.factory();
    const h = await this.highlighter;
    const missingThemes = themes.filter((t) => !h.getLoadedThemes().includes(t));
    if (missingThemes.length) await h.loadTheme(...missingThemes);
    if (lang !== PLAIN && !h.getLoadedLanguages().includes(lang)) await h.loadLanguage(lang);
    return h;
  }

  private tokenize(h: Highlighter, code: string, lang: Grammar, light: BundledTheme, dark: BundledTheme): WireTokens {
    const key = `${lang}\n${light}\n${dark}`;
    const options = { lang, themes: { light, dark } };
    const linesEnd = code.lastIndexOf('\n') + 1;
    let base = this.takePrefix(key, code, linesEnd);
    if (linesEnd > base.text.length) {
      // The new finished lines, from the state after the remembered ones. Text ending in a line
      // break gives one more, empty, row: dropped (the unfinished line below is that row).
      const more = h.codeToTokens(code.slice(base.text.length, linesEnd), { ...options, grammarState: base.state });
      const rows = more.tokens.slice(0, -1).map((row) => row.map((t) => wire(t, base.text.length)));
      base = { text: code.slice(0, linesEnd), rows: base.rows.concat(rows), state: more.grammarState };
    }
    if (base.text) this.remember(key, base);
    const last = h.codeToTokens(code.slice(linesEnd), { ...options, grammarState: base.state });
    const tail = last.tokens.map((row) => row.map((t) => wire(t, linesEnd)));
    return { tokens: base.rows.concat(tail), fg: last.fg, bg: last.bg, rootStyle: last.rootStyle };
  }

  /** The longest remembered finished lines that `code` starts with (taken out of the list), or none. */
  private takePrefix(key: string, code: string, linesEnd: number): Prefix {
    const list = this.prefixes.get(key) ?? [];
    let best = -1;
    list.forEach((p, i) => {
      if (p.text.length <= linesEnd && code.startsWith(p.text) && (best < 0 || p.text.length > list[best]!.text.length)) best = i;
    });
    return best < 0 ? { text: '', rows: [], state: undefined } : list.splice(best, 1)[0]!;
  }

  /** Keep `p` as the most recent state of `key`; the oldest beyond the bound are forgotten. */
  private remember(key: string, p: Prefix): void {
    const list = this.prefixes.get(key) ?? [];
    list.unshift(p);
    list.length = Math.min(list.length, PREFIXES_PER_KEY);
    this.prefixes.set(key, list);
  }
}

function isTheme(name: string): name is BundledTheme {
  return Object.hasOwn(bundledThemes, name);
}

/** A shiki token as it crosses to the window, `shift` added to its offset (only what streamdown draws). */
function wire(t: ThemedToken, shift: number): WireToken {
  const out: WireToken = { content: t.content, offset: t.offset + shift };
  if (t.color) out.color = t.color;
  if (t.bgColor) out.bgColor = t.bgColor;
  if (t.htmlStyle) out.htmlStyle = t.htmlStyle;
  if (t.htmlAttrs) out.htmlAttrs = t.htmlAttrs;
  return out;
}
