import type { CatalogField, CatalogFixedValue } from '../../../preload/contract/index.js';
import { useTranslation } from '../i18n';
import { SecretsFormNote } from './SecretsFormNote';

/** Answers by field id, as the form holds them (a repeated field: one value per line). */
export type FieldAnswers = Record<string, string>;

/** The answers in the shape main takes: repeated fields become lists, empty answers are left out. */
export function answersToValues(fields: CatalogField[], answers: FieldAnswers): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const f of fields) {
    const v = answers[f.id] ?? '';
    if (f.repeated) {
      const list = v.split('\n').map((s) => s.trim()).filter(Boolean);
      if (list.length) out[f.id] = list;
    } else if (v !== '') out[f.id] = v;
  }
  return out;
}

/** Starting answers: each field's default. */
export function defaultAnswers(fields: CatalogField[]): FieldAnswers {
  return Object.fromEntries(fields.map((f) => [f.id, f.default ?? '']));
}

/** Required fields left empty (ids). */
export function missingFields(fields: CatalogField[], answers: FieldAnswers): string[] {
  return fields.filter((f) => f.required && !(answers[f.id] ?? '').trim()).map((f) => f.id);
}

/**
 * The inputs of a registry entry's fields: a select for choices, a checkbox for booleans, a
 * password input for secrets, a text area for repeated values. Labels are the registry's names.
 */
export function CatalogFieldInputs({ fields, answers, onChange, errors }: { fields: CatalogField[]; answers: FieldAnswers; onChange: (a: FieldAnswers) => void; errors: Record<string, string> }) {
  const { t } = useTranslation();
  const set = (id: string, v: string): void => onChange({ ...answers, [id]: v });
  return (
    <>
      {fields.some((f) => f.secret) && <SecretsFormNote />}
      {fields.map((f) => {
        const v = answers[f.id] ?? '';
        const label = (
          <span>
            <span className="mono">{f.label}</span>
            {f.required && <span className="muted">{t('catalog.requiredMark')}</span>}
            {f.secret && <span className="muted"> — {t('catalog.secret')}</span>}
          </span>
        );
        let input;
        if (f.choices) {
          input = (
            <select value={v} onChange={(e) => set(f.id, e.target.value)}>
              {!f.required && <option value="" />}
              {f.choices.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          );
        } else if (f.format === 'boolean') {
          input = <input type="checkbox" checked={v === 'true'} onChange={(e) => set(f.id, e.target.checked ? 'true' : 'false')} />;
        } else if (f.repeated) {
          input = <textarea className="mono" rows={3} value={v} placeholder={f.placeholder ?? ''} onChange={(e) => set(f.id, e.target.value)} />;
        } else {
          input = <input className="mono" type={f.secret ? 'password' : f.format === 'number' ? 'number' : 'text'} autoComplete="off" value={v} placeholder={f.placeholder ?? ''} onChange={(e) => set(f.id, e.target.value)} />;
        }
        return (
          <label className="field" key={f.id} data-testid={`catalog-field-${f.id}`}>
            {label}
            {input}
            {f.description && <span className="hint" lang="en">{f.description}</span>}
            {f.repeated && <span className="hint">{t('catalog.repeatedHint')}</span>}
            {errors[f.id] && (
              <span className="field-error" role="alert">
                {errors[f.id]}
              </span>
            )}
          </label>
        );
      })}
    </>
  );
}

/** One fixed value as it is used: `--flag value`, `NAME=value`, `Header: value`. */
function fixedText(f: CatalogFixedValue): string {
  if (f.kind === 'env') return `${f.name ?? ''}=${f.value ?? ''}`;
  if (f.kind === 'header') return `${f.name ?? ''}: ${f.value ?? ''}`;
  return [f.name, f.value].filter((p) => p !== null).join(' ');
}

/**
 * Every argument, variable and header an entry or bundle sets without asking, as a list — shown
 * before the Install button, so that nothing it passes is hidden (docs/ARCHITECTURE.md "Server
 * catalog"). `runtime` names who reads a runtime argument (`npx`, `uvx`, `docker`).
 */
export function FixedValues({ fixed, runtime }: { fixed: CatalogFixedValue[]; runtime: string | null }) {
  const { t } = useTranslation();
  const kind = (f: CatalogFixedValue): string =>
    f.kind === 'runtime_argument' ? t('catalog.fixedRuntime', { runtime: runtime ?? '' }) : f.kind === 'package_argument' ? t('catalog.fixedPackage') : f.kind === 'env' ? t('catalog.fixedEnv') : t('catalog.fixedHeader');
  return (
    <div className="catalog-fixed small" data-testid="catalog-fixed">
      <strong>{t('catalog.fixedTitle')}</strong>
      {fixed.length === 0 ? (
        <p className="muted">{t('catalog.fixedNone')}</p>
      ) : (
        <ul>
          {fixed.map((f, i) => (
            <li key={i} data-kind={f.kind}>
              <span className="mono" lang="en">
                {fixedText(f)}
              </span>{' '}
              <span className="muted">— {kind(f)}</span>
            </li>
          ))}
        </ul>
      )}
      {fixed.some((f) => /\{[^}]*\}/.test(f.value ?? '')) && <p className="hint">{t('catalog.fixedHint')}</p>}
    </div>
  );
}
