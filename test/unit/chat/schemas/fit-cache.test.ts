/**
 * The memoised fit of a run's tools (main/chat/schemas/fit-cache.ts): the same listed array and
 * family give the very same objects as `fitToolsFor` would compute; another family or a changed
 * table is fitted afresh; a tool object is fitted once per family across arrays.
 */
import { describe, expect, it } from 'vitest';
import { buildToolTable } from '../../../../main/mcp/adapter.js';
import { fitToolsFor } from '../../../../main/chat/schemas/index.js';
import { ToolFitCache } from '../../../../main/chat/schemas/fit-cache.js';

const table = () =>
  buildToolTable([
    { server: 's', name: 'plain', description: 'd', inputSchema: { type: 'object', properties: { a: { type: 'string' } } } },
    { server: 's', name: 'optional', description: 'd', inputSchema: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer' } }, required: ['a'] } },
  ]).tools;

describe('ToolFitCache', () => {
  it('gives fitToolsFor’s answer, the same objects for the same listing and family, fresh ones for another', () => {
    const fits = new ToolFitCache();
    const listed = table();
    const a = fits.fit(listed, 'openai_strict');
    expect(a).toEqual(fitToolsFor(listed, 'openai_strict'));
    expect(fits.fit(listed, 'openai_strict')).toBe(a);
    const g = fits.fit(listed, 'gemini');
    expect(g).not.toBe(a);
    expect(g).toEqual(fitToolsFor(listed, 'gemini'));
    // A filtered listing (a new array of the same tool objects) reuses each fitted tool.
    const filtered = fits.fit(listed.filter((t) => t.original_name === 'optional'), 'openai_strict');
    expect(filtered.tools[0]).toBe(a.tools.find((t) => t.original_name === 'optional'));
    // A rebuilt table (new objects) is fitted again.
    const rebuilt = fits.fit(table(), 'openai_strict');
    expect(rebuilt.tools[0]).not.toBe(a.tools[0]);
    expect(rebuilt).toEqual(a);
  });
});
