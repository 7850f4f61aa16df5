/**
 * Which rows of a long list are rendered (docs/ARCHITECTURE.md "The window's rooms", long lists):
 * only the rows in view and a margin around them; the rest is an empty space of their height
 * before and after. And the transcript's range of shown entries, which slides over a long
 * conversation (docs/ARCHITECTURE.md "Conversations"). Pure; no DOM.
 */

/** The rows to render, [start, end), and the empty space (CSS px) before and after them. */
export interface ListWindow {
  start: number;
  end: number;
  before: number;
  after: number;
}

/**
 * @param scrollTop the list's scroll offset (px)
 * @param viewport the list's visible height (px; 0 before it is laid out: then `fallbackRows` are shown)
 * @param pitch one row's height including the space after it (px, > 0)
 * @param count how many rows the list has
 * @param overscan rows rendered beyond each edge of the view
 */
export function listWindow(scrollTop: number, viewport: number, pitch: number, count: number, overscan = 10, fallbackRows = 40): ListWindow {
  const visible = viewport > 0 ? Math.ceil(viewport / pitch) : fallbackRows;
  const first = Math.floor(Math.max(0, scrollTop) / pitch);
  const start = Math.max(0, Math.min(count, first - overscan));
  const end = Math.max(start, Math.min(count, first + visible + overscan));
  return { start, end, before: start * pitch, after: (count - end) * pitch };
}

/** How many of the newest entries are shown when a conversation opens (older ones on request). */
export const SHOWN_AT_FIRST = 40;
/**
 * Most entries rendered at once: showing earlier entries past this drops the newest ones from the
 * page (shown again on the way back down), so a window scrolled through a conversation of thousands
 * of entries holds a few hundred (docs/ARCHITECTURE.md "Conversations").
 */
export const MAX_SHOWN = 200;

/** The shown range [first, last) after showing `SHOWN_AT_FIRST` earlier entries; last null: through the newest. */
export function earlierWindow(first: number, last: number | null, count: number): { firstShown: number; lastShown: number | null } {
  const firstShown = Math.max(0, first - SHOWN_AT_FIRST);
  const end = last ?? count;
  return { firstShown, lastShown: end - firstShown > MAX_SHOWN ? firstShown + MAX_SHOWN : last };
}

/** The shown range after showing `SHOWN_AT_FIRST` later entries (null: through the newest, which new entries then join). */
export function laterWindow(first: number, last: number | null, count: number): { firstShown: number; lastShown: number | null } {
  if (last === null) return { firstShown: first, lastShown: null };
  const end = last + SHOWN_AT_FIRST;
  if (end >= count) return { firstShown: Math.max(first, count - MAX_SHOWN), lastShown: null };
  return { firstShown: Math.max(first, end - MAX_SHOWN), lastShown: end };
}

