/**
 * One field of an elicitation form, rendered by its kind (./schema.ts): text inputs typed by
 * format (email, URL, date, date and time), numbers with their range, a checkbox, a select for a
 * single choice, checkboxes for several; the default (when the schema has one) said under it, and
 * the field's problem beside it. Labels and choices are the server's words, shown as text.
 */
import type { ReactNode } from 'react';
import { useTranslation } from '../../i18n';
import type { FormField, FormValue, Problem } from './schema';

/** A problem in the user's language; a missing choice is asked for as a choice, not as a value to enter. */
export function useProblemText(): (p: Problem, kind: FormField['field']['kind']) => string {
  const { t } = useTranslation();
  return (p, kind) => {
    switch (p.code) {
      case 'required':
        return kind === 'select' ? t('elicitation.pChoice') : kind === 'multi' ? t('elicitation.pMinItems', { count: 1 }) : t('elicitation.pRequired');
      case 'number':
        return t('elicitation.pNumber');
      case 'integer':
        return t('elicitation.pInteger');
      case 'min':
        return t('elicitation.pMin', { limit: p.limit });
      case 'max':
        return t('elicitation.pMax', { limit: p.limit });
      case 'min_length':
        return t('elicitation.pMinLength', { count: p.limit });
      case 'max_length':
        return t('elicitation.pMaxLength', { count: p.limit });
      case 'email':
        return t('elicitation.pEmail');
      case 'uri':
        return t('elicitation.pUri');
      case 'date':
        return t('elicitation.pDate');
      case 'date_time':
        return t('elicitation.pDateTime');
      case 'choice':
        return t('elicitation.pChoice');
      case 'min_items':
        return t('elicitation.pMinItems', { count: p.limit });
      case 'max_items':
        return t('elicitation.pMaxItems', { count: p.limit });
    }
  };
}

const INPUT_TYPE = { plain: 'text', email: 'email', uri: 'url', date: 'date', 'date-time': 'datetime-local' } as const;

/** The default as the user would read it. */
function defaultText(f: FormField): string | null {
  const d = f.initial;
  if (d === null) return null;
  if (f.field.kind === 'select' || f.field.kind === 'multi') {
    const picks = Array.isArray(d) ? d : [String(d)];
    const choices = f.field.choices;
    return picks.map((v) => choices.find((c) => c.value === v)?.label ?? v).join(', ');
  }
  return String(d);
}

/** One field. `onChange` gets the new value; `problem` is shown beside it. */
export function ElicitationField({ f, value, problem, onChange }: { f: FormField; value: FormValue | undefined; problem: Problem | null; onChange: (v: FormValue) => void }) {
  const { t } = useTranslation();
  const problemText = useProblemText();
  const id = `elicit-${f.key}`;
  const errorId = `${id}-error`;
  const invalid = problem ? { 'aria-invalid': true as const, 'aria-describedby': errorId } : {};
  const dflt = defaultText(f);
  const { field } = f;
  let control: ReactNode;
  if (field.kind === 'boolean') {
    control = (
      <label className="check">
        <input type="checkbox" aria-label={f.label} checked={value === true} onChange={(e) => onChange(e.target.checked)} {...invalid} />
        {f.label}
      </label>
    );
  } else if (field.kind === 'select') {
    control = (
      <select id={id} aria-label={f.label} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value)} {...invalid}>
        <option value="">—</option>
        {field.choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
    );
  } else if (field.kind === 'multi') {
    const picks = Array.isArray(value) ? value : [];
    control = (
      <div role="group" aria-label={f.label} className="elicit-choices" {...invalid}>
        {field.choices.map((c) => (
          <label key={c.value} className="check">
            <input type="checkbox" checked={picks.includes(c.value)} onChange={(e) => onChange(e.target.checked ? [...picks, c.value] : picks.filter((x) => x !== c.value))} />
            {c.label}
          </label>
        ))}
      </div>
    );
  } else if (field.kind === 'number') {
    control = (
      <input
        id={id}
        aria-label={f.label}
        type="number"
        step={field.integer ? 1 : 'any'}
        {...(field.minimum !== null ? { min: field.minimum } : {})}
        {...(field.maximum !== null ? { max: field.maximum } : {})}
        value={typeof value === 'string' ? value : ''}
        onChange={(e) => onChange(e.target.value)}
        {...invalid}
      />
    );
  } else {
    control = (
      <input
        id={id}
        aria-label={f.label}
        type={INPUT_TYPE[field.format]}
        {...(field.maxLength !== null ? { maxLength: field.maxLength } : {})}
        value={typeof value === 'string' ? value : ''}
        onChange={(e) => onChange(e.target.value)}
        {...invalid}
      />
    );
  }
  const range =
    field.kind === 'number' && (field.minimum !== null || field.maximum !== null)
      ? t('elicitation.range', { min: field.minimum ?? '−∞', max: field.maximum ?? '∞' })
      : field.kind === 'multi' && (field.minItems !== null || field.maxItems !== null)
        ? t('elicitation.picks', { min: field.minItems ?? 0, max: field.maxItems ?? field.choices.length })
        : null;
  return (
    <div className="field elicit-field" data-testid="elicit-field" data-key={f.key} data-kind={field.kind}>
      {field.kind !== 'boolean' && (
        <span>
          {f.label}
          {f.required ? ' *' : ''}
        </span>
      )}
      {f.description && <span className="hint">{f.description}</span>}
      {control}
      {(range || dflt !== null) && (
        <span className="hint">
          {[range, dflt !== null ? t('elicitation.default', { value: dflt }) : null].filter(Boolean).join(' · ')}
        </span>
      )}
      {problem && (
        <span id={errorId} className="field-error" role="alert">
          {problemText(problem, field.kind)}
        </span>
      )}
    </div>
  );
}
