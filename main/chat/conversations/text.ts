/**
 * Text rules of conversations (pure): titles, export file names, the searchable text of an entry,
 * and turning a user's search words into an FTS5 query that cannot break. See
 * docs/ARCHITECTURE.md "Conversations".
 */
import type { SnippetSegment, TranscriptItem } from '../../../preload/contract/index.js';
import { queryTokens, unindexText } from './cjk-search.js';

/** Longest title, in characters (code points), made from a first message. */
export const AUTO_TITLE_MAX = 80;
/** Longest title a user may set, in characters (code points). */
export const TITLE_MAX = 200;
/** Longest export file name stem, in characters. */
export const FILE_STEM_MAX = 60;

/**
 * A one-line title: control characters and runs of white space become one space, trimmed, cut to
 * `max` code points with "…". May return "" (the caller decides what an empty title means).
 */
export function cleanTitle(text: string, max = AUTO_TITLE_MAX): string {
  // eslint-disable-next-line no-control-regex
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\s]+/gu, ' ').trim();
  const chars = [...flat];
  return chars.length <= max ? flat : `${chars.slice(0, max - 1).join('').trimEnd()}…`;
}

/**
 * A safe file name for an export: letters, digits (any script), `-` and `_` kept; everything else
 * (path separators, dots, reserved characters) becomes `-`; bounded; never empty; never a
 * Windows reserved device name.
 */
export function exportFileName(title: string, ext: 'md' | 'json'): string {
  let stem = [...title.normalize('NFC').replace(/[^\p{L}\p{N}_-]+/gu, '-').replace(/-+/g, '-').replace(/^-|-$/g, '')].slice(0, FILE_STEM_MAX).join('');
  if (!stem || /^(con|prn|aux|nul|com\d|lpt\d)$/i.test(stem)) stem = `conversation${stem ? `-${stem}` : ''}`;
  return `${stem}.${ext}`;
}

/** The text an entry is found by: what the user saw of it, tool names, arguments and results included. */
export function searchableText(item: TranscriptItem): string {
  switch (item.kind) {
    case 'user': {
      // Prompts and resources sent with the message are found too (main/chat/context/).
      const attached = (item.context ?? []).flatMap((c) => [c.title, ...(c.kind === 'prompt' ? c.messages.flatMap((m) => m.content) : c.content).map((b) => (b.type === 'text' ? b.text : ''))]);
      return [item.text, ...attached].join('\n');
    }
    case 'assistant':
    case 'notice':
      return item.text;
    case 'tool':
      return [
        item.tool,
        item.original_name,
        item.args === undefined ? '' : JSON.stringify(item.args),
        ...item.content.map((c) => (c.type === 'text' ? c.text : '')),
        item.error ?? '',
      ].join('\n');
  }
}

/**
 * Turn free text into an FTS5 MATCH expression: each white-space separated word becomes a quoted
 * string (quotes doubled), all must match, the last one also as a prefix (search as you type). A
 * word with CJK characters becomes the phrase of its characters (./cjk-search.ts), so it is found
 * inside a sentence.
 * Operators, parentheses, column filters and stray quotes in the input are therefore plain text.
 * Returns null when there is nothing to search for.
 */
export function ftsQuery(input: string): string | null {
  const words = input
    .split(/\s+/u)
    // eslint-disable-next-line no-control-regex -- control characters are what is removed
    .map((w) => w.replace(/[\u0000-\u001f]/g, ''))
    .filter((w) => /[\p{L}\p{N}]/u.test(w))
    .slice(0, 32);
  if (words.length === 0) return null;
  return words.map((w, i) => `"${queryTokens(w).join(' ').replace(/"/g, '""')}"${i === words.length - 1 ? '*' : ''}`).join(' ');
}

/**
 * Split a snippet made with the markers `open` … `close` into pieces, `hit` for the text between
 * a pair. Only the markers passed count (the caller makes them fresh per query), so characters in
 * the data — the control characters an older version marked with, or anything else — stay plain
 * text. Empty pieces are dropped; neighbours of the same kind are joined. The CJK separators of the
 * indexed text are removed first, so the characters of one CJK word form one hit.
 */
export function snippetSegments(indexed: string, open: string, close: string): SnippetSegment[] {
  const snippet = unindexText(indexed);
  const out: SnippetSegment[] = [];
  const push = (text: string, hit: boolean): void => {
    if (!text) return;
    const last = out[out.length - 1];
    if (last && last.hit === hit) last.text += text;
    else out.push({ text, hit });
  };
  const [first, ...rest] = snippet.split(open);
  push(first!, false);
  for (const part of rest) {
    const end = part.indexOf(close);
    if (end < 0) {
      push(part, true); // the engine cut the snippet inside a match: the rest is the match
      continue;
    }
    push(part.slice(0, end), true);
    push(part.slice(end + close.length), false);
  }
  return out;
}
