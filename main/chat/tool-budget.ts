/**
 * What each model provider accepts of tool definitions (docs/ARCHITECTURE.md "Context budget"): a
 * tool-count cap (OpenAI's Chat Completions API accepts at most 128 tools) and a budget for the
 * size of their definitions (names, descriptions, input schemas go with every request and cost
 * context). The run's budget (./run-budget.ts) turns these into the limits of each step; more
 * tools than fit are offered through discovery (./discovery/tool-offer.ts), never refused.
 */
import type { ModelProvider } from '../../preload/contract/index.js';

/** Limits of one provider. `maxTools` null = no documented cap. */
export interface ToolLimits {
  maxTools: number | null;
  /** Most bytes of serialised tool definitions (UTF-8 JSON of name + description + schema). */
  maxSchemaBytes: number;
}

/**
 * Default schema budget: 48 KiB of definitions (about 12k tokens), a quarter of a small 32k-token
 * context window once a conversation is under way. One measured setup of 113 tools came to
 * about 52 KB, which is the case this budget is meant to catch.
 */
export const DEFAULT_SCHEMA_BYTES = 48 * 1024;

/** Limits per provider kind. OpenAI-compatible endpoints follow OpenAI's 128-tool cap. */
export function limitsFor(provider: ModelProvider): ToolLimits {
  return provider === 'openai-compatible' ? { maxTools: 128, maxSchemaBytes: DEFAULT_SCHEMA_BYTES } : { maxTools: null, maxSchemaBytes: DEFAULT_SCHEMA_BYTES };
}
