/**
 * Elicitation form fields (renderer/src/components/elicitation/schema.ts): every schema the spec
 * allows becomes its own field kind with its default; each kind of bad value gives its problem;
 * good values are sent as the schema's types (numbers as numbers, date-time as RFC 3339).
 */
import { describe, expect, it } from 'vitest';
import { check, formFields, initialValues, type FormField } from '../../../renderer/src/components/elicitation/schema.js';

const schema = {
  type: 'object',
  required: ['name', 'tags'],
  properties: {
    name: { type: 'string', title: 'Name', minLength: 2, maxLength: 5 },
    email: { type: 'string', format: 'email' },
    site: { type: 'string', format: 'uri' },
    born: { type: 'string', format: 'date' },
    at: { type: 'string', format: 'date-time', default: '2026-01-02T03:04:00Z' },
    n: { type: 'integer', minimum: 1, maximum: 10, default: 3 },
    x: { type: 'number' },
    ok: { type: 'boolean', default: true },
    one: { type: 'string', enum: ['a', 'b'], default: 'b' },
    hero: { type: 'string', oneOf: [{ const: 'h1', title: 'Superman' }, { const: 'h2', title: 'Batman' }] },
    legacy: { type: 'string', enum: ['p1', 'p2'], enumNames: ['Cats', 'Dogs'] },
    tags: { type: 'array', minItems: 1, maxItems: 2, items: { type: 'string', enum: ['red', 'green', 'blue'] }, default: ['red', 'purple'] },
    fish: { type: 'array', items: { anyOf: [{ const: 'f1', title: 'Tuna' }, { const: 'f2', title: 'Trout' }] } },
  },
};
const fields = formFields(schema);
const f = (key: string): FormField => fields.find((x) => x.key === key)!;

describe('elicitation fields', () => {
  it('gives each schema its kind, label, choices and default', () => {
    expect(fields.map((x) => [x.key, x.field.kind])).toEqual([
      ['name', 'text'], ['email', 'text'], ['site', 'text'], ['born', 'text'], ['at', 'text'], ['n', 'number'], ['x', 'number'],
      ['ok', 'boolean'], ['one', 'select'], ['hero', 'select'], ['legacy', 'select'], ['tags', 'multi'], ['fish', 'multi'],
    ]);
    expect(f('hero').field).toEqual({ kind: 'select', choices: [{ value: 'h1', label: 'Superman' }, { value: 'h2', label: 'Batman' }] });
    expect(f('legacy').field).toMatchObject({ choices: [{ value: 'p1', label: 'Cats' }, { value: 'p2', label: 'Dogs' }] });
    expect(f('fish').field).toMatchObject({ kind: 'multi', choices: [{ value: 'f1', label: 'Tuna' }, { value: 'f2', label: 'Trout' }] });
    const init = initialValues(fields);
    // A default that is not one of the choices is not pre-picked.
    expect(init).toMatchObject({ n: '3', ok: true, one: 'b', tags: ['red'], fish: [], name: '' });
    expect(init.at).toMatch(/^2026-01-0[12]T\d{2}:04$/);
    expect(f('name').label).toBe('Name');
    expect(f('email').label).toBe('email');
  });

  it.each([
    ['name', '', 'required'],
    ['name', 'a', 'min_length'],
    ['name', 'abcdef', 'max_length'],
    ['email', 'no-at', 'email'],
    ['site', 'example.com', 'uri'],
    ['born', '2026-02-30', 'date'],
    ['at', 'yesterday', 'date_time'],
    ['n', 'x', 'number'],
    ['n', '2.5', 'integer'],
    ['n', '0', 'min'],
    ['n', '11', 'max'],
    ['one', 'c', 'choice'],
    ['tags', [], 'required'],
    ['tags', ['red', 'green', 'blue'], 'max_items'],
    ['tags', ['pink'], 'choice'],
  ] as const)('%s = %j is refused: %s', (key, value, code) => {
    const r = check(f(key), value as never);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problem.code).toBe(code);
  });

  it('sends good values in the schema’s types, leaves out empty optional ones', () => {
    expect(check(f('n'), '7')).toEqual({ ok: true, value: 7 });
    expect(check(f('x'), '-1.5')).toEqual({ ok: true, value: -1.5 });
    expect(check(f('ok'), false)).toEqual({ ok: true, value: false });
    expect(check(f('email'), '')).toEqual({ ok: true, value: null });
    expect(check(f('site'), 'https://example.com/a')).toEqual({ ok: true, value: 'https://example.com/a' });
    expect(check(f('born'), '2024-02-29')).toEqual({ ok: true, value: '2024-02-29' });
    const at = check(f('at'), '2026-05-06T07:08');
    expect(at.ok && at.value).toBe(new Date('2026-05-06T07:08').toISOString());
    expect(check(f('tags'), ['blue', 'red'])).toEqual({ ok: true, value: ['blue', 'red'] });
    expect(check(f('hero'), 'h2')).toEqual({ ok: true, value: 'h2' });
  });
});
