/**
 * The contract's shared limits and primitives: the upper bound of every string the renderer may
 * send, the server-name schema, and the checks the other contract files build their schemas from
 * (JSON size, control characters). docs/ARCHITECTURE.md "The IPC contract".
 */
import { z } from 'zod';
import { SERVER_NAME_MAX_LENGTH, SERVER_NAME_PATTERN } from './rules/index.js';

/** Upper bounds for every string the renderer may send (a compromised renderer gets a typed error). */
export const LIMITS = {
  name: 64,
  shortText: 4096,
  secretValue: 32 * 1024,
  chatText: 200_000,
  commandParts: 256,
  envEntries: 256,
  importJson: 1024 * 1024,
  conversationList: 1000,
  /** Characters of a text the user attaches as a file (the composer's "Attach as a file"). */
  attachedText: 1_000_000,
  /** Characters of one MCP Apps view's model context (`apps.updateModelContext`). */
  viewContext: 16_384,
} as const;

/**
 * Whether a value's JSON text has at most `maxChars` characters. A value too deep to encode (the
 * encoder runs out of stack) or that cannot be encoded (a cycle, a BigInt) is not within.
 */
export function jsonWithin(value: unknown, maxChars: number): boolean {
  try {
    return (JSON.stringify(value) ?? '').length <= maxChars;
  } catch {
    return false;
  }
}

/** A server name (the rule: rules/server-name.ts): letters, digits, `_`, `-`, `.`; starts with a letter or digit; ≤ 64 chars. */
export const serverNameSchema = z
  .string()
  .min(1, 'Name is required')
  .max(SERVER_NAME_MAX_LENGTH, `Name is longer than ${SERVER_NAME_MAX_LENGTH} characters`)
  .regex(SERVER_NAME_PATTERN, 'Name may use letters, digits, "_", "-" and "." and must start with a letter or digit');

/**
 * Control characters: C0 (U+0000–U+001F), DEL (U+007F) and C1 (U+0080–U+009F). A value holding
 * one cannot be launched or sent as given (Node refuses NUL in argv and env; HTTP refuses them in
 * headers) and error texts then quote it back in escaped forms (docs/ARCHITECTURE.md "Security").
 */
function isControl(code: number, allowWhitespace: boolean): boolean {
  if (allowWhitespace && (code === 0x09 || code === 0x0a || code === 0x0d)) return false;
  return code < 0x20 || (code >= 0x7f && code <= 0x9f);
}

/**
 * The first control character of `v` as `U+XXXX`, or null. `allowWhitespace` lets tab, LF and CR
 * pass (multi-line env values such as PEM keys, arguments).
 */
export function controlCharIn(v: string, allowWhitespace = false): string | null {
  for (let i = 0; i < v.length; i++) {
    const code = v.charCodeAt(i);
    if (isControl(code, allowWhitespace)) return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return null;
}

/**
 * A string without control characters (see {@link controlCharIn}); the error names the
 * character's code point, never the value (which may be a secret).
 */
export function noControl(schema: z.ZodString, allowWhitespace = false): z.ZodType<string> {
  return schema.superRefine((v, ctx) => {
    const c = controlCharIn(v, allowWhitespace);
    if (c) ctx.addIssue({ code: 'custom', message: `Contains a control character (${c}); remove it`, params: { rule: 'control_char' } });
  });
}
