/**
 * Tool annotations and titles as the adapter keeps them (MCP spec 2025-11-25 "Tool annotations"):
 * only the known hint fields with boolean values survive; the title comes from `title`, else
 * `annotations.title`; nothing a server sends can add other fields to what the UI shows.
 */
import { describe, expect, it } from 'vitest';
import { buildToolTable, cleanAnnotations } from '../../../main/mcp/adapter.js';

describe('tool annotations', () => {
  it('keeps the four hints and the title, drops everything else', () => {
    expect(cleanAnnotations({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false, title: 'T', evil: '<script>', readOnly: true })).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
      title: 'T',
    });
  });

  it.each([[null], [undefined], ['x'], [[true]], [{ readOnlyHint: 'true' }], [{ destructiveHint: 1 }]])('ignores malformed %j', (raw) => {
    expect(cleanAnnotations(raw)).toEqual({});
  });

  it('cuts a long title; the tool title wins over the annotation title', () => {
    expect(cleanAnnotations({ title: 'x'.repeat(1000) }).title).toHaveLength(256);
    const t = buildToolTable([
      { server: 's', name: 'a', inputSchema: {}, title: 'Tool title', annotations: { title: 'Annotation title', readOnlyHint: true } },
      { server: 's', name: 'b', inputSchema: {}, annotations: { title: 'Only annotation' } },
      { server: 's', name: 'c', inputSchema: {} },
    ]);
    expect(t.tools.map((x) => [x.title, x.annotations.readOnlyHint])).toEqual([
      ['Tool title', true],
      ['Only annotation', undefined],
      [null, undefined],
    ]);
  });
});
