/**
 * The name → value rows of the Add-server form (environment variables or headers): which rows
 * repeat a name an earlier row gives. Two rows of one name would silently become one value, so
 * the form refuses them under the row. Header names compare without case (RFC 9110 §5.1). Pure.
 */

/** Indexes of rows whose trimmed, non-empty name an earlier row already gives. */
export function duplicateRows(names: string[], ignoreCase: boolean): Set<number> {
  const seen = new Set<string>();
  const out = new Set<number>();
  names.forEach((raw, i) => {
    const n = ignoreCase ? raw.trim().toLowerCase() : raw.trim();
    if (!n) return;
    if (seen.has(n)) out.add(i);
    seen.add(n);
  });
  return out;
}
