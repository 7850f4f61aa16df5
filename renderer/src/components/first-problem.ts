/**
 * Pointing at a form's problems instead of repeating them (docs/ARCHITECTURE.md "Visual design"):
 * each problem is said once, beside its field (marked `aria-invalid="true"`); a form that is sent
 * with problems moves the focus to the first one, scrolled into view. A summary is shown only
 * where a problem may be out of view (a dialog that scrolls), and it names the fields as buttons
 * that go to them — never the problem's sentence a second time.
 */
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';

const FOCUSABLE = 'input, select, textarea, button';

/**
 * The control a problem message (`.field-error`) belongs to: the invalid control of its row or
 * field, else the field's first control; null when it stands alone.
 */
function controlOf(message: Element): Element | null {
  const box = message.closest('.kv-row, .field');
  if (!box) return null;
  return box.querySelector('[aria-invalid="true"]') ?? box.querySelector('input:not([type="checkbox"]):not([type="radio"]):not(:disabled), select, textarea');
}

/**
 * Scroll `el` (a field, a group of them, or a problem message) into view and focus it, or its
 * first control (for a message: the control of its field).
 */
export function focusProblem(el: Element | null): void {
  if (!el) return;
  const control = el.matches('.field-error') ? controlOf(el) : el;
  if (!control) {
    el.scrollIntoView({ block: 'center' });
    return;
  }
  const target = control.matches(FOCUSABLE) ? control : (control.querySelector(FOCUSABLE) ?? control);
  target.scrollIntoView({ block: 'center' });
  (target as HTMLElement).focus({ preventScroll: true });
  // The message itself in view too (it may sit under a tall control).
  if (el !== control) el.scrollIntoView({ block: 'nearest' });
}

/**
 * The first problem inside `root`, in page order: a field marked `aria-invalid="true"`, or a
 * problem message (`.field-error`, e.g. main's refusal shown beside a field whose control the
 * window did not mark).
 */
export function firstProblem(root: Element | null): Element | null {
  return root?.querySelector('[aria-invalid="true"], .field-error') ?? null;
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
