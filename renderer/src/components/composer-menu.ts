/**
 * Which menu the composer's text asks for (docs/ARCHITECTURE.md "Prompts and resources in chat"):
 * `/` at the start lists prompts, `@` (at the start or after white space) lists resources. The
 * filter is everything typed after the trigger up to the caret — spaces included, so a resource
 * named "my research notes" is found as the user types "@my res" — but never a line break.
 * Pure functions; the component decides what to show with {@link menuStays}.
 */

/** What the menu lists now: prompts after `/`, resources after `@` (the `@` at `start` in the text). */
export type Menu = { kind: 'prompts'; filter: string } | { kind: 'resources'; filter: string; start: number } | null;

/**
 * The menu the text asks for with the caret at `caret`: prompts when the whole text is `/filter`
 * (one line), resources when the text before the caret ends in an `@` at the
 * start or after white space followed by a filter on the same line without another `@`.
 */
export function menuFor(text: string, caret: number): Menu {
  const slash = /^\/([^\n]*)$/.exec(text);
  if (slash) return { kind: 'prompts', filter: slash[1]! };
  const before = text.slice(0, caret);
  const at = /(^|\s)@([^\n@]*)$/.exec(before);
  if (at) return { kind: 'resources', filter: at[2]!, start: before.length - at[2]!.length - 1 };
  return null;
}

/**
 * Whether `filter` matches one of `texts`: case-insensitive substring, white space in the filter
 * matching any run of white space (an empty filter matches everything).
 */
export function matchesFilter(filter: string, ...texts: Array<string | null | undefined>): boolean {
  const f = filter.toLowerCase().replace(/\s+/g, ' ');
  return !f || texts.some((t) => t?.toLowerCase().replace(/\s+/g, ' ').includes(f));
}

/**
 * Whether an open menu stays open for `filter` with `count` matching entries: always while
 * something matches; with nothing matching only while the filter is one word (the user may still
 * be typing a name). A filter with a space that matches nothing closes the menu — the `@` was
 * ordinary text, and Enter sends the message again.
 */
export function menuStays(filter: string, count: number): boolean {
  return count > 0 || !/\s/.test(filter);
}
