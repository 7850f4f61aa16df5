/**
 * A tool's pinned definition and its stable hash (docs/ARCHITECTURE.md "Pinned tool definitions").
 * The definition is what the user saw of a tool: its name, title, description, input and output
 * schema and annotations (MCP spec 2025-11-25 "Tools: Tool"). `_meta`, icons and `execution` are
 * not part of it. The hash is the SHA-256 of the definition's canonical JSON (object keys sorted
 * at every depth, array order kept, absent and `undefined` members dropped), so the same
 * definition always hashes alike whatever order the server wrote its keys in. {@link sameJson}
 * says whether two definitions are equal as JSON without serialising either, so a re-listed
 * definition equal to the last one reuses its hash. Pure functions.
 */
import { createHash } from 'node:crypto';
import type { Tool } from '@modelcontextprotocol/client';
import { canonicalJson } from '../../chat/permissions/args-hash.js';

/** What counts for a pin: the fields of a listed tool that describe what it does. */
export interface ToolDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

/** The fields of a tool that make its definition. */
const DEFINITION_FIELDS = new Set(['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations']);

/**
 * The pinned fields of a listed tool; absent fields stay absent. A tool with no other fields is
 * its own definition (returned as it is, shared with the listing: never mutate it); otherwise a
 * fresh object holding the listing's values.
 */
export function definitionOf(tool: Pick<Tool, 'name' | 'title' | 'description' | 'inputSchema' | 'outputSchema' | 'annotations'>): ToolDefinition {
  if (typeof tool.inputSchema === 'object' && tool.inputSchema !== null) {
    let only = true;
    for (const k in tool) if (!DEFINITION_FIELDS.has(k)) only = false;
    if (only) return tool as ToolDefinition;
  }
  const d: ToolDefinition = { name: tool.name, inputSchema: (tool.inputSchema ?? {}) as Record<string, unknown> };
  if (tool.title !== undefined) d.title = tool.title;
  if (tool.description !== undefined) d.description = tool.description;
  if (tool.outputSchema !== undefined) d.outputSchema = tool.outputSchema as Record<string, unknown>;
  if (tool.annotations !== undefined) d.annotations = tool.annotations as Record<string, unknown>;
  return d;
}

/** SHA-256 (hex) of the canonical JSON of a definition: equal for equal definitions, whatever their key order. */
export function definitionHash(def: ToolDefinition): string {
  return createHash('sha256').update(canonicalJson(def)).digest('hex');
}

/** Deepest nesting {@link sameJson} walks; deeper values are reported unequal (the caller hashes). */
const SAME_JSON_DEPTH = 64;

/**
 * Whether `a` and `b` are the same JSON value: equal primitives, arrays equal item by item, objects
 * with the same keys (in any order) holding equal values. Conservative: a member set to
 * `undefined`, a non-finite number, a non-plain value or nesting past {@link SAME_JSON_DEPTH}
 * counts as unequal, so `true` always means an equal {@link canonicalJson} (and hash), and
 * `false` only means "hash again". No strings are built, so it costs far less than serialising.
 */
export function sameJson(a: unknown, b: unknown, depth = 0): boolean {
  if (a === b) return typeof a !== 'number' || Number.isFinite(a);
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || depth >= SAME_JSON_DEPTH) return false;
  const arr = Array.isArray(a);
  if (arr !== Array.isArray(b)) return false;
  if (arr) {
    const x = a as unknown[];
    const y = b as unknown[];
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (x[i] === undefined || !sameJson(x[i], y[i], depth + 1)) return false;
    return true;
  }
  if (Object.getPrototypeOf(a) !== Object.prototype && Object.getPrototypeOf(a) !== null) return false;
  if (Object.getPrototypeOf(b) !== Object.prototype && Object.getPrototypeOf(b) !== null) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x);
  if (keys.length !== Object.keys(y).length) return false;
  for (const k of keys) {
    const v = x[k];
    if (v === undefined || !Object.prototype.hasOwnProperty.call(y, k) || !sameJson(v, y[k], depth + 1)) return false;
  }
  return true;
}
