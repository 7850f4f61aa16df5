/**
 * What each provider family accepts of JSON Schema in a tool's input schema — one profile per
 * family — and which family a model profile talks to. Data only; the fitter (./fit.ts) reads it.
 * docs/ARCHITECTURE.md "Schemas every provider accepts".
 *
 * - `anthropic` (Messages API `input_schema`): JSON Schema, but the top level must be
 *   `type: "object"` without `anyOf`/`oneOf`/`allOf`.
 * - `openai` (any OpenAI-compatible Chat Completions endpoint, `strict` off): JSON Schema with an
 *   object at the top (no top-level combinators) and `items` on every array schema.
 * - `openai_strict` (OpenAI's Structured Outputs for function calling, `strict: true`): the
 *   documented subset — every object has `additionalProperties: false` and lists every property in
 *   `required` (an optional one is made nullable), every schema has a `type` (or `anyOf`/`enum`/
 *   `$ref`), no `oneOf`/`allOf`/`not`/`patternProperties`/`minLength`…, `format` only from its list,
 *   at most 10 levels of nesting and 5000 properties; recursion through `$ref`/`$defs` is allowed.
 * - `gemini` (Gemini's function declarations, an OpenAPI 3.0 Schema subset, also behind its
 *   OpenAI-compatible endpoint): the fields of its `Schema` object only — no `$ref`/`$defs`,
 *   `additionalProperties`, `const`, `oneOf`/`allOf`, `exclusiveMinimum`…; one `type` per schema
 *   (`nullable` for null), `enum` on strings only, `format` per type from its list, an `items` on
 *   every array and at least one property on every nested object.
 */
import type { SchemaFamily } from '../../../preload/contract/index.js';
import type { ModelSettings } from '../settings.js';

/** A family the fitter knows: the contract's families plus OpenAI's strict mode (never reported: it falls back to `openai`). */
export type FitFamily = SchemaFamily | 'openai_strict';

/** The subset of JSON Schema one family accepts, as the fitter applies it. */
export interface SchemaProfile {
  family: FitFamily;
  /** Keywords kept (JSON Schema keyword names); every other keyword is dropped. */
  keywords: ReadonlySet<string>;
  /** Keywords that apply to one JSON type only; on a schema of another single type they are dropped. */
  typed: boolean;
  /** Recursion (a `$ref` cycle) kept as `$ref` into `$defs`; false: the tool cannot be expressed. */
  recursion: boolean;
  /** A `type` list is kept; false: `["T","null"]` → `nullable`, other lists → `anyOf`. */
  typeLists: boolean;
  /** `nullable: true` (OpenAPI 3.0) instead of a `"null"` type. */
  nullable: boolean;
  /** `enum` values must be strings (and the schema a string). */
  stringEnums: boolean;
  /** Accepted `format` values per type, or null: any string. */
  formats: Readonly<Record<string, readonly string[]>> | null;
  /** Every schema needs a type (or `anyOf`/`enum`/`$ref`): an untyped value cannot be expressed. */
  typedValues: boolean;
  /** A nested object needs `properties`; free-form objects (maps) cannot be expressed. */
  closedObjects: boolean;
  /** Strict objects: `additionalProperties: false`, every property required (optional → nullable). */
  strictObjects: boolean;
  /** An array schema needs `items` (added as `{}` when the family accepts an untyped value). */
  arrayItems: boolean;
  /**
   * A property (or `anyOf` alternative) the family cannot express is dropped when optional; false:
   * the whole schema does not fit (strict mode then falls back to non-strict, keeping everything).
   */
  dropOptional: boolean;
  /** Most levels of nesting (objects and arrays), or null. */
  maxNesting: number | null;
  /** Most properties in the whole schema, or null. */
  maxProperties: number | null;
}

const ANNOTATIONS = ['title', 'description', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly'];
const JSON_SCHEMA = [
  ...ANNOTATIONS,
  'type',
  'enum',
  'const',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'items',
  'minItems',
  'maxItems',
  'uniqueItems',
  'properties',
  'required',
  'additionalProperties',
  'patternProperties',
  'propertyNames',
  'minProperties',
  'maxProperties',
  'anyOf',
  'oneOf',
  'allOf',
  'not',
  '$ref',
  '$defs',
];

const lenient = (family: FitFamily): SchemaProfile => ({
  family,
  keywords: new Set(JSON_SCHEMA),
  typed: false,
  recursion: true,
  typeLists: true,
  nullable: false,
  stringEnums: false,
  formats: null,
  typedValues: false,
  closedObjects: false,
  strictObjects: false,
  arrayItems: family === 'openai',
  dropOptional: true,
  maxNesting: null,
  maxProperties: null,
});

/** The profile of each family. */
export const SCHEMA_PROFILES: Readonly<Record<FitFamily, SchemaProfile>> = {
  anthropic: lenient('anthropic'),
  openai: lenient('openai'),
  openai_strict: {
    family: 'openai_strict',
    keywords: new Set(['description', 'type', 'enum', 'anyOf', 'properties', 'required', 'additionalProperties', 'items', 'pattern', 'format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minItems', 'maxItems', '$ref', '$defs']),
    typed: true,
    recursion: true,
    typeLists: true,
    nullable: false,
    stringEnums: false,
    formats: { string: ['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid'] },
    typedValues: true,
    closedObjects: true,
    strictObjects: true,
    arrayItems: true,
    dropOptional: false,
    maxNesting: 10,
    maxProperties: 5000,
  },
  gemini: {
    family: 'gemini',
    keywords: new Set(['type', 'format', 'title', 'description', 'nullable', 'enum', 'maxItems', 'minItems', 'properties', 'required', 'minProperties', 'maxProperties', 'minLength', 'maxLength', 'pattern', 'example', 'anyOf', 'default', 'items', 'minimum', 'maximum']),
    typed: true,
    recursion: false,
    typeLists: false,
    nullable: true,
    stringEnums: true,
    formats: { string: ['enum', 'date-time'], number: ['float', 'double'], integer: ['int32', 'int64'] },
    typedValues: true,
    closedObjects: true,
    strictObjects: false,
    arrayItems: true,
    dropOptional: true,
    maxNesting: null,
    maxProperties: null,
  },
};

/** Hosts of OpenAI's own API, where tools are sent in strict mode. */
const OPENAI_HOSTS = new Set(['api.openai.com']);

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * The family a model profile's requests reach: `anthropic` for the Anthropic provider; for an
 * OpenAI-compatible endpoint `gemini` when it is Google's (`*.googleapis.com`) or the model is a
 * Gemini model (`gemini-…`, `google/gemini-…` as routers name it), `openai_strict` on OpenAI's own
 * API, else `openai`.
 */
export function fitFamilyOf(settings: Pick<ModelSettings, 'provider' | 'base_url' | 'model'>): FitFamily {
  if (settings.provider === 'anthropic') return 'anthropic';
  const host = hostOf(settings.base_url);
  if ((host && (host === 'googleapis.com' || host.endsWith('.googleapis.com'))) || /(^|\/)gemini-/i.test(settings.model)) return 'gemini';
  if (host && OPENAI_HOSTS.has(host)) return 'openai_strict';
  return 'openai';
}
