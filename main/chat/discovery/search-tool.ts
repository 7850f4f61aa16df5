/**
 * The host's tool search for the model (`host__search_tools`), offered only when a run cannot
 * offer every tool at once (./tool-offer.ts; docs/ARCHITECTURE.md "Tool discovery"). It looks
 * through names and descriptions of the tools the user enabled for the conversation — nothing
 * leaves the app, no server is called — and the tools it finds are offered from the next step,
 * where calling them passes the permission gate like any tool. Each search is recorded as a tool
 * card of the run, its result listing what was found.
 */
import { dynamicTool, jsonSchema, type Tool } from 'ai';
import { toolDefinitionTokens } from '../../../preload/contract/rules/index.js';
import { META_SERVER } from '../../mcp/protocol/meta-tools.js';
import type { RunRecorder } from '../run-recorder.js';
import { DEFAULT_FOUND_PER_SEARCH, MAX_FOUND_PER_SEARCH, type ToolOffer } from './tool-offer.js';

/** The search tool's real name (namespaced like the other host tools: `host__search_tools`). */
export const SEARCH_TOOL = 'search_tools';
/** Its namespaced name as offered. */
export const SEARCH_TOOL_NAME = `host__${SEARCH_TOOL}`;
/** Longest description of a found tool in the answer (characters). */
const MAX_DESCRIPTION = 240;
/** Most already-offered matches named in the answer. */
const MAX_ALREADY = 5;
/** Longest query kept (characters). */
const MAX_QUERY = 500;

const DESCRIPTION =
  'Only some of the tools you may use are offered at once. Search all of them by what you need (words from a tool name or description); the best matches become callable from your next step.';

const INPUT_SCHEMA = {
  type: 'object',
  properties: {
    query: { type: 'string', description: 'What the tool should do, in a few words (e.g. "read file", "create calendar event").' },
    limit: { type: 'integer', minimum: 1, maximum: MAX_FOUND_PER_SEARCH, description: `How many tools to bring in (default ${DEFAULT_FOUND_PER_SEARCH}).` },
  },
  required: ['query'],
  additionalProperties: false,
} as const;

/** The search tool's name (unused by the candidates) and its estimated definition tokens. */
export function searchToolSpec(taken: ReadonlySet<string>): { name: string; tokens: number } {
  let name = SEARCH_TOOL_NAME;
  for (let i = 2; taken.has(name); i++) name = `${SEARCH_TOOL_NAME}_${i}`;
  return { name, tokens: toolDefinitionTokens({ name, description: DESCRIPTION, input_schema: INPUT_SCHEMA as unknown as Record<string, unknown> }) };
}

/** The answer the model gets for one search (JSON text). */
function answer(outcome: ReturnType<ToolOffer['search']>, query: string): string {
  const brief = (t: { name: string; description: string }) => ({ name: t.name, description: t.description.slice(0, MAX_DESCRIPTION) });
  const doc: Record<string, unknown> = { query, found: outcome.found.map(brief) };
  if (outcome.already.length) doc.already_offered = outcome.already.slice(0, MAX_ALREADY).map((t) => t.name);
  if (outcome.too_large.length) doc.too_large = outcome.too_large.map((t) => t.name);
  doc.note = outcome.found.length
    ? 'The found tools can be called from your next step.'
    : outcome.already.length
      ? 'The matching tools are offered already: call them.'
      : 'No enabled tool matches; try other words.';
  return JSON.stringify(doc, null, 1);
}

/**
 * The AI SDK tool that runs searches over `offer` and records each as a tool card of the run.
 * @param name the name it is offered under (see {@link searchToolSpec})
 */
export function buildSearchTool(offer: ToolOffer, name: string, rec: RunRecorder): Tool {
  return dynamicTool({
    description: DESCRIPTION,
    inputSchema: jsonSchema(INPUT_SCHEMA as unknown as Parameters<typeof jsonSchema>[0]),
    execute: async (input, { toolCallId }) => {
      const started = performance.now();
      const args = (typeof input === 'object' && input !== null ? input : {}) as { query?: unknown; limit?: unknown };
      const query = typeof args.query === 'string' ? args.query.slice(0, MAX_QUERY) : '';
      const limit = typeof args.limit === 'number' && Number.isFinite(args.limit) ? args.limit : DEFAULT_FOUND_PER_SEARCH;
      rec.toolStart({ call_id: toolCallId, tool: name, server: META_SERVER, original_name: SEARCH_TOOL, args: { query, limit } }, 'running');
      const text = answer(offer.search(query, limit), query);
      rec.toolEnd(toolCallId, { state: 'ok', content: [{ type: 'text', text }], error: null, duration_ms: Math.round(performance.now() - started) });
      return text;
    },
  });
}
