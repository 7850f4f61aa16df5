/**
 * The window's reading of resource references in tool results (pure). Whether a URI may be opened
 * is the one resource-link rule both main and the window apply (preload/contract/rules,
 * docs/ARCHITECTURE.md "Shared rules").
 */

/** The `[resource: <uri>]` / `[resource link: <uri>]` text main makes of a resource block, or null. */
export function resourceUriOfText(text: string): string | null {
  const m = /^\[resource(?: link)?: ([^\s\]]+)\]$/.exec(text.trim());
  return m ? m[1]! : null;
}
