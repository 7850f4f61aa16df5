/**
 * A tool's pinned definition and its stable hash (docs/ARCHITECTURE.md "Pinned tool definitions").
 * The definition is what the user saw of a tool: its name, title, description, input and output
 * schema and annotations (MCP spec 2025-11-25 "Tools: Tool"). `_meta`, icons and `execution` are
 * not part of it. The hash is the SHA-256 of the definition's canonical JSON (object keys sorted
 * at every depth, array order kept, absent and `undefined` members dropped), so the same
 * definition always hashes alike whatever order the server wrote its keys in. Pure functions.
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

/** The pinned fields of a listed tool (a fresh object; absent fields stay absent). */
export function definitionOf(tool: Pick<Tool, 'name' | 'title' | 'description' | 'inputSchema' | 'outputSchema' | 'annotations'>): ToolDefinition {
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
