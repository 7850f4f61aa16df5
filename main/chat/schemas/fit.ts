/**
 * The fitter: one tool input schema made to fit one provider family's profile (./profiles.ts) at
 * every depth — keep what the family accepts, drop or rewrite the rest, or say (a typed reason)
 * why the tool cannot be expressed. Pure; never throws. docs/ARCHITECTURE.md "Schemas every
 * provider accepts".
 *
 * Rewrites, by JSON Schema keyword: local `$ref` inlined (a cycle is kept as `$ref` into `$defs`
 * where the family allows recursion, else the tool is left out); `allOf` merged; `oneOf` → `anyOf`
 * where `oneOf` is not accepted; top-level `anyOf`/`oneOf` merged into one object; `const` →
 * `enum`; a `type` list → `nullable` or `anyOf`; a missing `type` inferred from the keywords;
 * tuple `items`/`prefixItems` → `items: {anyOf}`; draft-04 boolean `exclusiveMinimum`; malformed
 * keyword values, unknown keywords and keywords of another type dropped; strict objects closed
 * with every property required (an optional one nullable, remembered in a {@link NullPlan}).
 */
import { addDescription, COUNTS, inferType, isCount, isFiniteNumber, jsonTypeOf, KEYWORD_TYPE, makeNullable, NUMBERS, typeList, validPattern } from './keywords.js';
import { defName, isLocalRef, isPlainObject, resolveLocalRef } from './refs.js';
import type { SchemaProfile } from './profiles.js';
import type { SchemaFitReason } from '../../../preload/contract/index.js';

/**
 * Where the model's arguments may carry a `null` the fitter added (an optional property made
 * required-and-nullable for strict mode): such a `null` means "left out" and is removed before
 * the call (./nulls.ts).
 */
export interface NullPlan {
  /** Per property: `added` — a null there was added by the fitter; `plan` — the property's own plan. */
  props?: Record<string, { added: boolean; plan: NullPlan | null }>;
  items?: NullPlan;
  anyOf?: NullPlan[];
  /** A `$defs` entry whose plan applies here (recursion). */
  ref?: string;
}

/** The outcome of fitting one schema. */
export type FitResult =
  | { ok: true; schema: Record<string, unknown>; nulls: { root: NullPlan | null; defs: Record<string, NullPlan> } | null }
  | { ok: false; reason: SchemaFitReason };

/** Most schema nodes one fitted schema may hold (inlining can multiply a shared definition). */
export const MAX_FIT_NODES = 10_000;
/** Deepest nesting the walk follows, in schema nodes. */
const MAX_WALK_DEPTH = 64;

/** A schema (part) the family cannot express, and why. */
class Unfit extends Error {
  constructor(readonly reason: SchemaFitReason) {
    super(reason);
  }
}

interface Ctx {
  root: Record<string, unknown>;
  profile: SchemaProfile;
  /** Local pointers being inlined, outermost first (a repeat is a cycle). */
  stack: string[];
  nodes: number;
  properties: number;
  /** Pointers kept as `$defs` entries (recursion) → their names. */
  defs: Map<string, string>;
}

interface Fitted {
  schema: Record<string, unknown>;
  plan: NullPlan | null;
}

/**
 * One local `$ref` step: the target merged with the reference's sibling keywords, or null when the
 * reference is a cycle. A reference that points nowhere (or outside the document) is dropped.
 */
function deref(node: Record<string, unknown>, ctx: Ctx): { node: Record<string, unknown>; pushed: string | null } | { cycle: string } {
  const { $ref: ref, ...rest } = node;
  if (!isLocalRef(ref)) return { node: rest, pushed: null };
  if (ctx.stack.includes(ref)) return { cycle: ref };
  const target = resolveLocalRef(ctx.root, ref);
  const base = target === true ? {} : isPlainObject(target) ? target : {};
  return { node: { ...base, ...rest }, pushed: ref };
}

/** Merge `allOf` branches into one schema (properties and `required` unioned; the first value of other keywords wins). */
function mergeAllOf(node: Record<string, unknown>, ctx: Ctx): Record<string, unknown> {
  const { allOf, ...rest } = node;
  if (!Array.isArray(allOf)) return rest;
  const out: Record<string, unknown> = { ...rest };
  for (const raw of allOf) {
    if (!isPlainObject(raw)) continue;
    let branch = raw;
    if (branch.$ref !== undefined) {
      const d = deref(branch, ctx);
      if ('cycle' in d) continue;
      branch = d.node;
    }
    branch = mergeAllOf(branch, ctx);
    for (const [k, v] of Object.entries(branch)) {
      if (k === 'properties' && isPlainObject(v)) {
        const props = isPlainObject(out.properties) ? { ...out.properties } : {};
        for (const [name, s] of Object.entries(v)) props[name] = props[name] === undefined ? s : { allOf: [props[name], s] };
        out.properties = props;
      } else if (k === 'required' && Array.isArray(v)) {
        out.required = [...new Set([...(Array.isArray(out.required) ? out.required : []), ...v])];
      } else if (k === 'type' && out.type !== undefined) {
        const a = typeList(out);
        const b = typeList(branch);
        const both = a.filter((t) => b.includes(t) || (t === 'number' && b.includes('integer')) || (t === 'integer' && b.includes('number')));
        const narrowed = both.map((t) => (t === 'number' && b.includes('integer') && !b.includes('number') ? 'integer' : t));
        if (narrowed.length) out.type = narrowed.length === 1 ? narrowed[0] : narrowed;
      } else if (out[k] === undefined) out[k] = v;
    }
  }
  return out;
}

/**
 * The top level as one object schema: `anyOf`/`oneOf` alternatives there (not accepted at the top
 * by any family) become one object with every alternative's properties; a property is required
 * only when the top level requires it. Alternatives that only constrain (`{required: [...]}`) add
 * nothing.
 */
function mergeTopAlternatives(root: Record<string, unknown>, ctx: Ctx): Record<string, unknown> {
  const { anyOf, oneOf, ...rest } = root;
  const alts = [...(Array.isArray(anyOf) ? anyOf : []), ...(Array.isArray(oneOf) ? oneOf : [])];
  if (!alts.length) return rest;
  const props: Record<string, unknown> = isPlainObject(rest.properties) ? { ...rest.properties } : {};
  for (const raw of alts) {
    if (!isPlainObject(raw)) continue;
    let alt = raw;
    if (alt.$ref !== undefined) {
      const d = deref(alt, ctx);
      if ('cycle' in d) continue;
      alt = d.node;
    }
    alt = mergeAllOf(alt, ctx);
    if (isPlainObject(alt.properties)) for (const [k, v] of Object.entries(alt.properties)) if (props[k] === undefined) props[k] = v;
  }
  return { ...rest, type: rest.type ?? 'object', properties: props };
}

/** Fit one schema node (any depth). @throws Unfit */
function fitNode(raw: unknown, ctx: Ctx, depth: number, level: number): Fitted {
  if (++ctx.nodes > MAX_FIT_NODES || depth > MAX_WALK_DEPTH) throw new Unfit('too_large');
  const p = ctx.profile;
  if (raw === false) throw new Unfit('untyped_value');
  let node: Record<string, unknown> = isPlainObject(raw) ? raw : {};
  // References first: a local one is inlined (its target with the reference's siblings).
  let pushed: string | null = null;
  if (node.$ref !== undefined) {
    const d = deref(node, ctx);
    if ('cycle' in d) {
      if (!p.recursion) throw new Unfit('recursive');
      if (d.cycle === '#') return { schema: { $ref: '#' }, plan: null };
      if (!ctx.defs.has(d.cycle)) ctx.defs.set(d.cycle, defName(d.cycle, ctx.defs));
      const name = ctx.defs.get(d.cycle)!;
      return { schema: { $ref: `#/$defs/${name}` }, plan: { ref: name } };
    }
    node = d.node;
    pushed = d.pushed;
  }
  if (pushed) ctx.stack.push(pushed);
  try {
    return fitResolved(mergeAllOf(node, ctx), ctx, depth, level);
  } finally {
    if (pushed) ctx.stack.pop();
  }
}

function fitResolved(input: Record<string, unknown>, ctx: Ctx, depth: number, level: number): Fitted {
  const p = ctx.profile;
  const node: Record<string, unknown> = { ...input };
  if (node.$ref !== undefined) return fitNode(node, ctx, depth + 1, level);
  // Combinators: `oneOf` where only `anyOf` is accepted.
  if (node.oneOf !== undefined && !p.keywords.has('oneOf')) {
    if (Array.isArray(node.oneOf) && !Array.isArray(node.anyOf)) node.anyOf = node.oneOf;
    delete node.oneOf;
  }
  // `const` → `enum` where `const` is not accepted.
  if (node.const !== undefined && !p.keywords.has('const')) {
    if (!Array.isArray(node.enum)) node.enum = [node.const];
    delete node.const;
  }
  let types = typeList(node);
  if (!types.length && (p.typedValues || p.typed)) types = inferType(node);
  const out: Record<string, unknown> = {};
  const plan: NullPlan = {};
  let nullable = p.nullable && node.nullable === true;

  // anyOf: each alternative fitted; one the family cannot express is dropped.
  if (Array.isArray(node.anyOf) && p.keywords.has('anyOf')) {
    const branches: Fitted[] = [];
    let firstReason: SchemaFitReason | null = null;
    for (const b of node.anyOf) {
      if (p.nullable && isPlainObject(b) && b.type === 'null' && Object.keys(b).length === 1) {
        nullable = true;
        continue;
      }
      try {
        branches.push(fitNode(b, ctx, depth + 1, level));
      } catch (err) {
        if (!(err instanceof Unfit) || !p.dropOptional || err.reason === 'too_large') throw err;
        firstReason ??= err.reason;
      }
    }
    if (!branches.length && !nullable) throw new Unfit(firstReason ?? 'untyped_value');
    if (branches.length === 1 && !types.length && node.properties === undefined && node.items === undefined) {
      // One alternative left: it is the schema.
      const only = branches[0]!;
      for (const k of ['description', 'title']) if (typeof node[k] === 'string' && only.schema[k] === undefined) only.schema[k] = node[k];
      if (nullable) only.schema.nullable = true;
      return only;
    }
    if (branches.length) {
      out.anyOf = branches.map((b) => b.schema);
      if (branches.some((b) => b.plan)) plan.anyOf = branches.map((b) => b.plan ?? {});
    } else types = ['null'];
  }
  // oneOf where it is accepted (the lenient families): each alternative fitted.
  if (Array.isArray(node.oneOf) && p.keywords.has('oneOf')) out.oneOf = node.oneOf.map((b) => fitNode(b, ctx, depth + 1, level).schema);

  // type: a list where lists are not accepted → nullable, or anyOf of one schema per type.
  if (types.length > 1 && !p.typeLists) {
    const nonNull = types.filter((t) => t !== 'null');
    if (nonNull.length < types.length) nullable = true;
    if (nonNull.length > 1) {
      const alts = nonNull.map((t) => fitNode({ ...node, type: t, anyOf: undefined }, ctx, depth + 1, level));
      const { description } = node;
      const s: Record<string, unknown> = { anyOf: alts.map((a) => a.schema) };
      if (typeof description === 'string') s.description = description;
      if (nullable) s.nullable = true;
      return { schema: s, plan: null };
    }
    types = nonNull;
  }
  if (p.nullable && types.length === 1 && types[0] === 'null' && !out.anyOf) throw new Unfit('untyped_value');
  if (types.length === 1) out.type = types[0];
  else if (types.length > 1) out.type = types;
  const has = (t: string): boolean => !types.length || types.includes(t) || (t === 'number' && types.includes('integer'));
  const accepts = (k: string): boolean => p.keywords.has(k) && (!p.typed || !KEYWORD_TYPE[k] || has(KEYWORD_TYPE[k]!));

  // Annotations.
  for (const k of ['title', 'description']) if (accepts(k) && typeof node[k] === 'string') out[k] = node[k];
  if (accepts('default') && node.default !== undefined) out.default = node.default;
  if (accepts('examples') && Array.isArray(node.examples)) out.examples = node.examples;
  if (accepts('example') && node.example !== undefined) out.example = node.example;
  for (const k of ['deprecated', 'readOnly', 'writeOnly', 'uniqueItems']) if (accepts(k) && typeof node[k] === 'boolean') out[k] = node[k];

  // enum (and const where accepted).
  if (Array.isArray(node.enum) && node.enum.length && accepts('enum')) {
    if (!p.stringEnums) {
      // Where types are checked, a value of another type is left out of the list.
      const values = p.typed && types.length ? node.enum.filter((v) => has(jsonTypeOf(v)) || (v === null && types.includes('null'))) : node.enum;
      if (values.length) out.enum = values;
    } else {
      const values = node.enum.filter((v) => v !== null);
      if (values.length < node.enum.length) nullable = true;
      if (values.length && (types.length === 0 || types[0] === 'string') && values.every((v) => typeof v === 'string')) {
        out.type = 'string';
        out.enum = values;
      } else if (values.length && types[0] === 'string') {
        out.enum = [...new Set(values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))))];
      } else if (values.length) {
        addDescription(out, `one of: ${values.map((v) => JSON.stringify(v)).join(', ')}`);
      }
    }
  }
  if (node.const !== undefined && accepts('const')) out.const = node.const;

  // Scalar validation keywords with well-formed values.
  for (const k of COUNTS) if (accepts(k) && isCount(node[k])) out[k] = node[k];
  if (accepts('pattern') && validPattern(node.pattern)) out.pattern = node.pattern;
  if (typeof node.format === 'string' && accepts('format')) {
    const allowed = p.formats ? (p.formats[types[0] ?? 'string'] ?? []) : null;
    if (!allowed || allowed.includes(node.format)) out.format = node.format;
  }
  if (p.formats && out.format === 'enum' && !out.enum) delete out.format;
  if (accepts('multipleOf') && isFiniteNumber(node.multipleOf) && node.multipleOf > 0) out.multipleOf = node.multipleOf;
  // Draft-04 booleans: exclusiveMinimum: true means "minimum is exclusive".
  const nums: Record<string, unknown> = {};
  for (const k of NUMBERS) nums[k] = node[k];
  for (const [ex, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof nums[ex] === 'boolean') {
      if (nums[ex] === true && isFiniteNumber(nums[bound])) {
        nums[ex] = nums[bound];
        delete nums[bound];
      } else delete nums[ex];
    }
    // Where exclusive bounds are not accepted, an exclusive bound becomes an inclusive one.
    if (isFiniteNumber(nums[ex]) && !p.keywords.has(ex) && !isFiniteNumber(nums[bound])) nums[bound] = nums[ex];
  }
  for (const k of NUMBERS) if (accepts(k) && isFiniteNumber(nums[k])) out[k] = nums[k];

  // Arrays: items (a tuple becomes one schema: any of its entries).
  if (has('array') && (types.includes('array') || node.items !== undefined || node.prefixItems !== undefined)) {
    const tuple = Array.isArray(node.items) ? node.items : Array.isArray(node.prefixItems) && node.items === undefined ? node.prefixItems : null;
    const items = tuple ? (tuple.length ? (tuple.length === 1 ? tuple[0] : { anyOf: tuple }) : undefined) : node.items;
    if (p.maxNesting !== null && level + 1 > p.maxNesting) throw new Unfit('too_large');
    if (items !== undefined && items !== true && accepts('items')) {
      const f = fitNode(items, ctx, depth + 1, level + 1);
      out.items = f.schema;
      if (f.plan) plan.items = f.plan;
    } else if (p.arrayItems && types.includes('array')) {
      if (p.typedValues) throw new Unfit('untyped_value');
      out.items = {};
    }
  }

  // Objects: properties one by one; one the family cannot express is dropped when optional.
  const objectLike = types.includes('object') || (!types.length && (isPlainObject(node.properties) || node.additionalProperties !== undefined));
  if (objectLike && has('object')) {
    if (p.maxNesting !== null && level + 1 > p.maxNesting) throw new Unfit('too_large');
    const required = Array.isArray(node.required) ? node.required.filter((r): r is string => typeof r === 'string') : [];
    const props: Record<string, unknown> = {};
    const optional = new Set<string>();
    const dropped = new Set<string>();
    if (isPlainObject(node.properties)) {
      for (const [k, v] of Object.entries(node.properties)) {
        if (p.maxProperties !== null && ++ctx.properties > p.maxProperties) throw new Unfit('too_large');
        try {
          const f = fitNode(v, ctx, depth + 1, level + 1);
          props[k] = f.schema;
          if (!required.includes(k)) optional.add(k);
          if (f.plan) (plan.props ??= {})[k] = { added: false, plan: f.plan };
        } catch (err) {
          if (!(err instanceof Unfit) || !p.dropOptional || err.reason === 'too_large' || required.includes(k)) throw err;
          dropped.add(k);
        }
      }
    }
    const names = Object.keys(props);
    const extra = node.additionalProperties;
    const open = extra === undefined || extra === true || isPlainObject(extra);
    // A nested object without properties: Gemini refuses it; strict mode refuses an open one (a map).
    if (p.closedObjects && !names.length && level > 0 && (open || !p.strictObjects)) throw new Unfit('free_form_object');
    out.properties = props;
    if (p.strictObjects) {
      out.required = names;
      out.additionalProperties = false;
      for (const k of optional) {
        const added = makeNullable(props[k] as Record<string, unknown>);
        const prior = plan.props?.[k];
        if (added || prior) (plan.props ??= {})[k] = { added, plan: prior?.plan ?? null };
      }
    } else {
      const req = required.filter((r) => (p.typed ? Object.hasOwn(props, r) : !dropped.has(r)));
      if (req.length) out.required = [...new Set(req)];
      if (accepts('additionalProperties')) {
        if (typeof extra === 'boolean') out.additionalProperties = extra;
        else if (isPlainObject(extra)) {
          try {
            out.additionalProperties = fitNode(extra, ctx, depth + 1, level + 1).schema;
          } catch (err) {
            if (!(err instanceof Unfit) || err.reason === 'too_large') throw err;
          }
        }
      }
      if (accepts('patternProperties') && isPlainObject(node.patternProperties)) {
        const pp: Record<string, unknown> = {};
        for (const [re, s] of Object.entries(node.patternProperties)) {
          if (!validPattern(re)) continue;
          try {
            pp[re] = fitNode(s, ctx, depth + 1, level + 1).schema;
          } catch (err) {
            if (!(err instanceof Unfit) || err.reason === 'too_large') throw err;
          }
        }
        if (Object.keys(pp).length) out.patternProperties = pp;
      }
      if (accepts('propertyNames') && isPlainObject(node.propertyNames)) out.propertyNames = fitNode(node.propertyNames, ctx, depth + 1, level + 1).schema;
    }
  }
  if (accepts('not') && isPlainObject(node.not)) {
    try {
      out.not = fitNode(node.not, ctx, depth + 1, level).schema;
    } catch (err) {
      if (!(err instanceof Unfit) || err.reason === 'too_large') throw err;
    }
  }
  if (nullable) out.nullable = true;
  if (p.typedValues && out.type === undefined && out.anyOf === undefined && out.enum === undefined && out.$ref === undefined) throw new Unfit('untyped_value');
  return { schema: out, plan: plan.props || plan.items || plan.anyOf ? plan : null };
}

/**
 * Fit `schema` (a tool's input schema) to `profile` at every depth.
 * @returns the fitted schema — an object schema at the top — and, for strict objects, where a
 *   `null` in the arguments stands for a left-out property; or the typed reason the tool cannot be
 *   expressed (`not_object`, `recursive`, `untyped_value`, `free_form_object`, `too_large`).
 */
export function fitSchema(schema: unknown, profile: SchemaProfile): FitResult {
  if (!isPlainObject(schema)) return { ok: false, reason: 'not_object' };
  // The whole schema is being inlined from the start: a `$ref: "#"` inside it is a cycle.
  const ctx: Ctx = { root: schema, profile, stack: ['#'], nodes: 0, properties: 0, defs: new Map() };
  try {
    let top: Record<string, unknown> = schema;
    // A top level that is a reference (`{"$ref": "#/$defs/Args", "$defs": …}`) is its target.
    for (let hops = 0; top.$ref !== undefined && hops < MAX_WALK_DEPTH; hops++) {
      const d = deref(top, ctx);
      if ('cycle' in d) break;
      if (d.pushed) ctx.stack.push(d.pushed);
      top = d.node;
    }
    const { $defs: _d, definitions: _def, $schema: _s, $id: _i, ...body } = mergeAllOf(top, ctx);
    const root = mergeTopAlternatives(body, ctx);
    const types = typeList(root);
    if (types.length ? !types.includes('object') : root.type !== undefined) return { ok: false, reason: 'not_object' };
    const fitted = fitNode({ ...root, type: 'object' }, ctx, 0, 0);
    const out = fitted.schema;
    out.type = 'object';
    if (!isPlainObject(out.properties)) out.properties = {};
    delete out.nullable;
    delete out.not;
    // Recursion kept: each target once under `$defs`, fitted the same way.
    const defs: Record<string, unknown> = {};
    const defPlans: Record<string, NullPlan> = {};
    for (let done = 0; done < ctx.defs.size; done++) {
      const [ptr, name] = [...ctx.defs.entries()][done]!;
      ctx.stack = [ptr];
      const f = fitNode(resolveLocalRef(schema, ptr), ctx, 1, 1);
      defs[name] = f.schema;
      if (f.plan) defPlans[name] = f.plan;
    }
    if (Object.keys(defs).length) out.$defs = defs;
    const nulls = fitted.plan || Object.keys(defPlans).length ? { root: fitted.plan, defs: defPlans } : null;
    return { ok: true, schema: out, nulls };
  } catch (err) {
    if (err instanceof Unfit) return { ok: false, reason: err.reason };
    if (err instanceof RangeError) return { ok: false, reason: 'too_large' };
    throw err;
  }
}
