/**
 * Limits that keep markdown rendering responsive: a model or a server can send text that is huge
 * or pathologically nested (thousands of `>` quotes, nested lists or brackets, or raw HTML tags
 * such as `<div><div>…` ten thousand levels deep), which a markdown parser, the HTML parser behind
 * it and the renderer handle slowly or with deep recursion (the stack runs out). `splitForRendering`
 * keeps the part that is safe to render as markdown and returns the rest, to be shown as plain
 * text (docs/ARCHITECTURE.md "Conversations"). Pure; no DOM.
 */

/** Limits of one markdown block. */
export interface MarkdownLimits {
  /** Most characters rendered as markdown. */
  maxChars: number;
  /** Most container levels (block quotes + list levels) on one line. */
  maxDepth: number;
  /** Most nested open brackets / parentheses on one line (links, images, emphasis-like runs). */
  maxInlineDepth: number;
  /**
   * Most raw HTML elements open at once, counted over the whole text (an element opened in one
   * paragraph encloses the ones after it): start tags minus end tags, outside code.
   */
  maxHtmlDepth: number;
}

/** Defaults: generous for real answers, far below what slows the parser down or runs out of stack. */
export const DEFAULT_MARKDOWN_LIMITS: MarkdownLimits = { maxChars: 60_000, maxDepth: 16, maxInlineDepth: 32, maxHtmlDepth: 32 };

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

/** Elements that have no end tag (HTML "void elements"): they never enclose anything. */
const VOID_ELEMENTS = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);

/** True for ASCII letters (the first character of an HTML tag name). */
function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** True for the characters of a tag name after its first letter. */
function isNameChar(c: number): boolean {
  return isLetter(c) || (c >= 48 && c <= 57) || c === 45;
}

/**
 * Raw HTML nesting after one line: `depth` open elements before it, the start tags on the line
 * add one each and end tags take one away (never below 0). Void elements (`<br>`) and
 * self-closing tags (`<x/>`) add nothing; comments, `<!…>`, `<?…>`, autolinks (`<https://…>`,
 * `<a@b.c>`) and code spans (between equal backtick runs) are not tags. A start tag whose `>` is
 * not on the line still counts (it may continue on the next line). Approximate by design — it is
 * a bound, not a parser: attributes holding `>` may end a tag early.
 * @returns the depth after the line and the most reached on it
 */
export function htmlDepth(line: string, depth: number): { depth: number; max: number } {
  let max = depth;
  let i = 0;
  while (i < line.length) {
    const c = line.charCodeAt(i);
    if (c === 96) {
      // A code span: skip to the closing run of as many backticks, if there is one.
      let run = 1;
      while (line.charCodeAt(i + run) === 96) run++;
      const close = line.indexOf('`'.repeat(run), i + run);
      i = close === -1 ? i + run : close + run;
      continue;
    }
    if (c !== 60) {
      i++;
      continue;
    }
    const closing = line.charCodeAt(i + 1) === 47;
    let j = i + (closing ? 2 : 1);
    if (!isLetter(line.charCodeAt(j))) {
      i++;
      continue;
    }
    const nameStart = j;
    while (j < line.length && isNameChar(line.charCodeAt(j))) j++;
    const after = line.charCodeAt(j);
    // A tag name ends at whitespace, `/`, `>` or the end of the line; anything else is not a tag.
    if (j < line.length && after !== 32 && after !== 9 && after !== 47 && after !== 62 && after !== 13) {
      i = j;
      continue;
    }
    const name = line.slice(nameStart, j).toLowerCase();
    const end = line.indexOf('>', j);
    const selfClosing = end > 0 && line.charCodeAt(end - 1) === 47;
    if (closing) {
      if (depth > 0) depth--;
    } else if (!selfClosing && !VOID_ELEMENTS.has(name)) {
      depth++;
      if (depth > max) max = depth;
    }
    i = end === -1 ? line.length : end + 1;
  }
  return { depth, max };
}

/** The fence a line opens or closes (three or more backticks or tildes after at most 3 spaces), or null. */
function fenceOf(line: string): string | null {
  const m = /^ {0,3}(`{3,}|~{3,})/.exec(line);
  return m ? m[1]! : null;
}

/**
 * Split markdown into a part that is safe to render and a plain-text rest.
 * The cut is at the first line that nests too deeply (markdown containers, brackets, or raw HTML
 * elements open at once), else at the size limit (on a line break when one is near).
 */
export function splitForRendering(text: string, limits: MarkdownLimits = DEFAULT_MARKDOWN_LIMITS): MarkdownSplit {
  let offset = 0;
  let html = 0;
  // The fence of the code block the scan is in (its lines are code: no HTML in them).
  let fence: string | null = null;
  const scanEnd = Math.min(text.length, limits.maxChars);
  while (offset < scanEnd) {
    let nl = text.indexOf('\n', offset);
    if (nl === -1) nl = text.length;
    const line = text.slice(offset, Math.min(nl, offset + 100_000));
    const marker = fenceOf(line);
    let tooDeep = lineDepth(line) > limits.maxDepth || inlineDepth(line) > limits.maxInlineDepth;
    if (fence !== null) {
      if (marker !== null && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = null;
    } else if (marker !== null) fence = marker;
    else if (!tooDeep) {
      const h = htmlDepth(line, html);
      html = h.depth;
      tooDeep = h.max > limits.maxHtmlDepth;
    }
    if (tooDeep) return { markdown: text.slice(0, offset), rest: text.slice(offset), reason: 'depth' };
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
