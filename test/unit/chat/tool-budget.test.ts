/**
 * checkToolBudget (main/chat/tool-budget.ts): the 128-tool cap of OpenAI-compatible providers,
 * the schema-bytes budget, and the per-server breakdown that helps the user narrow the set.
 */
import { describe, expect, it } from 'vitest';
import { checkToolBudget, DEFAULT_SCHEMA_BYTES, limitsFor, toolBytes, type BudgetTool } from '../../../main/chat/tool-budget.js';

function tools(n: number, server = 's', pad = 0): BudgetTool[] {
  return Array.from({ length: n }, (_, i) => ({ name: `${server}__t${i}`, server, description: 'x'.repeat(pad), input_schema: { type: 'object', properties: {} } }));
}

describe('checkToolBudget', () => {
  it('128 small tools fit OpenAI; 129 are over the count', () => {
    expect(checkToolBudget(tools(128), 'openai-compatible')).toMatchObject({ ok: true, count: 128 });
    const r = checkToolBudget(tools(129), 'openai-compatible');
    expect(r).toMatchObject({ ok: false, over: 'count', limit: 128, actual: 129 });
  });

  it('Anthropic has no count cap here, only the bytes budget', () => {
    expect(limitsFor('anthropic').maxTools).toBeNull();
    expect(checkToolBudget(tools(200), 'anthropic').ok).toBe(true);
  });

  it('counts UTF-8 bytes of each definition and reports the bytes overrun', () => {
    const one = tools(1, 's', 10)[0]!;
    expect(toolBytes(one)).toBe(Buffer.byteLength(JSON.stringify({ name: one.name, description: one.description, parameters: one.input_schema })));
    const uni = { ...one, description: 'é' };
    expect(toolBytes(uni)).toBe(toolBytes({ ...one, description: 'ab' })); // 'é' is 2 bytes in UTF-8
    const big = tools(60, 'big', 1000);
    const r = checkToolBudget(big, 'openai-compatible');
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.over).toBe('bytes');
      expect(r.limit).toBe(DEFAULT_SCHEMA_BYTES);
      expect(r.actual).toBe(big.reduce((s, t) => s + toolBytes(t), 0));
    }
  });

  it('the count is checked before bytes, and the breakdown lists the largest server first', () => {
    const r = checkToolBudget([...tools(100, 'a', 500), ...tools(40, 'b')], 'openai-compatible');
    expect(r).toMatchObject({ ok: false, over: 'count', actual: 140 });
    if (!r.ok) expect(r.by_server.map((s) => [s.server, s.count])).toEqual([['a', 100], ['b', 40]]);
  });

  it('accepts custom limits; exactly at the limit is fine', () => {
    const ts = tools(3);
    const bytes = ts.reduce((s, t) => s + toolBytes(t), 0);
    expect(checkToolBudget(ts, 'openai-compatible', { maxTools: 3, maxSchemaBytes: bytes }).ok).toBe(true);
    expect(checkToolBudget(ts, 'openai-compatible', { maxTools: 3, maxSchemaBytes: bytes - 1 })).toMatchObject({ ok: false, over: 'bytes' });
    expect(checkToolBudget([], 'openai-compatible')).toEqual({ ok: true, count: 0, bytes: 0 });
  });
});
