/** main/mcp/tool-headers.ts: SEP-2243 x-mcp-header declarations, one case per rule. */
import { describe, expect, it } from 'vitest';
import { invalidHeaderDeclaration } from '../../../main/mcp/tool-headers.js';

const obj = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 'object', properties, ...extra });

describe('invalidHeaderDeclaration', () => {
  it('accepts none, and good declarations on string, integer and boolean properties', () => {
    expect(invalidHeaderDeclaration(obj({ q: { type: 'string' } }))).toBeNull();
    expect(invalidHeaderDeclaration(obj({ r: { type: 'string', 'x-mcp-header': 'Region' }, p: { type: 'integer', 'x-mcp-header': 'Priority' }, v: { type: 'boolean', 'x-mcp-header': 'Verbose' } }))).toBeNull();
    expect(invalidHeaderDeclaration(obj({ nested: obj({ r: { type: 'string', 'x-mcp-header': 'Deep' } }) }))).toBeNull();
  });

  it.each([
    ['empty name', obj({ a: { type: 'string', 'x-mcp-header': '' } })],
    ['not a string', obj({ a: { type: 'string', 'x-mcp-header': 7 } })],
    ['space in the name', obj({ a: { type: 'string', 'x-mcp-header': 'My Header' } })],
    ['colon in the name', obj({ a: { type: 'string', 'x-mcp-header': 'A:B' } })],
    ['non-ASCII name', obj({ a: { type: 'string', 'x-mcp-header': 'Région' } })],
    ['control character', obj({ a: { type: 'string', 'x-mcp-header': 'A\u0001' } })],
    ['number property', obj({ a: { type: 'number', 'x-mcp-header': 'Num' } })],
    ['object property', obj({ a: { type: 'object', 'x-mcp-header': 'Obj' } })],
    ['array property', obj({ a: { type: 'array', 'x-mcp-header': 'Arr' } })],
    ['null property', obj({ a: { type: 'null', 'x-mcp-header': 'Nul' } })],
    ['duplicate, same case', obj({ a: { type: 'string', 'x-mcp-header': 'Dup' }, b: { type: 'string', 'x-mcp-header': 'Dup' } })],
    ['duplicate, other case', obj({ a: { type: 'string', 'x-mcp-header': 'Dup' }, b: { type: 'string', 'x-mcp-header': 'dup' } })],
    ['under items', obj({ a: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } } })],
    ['under anyOf', obj({ a: { anyOf: [{ type: 'string', 'x-mcp-header': 'Any' }] } })],
    ['on the root', { type: 'object', 'x-mcp-header': 'Root' }],
  ])('refuses %s', (_what, schema) => {
    expect(invalidHeaderDeclaration(schema)).toMatch(/x-mcp-header/);
  });
});
