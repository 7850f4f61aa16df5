/**
 * Where a long message is folded and how its rest is cut into pieces (docs/ARCHITECTURE.md
 * "Conversations", long messages). Laying out megabytes of text at once blocks the window for
 * seconds, so a message longer than `FOLD_AT` characters shows its first `FOLD_SHOWN` and the rest
 * on request, one piece per step. Pieces end where the text allows: for markdown at a blank line
 * outside a code fence (each piece renders as markdown of its own), else at a line end, else at a
 * space, never inside a surrogate pair. Pure; no DOM.
 */

/** A message longer than this (characters) is folded. */
export const FOLD_AT = 24_000;
/** About how many characters a folded message shows before its fold. */
export const FOLD_SHOWN = 16_000;
/** About how many characters each further piece holds: plain text, and markdown (parsed per piece). */
export const FOLD_PIECE = { text: 32_000, markdown: 16_000 } as const;

/** How a text is rendered, which decides where it may be cut. */
export type FoldMode = 'text' | 'markdown';

/** A line that opens or closes a fenced code block (CommonMark: up to 3 spaces, then ``` or ~~~). */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** Whether `text` is folded at all. */
export function isFolded(text: string): boolean {
  return text.length > FOLD_AT;
}

/**
 * The end (exclusive index) of the piece of `text` that starts at `start` and holds about `size`
 * characters: the best cut in the piece's second half, or `text.length` when the rest fits.
 * Markdown cuts are only made at a blank line outside a fenced code block; the pieces a text is cut
 * into are cut the same way each time (the cut depends only on `text[start .. start + size]` and
 * whether `start` is inside a fence, which a markdown cut never is).
 * @param start where the piece starts (0 ≤ start ≤ text.length)
 * @param size the piece's most characters (> 0)
 * @returns an index in (start, text.length]
 */
export function pieceEnd(text: string, start: number, size: number, mode: FoldMode): number {
  const limit = start + size;
  if (limit >= text.length) return text.length;
  const low = start + Math.floor(size / 2);
  if (mode === 'markdown') {
    // Walk the piece line by line, keeping track of fences; remember the last blank line outside one.
    let best = -1;
    let fence: string | null = null;
    let at = start;
    while (at < limit) {
      const nl = text.indexOf('\n', at);
      const lineEnd = nl < 0 || nl >= limit ? limit : nl;
      if (lineEnd === limit) break; // the line goes on past the piece
      const line = text.slice(at, lineEnd);
      const m = FENCE.exec(line);
      if (m) {
        if (fence === null) fence = m[1]!;
        else if (m[1]![0] === fence[0] && m[1]!.length >= fence.length && line.trim() === m[1]) fence = null;
      } else if (fence === null && line.trim() === '' && lineEnd + 1 > low) best = lineEnd + 1;
      at = lineEnd + 1;
    }
    if (best > start) return best;
  }
  const nl = text.lastIndexOf('\n', limit - 1);
  if (nl >= low) return nl + 1;
  for (let i = limit - 1; i >= low; i--) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9) return i + 1;
  }
  // No place to cut: cut at the limit, but not between the halves of a surrogate pair.
  const c = text.charCodeAt(limit - 1);
  return c >= 0xd800 && c <= 0xdbff ? limit + 1 : limit;
}

/**
 * The end of the part shown before the fold: `text.length` when the text is not folded.
 */
export function foldEnd(text: string, mode: FoldMode): number {
  return isFolded(text) ? pieceEnd(text, 0, FOLD_SHOWN, mode) : text.length;
}
