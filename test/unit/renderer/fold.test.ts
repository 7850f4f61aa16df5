/**
 * Folding long messages (renderer/src/fold.ts, pure): which texts fold, where the first part
 * ends and where each further piece is cut — at blank lines outside code fences for markdown,
 * at line ends or spaces for plain text, never inside a surrogate pair — and that the pieces put
 * back together are the text itself.
 */
import { describe, expect, it } from 'vitest';
import { FOLD_AT, FOLD_PIECE, FOLD_SHOWN, foldEnd, isFolded, pieceEnd, type FoldMode } from '../../../renderer/src/fold.js';

/** All pieces of a text, as the window cuts them one after another. */
function pieces(text: string, mode: FoldMode): string[] {
  const out = [text.slice(0, foldEnd(text, mode))];
  let at = out[0]!.length;
  while (at < text.length) {
    const end = pieceEnd(text, at, FOLD_PIECE[mode], mode);
    expect(end).toBeGreaterThan(at);
    out.push(text.slice(at, end));
    at = end;
  }
  return out;
}

const paragraph = (i: number): string => `Paragraph ${i}: ${'word '.repeat(60).trim()}.`;

describe('fold', () => {
  it('folds only texts longer than FOLD_AT', () => {
    expect(isFolded('x'.repeat(FOLD_AT))).toBe(false);
    expect(foldEnd('x'.repeat(FOLD_AT), 'text')).toBe(FOLD_AT);
    expect(isFolded('x'.repeat(FOLD_AT + 1))).toBe(true);
  });

  it('cuts plain text at a line end in the second half of the piece, and the pieces join back to the text', () => {
    const log = Array.from({ length: 20_000 }, (_, i) => `line ${i} of the build log`).join('\n');
    const parts = pieces(log, 'text');
    expect(parts.join('')).toBe(log);
    expect(parts[0]!.length).toBeLessThanOrEqual(FOLD_SHOWN);
    expect(parts[0]!.length).toBeGreaterThan(FOLD_SHOWN / 2);
    for (const p of parts.slice(0, -1)) expect(p.endsWith('\n')).toBe(true);
  });

  it('cuts markdown at a blank line, never inside a fenced code block', () => {
    const blocks: string[] = [];
    for (let i = 0; i < 400; i++) blocks.push(i % 5 === 2 ? `\`\`\`js\n${Array.from({ length: 40 }, (_, j) => `const v${j} = ${j};`).join('\n\n')}\n\`\`\`` : paragraph(i));
    const md = blocks.join('\n\n');
    const parts = pieces(md, 'markdown');
    expect(parts.join('')).toBe(md);
    expect(parts.length).toBeGreaterThan(3);
    for (const p of parts) {
      // Every piece opens and closes its fences: an even number of fence lines.
      expect((p.match(/^```/gm) ?? []).length % 2, p.slice(0, 80)).toBe(0);
    }
    for (const p of parts.slice(0, -1)) expect(p.endsWith('\n\n')).toBe(true);
  });

  it('falls back to a space, then to the limit, and never splits a surrogate pair', () => {
    const words = 'word '.repeat(10_000);
    const end = pieceEnd(words, 0, 1000, 'text');
    expect(words[end - 1]).toBe(' ');
    const emoji = '😀'.repeat(20_000); // no line ends, no spaces; every character is a surrogate pair
    for (const size of [1001, 1000, 16_001]) {
      const cut = pieceEnd(emoji, 0, size, 'markdown');
      expect(cut % 2, `size ${size}`).toBe(0);
    }
    expect(pieces(emoji, 'text').join('')).toBe(emoji);
  });

  it('cuts the same way whatever follows (a streaming text keeps its first part)', () => {
    const md = Array.from({ length: 200 }, (_, i) => paragraph(i)).join('\n\n');
    const grown = `${md}\n\n${Array.from({ length: 200 }, (_, i) => paragraph(i + 200)).join('\n\n')}`;
    expect(foldEnd(grown, 'markdown')).toBe(foldEnd(md, 'markdown'));
  });
});
