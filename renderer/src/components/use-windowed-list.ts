/**
 * Render only the rows of a long scrolling list that are in view (../list-window.ts): the hook
 * follows the list's scroll offset and size and measures a row's pitch (height plus the space
 * after it) from the rows it rendered. Rows are assumed about equally tall; a taller one (a row
 * being renamed) only shifts the estimate of the space after it.
 */
import { useCallback, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { listWindow, type ListWindow } from '../list-window';

/** A row's pitch before any row was measured (px). */
const DEFAULT_PITCH = 50;

/**
 * @param list the scroll container; its rows carry `data-row` (spacers do not)
 * @param count how many rows the list has
 * @returns the window to render and the container's `onScroll` handler
 */
export function useWindowedList(list: RefObject<HTMLElement | null>, count: number): ListWindow & { onScroll: () => void } {
  const [view, setView] = useState({ top: 0, height: 0 });
  const [pitch, setPitch] = useState(DEFAULT_PITCH);
  const frame = useRef<number | null>(null);
  const read = useCallback(() => {
    frame.current = null;
    const el = list.current;
    if (!el) return;
    setView((v) => (v.top === el.scrollTop && v.height === el.clientHeight ? v : { top: el.scrollTop, height: el.clientHeight }));
    const rows = el.querySelectorAll<HTMLElement>(':scope > [data-row]');
    if (rows.length >= 2) {
      const p = rows[1]!.offsetTop - rows[0]!.offsetTop;
      if (p > 0) setPitch((old) => (Math.abs(old - p) < 0.5 ? old : p));
    }
  }, [list]);
  useLayoutEffect(() => {
    read();
    const el = list.current;
    if (!el || typeof ResizeObserver !== 'function') return;
    const sizes = new ResizeObserver(() => read());
    sizes.observe(el);
    return () => {
      sizes.disconnect();
      if (frame.current !== null) cancelAnimationFrame(frame.current);
      frame.current = null;
    };
  }, [list, read, count]);
  const onScroll = useCallback(() => {
    if (frame.current === null) frame.current = requestAnimationFrame(read);
  }, [read]);
  return { ...listWindow(view.top, view.height, pitch, count), onScroll };
}
