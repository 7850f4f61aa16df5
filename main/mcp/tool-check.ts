/**
 * Checks a server's listed tools one by one (MCP spec "Tools: Tool" — `inputSchema` is a JSON
 * Schema object with `type: "object"`), so that one malformed tool costs only itself: the good
 * tools are kept, each bad one becomes a {@link ServerIssue} that names it, and the model is
 * offered only input schemas its provider accepts (a top-level object schema).
 * docs/ARCHITECTURE.md "Tool schemas".
 */
import { specTypeSchemas, type Tool } from '@modelcontextprotocol/client';
import type { ServerIssue } from '../../preload/contract/index.js';
import { exceedsDepth, MAX_SCHEMA_DEPTH } from './adapter.js';

/** Longest tool name kept in an issue, in characters. */
const MAX_ISSUE_NAME = 128;
/** JSON Schema's type names (draft 2020-12 "type"). */
const JSON_TYPES = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean', 'null']);

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Whether `type` (a keyword value) names JSON types only. */
function validTypeKeyword(type: unknown): boolean {
  if (typeof type === 'string') return JSON_TYPES.has(type);
  return Array.isArray(type) && type.length > 0 && type.every((t) => typeof t === 'string' && JSON_TYPES.has(t));
}

/**
 * Why an input schema cannot be offered, or null when it can. Checks the shape providers insist
 * on: an object schema at the top; `properties` a map of schemas (objects or booleans) whose
 * `type` keywords name JSON types; `required` a list of strings.
 */
function schemaProblem(schema: Record<string, unknown>): Extract<ServerIssue, { kind: 'tool_rejected' }>['reason'] | null {
  if (schema.type !== 'object') return 'not_object';
  if (schema.properties !== undefined) {
    if (!isPlainObject(schema.properties)) return 'invalid_schema';
    for (const p of Object.values(schema.properties)) {
      if (typeof p === 'boolean') continue;
      if (!isPlainObject(p)) return 'invalid_schema';
      if (p.type !== undefined && !validTypeKeyword(p.type)) return 'invalid_schema';
    }
  }
  if (schema.required !== undefined && !(Array.isArray(schema.required) && schema.required.every((r) => typeof r === 'string'))) return 'invalid_schema';
  return null;
}

/**
 * Split listed tools into those the app offers and issues for the rest.
 * - input schema not a JSON object, or with a top-level `type` other than `"object"` → left out
 *   (`not_object`); a schema without `type` is read as an object schema (common in the wild);
 * - malformed `properties` / `required` / property types, or a tool that otherwise fails the
 *   spec's Tool shape (title, annotations, outputSchema, …) → left out (`invalid_schema`);
 * - nested deeper than {@link MAX_SCHEMA_DEPTH} → kept without its schema (`too_deep`).
 * Never throws; issues name the tool (cut to 128 characters).
 */
export function checkTools(raw: ReadonlyArray<Record<string, unknown> & { name: string }>): { tools: Tool[]; issues: ServerIssue[] } {
  const tools: Tool[] = [];
  const issues: ServerIssue[] = [];
  for (const t of raw) {
    const name = t.name.slice(0, MAX_ISSUE_NAME);
    const rejected = (reason: Extract<ServerIssue, { kind: 'tool_rejected' }>['reason']) => issues.push({ kind: 'tool_rejected', tool: name, reason });
    if (exceedsDepth(t.inputSchema, MAX_SCHEMA_DEPTH) || exceedsDepth(t.outputSchema, MAX_SCHEMA_DEPTH)) {
      issues.push({ kind: 'tool_schema_dropped', tool: name, reason: 'too_deep' });
      const { outputSchema: _dropped, ...rest } = t;
      tools.push({ ...rest, inputSchema: { type: 'object', properties: {} } } as Tool);
      continue;
    }
    if (!isPlainObject(t.inputSchema)) {
      rejected('not_object');
      continue;
    }
    const inputSchema = t.inputSchema.type === undefined ? { ...t.inputSchema, type: 'object' } : t.inputSchema;
    const problem = schemaProblem(inputSchema);
    if (problem) {
      rejected(problem);
      continue;
    }
    const candidate = { ...t, inputSchema };
    const checked = specTypeSchemas.Tool['~standard'].validate(candidate);
    if (checked instanceof Promise || checked.issues) {
      rejected('invalid_schema');
      continue;
    }
    tools.push(candidate as unknown as Tool);
  }
  return { tools, issues };
}
