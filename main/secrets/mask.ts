/**
 * Masking of secret values for views: what the window may see of a secret is whether it is set
 * and, for a long one, its last four characters (docs/ARCHITECTURE.md "Masked views only").
 */
import type { MaskedValue } from '../../preload/contract/index.js';

/**
 * What a view shows in place of a secret inside a URL or a command line
 * (`https://***@host/mcp?token=***`, `server --api-key ***`). An edit that sends it back at the
 * same place keeps the stored value (docs/ARCHITECTURE.md "Update semantics (PATCH)").
 */
export const SECRET_PLACEHOLDER = '***';

/**
 * Mask one secret. Short secrets (< 16 chars) reveal nothing; longer ones show only their
 * last 4 characters, which is not enough to use or guess them.
 */
export function maskSecret(value: string | undefined | null): MaskedValue {
  if (!value) return { has_value: false, masked: '' };
  if (value.length < 16) return { has_value: true, masked: '••••••••' };
  return { has_value: true, masked: `••••••••${value.slice(-4)}` };
}

/** Mask every value of a secret map; names are kept. */
export function maskMap(m: Record<string, string>): Record<string, MaskedValue> {
  const out: Record<string, MaskedValue> = {};
  for (const [k, v] of Object.entries(m)) out[k] = maskSecret(v);
  return out;
}
