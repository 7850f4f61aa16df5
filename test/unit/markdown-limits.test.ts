/**
 * The markdown caps (renderer/src/markdown-limits.ts, pure): what is rendered as markdown and
 * what is shown as plain text for huge or deeply nested input, and which tool texts count as
 * markdown.
 */
import { describe, expect, it } from 'vitest';
import { inlineDepth, lineDepth, looksLikeMarkdown, splitForRendering } from '../../renderer/src/markdown-limits.js';

describe('splitForRendering', () => {
  it('keeps ordinary markdown whole', () => {
    const md = '# T\n\n> quote\n> > nested\n\n- a\n  - b\n    - c\n\n[link](https://x.y) and [[wiki]]';
    expect(splitForRendering(md)).toEqual({ markdown: md, rest: null, reason: null });
  });

  it('cuts at the first line that nests too deeply (block quotes, lists, brackets)', () => {
    const quotes = `ok\n\n${'>'.repeat(50)} deep\nafter`;
    expect(splitForRendering(quotes)).toEqual({ markdown: 'ok\n\n', rest: `${'>'.repeat(50)} deep\nafter`, reason: 'depth' });
    const lists = `ok\n${'- '.repeat(40)}x`;
    expect(splitForRendering(lists).reason).toBe('depth');
    const brackets = `ok\n${'['.repeat(100)}x`;
    expect(splitForRendering(brackets)).toMatchObject({ markdown: 'ok\n', reason: 'depth' });
  });

  it('cuts huge text at a line break near the limit, everything else becomes the rest', () => {
    const line = `${'a'.repeat(99)}\n`;
    const text = line.repeat(1000); // 100,000 characters
    const s = splitForRendering(text, { maxChars: 10_000, maxDepth: 16, maxInlineDepth: 32 });
    expect(s.reason).toBe('size');
    expect(s.markdown.length).toBe(10_000);
    expect(s.markdown.endsWith('\n')).toBe(true);
    expect(s.markdown + s.rest).toBe(text);
    // One enormous line is cut at the limit itself.
    const one = 'b'.repeat(50_000);
    const t = splitForRendering(one, { maxChars: 10_000, maxDepth: 16, maxInlineDepth: 32 });
    expect([t.markdown.length, t.rest?.length]).toEqual([10_000, 40_000]);
  });

  it('measures depth', () => {
    expect(lineDepth('plain')).toBe(0);
    expect(lineDepth('> > > x')).toBe(3);
    expect(lineDepth('- - - x')).toBe(3);
    expect(lineDepth('        code')).toBe(4);
    expect(inlineDepth('[a](b) [[c]] ((d))')).toBe(2);
    expect(inlineDepth(']]]]][')).toBe(1);
  });
});

describe('looksLikeMarkdown', () => {
  it('recognises markdown structure', () => {
    for (const t of ['# Title\ntext', '- one\n- two', '1. first', '| a | b |\n|---|---|', '```\ncode\n```', 'see [docs](https://x.y)', 'a **bold** word', 'use `npm i`', '> quoted'])
      expect(looksLikeMarkdown(t), t).toBe(true);
  });
  it('keeps JSON, logs and plain text preformatted', () => {
    for (const t of ['{"a": [1, 2, {"b": "# not a heading"}]}', '[1, 2, 3]', '2026-01-01 INFO started\n2026-01-01 WARN slow', 'Hello world'])
      expect(looksLikeMarkdown(t), t).toBe(false);
  });
});

describe('safeExternalUrl (links from models and servers)', () => {
  it('lets only http and https through', async () => {
    const { safeExternalUrl } = await import('../../renderer/src/safe-url.js');
    expect(safeExternalUrl('https://example.com/a b')).toBe('https://example.com/a%20b');
    expect(safeExternalUrl('http://127.0.0.1:3000/x')).toBe('http://127.0.0.1:3000/x');
    for (const bad of ['javascript:alert(1)', 'JavaScript:alert(1)', ' javascript:alert(1)', 'data:text/html,<script>1</script>', 'file:///etc/passwd', 'vbscript:x', 'openprogram://x', '/relative', '', null, 42])
      expect(safeExternalUrl(bad), String(bad)).toBeNull();
  });
});
