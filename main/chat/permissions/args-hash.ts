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
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`;
}

/** SHA-256 (hex) of the canonical JSON of `args`. */
export function argsHash(args: unknown): string {
  return createHash('sha256').update(canonicalJson(args)).digest('hex');
}
