/**
 * The arguments a model wrote against a strict-mode schema, read back as the server's schema
 * means them: a `null` the fitter allowed only to mark an optional property as left out (strict
 * mode requires every property, ./fit.ts {@link NullPlan}) is removed, at any depth. A `null` the
 * server's own schema allows is kept. Pure. docs/ARCHITECTURE.md "Schemas every provider accepts".
 */
import type { NullPlan } from './fit.js';
import { isPlainObject } from './refs.js';

/** Most levels followed (the arguments are already bounded in depth; this bounds a recursive plan). */
const MAX_DEPTH = 64;

function restore(value: unknown, plan: NullPlan | null | undefined, defs: Readonly<Record<string, NullPlan>>, depth: number): unknown {
  if (!plan || depth > MAX_DEPTH) return value;
  if (plan.ref) return restore(value, defs[plan.ref], defs, depth + 1);
  if (Array.isArray(value)) return plan.items ? value.map((v) => restore(v, plan.items, defs, depth + 1)) : value;
  if (!isPlainObject(value)) return value;
  let out = value;
  if (plan.props) {
    out = {};
    for (const [k, v] of Object.entries(value)) {
      const p = Object.hasOwn(plan.props, k) ? plan.props[k] : undefined;
      if (p?.added && v === null) continue;
      out[k] = restore(v, p?.plan, defs, depth + 1);
    }
  }
  // Alternatives: the first object alternative's plan that names one of the value's keys.
  if (plan.anyOf) {
    const alt = plan.anyOf.find((a) => a.props && Object.keys(out).some((k) => Object.hasOwn(a.props!, k)));
    if (alt) out = restore(out, alt, defs, depth + 1) as Record<string, unknown>;
  }
  return out;
}

/**
 * `args` with the fitter's marker nulls removed (a new value; `args` is not changed).
 * @param nulls the plan of a fitted schema (`FitResult.nulls`), or null: `args` as they are
 */
export function restoreArguments(args: Record<string, unknown>, nulls: { root: NullPlan | null; defs: Record<string, NullPlan> } | null): Record<string, unknown> {
  if (!nulls) return args;
  const out = restore(args, nulls.root, nulls.defs, 0);
  return isPlainObject(out) ? out : args;
}
