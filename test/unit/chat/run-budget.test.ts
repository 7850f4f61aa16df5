/**
 * The context budget of a run (main/chat/run-budget.ts): the answer's reserve, the tool
 * definitions and the system prompt come first; the newest tool result stays whole while older
 * ones are shortened; a request that cannot fit is not sent, and the error carries the numbers.
 */
import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { estimateTextTokens, estimateTokens } from '../../../main/chat/model-context.js';
import { answerReserveTokens, ContextOverflowError, RunBudget, toolLimitsFor } from '../../../main/chat/run-budget.js';
import type { RegisteredTool } from '../../../main/mcp/adapter.js';
import { toolDefinitionTokens } from '../../../preload/contract/rules/index.js';

function exchange(i: number, chars: number): ModelMessage[] {
  return [
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId: `c${i}`, toolName: 'fs__read', input: { path: `/f${i}` } }] },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: `c${i}`, toolName: 'fs__read', output: { type: 'text', value: `${i}:`.padEnd(chars, 'x') } }] },
  ];
}
const outputs = (ms: ModelMessage[]): string[] => ms.filter((m) => m.role === 'tool').map((m) => (m.content[0] as { output: { value: string } }).output.value);

function tools(n: number, pad = 40): RegisteredTool[] {
  return Array.from({ length: n }, (_, i) => ({ name: `s__t${i}`, server: 's', original_name: `t${i}`, description: 'd'.repeat(pad), input_schema: { type: 'object' }, title: null, annotations: {} }));
}
const on = (): boolean => true;
const profile = { provider: 'openai-compatible' as const, context_window: 8192 };

describe('the budget order', () => {
  it('reserves the answer, the tools and the system prompt before the conversation', () => {
    const ts = tools(10);
    const system = 'Be brief. '.repeat(50);
    const toolTokens = ts.reduce((n, t) => n + toolDefinitionTokens(t), 0);
    const left = 8192 - answerReserveTokens(8192) - toolTokens - estimateTextTokens(system);
    // A conversation that fits exactly what is left is sent whole; a little more is fitted.
    const history: ModelMessage[] = [{ role: 'user', content: 'read' }, ...exchange(1, 4 * (left - 60))];
    const b = new RunBudget(profile, ts, system, history, on);
    expect(estimateTokens(history)).toBeLessThanOrEqual(left);
    expect(b.step(history).notice).toBeNull();
    const more: ModelMessage[] = [{ role: 'user', content: 'old question' }, ...exchange(0, 4000), { role: 'user', content: 'read' }, ...exchange(1, 4 * (left - 60))];
    const r = b.step(more);
    expect(estimateTokens(r.messages)).toBeLessThanOrEqual(left);
    expect(r.activeTools).toEqual(ts.map((t) => t.name));
  });

  it('keeps the newest tool result whole and shortens the older ones first, this turn’s included', () => {
    // 8192 window: 2048 for the answer, 6144 for tools + conversation.
    const history: ModelMessage[] = [{ role: 'user', content: 'read four files' }, ...exchange(1, 8000), ...exchange(2, 8000), ...exchange(3, 8000), ...exchange(4, 16_000)];
    const r = new RunBudget(profile, tools(3), undefined, history, on).step(history);
    const out = outputs(r.messages);
    expect(out[3]!.length).toBe(16_000); // the one just returned: whole
    expect(out.slice(0, 3).every((o) => /shortened to fit|removed to fit/.test(o))).toBe(true);
    expect(r.notice!.stillTooLong).toBe(false);
  });

  it('the case the issue describes: 50 tools in an unknown model’s 8,192 tokens no longer remove the result just returned', () => {
    const ts = tools(50, 300);
    const history: ModelMessage[] = [{ role: 'user', content: 'read it' }, ...exchange(1, 6000)];
    const r = new RunBudget(profile, ts, undefined, history, on).step(history);
    expect(outputs(r.messages)[0]!.length).toBe(6000);
    expect(r.activeTools).toContain('host__search_tools');
    expect(r.activeTools.length).toBeLessThan(50);
  });

  it('does not send what cannot fit, and says why with the numbers', () => {
    const system = 's'.repeat(4 * 7000); // a system prompt of ~7,000 tokens in an 8,192-token window
    const history: ModelMessage[] = [{ role: 'user', content: 'hello' }];
    const b = new RunBudget(profile, tools(5), system, history, on);
    let err: unknown;
    try {
      b.step(history);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ContextOverflowError);
    const note = (err as ContextOverflowError).note;
    expect(note).toMatchObject({ context_window: 8192, answer_reserve: 2048, tool_count: 5, system_tokens: 7000 });
    expect(note.needed).toBe(note.answer_reserve + note.tool_tokens + note.system_tokens + note.conversation_tokens);
    expect(note.needed).toBeGreaterThan(8192);
    expect((err as Error).message).toMatch(/^Not sent: this request needs about \d+ tokens, more than the model's context window of 8192/);
    expect((err as Error).message).toMatch(/fewer tools.*larger context window/);
  });

  it('a user message too long for the window is not sent either', () => {
    const history: ModelMessage[] = [{ role: 'user', content: 'x'.repeat(100_000) }];
    expect(() => new RunBudget(profile, [], undefined, history, on).step(history)).toThrow(ContextOverflowError);
  });

  it('tool limits: the provider’s cap, and half the window after the answer’s reserve (at most 48 KiB)', () => {
    expect(toolLimitsFor({ provider: 'openai-compatible', context_window: 8192 })).toEqual({ maxTools: 128, maxTokens: 3072 });
    expect(toolLimitsFor({ provider: 'anthropic', context_window: 200_000 })).toEqual({ maxTools: null, maxTokens: 12_288 });
  });
});
