/**
 * The markdown caps (renderer/src/markdown-limits.ts, pure): what is rendered as markdown and
 * what is shown as plain text for huge or deeply nested input (markdown containers, brackets and
 * raw HTML elements), and which tool texts count as markdown.
 */
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { Streamdown } from 'streamdown';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MARKDOWN_LIMITS, htmlDepth, inlineDepth, lineDepth, looksLikeMarkdown, splitForRendering } from '../../../renderer/src/markdown-limits.js';

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
    const s = splitForRendering(text, { ...DEFAULT_MARKDOWN_LIMITS, maxChars: 10_000 });
    expect(s.reason).toBe('size');
    expect(s.markdown.length).toBe(10_000);
    expect(s.markdown.endsWith('\n')).toBe(true);
    expect(s.markdown + s.rest).toBe(text);
    // One enormous line is cut at the limit itself.
    const one = 'b'.repeat(50_000);
    const t = splitForRendering(one, { ...DEFAULT_MARKDOWN_LIMITS, maxChars: 10_000 });
    expect([t.markdown.length, t.rest?.length]).toEqual([10_000, 40_000]);
  });

  it('cuts raw HTML nested too deeply (10,000 <div>s) to plain text, on one line or over many', () => {
    const deep = '<div>'.repeat(10_000);
    expect(splitForRendering(`# Report\n\n${deep}x`)).toEqual({ markdown: '# Report\n\n', rest: `${deep}x`, reason: 'depth' });
    expect(splitForRendering(`${deep}x`)).toEqual({ markdown: '', rest: `${deep}x`, reason: 'depth' });
    // Nesting carries over lines and paragraphs: the cut is at the line where it goes too deep.
    const lines = Array.from({ length: 100 }, (_, i) => `<section>\nline ${i}\n`).join('\n');
    const s = splitForRendering(`ok\n${lines}`);
    expect(s.reason).toBe('depth');
    expect(s.markdown.match(/<section>/g)).toHaveLength(DEFAULT_MARKDOWN_LIMITS.maxHtmlDepth);
    expect(s.markdown + s.rest).toBe(`ok\n${lines}`);
    // Other tag spellings count too (upper case, attributes, unknown names, a tag left open at the line's end).
    for (const t of ['<DIV>', '<span class="a">', '<x-y>', '<p\n'])
      expect(splitForRendering(t.repeat(100)).reason, t).toBe('depth');
  });

  it('what it keeps renders in the real markdown renderer, where the whole text runs out of stack', () => {
    const text = `# Report\n\n${'<div>'.repeat(10_000)}x`;
    const render = (md: string): string => renderToString(createElement(Streamdown, { mode: 'static' }, md));
    expect(() => render(text)).toThrow(RangeError);
    expect(render(splitForRendering(text).markdown)).toContain('Report');
  });

  it('keeps HTML that closes what it opens, void and self-closing tags, and HTML shown as code', () => {
    const balanced = '<div><b>x</b></div>'.repeat(2000);
    expect(splitForRendering(balanced).reason).toBeNull();
    for (const t of ['<br>', '<img src="x">', '<hr/>', '<x />', '<!-- c -->', '<!doctype html>', '<https://x.y>', '<a@b.c>', '< div>', '1 <2 and 3> 2'])
      expect(splitForRendering(t.repeat(200)).reason, t).toBeNull();
    const fenced = `\`\`\`html\n${'<div>\n'.repeat(200)}\`\`\`\nafter`;
    expect(splitForRendering(fenced).reason).toBeNull();
    const tildes = `~~~~\n${'<div>'.repeat(200)}\n~~~\n${'<div>'.repeat(200)}\n~~~~\nafter`;
    expect(splitForRendering(tildes).reason).toBeNull();
    expect(splitForRendering(`use \`${'<div>'.repeat(200)}\` here`).reason).toBeNull();
    expect(splitForRendering(`use \`\`${'<div>'.repeat(200)}\`\` here`).reason).toBeNull();
    // After the fence closes, HTML counts again.
    expect(splitForRendering(`\`\`\`\ncode\n\`\`\`\n${'<div>'.repeat(200)}`)).toMatchObject({ markdown: '```\ncode\n```\n', reason: 'depth' });
  });

  it('measures depth', () => {
    expect(lineDepth('plain')).toBe(0);
    expect(lineDepth('> > > x')).toBe(3);
    expect(lineDepth('- - - x')).toBe(3);
    expect(lineDepth('        code')).toBe(4);
    expect(inlineDepth('[a](b) [[c]] ((d))')).toBe(2);
    expect(inlineDepth(']]]]][')).toBe(1);
    expect(htmlDepth('<div><p>a</p><span>', 0)).toEqual({ depth: 2, max: 2 });
    expect(htmlDepth('</span></div></div></div>', 2)).toEqual({ depth: 0, max: 2 });
    expect(htmlDepth('<br><img/><x/>', 3)).toEqual({ depth: 3, max: 3 });
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
    const { safeExternalUrl } = await import('../../../renderer/src/safe-url.js');
    expect(safeExternalUrl('https://example.com/a b')).toBe('https://example.com/a%20b');
    expect(safeExternalUrl('http://127.0.0.1:3000/x')).toBe('http://127.0.0.1:3000/x');
    for (const bad of ['javascript:alert(1)', 'JavaScript:alert(1)', ' javascript:alert(1)', 'data:text/html,<script>1</script>', 'file:///etc/passwd', 'vbscript:x', 'openprogram://x', '/relative', '', null, 42])
      expect(safeExternalUrl(bad), String(bad)).toBeNull();
  });
});
