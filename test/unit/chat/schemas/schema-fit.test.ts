/**
 * chat/schemas: the fitter, one malformed or provider-refused construct at a time, nested below the
 * top level. Each fitted schema is also judged by the validators that judge like the real
 * providers (test/fixtures/provider-schema-rules.ts), which refuse the unfitted schema.
 */
import { describe, expect, it } from 'vitest';
import { fitFamilyOf, fitSchema, fitToolSchema, restoreArguments, SCHEMA_PROFILES, type FitFamily } from '../../../../main/chat/schemas/index.js';
import { anthropicProblem, geminiProblem, openaiProblem } from '../../../fixtures/provider-schema-rules.js';

type Obj = Record<string, unknown>;
const obj = (properties: Obj, extra: Obj = {}): Obj => ({ type: 'object', properties, ...extra });

/** What the family's validator says of a schema (null: accepted). */
function judge(family: FitFamily, schema: unknown, strict = family === 'openai_strict'): string | null {
  if (family === 'gemini') return geminiProblem(0, schema);
  if (family === 'anthropic') return anthropicProblem(0, schema);
  return openaiProblem('t', schema, strict);
}

/** Fit for a family and expect the validator to accept the result; returns the schema. */
function fitted(family: FitFamily, schema: Obj): Obj {
  const r = fitSchema(schema, SCHEMA_PROFILES[family]);
  if (!r.ok) throw new Error(`not fitted: ${r.reason}`);
  expect(judge(family, r.schema)).toBeNull();
  return r.schema;
}

const prop = (s: Obj, ...path: string[]): Obj => {
  let at: unknown = s;
  for (const k of path) at = (at as Obj)[k];
  return at as Obj;
};

describe('the fitter, per construct', () => {
  it('inlines a local $ref nested in properties and items, and drops $defs', () => {
    const s = obj({ list: { type: 'array', items: { $ref: '#/$defs/Item' } } }, { $defs: { Item: obj({ id: { type: 'string' } }, { required: ['id'] }) } });
    expect(judge('gemini', s)).toMatch(/Unknown name "\$defs"/);
    const g = fitted('gemini', s);
    expect(prop(g, 'properties', 'list', 'items')).toEqual({ type: 'object', properties: { id: { type: 'string' } }, required: ['id'] });
    expect(g.$defs).toBeUndefined();
    expect(prop(fitted('anthropic', s), 'properties', 'list', 'items', 'type')).toBe('object');
  });

  it('resolves a top-level $ref, a ref chain, a #/definitions pointer and escaped pointer segments', () => {
    const s = { $ref: '#/$defs/Args', $defs: { Args: obj({ a: { $ref: '#/definitions/A' }, b: { $ref: '#/$defs/x~1y' } }), 'x/y': { type: 'number' } }, definitions: { A: { $ref: '#/$defs/x~1y' } } };
    for (const f of ['gemini', 'openai_strict', 'openai', 'anthropic'] as const) {
      const out = fitted(f, s);
      expect(prop(out, 'properties', 'a').type).toEqual(f === 'openai_strict' ? ['number', 'null'] : 'number');
      expect(prop(out, 'properties', 'b').type).toEqual(f === 'openai_strict' ? ['number', 'null'] : 'number');
    }
  });

  it('a $ref that points nowhere or outside the document is dropped, not sent', () => {
    const s = obj({ a: { $ref: 'https://example.com/schema.json', description: 'remote' }, b: { $ref: '#/$defs/missing', type: 'string' } });
    const out = fitted('anthropic', s);
    expect(prop(out, 'properties', 'a')).toEqual({ description: 'remote' });
    expect(prop(out, 'properties', 'b')).toEqual({ type: 'string' });
    // Gemini needs a type: the untyped optional value is dropped, the typed one kept.
    expect(Object.keys(prop(fitted('gemini', s), 'properties'))).toEqual(['b']);
  });

  it('a $ref cycle: kept as $ref into $defs where recursion is allowed, the tool left out for Gemini when it is required', () => {
    const s = obj({ tree: { $ref: '#/$defs/Node' } }, { required: ['tree'], $defs: { Node: obj({ name: { type: 'string' }, kids: { type: 'array', items: { $ref: '#/$defs/Node' } } }, { required: ['name', 'kids'] }) } });
    expect(fitSchema(s, SCHEMA_PROFILES.gemini)).toEqual({ ok: false, reason: 'recursive' });
    const a = fitted('anthropic', s);
    expect(prop(a, 'properties', 'tree', 'properties', 'kids', 'items')).toEqual({ $ref: '#/$defs/Node' });
    expect(prop(a, '$defs', 'Node', 'properties', 'kids', 'items')).toEqual({ $ref: '#/$defs/Node' });
    const strict = fitted('openai_strict', s);
    expect(prop(strict, '$defs', 'Node', 'additionalProperties')).toBe(false);
    // A self-reference to the whole schema.
    const self = obj({ name: { type: 'string' }, next: { $ref: '#' } }, { required: ['name'] });
    expect(prop(fitted('openai', self), 'properties', 'next')).toEqual({ $ref: '#' });
    // Optional recursion is dropped for Gemini; the rest of the tool stays.
    expect(Object.keys(prop(fitted('gemini', self), 'properties'))).toEqual(['name']);
  });

  it('a shared definition inlined many times is bounded (too_large), not expanded without end', () => {
    const defs: Obj = { D0: { type: 'string' } };
    for (let i = 1; i <= 20; i++) defs[`D${i}`] = obj({ a: { $ref: `#/$defs/D${i - 1}` }, b: { $ref: `#/$defs/D${i - 1}` } }, { required: ['a', 'b'] });
    expect(fitSchema(obj({ x: { $ref: '#/$defs/D20' } }, { required: ['x'], $defs: defs }), SCHEMA_PROFILES.gemini)).toEqual({ ok: false, reason: 'too_large' });
  });

  it('const → enum where const is not accepted; non-string const for Gemini becomes a description', () => {
    const s = obj({ mode: { const: 'fast' }, n: { type: 'integer', const: 3 } });
    expect(judge('gemini', s)).toMatch(/Unknown name "const"/);
    const g = fitted('gemini', s);
    expect(prop(g, 'properties', 'mode')).toEqual({ type: 'string', enum: ['fast'] });
    expect(prop(g, 'properties', 'n')).toEqual({ type: 'integer', description: 'one of: 3' });
    expect(prop(fitted('openai_strict', s), 'properties', 'mode')).toEqual({ type: ['string', 'null'], enum: ['fast', null] });
    expect(prop(fitted('anthropic', s), 'properties', 'mode')).toEqual({ const: 'fast' });
  });

  it('type lists → nullable or anyOf for Gemini; kept where lists are accepted', () => {
    const s = obj({ a: { type: ['string', 'null'], minLength: 1 }, b: { type: ['number', 'string'], minimum: 0, maxLength: 4 } }, { required: ['a', 'b'] });
    expect(judge('gemini', s)).toMatch(/type/);
    const g = fitted('gemini', s);
    expect(prop(g, 'properties', 'a')).toEqual({ type: 'string', minLength: 1, nullable: true });
    expect(prop(g, 'properties', 'b')).toEqual({ anyOf: [{ type: 'number', minimum: 0 }, { type: 'string', maxLength: 4 }] });
    expect(prop(fitted('openai_strict', s), 'properties', 'a', 'type')).toEqual(['string', 'null']);
  });

  it('oneOf → anyOf, and anyOf [X, null] → X nullable (Gemini)', () => {
    const s = obj({ pick: { oneOf: [{ type: 'string' }, { type: 'number' }] }, opt: { anyOf: [{ type: 'string' }, { type: 'null' }], description: 'maybe' } }, { required: ['pick', 'opt'] });
    expect(judge('gemini', s)).toMatch(/Unknown name "oneOf"/);
    expect(judge('openai_strict', { type: 'object', properties: { pick: { oneOf: [{ type: 'string' }] } }, required: ['pick'], additionalProperties: false })).toMatch(/'oneOf' is not permitted/);
    const g = fitted('gemini', s);
    expect(prop(g, 'properties', 'pick')).toEqual({ anyOf: [{ type: 'string' }, { type: 'number' }] });
    expect(prop(g, 'properties', 'opt')).toEqual({ type: 'string', description: 'maybe', nullable: true });
    expect(prop(fitted('openai_strict', s), 'properties', 'pick', 'anyOf')).toHaveLength(2);
    expect(prop(fitted('anthropic', s), 'properties', 'pick', 'oneOf')).toHaveLength(2);
  });

  it('allOf is merged into one schema (properties and required unioned)', () => {
    const s = obj({ both: { allOf: [obj({ a: { type: 'string' } }, { required: ['a'] }), { properties: { b: { type: 'boolean' } }, required: ['b'] }] } }, { required: ['both'] });
    for (const f of ['gemini', 'openai_strict', 'anthropic'] as const) {
      const both = prop(fitted(f, s), 'properties', 'both');
      expect(Object.keys(both.properties as Obj)).toEqual(['a', 'b']);
      expect(both.required).toEqual(['a', 'b']);
      expect(both.allOf).toBeUndefined();
    }
  });

  it('a top-level anyOf/oneOf/allOf becomes one object (Anthropic refuses them at the top)', () => {
    const s = { type: 'object', properties: { id: { type: 'string' }, value: { type: 'string' } }, required: ['value'], anyOf: [{ required: ['id'] }, obj({ name: { type: 'string' } }, { required: ['name'] })] };
    expect(judge('anthropic', s)).toMatch(/does not support oneOf, allOf, or anyOf at the top level/);
    for (const f of ['anthropic', 'openai', 'openai_strict', 'gemini'] as const) {
      const out = fitted(f, s);
      expect(Object.keys(out.properties as Obj).sort()).toEqual(['id', 'name', 'value']);
      expect(out.anyOf).toBeUndefined();
    }
    expect(fitted('anthropic', s).required).toEqual(['value']);
    expect(fitted('anthropic', { allOf: [obj({ a: { type: 'string' } }), obj({ b: { type: 'string' } })] }).properties).toEqual({ a: { type: 'string' }, b: { type: 'string' } });
  });

  it('keywords a family does not take are dropped at depth (format, patternProperties, additionalProperties, minLength, unknown x-*)', () => {
    const s = obj({ outer: obj({ site: { type: 'string', format: 'uri', minLength: 3, 'x-widget': 'url' }, when: { type: 'string', format: 'date-time' } }, { required: ['site', 'when'], additionalProperties: false, patternProperties: { '^x-': { type: 'string' } } }) }, { required: ['outer'] });
    expect(judge('gemini', s)).toMatch(/Unknown name "additionalProperties"/);
    expect(judge('openai_strict', { type: 'object', properties: {}, required: [], additionalProperties: false, patternProperties: { '^x-': { type: 'string' } } })).toMatch(/'patternProperties' is not permitted/);
    const g = fitted('gemini', s);
    expect(prop(g, 'properties', 'outer', 'properties', 'site')).toEqual({ type: 'string', minLength: 3 });
    expect(prop(g, 'properties', 'outer', 'properties', 'when')).toEqual({ type: 'string', format: 'date-time' });
    const strict = fitted('openai_strict', s);
    expect(prop(strict, 'properties', 'outer', 'properties', 'site')).toEqual({ type: 'string' });
    expect(prop(strict, 'properties', 'outer', 'patternProperties')).toBeUndefined();
    const a = fitted('anthropic', s);
    expect(prop(a, 'properties', 'outer', 'properties', 'site')).toEqual({ type: 'string', format: 'uri', minLength: 3 });
    expect(prop(a, 'properties', 'outer', 'patternProperties')).toEqual({ '^x-': { type: 'string' } });
  });

  it('malformed keyword values deep down are dropped (Anthropic validates keyword shapes)', () => {
    const s = obj({ a: obj({ b: { type: 'string', minLength: '3', pattern: '([', maxLength: -1 }, c: { type: 'strnig' }, d: { type: 'number', minimum: 'zero' } }, { required: 'b' }) });
    expect(judge('anthropic', s)).toMatch(/malformed/);
    const a = fitted('anthropic', s);
    expect(prop(a, 'properties', 'a')).toEqual({ type: 'object', properties: { b: { type: 'string' }, c: {}, d: { type: 'number' } } });
  });

  it('enum: only strings for Gemini (integer enums become a description), values of another type left out in strict mode', () => {
    const s = obj({ level: { type: 'integer', enum: [1, 2, 3] }, color: { type: 'string', enum: ['red', 2] }, mixed: { type: 'string', enum: ['a', 'b', null] } }, { required: ['level', 'color', 'mixed'] });
    expect(judge('gemini', s)).toMatch(/enum: only allowed for STRING/);
    const g = fitted('gemini', s);
    expect(prop(g, 'properties', 'level')).toEqual({ type: 'integer', description: 'one of: 1, 2, 3' });
    expect(prop(g, 'properties', 'color')).toEqual({ type: 'string', enum: ['red', '2'] });
    expect(prop(g, 'properties', 'mixed')).toEqual({ type: 'string', enum: ['a', 'b'], nullable: true });
    expect(prop(fitted('openai_strict', s), 'properties', 'color', 'enum')).toEqual(['red']);
  });

  it("draft-04 boolean exclusiveMinimum is rewritten; Gemini's missing exclusive bounds become inclusive", () => {
    const s = obj({ n: { type: 'number', minimum: 0, exclusiveMinimum: true }, m: { type: 'number', exclusiveMaximum: 10 } }, { required: ['n', 'm'] });
    expect(prop(fitted('anthropic', s), 'properties', 'n')).toEqual({ type: 'number', exclusiveMinimum: 0 });
    expect(prop(fitted('openai_strict', s), 'properties', 'n')).toEqual({ type: 'number', exclusiveMinimum: 0 });
    expect(judge('gemini', s)).toMatch(/Unknown name "exclusiveMinimum"/);
    expect(prop(fitted('gemini', s), 'properties')).toEqual({ n: { type: 'number', minimum: 0 }, m: { type: 'number', maximum: 10 } });
  });

  it('an array without items: `items: {}` for OpenAI; for Gemini and strict the value cannot be expressed', () => {
    const s = obj({ list: { type: 'array' }, keep: { type: 'string' } });
    expect(judge('openai', s)).toMatch(/array schema missing items/);
    expect(prop(fitted('openai', s), 'properties', 'list')).toEqual({ type: 'array', items: {} });
    expect(Object.keys(prop(fitted('gemini', s), 'properties'))).toEqual(['keep']);
    expect(fitSchema(obj({ list: { type: 'array' } }, { required: ['list'] }), SCHEMA_PROFILES.gemini)).toEqual({ ok: false, reason: 'untyped_value' });
  });

  it('tuple items and prefixItems become items: {anyOf}', () => {
    const s = obj({ pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] }, p2: { type: 'array', prefixItems: [{ type: 'string' }] } }, { required: ['pair', 'p2'] });
    const g = fitted('gemini', s);
    expect(prop(g, 'properties', 'pair', 'items')).toEqual({ anyOf: [{ type: 'string' }, { type: 'number' }] });
    expect(prop(g, 'properties', 'p2', 'items')).toEqual({ type: 'string' });
  });

  it('a missing type is inferred from the keywords (Gemini and strict need one on every schema)', () => {
    const s = obj({ o: { properties: { a: { type: 'string' } }, required: ['a'] }, arr: { items: { type: 'string' } }, e: { enum: ['x', 'y'] }, str: { pattern: '^a' } }, { required: ['o', 'arr', 'e', 'str'] });
    expect(judge('gemini', s)).toMatch(/type: must be specified/);
    const g = fitted('gemini', s);
    expect(prop(g, 'properties', 'o', 'type')).toBe('object');
    expect(prop(g, 'properties', 'arr', 'type')).toBe('array');
    expect(prop(g, 'properties', 'e')).toEqual({ type: 'string', enum: ['x', 'y'] });
    expect(prop(g, 'properties', 'str')).toEqual({ type: 'string', pattern: '^a' });
  });

  it('keywords of another type are dropped where types are checked', () => {
    const s = obj({ s: { type: 'string', minimum: 1, items: { type: 'string' }, properties: { a: {} } } }, { required: ['s'] });
    expect(prop(fitted('gemini', s), 'properties', 's')).toEqual({ type: 'string' });
  });

  it('an untyped value or a map: dropped when optional, the tool left out for Gemini when required', () => {
    const opt = obj({ any: {}, map: { type: 'object', additionalProperties: { type: 'string' } }, text: { type: 'string' } });
    expect(judge('gemini', opt)).not.toBeNull();
    expect(Object.keys(prop(fitted('gemini', opt), 'properties'))).toEqual(['text']);
    expect(fitSchema(obj({ any: {} }, { required: ['any'] }), SCHEMA_PROFILES.gemini)).toEqual({ ok: false, reason: 'untyped_value' });
    expect(fitSchema(obj({ map: { type: 'object', additionalProperties: { type: 'string' } } }, { required: ['map'] }), SCHEMA_PROFILES.gemini)).toEqual({ ok: false, reason: 'free_form_object' });
    // The lenient families keep both as they are.
    expect(prop(fitted('anthropic', opt), 'properties', 'map')).toEqual({ type: 'object', properties: {}, additionalProperties: { type: 'string' } });
  });

  it("required names not among the properties are dropped for Gemini (it refuses an undefined property)", () => {
    const s = obj({ a: obj({ x: { type: 'string' } }, { required: ['x', 'ghost'] }) }, { required: ['a', 'nope'] });
    expect(judge('gemini', s)).toMatch(/property is not defined/);
    const g = fitted('gemini', s);
    expect(g.required).toEqual(['a']);
    expect(prop(g, 'properties', 'a', 'required')).toEqual(['x']);
  });

  it('strict mode: every object closed, every property required, optional ones nullable — and the marker nulls removed again', () => {
    const s = obj({ name: { type: 'string' }, age: { type: 'integer' }, addr: obj({ city: { type: 'string' }, zip: { type: ['string', 'null'] } }, { required: ['city'] }) }, { required: ['name'] });
    expect(judge('openai_strict', s)).toMatch(/'additionalProperties' is required/);
    const r = fitSchema(s, SCHEMA_PROFILES.openai_strict);
    if (!r.ok) throw new Error(r.reason);
    expect(openaiProblem('t', r.schema, true)).toBeNull();
    expect(r.schema.required).toEqual(['name', 'age', 'addr']);
    expect(prop(r.schema, 'properties', 'age', 'type')).toEqual(['integer', 'null']);
    expect(prop(r.schema, 'properties', 'addr', 'required')).toEqual(['city', 'zip']);
    // What the model writes in strict mode, read back as the server means it.
    const args = { name: 'Ann', age: null, addr: { city: 'Oslo', zip: null } };
    expect(restoreArguments(args, r.nulls)).toEqual({ name: 'Ann', addr: { city: 'Oslo', zip: null } });
    expect(restoreArguments({ name: 'Ann', age: 3, addr: null }, r.nulls)).toEqual({ name: 'Ann', age: 3 });
  });

  it('strict mode falls back to non-strict for a schema it cannot express (a map), keeping everything', () => {
    const s = obj({ labels: { type: 'object', additionalProperties: { type: 'string' } }, any: {} });
    const f = fitToolSchema(s, 'openai_strict');
    expect(f).toMatchObject({ ok: true, strict: false });
    if (!f.ok) return;
    expect(openaiProblem('t', f.schema, false)).toBeNull();
    expect(Object.keys(f.schema.properties as Obj)).toEqual(['labels', 'any']);
    // Nested deeper than strict mode's 10 levels: the same fallback.
    let deep: Obj = { type: 'string' };
    for (let i = 0; i < 11; i++) deep = obj({ d: deep }, { required: ['d'] });
    expect(fitToolSchema(deep, 'openai_strict')).toMatchObject({ ok: true, strict: false });
  });

  it('a non-object top level cannot be expressed (not_object); a boolean-false property is dropped', () => {
    expect(fitSchema({ type: 'string' }, SCHEMA_PROFILES.anthropic)).toEqual({ ok: false, reason: 'not_object' });
    expect(fitSchema({ $ref: '#/$defs/S', $defs: { S: { type: 'array', items: {} } } }, SCHEMA_PROFILES.openai)).toEqual({ ok: false, reason: 'not_object' });
    expect(fitSchema([], SCHEMA_PROFILES.openai)).toEqual({ ok: false, reason: 'not_object' });
    expect(fitted('anthropic', obj({ never: false, ok: true })).properties).toEqual({ ok: {} });
  });
});

describe('the family of a model profile', () => {
  it('maps provider and endpoint to a family', () => {
    expect(fitFamilyOf({ provider: 'anthropic', base_url: 'https://api.anthropic.com/v1', model: 'claude-x' })).toBe('anthropic');
    expect(fitFamilyOf({ provider: 'openai-compatible', base_url: 'https://generativelanguage.googleapis.com/v1beta/openai', model: 'gemini-2.5-flash' })).toBe('gemini');
    expect(fitFamilyOf({ provider: 'openai-compatible', base_url: 'https://openrouter.ai/api/v1', model: 'google/gemini-2.5-pro' })).toBe('gemini');
    expect(fitFamilyOf({ provider: 'openai-compatible', base_url: 'https://api.openai.com/v1', model: 'gpt-4.1' })).toBe('openai_strict');
    expect(fitFamilyOf({ provider: 'openai-compatible', base_url: 'http://127.0.0.1:11434/v1', model: 'llama3' })).toBe('openai');
  });
});
