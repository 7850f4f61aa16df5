/**
 * Canonical JSON of tool-call arguments and its SHA-256, so an approval binds to the exact
 * arguments shown to the user. Pure functions.
 */
import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted at every depth (arrays keep their order); `undefined` members are
 * dropped as JSON.stringify does. Two argument objects that serialise alike hash alike.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      const v: unknown = value[i];
      out += v === undefined ? 'null' : canonicalJson(v);
    }
    return `${out}]`;
  }
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj).sort();
  let out = '{';
  let first = true;
  for (const k of keys) {
    const v = obj[k];
    if (v === undefined) continue;
    if (!first) out += ',';
    first = false;
    out += `${JSON.stringify(k)}:${canonicalJson(v)}`;
  }
  return `${out}}`;
}

/** SHA-256 (hex) of the canonical JSON of `args`. */
export function argsHash(args: unknown): string {
  return createHash('sha256').update(canonicalJson(args)).digest('hex');
}
