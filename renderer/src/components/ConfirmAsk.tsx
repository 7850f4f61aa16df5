/**
 * The app's own "are you sure?" — its one job is to ask before an action that cannot be taken
 * back, in place of the browser's `confirm()` (docs/ARCHITECTURE.md "Visual design"): an
 * `alertdialog` named by its question, the question as a sentence, the action's button and
 * Cancel. Cancel has the focus when it opens; Escape, Cancel or a press outside it cancels, and
 * Escape or Cancel hand the focus back to the button that asked. Where it sits (in a row, or as a
 * popover) is the caller's `className`.
 */
import { useRef, type RefObject } from 'react';
import { useTranslation } from '../i18n';
import { useDismiss } from './use-dismiss';

/** What one confirmation asks and what it does. */
export interface ConfirmAskProps {
  /** The question, one sentence in the UI language; also the dialog's accessible name. */
  question: string;
  /** The label of the button that goes ahead (e.g. "Remove"). */
  confirmLabel: string;
  /** Go ahead (the caller closes the confirmation). */
  onConfirm: () => void;
  /** Do nothing after all (the caller closes the confirmation). */
  onCancel: () => void;
  /** The button that asked: it gets the focus back after Escape or Cancel. */
  returnFocus?: RefObject<HTMLElement | null>;
  /** Placement classes added to `confirm-ask`. */
  className?: string;
  testId?: string;
}

/** An in-app confirmation: a question, the action's button, and Cancel (focused). */
export function ConfirmAsk({ question, confirmLabel, onConfirm, onCancel, returnFocus, className, testId }: ConfirmAskProps) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const giveFocusBack = (): void => returnFocus?.current?.focus();
  useDismiss(true, onCancel, box, giveFocusBack);
  return (
    <div ref={box} className={className ? `confirm-ask ${className}` : 'confirm-ask'} role="alertdialog" aria-label={question} data-testid={testId}>
      <p>{question}</p>
      <div className="row">
        <button type="button" className="danger" onClick={onConfirm}>
          {confirmLabel}
        </button>
        <button
          type="button"
          autoFocus
          onClick={() => {
            onCancel();
            giveFocusBack();
          }}
        >
          {t('common.cancel')}
        </button>
      </div>
    </div>
  );
}
