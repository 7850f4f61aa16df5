/**
 * Tool budget: whether the tools about to be offered fit what the model provider accepts — a
 * tool-count cap (OpenAI's Chat Completions API accepts at most 128 tools) and a budget for the
 * size of their definitions (names, descriptions, input schemas go with every request and cost
 * context). Pure function; the agent calls it before sending and, when over, tells the user which
 * servers contribute most so they can narrow the set.
 */
import type { ModelProvider } from '../../preload/contract/index.js';

/** A tool as it is sent to the model (the fields that cost bytes). */
export interface BudgetTool {
  name: string;
  server: string;
  description: string;
  input_schema: Record<string, unknown>;
}

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

/** Per server: how many tools and bytes it contributes (largest first), to help narrow the set. */
export interface ServerShare {
  server: string;
  count: number;
  bytes: number;
}

/** The budget check's answer. */
export type ToolBudget =
  | { ok: true; count: number; bytes: number }
  | { ok: false; over: 'count' | 'bytes'; limit: number; actual: number; count: number; bytes: number; by_server: ServerShare[] };

/** Bytes one tool definition costs in a request (UTF-8 JSON of the function definition). */
export function toolBytes(t: BudgetTool): number {
  return Buffer.byteLength(JSON.stringify({ name: t.name, description: t.description, parameters: t.input_schema }), 'utf8');
}

/**
 * Check `tools` against the provider's limits (count first, then bytes).
 * @param limits override (tests, or a model profile with its own limits)
 */
export function checkToolBudget(tools: readonly BudgetTool[], provider: ModelProvider, limits: ToolLimits = limitsFor(provider)): ToolBudget {
  const shares = new Map<string, ServerShare>();
  let bytes = 0;
  for (const t of tools) {
    const b = toolBytes(t);
    bytes += b;
    const s = shares.get(t.server) ?? { server: t.server, count: 0, bytes: 0 };
    s.count++;
    s.bytes += b;
    shares.set(t.server, s);
  }
  const count = tools.length;
  const by_server = () => [...shares.values()].sort((a, b) => b.bytes - a.bytes || a.server.localeCompare(b.server));
  if (limits.maxTools !== null && count > limits.maxTools) return { ok: false, over: 'count', limit: limits.maxTools, actual: count, count, bytes, by_server: by_server() };
  if (bytes > limits.maxSchemaBytes) return { ok: false, over: 'bytes', limit: limits.maxSchemaBytes, actual: bytes, count, bytes, by_server: by_server() };
  return { ok: true, count, bytes };
}
