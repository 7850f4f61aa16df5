/**
 * A popover's dismissal: while `open`, Esc (caught before other handlers) and a mouse press
 * outside `box` close it. `onEscape` runs after an Esc close (e.g. to return focus to its button).
 */
import { useEffect, type RefObject } from 'react';

export function useDismiss(open: boolean, close: () => void, box: RefObject<HTMLElement | null>, onEscape?: () => void): void {
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent): void => {
      if (e.key !== 'Escape') return;
      e.stopPropagation();
      close();
      onEscape?.();
    };
    const onDown = (e: MouseEvent): void => {
      if (box.current && !box.current.contains(e.target as Node)) close();
    };
    window.addEventListener('keydown', onKey, true);
    window.addEventListener('mousedown', onDown);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      window.removeEventListener('mousedown', onDown);
    };
  }, [open, close, box, onEscape]);
}
