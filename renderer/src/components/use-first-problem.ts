/**
 * A refused submit shows where: the form's first problem (its first `.field-error` message, in
 * page order) is brought into view and its field focused, so a refusal beside a field far above
 * the button is seen (docs/ARCHITECTURE.md "Visual design"). The message itself is the one the
 * form already shows beside its field; nothing is added.
 */
import { useCallback, useEffect, useState, type RefObject } from 'react';

/** The field a problem message belongs to: the invalid control of its row or field, else the field's first control. */
function controlOf(message: HTMLElement): HTMLElement | null {
  const box = message.closest<HTMLElement>('.kv-row, .field');
  if (!box) return null;
  return box.querySelector<HTMLElement>('[aria-invalid="true"]') ?? box.querySelector<HTMLElement>('input:not([type="checkbox"]):not([type="radio"]):not(:disabled), select, textarea');
}

/**
 * @param form the form
 * @returns call it when a submit was refused; after the refusal's messages render, the first one is
 *   scrolled into view and its field gets the focus
 */
export function useRevealFirstProblem(form: RefObject<HTMLElement | null>): () => void {
  // Each refusal is a new request, also when it repeats the last one's messages.
  const [refusals, setRefusals] = useState(0);
  useEffect(() => {
    if (refusals === 0 || !form.current) return;
    const message = form.current.querySelector<HTMLElement>('.field-error');
    if (!message) return;
    const control = controlOf(message);
    control?.focus({ preventScroll: true });
    (control ?? message).scrollIntoView({ block: 'center' });
    message.scrollIntoView({ block: 'nearest' });
  }, [refusals, form]);
  return useCallback(() => setRefusals((n) => n + 1), []);
}
