/**
 * Limits that keep markdown rendering responsive: a model or a server can send text that is huge
 * or pathologically nested (thousands of `>` quotes, nested lists or brackets), which a markdown
 * parser handles slowly or with deep recursion. `splitForRendering` keeps the part that is safe to
 * render as markdown and returns the rest, to be shown as plain text. Pure; no DOM.
 */

/** Limits of one markdown block. */
export interface MarkdownLimits {
  /** Most characters rendered as markdown. */
  maxChars: number;
  /** Most container levels (block quotes + list levels) on one line. */
  maxDepth: number;
  /** Most nested open brackets / parentheses on one line (links, images, emphasis-like runs). */
  maxInlineDepth: number;
}

/** Defaults: generous for real answers, far below what slows the parser down. */
export const DEFAULT_MARKDOWN_LIMITS: MarkdownLimits = { maxChars: 60_000, maxDepth: 16, maxInlineDepth: 32 };

/** The markdown part, the rest as plain text (null when everything fits), and why it was cut. */
export interface MarkdownSplit {
  markdown: string;
  rest: string | null;
  reason: 'size' | 'depth' | null;
}

/** Container depth of a line: `>` markers and list markers in its prefix, plus indentation levels. */
export function lineDepth(line: string): number {
  let depth = 0;
  let i = 0;
  let indent = 0;
  for (;;) {
    const ch = line[i];
    if (ch === ' ') {
      indent++;
      i++;
    } else if (ch === '\t') {
      indent += 4;
      i++;
    } else if (ch === '>') {
      depth++;
      indent = 0;
      i++;
    } else if ((ch === '-' || ch === '*' || ch === '+') && (line[i + 1] === ' ' || line[i + 1] === '\t')) {
      depth++;
      indent = 0;
      i += 2;
    } else break;
    if (depth > 10_000) break;
  }
  return depth + Math.floor(indent / 2);
}

/** Deepest run of unclosed `[` / `(` on a line. */
export function inlineDepth(line: string): number {
  let d = 0;
  let max = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 91 || c === 40) {
      d++;
      if (d > max) max = d;
    } else if ((c === 93 || c === 41) && d > 0) d--;
  }
  return max;
}

/**
 * Split markdown into a part that is safe to render and a plain-text rest.
 * The cut is at the first line that nests too deeply, else at the size limit (on a line break
 * when one is near).
 */
export function splitForRendering(text: string, limits: MarkdownLimits = DEFAULT_MARKDOWN_LIMITS): MarkdownSplit {
  let offset = 0;
  const scanEnd = Math.min(text.length, limits.maxChars);
  while (offset < scanEnd) {
    let nl = text.indexOf('\n', offset);
    if (nl === -1) nl = text.length;
    const line = text.slice(offset, Math.min(nl, offset + 100_000));
    if (lineDepth(line) > limits.maxDepth || inlineDepth(line) > limits.maxInlineDepth) {
      return { markdown: text.slice(0, offset), rest: text.slice(offset), reason: 'depth' };
    }
    offset = nl + 1;
  }
  if (text.length <= limits.maxChars) return { markdown: text, rest: null, reason: null };
  const lastBreak = text.lastIndexOf('\n', limits.maxChars);
  const cut = lastBreak > limits.maxChars - 4000 ? lastBreak + 1 : limits.maxChars;
  return { markdown: text.slice(0, cut), rest: text.slice(cut), reason: 'size' };
}

/**
 * Whether a tool's text looks like markdown (so it is rendered as such, not preformatted):
 * headings, lists, tables, fences, links, emphasis or block quotes at line starts. JSON and
 * plain logs stay preformatted.
 */
export function looksLikeMarkdown(text: string): boolean {
  const t = text.trimStart();
  if (t.startsWith('{') || t.startsWith('[')) {
    try {
      JSON.parse(t);
      return false;
    } catch {
      // not JSON: look further
    }
  }
  const sample = text.slice(0, 20_000);
  return /^(#{1,6} \S|[-*+] \S|\d+[.)] \S|> |```|\|.*\|\s*$)/m.test(sample) || /\[[^\]\n]+\]\([^)\s]+\)|\*\*[^*\n]+\*\*|`[^`\n]+`/.test(sample);
}
