/**
 * Schemas every provider accepts: this room's one job is to fit each tool's input schema to the
 * JSON Schema subset of the provider family a request goes to (./profiles.ts), at every depth
 * (./fit.ts), and to leave out — with a typed reason — only the tool that cannot be expressed, so
 * one server's schema never breaks every chat. docs/ARCHITECTURE.md "Schemas every provider
 * accepts".
 */
import type { SchemaFamily, SchemaFitReason } from '../../../preload/contract/index.js';
import type { RegisteredTool } from '../../mcp/adapter.js';
import { fitSchema, type NullPlan } from './fit.js';
import { SCHEMA_PROFILES, type FitFamily } from './profiles.js';

export { fitSchema, type FitResult, type NullPlan } from './fit.js';
export { restoreArguments } from './nulls.js';
export { fitFamilyOf, SCHEMA_PROFILES, type FitFamily, type SchemaProfile } from './profiles.js';

/** Every family a tool may be left out for (the families of ServerIssue). */
export const SCHEMA_FAMILIES: readonly SchemaFamily[] = ['openai', 'gemini', 'anthropic'];

/** A tool fitted for one family: its schema as sent, whether strict mode is on, and its null plan. */
export interface FittedTool extends RegisteredTool {
  /** OpenAI strict mode for this tool (`strict: true` on the function). */
  strict: boolean;
  /** Marker nulls to remove from the model's arguments (./nulls.ts), or null. */
  nulls: { root: NullPlan | null; defs: Record<string, NullPlan> } | null;
}

/** One tool's fit for one family. */
export type ToolFit = { ok: true; schema: Record<string, unknown>; strict: boolean; nulls: FittedTool['nulls'] } | { ok: false; family: SchemaFamily; reason: SchemaFitReason };

/**
 * Fit one input schema for `family`. OpenAI's strict mode is tried first and, when the schema
 * cannot be expressed there, the tool goes without strict mode (OpenAI's non-strict rules).
 */
export function fitToolSchema(schema: Record<string, unknown>, family: FitFamily): ToolFit {
  if (family === 'openai_strict') {
    const strict = fitSchema(schema, SCHEMA_PROFILES.openai_strict);
    if (strict.ok) return { ok: true, schema: strict.schema, strict: true, nulls: strict.nulls };
    return fitToolSchema(schema, 'openai');
  }
  const r = fitSchema(schema, SCHEMA_PROFILES[family]);
  return r.ok ? { ok: true, schema: r.schema, strict: false, nulls: r.nulls } : { ok: false, family, reason: r.reason };
}

/**
 * The tools of one request to `family`: each fitted, the ones that cannot be expressed left out.
 * @returns the fitted tools in order, and the left-out ones with their reasons
 */
export function fitToolsFor(tools: readonly RegisteredTool[], family: FitFamily): { tools: FittedTool[]; leftOut: Array<{ tool: RegisteredTool; reason: SchemaFitReason }> } {
  const out: FittedTool[] = [];
  const leftOut: Array<{ tool: RegisteredTool; reason: SchemaFitReason }> = [];
  for (const t of tools) {
    const f = fitToolSchema(t.input_schema, family);
    if (f.ok) out.push({ ...t, input_schema: f.schema, strict: f.strict, nulls: f.nulls });
    else leftOut.push({ tool: t, reason: f.reason });
  }
  return { tools: out, leftOut };
}

/**
 * For a server's card: per tool (`name`, its input schema as offered), each family that must
 * leave it out, and why. Tools every family takes are not listed.
 */
export function familiesLeavingOut(tools: ReadonlyArray<{ name: string; inputSchema: Record<string, unknown> }>): Array<{ tool: string; family: SchemaFamily; reason: SchemaFitReason }> {
  const out: Array<{ tool: string; family: SchemaFamily; reason: SchemaFitReason }> = [];
  for (const t of tools) {
    for (const family of SCHEMA_FAMILIES) {
      const f = fitToolSchema(t.inputSchema, family);
      if (!f.ok) out.push({ tool: t.name, family, reason: f.reason });
    }
  }
  return out;
}
