/**
 * Secret command arguments of a stdio server (docs/ARCHITECTURE.md "Masked views only"): an
 * argument the user marked secret, one that equals a secret value of the server (its env) or of
 * the secret store, and one that reads as a secret (`--api-key X`, `--token=X`, a URL with a
 * password) are kept in the secret store and shown as `***`. Positions count from 1 (0 is the
 * program, never a secret).
 */
import { MIN_REDACT_LENGTH } from '../../secrets/redact.js';
import { SECRET_PLACEHOLDER } from '../../secrets/mask.js';

/** Option names whose value is a secret (`--api-key`, `--auth-token`, `--password`, …). */
const SECRET_OPTION = /(token|secret|passw(or)?d|pwd|api[-_]?key|access[-_]?key|private[-_]?key|credential|authorization|bearer)/i;
/** A URL whose userinfo holds a password (`postgres://user:pass@host/db`). */
const URL_WITH_PASSWORD = /^[a-z][a-z0-9+.-]*:\/\/[^/@\s]*:[^/@\s]+@/i;

/**
 * Positions of `command` that read as secrets: the value after a secret-named option
 * (`--api-key X`), a secret-named option with its value (`--token=X`), a URL with a password, or
 * an argument (or `--opt=value` value) equal to one of `known` (values shorter than 6 characters
 * are ignored).
 */
export function detectSecretArgs(command: readonly string[], known: Iterable<string> = []): number[] {
  const values = new Set([...known].filter((v) => v.length >= MIN_REDACT_LENGTH));
  const out: number[] = [];
  for (let i = 1; i < command.length; i++) {
    const a = command[i]!;
    const prev = i > 1 ? command[i - 1]! : '';
    const opt = /^--?([A-Za-z0-9][\w.-]*)=(.*)$/s.exec(a);
    const afterSecretOption = /^--?[A-Za-z0-9][\w.-]*$/.test(prev) && SECRET_OPTION.test(prev) && !a.startsWith('-') && a !== '';
    if (afterSecretOption || (opt && opt[2] !== '' && (SECRET_OPTION.test(opt[1]!) || values.has(opt[2]!))) || URL_WITH_PASSWORD.test(a) || values.has(a)) out.push(i);
  }
  return out;
}

/** Sorted, unique, in range (1 … length-1) positions. */
export function normalizePositions(positions: Iterable<number>, length: number): number[] {
  return [...new Set(positions)].filter((i) => Number.isInteger(i) && i >= 1 && i < length).sort((a, b) => a - b);
}

/** `command` as views show it: the argument at each of `positions` replaced by `***`. */
export function maskCommand(command: readonly string[], positions: readonly number[]): string[] {
  const set = new Set(positions);
  return command.map((a, i) => (set.has(i) ? SECRET_PLACEHOLDER : a));
}

/** Thrown when an edit's `***` arguments cannot be matched with stored secret arguments. */
export class PlaceholderError extends Error {
  override name = 'PlaceholderError';
}

/**
 * A command from an edit, with each `***` replaced by the stored secret argument it stands for:
 * the k-th `***` is the k-th masked argument of the stored command (as the view showed it).
 * Returns the command and the positions that stay secret (the `***` ones).
 * @throws PlaceholderError when there are more `***` than masked stored arguments.
 */
export function fillPlaceholders(next: readonly string[], stored: readonly string[], storedMasked: readonly number[]): { command: string[]; secret: number[] } {
  const values = storedMasked.map((i) => stored[i]!);
  let k = 0;
  const secret: number[] = [];
  const command = next.map((a, i) => {
    if (i === 0 || a !== SECRET_PLACEHOLDER) return a;
    if (k >= values.length) throw new PlaceholderError(`Argument ${i} is "${SECRET_PLACEHOLDER}" but no stored secret argument is left for it; enter its value.`);
    secret.push(i);
    return values[k++]!;
  });
  return { command, secret };
}

/**
 * The positions a view masks: the secret arguments, and any argument `isKnownSecret` recognises
 * (a value of the secret store, e.g. another server's token, met after the config was saved).
 */
export function maskedPositions(command: readonly string[], secretArgs: readonly number[] | undefined, isKnownSecret?: (v: string) => boolean): number[] {
  const extra = isKnownSecret ? command.map((a, i) => (i > 0 && a.length >= MIN_REDACT_LENGTH && isKnownSecret(a) ? i : -1)).filter((i) => i > 0) : [];
  return normalizePositions([...(secretArgs ?? []), ...extra], command.length);
}
