/**
 * Provider tool limits (main/chat/tool-budget.ts) and the shared cost of a tool definition
 * (preload/contract/rules/tool-tokens.ts): the 128-tool cap of OpenAI-compatible providers, none
 * documented for Anthropic, and UTF-8 bytes / 4 as the token estimate main and the picker share.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCHEMA_BYTES, limitsFor } from '../../../main/chat/tool-budget.js';
import { toolDefinitionBytes, toolDefinitionTokens } from '../../../preload/contract/rules/index.js';

describe('tool limits', () => {
  it('OpenAI-compatible: 128 tools; Anthropic: no count cap; both the schema budget', () => {
    expect(limitsFor('openai-compatible')).toEqual({ maxTools: 128, maxSchemaBytes: DEFAULT_SCHEMA_BYTES });
    expect(limitsFor('anthropic')).toEqual({ maxTools: null, maxSchemaBytes: DEFAULT_SCHEMA_BYTES });
  });

  it('a definition costs its UTF-8 JSON bytes, and a quarter of that in tokens (rounded up)', () => {
    const one = { name: 's__t', description: 'x'.repeat(10), input_schema: { type: 'object', properties: {} } };
    const bytes = Buffer.byteLength(JSON.stringify({ name: one.name, description: one.description, parameters: one.input_schema }));
    expect(toolDefinitionBytes(one)).toBe(bytes);
    expect(toolDefinitionTokens(one)).toBe(Math.ceil(bytes / 4));
    // 'é' is 2 bytes in UTF-8.
    expect(toolDefinitionBytes({ ...one, description: 'é' })).toBe(toolDefinitionBytes({ ...one, description: 'ab' }));
  });
});
