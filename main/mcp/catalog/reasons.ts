/**
 * The server catalog's one job here: make the structured reasons why something from the catalog
 * cannot be installed, updated or started (`NotInstallableReason` in preload/contract) or why the
 * registry or a download could not be used (`CatalogProblem`), and the errors that carry them. Main holds no sentence a user reads: the window renders
 * `catalog.why.<code>` in its language (docs/ARCHITECTURE.md "Server catalog").
 */
import { catalogRuntimes, REASON_TEXT_MAX, type CatalogReason, type NotInstallableReason } from '../../../preload/contract/index.js';

export type { CatalogProblem, CatalogReason, NotInstallableReason } from '../../../preload/contract/index.js';

/** A registry-, manifest- or request-supplied string cut to {@link REASON_TEXT_MAX} characters (plus `…`). */
export function capText(s: string): string {
  return s.length > REASON_TEXT_MAX ? `${s.slice(0, REASON_TEXT_MAX)}…` : s;
}

/**
 * The reason with every string field cut to {@link REASON_TEXT_MAX} characters; `runtime` stays
 * as it is (an enum), numbers too. Every reason main makes goes through here.
 */
export function reason<R extends CatalogReason>(r: R): R {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(r)) out[k] = typeof v === 'string' && k !== 'code' && k !== 'runtime' ? capText(v) : v;
  return out as R;
}

/**
 * A one-line, language-neutral form of a reason for logs and for the English `message` of the
 * error it travels in: the code and its fields, e.g. `entry_removed (name: "a/b")`.
 */
export function reasonLogText(r: CatalogReason): string {
  const fields = Object.entries(r)
    .filter(([k, v]) => k !== 'code' && v !== undefined)
    .map(([k, v]) => `${k}: ${JSON.stringify(v)}`);
  return fields.length ? `${r.code} (${fields.join(', ')})` : r.code;
}

/**
 * The system error code of a failed `fetch` (undici puts it on `cause.code`: `ENOTFOUND`,
 * `ECONNREFUSED`, `ECONNRESET`, `UND_ERR_CONNECT_TIMEOUT`, …), else the error's own short text.
 */
export function networkErrorCode(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown } } | null)?.cause;
  if (typeof cause?.code === 'string' && cause.code) return cause.code;
  const own = (err as { code?: unknown } | null)?.code;
  if (typeof own === 'string' && own) return own;
  return (err instanceof Error ? err.message : String(err)).slice(0, 100) || 'unknown';
}

/** The reason for a program that is not on PATH: a known runtime by name (`python3` → `python`), else the program. */
export function missingProgram(program: string): NotInstallableReason {
  const runtime = program === 'python3' ? 'python' : program;
  const known = catalogRuntimes.find((r) => r === runtime);
  return known ? { code: 'runtime_missing', runtime: known } : reason({ code: 'program_missing', program });
}

/** Thrown for an option or update that cannot be installed; `reason` says why (for the window to render). */
export class NotInstallableError extends Error {
  override name = 'NotInstallableError';
  readonly reason: NotInstallableReason;
  constructor(r: NotInstallableReason) {
    const capped = reason(r);
    super(`Not installable: ${reasonLogText(capped)}`);
    this.reason = capped;
  }
}
