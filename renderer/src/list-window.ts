/**
 * Which rows of a long list are rendered (docs/ARCHITECTURE.md "The window's rooms", long lists):
 * only the rows in view and a margin around them; the rest is an empty space of their height
 * before and after. Pure; no DOM.
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
