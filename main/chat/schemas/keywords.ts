/**
 * JSON Schema keyword facts the fitter (./fit.ts) works with: which keywords apply to which type,
 * well-formed keyword values, a schema's types (read or inferred from its keywords), and making a
 * fitted schema nullable. Pure. docs/ARCHITECTURE.md "Schemas every provider accepts".
 */
import { isPlainObject } from './refs.js';

/** JSON Schema's type names (draft 2020-12 "type"). */
export const JSON_TYPES = ['object', 'array', 'string', 'number', 'integer', 'boolean', 'null'];
/** Keywords that apply to one JSON type (JSON Schema 2020-12 validation vocabulary). */
export const KEYWORD_TYPE: Record<string, string> = {
  minLength: 'string',
  maxLength: 'string',
  pattern: 'string',
  format: 'string',
  minimum: 'number',
  maximum: 'number',
  exclusiveMinimum: 'number',
  exclusiveMaximum: 'number',
  multipleOf: 'number',
  items: 'array',
  prefixItems: 'array',
  minItems: 'array',
  maxItems: 'array',
  uniqueItems: 'array',
  properties: 'object',
  required: 'object',
  additionalProperties: 'object',
  patternProperties: 'object',
  propertyNames: 'object',
  minProperties: 'object',
  maxProperties: 'object',
};
/** Keywords whose value is a count. */
export const COUNTS = ['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties'];
/** Keywords whose value is a number bound. */
export const NUMBERS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'];

/** Whether a value is a count (a non-negative integer). */
export const isCount = (v: unknown): boolean => typeof v === 'number' && Number.isInteger(v) && v >= 0;
/** Whether a value is a finite number. */
export const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Whether `p` is a regular expression JavaScript can compile (with the `u` flag). */
export function validPattern(p: unknown): boolean {
  if (typeof p !== 'string') return false;
  try {
    new RegExp(p, 'u');
    return true;
  } catch {
    return false;
  }
}

/** Append `note` to a schema's description (in parentheses when there is one). */
export function addDescription(s: Record<string, unknown>, note: string): void {
  s.description = typeof s.description === 'string' && s.description ? `${s.description} (${note})` : note;
}

/** The JSON type of a value as JSON Schema names it. */
export function jsonTypeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** The node's `type` keyword as a list of known types ([] when absent or unusable). */
export function typeList(node: Record<string, unknown>): string[] {
  const t = node.type;
  const list = typeof t === 'string' ? [t] : Array.isArray(t) ? t : [];
  return [...new Set(list.filter((x): x is string => typeof x === 'string' && JSON_TYPES.includes(x)))];
}

/** A type read from the keywords present (JSON Schema allows leaving `type` out). */
export function inferType(node: Record<string, unknown>): string[] {
  if (isPlainObject(node.properties) || Array.isArray(node.required) || node.additionalProperties !== undefined || isPlainObject(node.patternProperties)) return ['object'];
  if (node.items !== undefined || Array.isArray(node.prefixItems)) return ['array'];
  const values = Array.isArray(node.enum) ? node.enum : node.const !== undefined ? [node.const] : null;
  if (values && values.length) {
    const types = [...new Set(values.map(jsonTypeOf))];
    const merged = types.includes('number') ? types.filter((t) => t !== 'integer') : types;
    if (merged.every((t) => JSON_TYPES.includes(t))) return merged;
  }
  if (['minLength', 'maxLength', 'pattern', 'format'].some((k) => node[k] !== undefined)) return ['string'];
  if (['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'].some((k) => node[k] !== undefined)) return ['number'];
  return [];
}

/** Make a fitted schema also accept null (strict mode's optional property). Returns whether null was added. */
export function makeNullable(s: Record<string, unknown>): boolean {
  const types = typeList(s);
  if (types.includes('null')) return false;
  if (types.length) {
    s.type = [...types, 'null'];
    if (Array.isArray(s.enum) && !s.enum.includes(null)) s.enum = [...s.enum, null];
    return true;
  }
  if (Array.isArray(s.enum) && !s.$ref && !s.anyOf) {
    if (s.enum.includes(null)) return false;
    s.enum = [...s.enum, null];
    return true;
  }
  if (Array.isArray(s.anyOf)) {
    if (s.anyOf.some((b) => isPlainObject(b) && typeList(b).includes('null'))) return false;
    s.anyOf = [...s.anyOf, { type: 'null' }];
    return true;
  }
  const { description, ...rest } = s;
  for (const k of Object.keys(s)) delete s[k];
  Object.assign(s, { anyOf: [rest, { type: 'null' }] }, description !== undefined ? { description } : {});
  return true;
}
