/**
 * Full-text search that finds words in Chinese, Japanese and Korean text anywhere in a message
 * (docs/ARCHITECTURE.md "Conversations"). These scripts write words without spaces, so FTS5's
 * unicode61 tokenizer would see a whole sentence as one token and find only its first words.
 * Here every CJK character is indexed as its own token — a zero-width space (U+200B, a separator
 * for unicode61) goes on each side of it in the indexed text — and a CJK word in a query becomes
 * a phrase of its characters, which FTS5 matches only where they stand next to each other. So a
 * word of any length, one or two characters included, is found wherever it stands. Pure.
 */

/** The separator put around CJK characters in indexed text: ZERO WIDTH SPACE (invisible in snippets). */
export const CJK_SEPARATOR = '\u200b';

/** Han (with compatibility ideographs), kana, CJK punctuation-free letters, Hangul syllables and jamo. */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc]/u;
const CJK_ALL = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc]/gu;

/** Whether `text` has a CJK character. */
export function hasCjk(text: string): boolean {
  return CJK.test(text);
}

/**
 * The text as it is indexed: each CJK character set apart by {@link CJK_SEPARATOR}; text without
 * CJK is returned as it is. The original is recovered by {@link unindexText}.
 */
export function indexText(text: string): string {
  if (!hasCjk(text)) return text;
  return text.replace(CJK_ALL, (c) => `${CJK_SEPARATOR}${c}${CJK_SEPARATOR}`);
}

/** Indexed text (a snippet of it) as the user wrote it: the separators removed. */
export function unindexText(text: string): string {
  return text.includes(CJK_SEPARATOR) ? text.split(CJK_SEPARATOR).join('') : text;
}

/**
 * The tokens one query word stands for: its CJK characters one by one, the runs of other letters
 * and digits between them whole (`发布v2` → `发`, `布`, `v2`). Several tokens make a phrase.
 */
export function queryTokens(word: string): string[] {
  if (!hasCjk(word)) return [word];
  return indexText(word)
    .split(CJK_SEPARATOR)
    .filter((t) => /[\p{L}\p{N}]/u.test(t));
}
