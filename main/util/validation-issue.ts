/**
 * A refusal as the contract's `ValidationIssue` (docs/ARCHITECTURE.md "The IPC contract"): from
 * a zod issue — a channel's input schema, or one of its value schemas a server entry is checked
 * against — by its code, path and bounds, never its message. The window words the issue.
 */
import type { z } from 'zod';
import type { ValidationIssue, ValidationRule } from '../../preload/contract/index.js';

const ISSUE_CODES: ReadonlySet<string> = new Set(['too_big', 'too_small', 'invalid_format', 'invalid_type', 'invalid_value', 'unrecognized_keys', 'custom']);
const RULES: ReadonlySet<string> = new Set<ValidationRule>(['required', 'control_char', 'http_scheme', 'https_or_loopback', 'too_many', 'reserved_name', 'secret_placeholder', 'not_for_type', 'absolute_path']);

function clip(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

/** A finite number from a zod bound (numbers or bigints), else nothing. */
function bound(v: unknown): number | undefined {
  const n = typeof v === 'bigint' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}

/**
 * One zod issue as a {@link ValidationIssue}: its code, a short path and the bounds the window
 * words it with — never its message. `at` is put before the issue's own path (the field a value
 * schema checked, e.g. `['url']`).
 */
export function validationIssue(i: z.core.$ZodIssue, at: readonly string[] = []): ValidationIssue {
  const raw = i as unknown as Record<string, unknown>;
  const code = ISSUE_CODES.has(i.code) ? (i.code as ValidationIssue['code']) : 'other';
  const path = [...at, ...i.path.map(String)].slice(0, 8).map((p) => clip(p, 64));
  const maximum = bound(raw.maximum);
  const minimum = bound(raw.minimum);
  const rule = (raw.params as { rule?: unknown } | undefined)?.rule;
  return {
    code,
    path,
    ...(typeof raw.origin === 'string' ? { origin: clip(raw.origin, 32) } : {}),
    ...(maximum !== undefined ? { maximum } : {}),
    ...(minimum !== undefined ? { minimum } : {}),
    ...(typeof raw.format === 'string' ? { format: clip(raw.format, 32) } : {}),
    ...(typeof rule === 'string' && RULES.has(rule) ? { rule: rule as ValidationRule } : {}),
  };
}

/** An issue the app's own check names (not a zod schema's): `code` at `path`, with a rule or bounds. */
export function ownIssue(code: ValidationIssue['code'], path: readonly string[], more: Omit<ValidationIssue, 'code' | 'path'> = {}): ValidationIssue {
  return { code, path: path.slice(0, 8).map((p) => clip(p, 64)), ...more };
}
