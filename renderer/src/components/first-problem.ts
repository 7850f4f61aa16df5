/**
 * Pointing at a form's problems instead of repeating them (docs/ARCHITECTURE.md "Visual design"):
 * each problem is said once, beside its field (marked `aria-invalid="true"`); a form that is sent
 * with problems moves the focus to the first one, scrolled into view. A summary is shown only
 * where a problem may be out of view (a dialog that scrolls), and it names the fields as buttons
 * that go to them — never the problem's sentence a second time.
 */
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';

const FOCUSABLE = 'input, select, textarea, button';

/** Scroll `el` (a field, or a group of them) into view and focus it, or its first control. */
export function focusProblem(el: Element | null): void {
  if (!el) return;
  const target = el.matches(FOCUSABLE) ? el : (el.querySelector(FOCUSABLE) ?? el);
  target.scrollIntoView({ block: 'center' });
  (target as HTMLElement).focus({ preventScroll: true });
}

/** The first field inside `root` marked as having a problem. */
export function firstProblem(root: Element | null): Element | null {
  return root?.querySelector('[aria-invalid="true"]') ?? null;
}

/** Whether `el` scrolls, so that a field with a problem may be out of view. */
export function scrollsItself(el: Element | null): boolean {
  return !!el && el.scrollHeight > el.clientHeight + 1;
}

/**
 * A ref for a form and a function that, once the problems just set are on screen (after the
 * render that marks them), focuses the first of them.
 */
export function useFocusFirstProblem<T extends HTMLElement>(): [RefObject<T | null>, () => void] {
  const ref = useRef<T>(null);
  const [asked, setAsked] = useState(0);
  useEffect(() => {
    if (asked) focusProblem(firstProblem(ref.current));
  }, [asked]);
  return [ref, useCallback(() => setAsked((n) => n + 1), [])];
}
