/**
 * The fields of an elicitation form (MCP spec 2025-11-25, client/elicitation: the restricted
 * `requestedSchema` of primitive properties) as a discriminated union the form renders as is:
 * text (with the `email`, `uri`, `date`, `date-time` formats and length bounds), number/integer
 * (with `minimum`/`maximum`), boolean, single select (untitled `enum`, titled `oneOf` of
 * `const`/`title`, legacy `enumNames`), multi select (`type: array` with `items.enum` or
 * `items.anyOf`, `minItems`/`maxItems`). Defaults are pre-filled, so what is sent is what the user
 * saw. Checking a value gives a typed problem the form translates beside its field. Pure.
 */

/** A choice of a select: the value sent and the label shown. */
export interface Choice {
  value: string;
  label: string;
}

/** One field of the form, by kind. */
export type Field =
  | { kind: 'text'; format: 'plain' | 'email' | 'uri' | 'date' | 'date-time'; minLength: number | null; maxLength: number | null }
  | { kind: 'number'; integer: boolean; minimum: number | null; maximum: number | null }
  | { kind: 'boolean' }
  | { kind: 'select'; choices: Choice[] }
  | { kind: 'multi'; choices: Choice[]; minItems: number | null; maxItems: number | null };

/** A field with what every kind has. */
export interface FormField {
  key: string;
  label: string;
  description: string | null;
  required: boolean;
  field: Field;
  /** The schema's default as the form holds it (null: none). */
  initial: FormValue | null;
}

/** What the form holds for a field: text of an input, a checkbox, the picks of a multi select. */
export type FormValue = string | boolean | string[];

/** Why a value is not accepted (translated by the form). */
export type Problem =
  | { code: 'required' }
  | { code: 'number' }
  | { code: 'integer' }
  | { code: 'min'; limit: number }
  | { code: 'max'; limit: number }
  | { code: 'min_length'; limit: number }
  | { code: 'max_length'; limit: number }
  | { code: 'email' }
  | { code: 'uri' }
  | { code: 'date' }
  | { code: 'date_time' }
  | { code: 'choice' }
  | { code: 'min_items'; limit: number }
  | { code: 'max_items'; limit: number };

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** Choices of titled entries (`oneOf` / `anyOf` of `{const, title}`), or null when they are not that. */
function titled(list: unknown): Choice[] | null {
  if (!Array.isArray(list) || list.length === 0) return null;
  const out: Choice[] = [];
  for (const o of list) {
    if (!isObj(o) || typeof o.const !== 'string') return null;
    out.push({ value: o.const, label: str(o.title) ?? o.const });
  }
  return out;
}

function untitled(list: unknown, names?: unknown): Choice[] | null {
  if (!Array.isArray(list) || list.length === 0 || !list.every((x) => typeof x === 'string')) return null;
  const labels = Array.isArray(names) ? names : [];
  return (list as string[]).map((v, i) => ({ value: v, label: typeof labels[i] === 'string' ? (labels[i] as string) : v }));
}

const FORMATS = new Set(['email', 'uri', 'date', 'date-time']);

/** The field of one property schema (null: a construct the spec does not allow; shown as text). */
export function fieldOf(p: Json): Field {
  const type = p.type;
  if (type === 'boolean') return { kind: 'boolean' };
  if (type === 'number' || type === 'integer') return { kind: 'number', integer: type === 'integer', minimum: num(p.minimum), maximum: num(p.maximum) };
  if (type === 'array' && isObj(p.items)) {
    const choices = titled(p.items.anyOf) ?? titled(p.items.oneOf) ?? untitled(p.items.enum);
    if (choices) return { kind: 'multi', choices, minItems: num(p.minItems), maxItems: num(p.maxItems) };
  }
  const single = titled(p.oneOf) ?? titled(p.anyOf) ?? untitled(p.enum, p.enumNames);
  if (single) return { kind: 'select', choices: single };
  const format = typeof p.format === 'string' && FORMATS.has(p.format) ? (p.format as 'email' | 'uri' | 'date' | 'date-time') : 'plain';
  return { kind: 'text', format, minLength: num(p.minLength), maxLength: num(p.maxLength) };
}

/** An RFC 3339 date-time as a `datetime-local` input's value (local time, minutes), or '' when it is not one. */
export function toLocalInput(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const p2 = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p2(d.getMonth() + 1)}-${p2(d.getDate())}T${p2(d.getHours())}:${p2(d.getMinutes())}`;
}

function initialOf(field: Field, d: unknown): FormValue | null {
  if (d === undefined || d === null) return null;
  switch (field.kind) {
    case 'boolean':
      return typeof d === 'boolean' ? d : null;
    case 'number':
      return typeof d === 'number' ? String(d) : null;
    case 'multi':
      return Array.isArray(d) ? d.filter((x): x is string => typeof x === 'string' && field.choices.some((c) => c.value === x)) : null;
    case 'select':
      return typeof d === 'string' && field.choices.some((c) => c.value === d) ? d : null;
    case 'text':
      if (typeof d !== 'string') return null;
      return field.format === 'date-time' ? toLocalInput(d) || null : d;
  }
}

/** The form's fields, in the schema's order. */
export function formFields(schema: Record<string, unknown>): FormField[] {
  const props = isObj(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((x): x is string => typeof x === 'string') : []);
  return Object.entries(props).map(([key, raw]) => {
    const p = isObj(raw) ? raw : {};
    const field = fieldOf(p);
    return { key, label: str(p.title) || key, description: str(p.description), required: required.has(key), field, initial: initialOf(field, p.default) };
  });
}

/** The form's starting values: each default, else empty (unchecked, nothing picked). */
export function initialValues(fields: FormField[]): Record<string, FormValue> {
  const out: Record<string, FormValue> = {};
  for (const f of fields) out[f.key] = f.initial ?? (f.field.kind === 'boolean' ? false : f.field.kind === 'multi' ? [] : '');
  return out;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function validDate(v: string): boolean {
  const m = DATE.exec(v);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

function isEmpty(v: FormValue | undefined): boolean {
  return v === undefined || v === '' || (Array.isArray(v) && v.length === 0);
}

/**
 * Check one field's value. Returns the answer's value (null: left out) or the problem.
 * A date-time is sent as RFC 3339 in UTC; numbers as numbers.
 */
export function check(f: FormField, v: FormValue | undefined): { ok: true; value: string | number | boolean | string[] | null } | { ok: false; problem: Problem } {
  const { field } = f;
  if (field.kind === 'boolean') return { ok: true, value: v === true };
  if (isEmpty(v)) return f.required ? { ok: false, problem: { code: 'required' } } : { ok: true, value: null };
  switch (field.kind) {
    case 'number': {
      const n = Number(String(v).trim());
      if (String(v).trim() === '' || !Number.isFinite(n)) return { ok: false, problem: { code: 'number' } };
      if (field.integer && !Number.isInteger(n)) return { ok: false, problem: { code: 'integer' } };
      if (field.minimum !== null && n < field.minimum) return { ok: false, problem: { code: 'min', limit: field.minimum } };
      if (field.maximum !== null && n > field.maximum) return { ok: false, problem: { code: 'max', limit: field.maximum } };
      return { ok: true, value: n };
    }
    case 'select':
      return typeof v === 'string' && field.choices.some((c) => c.value === v) ? { ok: true, value: v } : { ok: false, problem: { code: 'choice' } };
    case 'multi': {
      const picks = Array.isArray(v) ? v : [];
      if (!picks.every((x) => field.choices.some((c) => c.value === x))) return { ok: false, problem: { code: 'choice' } };
      if (field.minItems !== null && picks.length < field.minItems) return { ok: false, problem: { code: 'min_items', limit: field.minItems } };
      if (field.maxItems !== null && picks.length > field.maxItems) return { ok: false, problem: { code: 'max_items', limit: field.maxItems } };
      return { ok: true, value: picks };
    }
    case 'text': {
      const s = String(v);
      const len = [...s].length;
      if (field.minLength !== null && len < field.minLength) return { ok: false, problem: { code: 'min_length', limit: field.minLength } };
      if (field.maxLength !== null && len > field.maxLength) return { ok: false, problem: { code: 'max_length', limit: field.maxLength } };
      if (field.format === 'email' && !EMAIL.test(s)) return { ok: false, problem: { code: 'email' } };
      if (field.format === 'uri') {
        try {
          if (!/^[a-z][a-z0-9+.-]*:/i.test(s)) throw new Error('no scheme');
          new URL(s);
        } catch {
          return { ok: false, problem: { code: 'uri' } };
        }
      }
      if (field.format === 'date' && !validDate(s)) return { ok: false, problem: { code: 'date' } };
      if (field.format === 'date-time') {
        const d = new Date(s);
        if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(s) || Number.isNaN(d.getTime())) return { ok: false, problem: { code: 'date_time' } };
        return { ok: true, value: d.toISOString() };
      }
      return { ok: true, value: s };
    }
  }
}
