/**
 * A readable diff between a tool's pinned definition and the one listed now (docs/ARCHITECTURE.md
 * "Pinned tool definitions"): title and description text, the properties of the input and output
 * schemas (added, removed, changed, by dotted path through nested `properties`), their `required`
 * lists, the schemas' other parts, and each declared annotation. Pure functions; the entries are
 * the contract's `ToolDiffEntry`, in that order, so the same two definitions give the same diff.
 */
import type { ToolDiffEntry } from '../../../preload/contract/index.js';
import { canonicalJson } from '../../chat/permissions/args-hash.js';
import type { ToolDefinition } from './definition.js';

/** Longest schema fragment shown in a diff entry, in characters. */
export const MAX_DIFF_TEXT = 300;
/** Most entries one diff lists (a rewritten tool says enough with these). */
export const MAX_DIFF_ENTRIES = 50;
/** Deepest nesting of `properties` compared property by property (deeper: compared whole). */
const MAX_DEPTH = 6;

type Json = Record<string, unknown>;
type SchemaName = 'input' | 'output';

const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const own = (o: Json, k: string): unknown => (Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined);

/** A schema fragment as short JSON text (canonical, cut to {@link MAX_DIFF_TEXT}). */
function shown(v: unknown): string {
  const text = canonicalJson(v);
  return text.length > MAX_DIFF_TEXT ? `${text.slice(0, MAX_DIFF_TEXT - 1)}…` : text;
}

function textOrNull(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

function requiredOf(schema: Json): string[] {
  const r = own(schema, 'required');
  return Array.isArray(r) ? r.filter((x): x is string => typeof x === 'string') : [];
}

/** A schema without the parts compared separately (`properties`, `required`). */
function rest(schema: Json): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(schema)) if (k !== 'properties' && k !== 'required') out[k] = v;
  return out;
}

function diffSchema(which: SchemaName, before: Json, after: Json, path: string, depth: number, out: ToolDiffEntry[]): void {
  const pb = isRecord(own(before, 'properties')) ? (own(before, 'properties') as Json) : {};
  const pa = isRecord(own(after, 'properties')) ? (own(after, 'properties') as Json) : {};
  const names = [...new Set([...Object.keys(pb), ...Object.keys(pa)])].sort();
  for (const n of names) {
    const p = path ? `${path}.${n}` : n;
    const b = own(pb, n);
    const a = own(pa, n);
    if (b === undefined) out.push({ kind: 'property_added', schema: which, path: p, after: shown(a) });
    else if (a === undefined) out.push({ kind: 'property_removed', schema: which, path: p, before: shown(b) });
    else if (canonicalJson(b) !== canonicalJson(a)) {
      // A nested object schema is compared property by property, so the diff names the leaf.
      if (depth < MAX_DEPTH && isRecord(b) && isRecord(a) && (isRecord(own(b, 'properties')) || isRecord(own(a, 'properties')))) {
        const restB = rest(b);
        const restA = rest(a);
        if (canonicalJson(restB) !== canonicalJson(restA)) out.push({ kind: 'property_changed', schema: which, path: p, before: shown(restB), after: shown(restA) });
        diffSchema(which, b, a, p, depth + 1, out);
      } else out.push({ kind: 'property_changed', schema: which, path: p, before: shown(b), after: shown(a) });
    }
  }
  const rb = new Set(requiredOf(before));
  const ra = new Set(requiredOf(after));
  const added = [...ra].filter((n) => !rb.has(n)).sort();
  const removed = [...rb].filter((n) => !ra.has(n)).sort();
  if (added.length || removed.length) out.push({ kind: 'required', schema: which, path, added, removed });
  if (path === '' && canonicalJson(rest(before)) !== canonicalJson(rest(after))) out.push({ kind: 'schema', schema: which, before: shown(rest(before)), after: shown(rest(after)) });
}

/** The annotation hints compared, in the order shown. */
const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint', 'title'] as const;

function hintValue(v: unknown): string | boolean | null {
  return typeof v === 'boolean' || typeof v === 'string' ? v : v === undefined || v === null ? null : shown(v);
}

/**
 * What changed from `before` (the pin) to `after` (listed now), as {@link ToolDiffEntry}s; empty
 * when the two are equal in canonical JSON. At most {@link MAX_DIFF_ENTRIES} entries.
 */
export function diffDefinitions(before: ToolDefinition, after: ToolDefinition): ToolDiffEntry[] {
  const out: ToolDiffEntry[] = [];
  if (textOrNull(before.title) !== textOrNull(after.title)) out.push({ kind: 'title', before: textOrNull(before.title), after: textOrNull(after.title) });
  if (textOrNull(before.description) !== textOrNull(after.description)) out.push({ kind: 'description', before: textOrNull(before.description), after: textOrNull(after.description) });
  diffSchema('input', isRecord(before.inputSchema) ? before.inputSchema : {}, isRecord(after.inputSchema) ? after.inputSchema : {}, '', 0, out);
  const ob = before.outputSchema;
  const oa = after.outputSchema;
  if (isRecord(ob) && isRecord(oa)) diffSchema('output', ob, oa, '', 0, out);
  else if (canonicalJson(ob ?? null) !== canonicalJson(oa ?? null)) out.push({ kind: 'schema', schema: 'output', before: ob === undefined ? null : shown(ob), after: oa === undefined ? null : shown(oa) });
  const ab = isRecord(before.annotations) ? before.annotations : {};
  const aa = isRecord(after.annotations) ? after.annotations : {};
  for (const hint of HINTS) {
    const b = hintValue(own(ab, hint));
    const a = hintValue(own(aa, hint));
    if (b !== a) out.push({ kind: 'annotation', hint, before: b, after: a });
  }
  const others = [...new Set([...Object.keys(ab), ...Object.keys(aa)])].filter((k) => !(HINTS as readonly string[]).includes(k)).sort();
  for (const k of others) if (canonicalJson(own(ab, k) ?? null) !== canonicalJson(own(aa, k) ?? null)) out.push({ kind: 'annotation', hint: k.slice(0, 64), before: hintValue(own(ab, k)), after: hintValue(own(aa, k)) });
  return out.slice(0, MAX_DIFF_ENTRIES);
}
