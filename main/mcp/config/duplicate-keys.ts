/**
 * Names given twice in one JSON object of a pasted document. `JSON.parse` keeps the last of two
 * equal keys without a word, so an import of `{"env": {"A": "1", "A": "2"}}` would lose a value
 * unseen; the import refuses such an entry instead (docs/ARCHITECTURE.md "Config file"). A pure
 * scanner over text that `JSON.parse` already accepted; iterative (no recursion), so nesting
 * depth cannot exhaust the stack.
 */

/** One key that appears more than once in the same object, with the path of that object. */
export interface DuplicateKey {
  /** The keys leading to the object (array positions as strings). */
  path: string[];
  key: string;
}

interface Frame {
  kind: 'object' | 'array';
  /** This frame's key (or index) in its parent. */
  at: string;
  keys: Set<string>;
  index: number;
  /** An object's key read, waiting for its value. */
  pending: string | null;
}

/** The end (exclusive) of the JSON string starting at `start` (a `"`). */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x5c) i += 2;
    else if (c === 0x22) return i + 1;
    else i++;
  }
  return text.length;
}

/**
 * Every duplicate key of every object in `text` (valid JSON), at most `max` of them, in order.
 * Paths deeper than `maxDepth` are still scanned; their path is cut to `maxDepth` parts.
 */
export function duplicateKeys(text: string, max = 100, maxDepth = 8): DuplicateKey[] {
  const out: DuplicateKey[] = [];
  const stack: Frame[] = [];
  const pathOf = (): string[] => stack.slice(1, maxDepth + 1).map((f) => f.at);
  /** The key (or index) the next value gets in the innermost frame. */
  const slot = (): string => {
    const top = stack[stack.length - 1];
    if (!top) return '';
    if (top.kind === 'array') return String(top.index);
    return top.pending ?? '';
  };
  let i = 0;
  while (i < text.length && out.length < max) {
    const ch = text[i]!;
    const top = stack[stack.length - 1];
    if (ch === '{' || ch === '[') {
      stack.push({ kind: ch === '{' ? 'object' : 'array', at: slot(), keys: new Set(), index: 0, pending: null });
      i++;
    } else if (ch === '}' || ch === ']') {
      stack.pop();
      i++;
    } else if (ch === ',') {
      if (top?.kind === 'array') top.index++;
      if (top) top.pending = null;
      i++;
    } else if (ch === '"') {
      const end = stringEnd(text, i);
      if (top?.kind === 'object' && top.pending === null) {
        let key: string;
        try {
          key = JSON.parse(text.slice(i, end)) as string;
        } catch {
          key = text.slice(i + 1, end - 1);
        }
        if (top.keys.has(key)) out.push({ path: pathOf(), key });
        top.keys.add(key);
        top.pending = key;
      }
      i = end;
    } else i++;
  }
  return out;
}
