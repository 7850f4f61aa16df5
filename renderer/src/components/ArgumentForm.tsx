/**
 * The small form for a prompt's arguments or a resource template's variables, with suggestions
 * from the server (MCP "Completion", `context.complete`): asked for the field being edited,
 * debounced, and answers that arrive after the user typed on are dropped — typing never waits.
 * The values already chosen for the other fields go with each request (`context.arguments`), so a
 * field can depend on an earlier one.
 */
import { useEffect, useRef, useState } from 'react';
import { call } from '../api';
import { useTranslation } from '../i18n';

/** One field of the form. */
export interface ArgumentField {
  name: string;
  description: string;
  required: boolean;
}

/** What completions refer to. */
export type CompletionTarget = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

/** Milliseconds after the last keystroke before suggestions are asked for. */
export const COMPLETION_DEBOUNCE_MS = 200;

/** Suggestions of the field in focus, as the UI renders them. */
type Suggestions = { state: 'none' } | { state: 'loading'; field: string } | { state: 'ready'; field: string; values: string[] };

/**
 * @param title the form's heading (e.g. "Prompt everything/completable-prompt")
 * @param onSubmit receives every field's value (empty ones included)
 */
export function ArgumentForm({
  title,
  description,
  server,
  target,
  fields,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  title: string;
  description: string;
  server: string;
  target: CompletionTarget;
  fields: ArgumentField[];
  submitLabel: string;
  onSubmit: (values: Record<string, string>) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(fields.map((f) => [f.name, ''])));
  const [focused, setFocused] = useState<string | null>(fields[0]?.name ?? null);
  const [suggestions, setSuggestions] = useState<Suggestions>({ state: 'none' });
  const [active, setActive] = useState(-1);
  const [missing, setMissing] = useState(false);
  // Each request has a number; only the newest one's answer is shown.
  const seq = useRef(0);
  const firstInput = useRef<HTMLInputElement>(null);
  useEffect(() => firstInput.current?.focus(), []);

  const focusedValue = focused === null ? null : (values[focused] ?? '');
  useEffect(() => {
    if (focused === null || focusedValue === null) return;
    const mine = ++seq.current;
    const timer = setTimeout(() => {
      setSuggestions({ state: 'loading', field: focused });
      const others = Object.fromEntries(Object.entries(values).filter(([k, v]) => k !== focused && v.trim()));
      call('context.complete', { server, ref: target, argument: { name: focused, value: focusedValue }, ...(Object.keys(others).length ? { context_arguments: others } : {}) }).then(
        (r) => {
          if (seq.current === mine) {
            setSuggestions({ state: 'ready', field: focused, values: r.values.filter((v) => v !== focusedValue) });
            setActive(-1);
          }
        },
        () => {
          if (seq.current === mine) setSuggestions({ state: 'none' });
        },
      );
    }, COMPLETION_DEBOUNCE_MS);
    return () => clearTimeout(timer);
    // `values` of other fields are read when the timer fires; a change of the focused value restarts it.
  }, [focused, focusedValue, server]);

  const choose = (field: string, value: string): void => {
    seq.current++;
    setValues((v) => ({ ...v, [field]: value }));
    setSuggestions({ state: 'none' });
  };
  const submit = (): void => {
    if (fields.some((f) => f.required && !(values[f.name] ?? '').trim())) {
      setMissing(true);
      return;
    }
    onSubmit(values);
  };
  const shown = suggestions.state === 'ready' && suggestions.field === focused ? suggestions.values : [];

  return (
    <form
      className="argument-form"
      aria-label={title}
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          onCancel();
        }
      }}
    >
      <div className="argument-form-head">
        <strong>{title}</strong>
        {description && <span className="muted small">{description}</span>}
      </div>
      {fields.map((f, i) => (
        <label key={f.name} className="argument-field">
          <span>
            {f.name}
            {f.required && (
              <>
                <span className="required" aria-hidden="true" title={t('composer.required')}>
                  {' '}*
                </span>
                <span className="sr-only">{t('composer.required')}</span>
              </>
            )}
          </span>
          <input
            ref={i === 0 ? firstInput : undefined}
            value={values[f.name] ?? ''}
            aria-required={f.required}
            aria-autocomplete="list"
            autoComplete="off"
            placeholder={f.description}
            onFocus={() => setFocused(f.name)}
            onChange={(e) => {
              setMissing(false);
              setValues((v) => ({ ...v, [f.name]: e.target.value }));
            }}
            onKeyDown={(e) => {
              if (focused !== f.name || shown.length === 0) return;
              if (e.key === 'ArrowDown') {
                e.preventDefault();
                setActive((a) => (a + 1) % shown.length);
              } else if (e.key === 'ArrowUp') {
                e.preventDefault();
                setActive((a) => (a <= 0 ? shown.length - 1 : a - 1));
              } else if (e.key === 'Enter' && active >= 0) {
                e.preventDefault();
                choose(f.name, shown[active]!);
              }
            }}
          />
          {focused === f.name && suggestions.state === 'loading' && suggestions.field === f.name && <span className="muted small">{t('composer.loadingSuggestions')}</span>}
          {focused === f.name && shown.length > 0 && (
            <ul className="suggestions" role="listbox" aria-label={t('composer.suggestions', { name: f.name })}>
              {shown.slice(0, 20).map((v, j) => (
                <li key={v} role="option" aria-selected={j === active} className={j === active ? 'active' : ''} onMouseDown={(e) => e.preventDefault()} onClick={() => choose(f.name, v)}>
                  {v}
                </li>
              ))}
            </ul>
          )}
        </label>
      ))}
      {missing && (
        <div className="error-text small" role="alert">
          {t('composer.requiredMissing')}
        </div>
      )}
      <div className="row">
        <button type="submit" className="primary">
          {submitLabel}
        </button>
        <button type="button" onClick={onCancel}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}
