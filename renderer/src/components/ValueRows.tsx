/**
 * The name → value rows of the server forms (environment variables, headers, a URL's secret
 * parts): one row design for a stored value and a new one (docs/ARCHITECTURE.md "Visual design").
 * Three columns of the same widths in every row — the name, the value, Remove — and the row's
 * problem on a line of its own under it, so a message never squeezes the fields.
 */
import { useTranslation } from '../i18n';

/** A stored value: its name with a "set" badge, a new value (empty keeps it), and Remove — which turns into Keep. */
export function StoredValueRow({
  name,
  label = name,
  hasValue,
  value,
  removed,
  onValue,
  onRemoved,
}: {
  /** The stored name (a variable, a header, a URL part). */
  name: string;
  /** The name in words, when it is not shown as it is stored (a URL's secret parts). */
  label?: string;
  hasValue: boolean;
  value: string;
  removed: boolean;
  onValue: (v: string) => void;
  onRemoved: (removed: boolean) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className={`kv-row${removed ? ' removed' : ''}`} data-testid="stored-value-row">
      <span className="kv-name mono" title={label}>
        <span className="kv-label">{label}</span> {hasValue && <span className="badge set">{t('common.set')}</span>}
      </span>
      {removed ? (
        <span className="kv-note muted small">{t('editServer.removedOnSave')}</span>
      ) : (
        <input aria-label={t('editServer.newValueFor', { name: label })} type="password" autoComplete="off" placeholder={t('editServer.unchanged')} value={value} onChange={(e) => onValue(e.target.value)} />
      )}
      <button type="button" className="link kv-remove" aria-label={removed ? t('editServer.keepName', { name: label }) : t('editServer.removeName', { name: label })} onClick={() => onRemoved(!removed)}>
        {removed ? t('editServer.keep') : t('common.remove')}
      </button>
    </div>
  );
}

/** A new row: a name field, a value field (a secret), Remove, and — under it — why its name is refused. */
export function NewValueRow({
  name,
  value,
  nameLabel,
  valueLabel,
  removeLabel,
  namePlaceholder,
  valuePlaceholder,
  duplicate,
  invalid = false,
  onName,
  onValue,
  onRemove,
}: {
  name: string;
  value: string;
  nameLabel: string;
  valueLabel: string;
  removeLabel: string;
  namePlaceholder: string;
  valuePlaceholder: string;
  /** Why this row's name is refused (it repeats another row's), or null. */
  duplicate: string | null;
  /** Whether the name is refused for another reason said under the rows (a character it may not hold). */
  invalid?: boolean;
  onName: (v: string) => void;
  onValue: (v: string) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="kv-row" data-testid="new-value-row">
      <input aria-label={nameLabel} className="mono" placeholder={namePlaceholder} value={name} aria-invalid={!!duplicate || invalid} onChange={(e) => onName(e.target.value)} />
      <input aria-label={valueLabel} type="password" autoComplete="off" placeholder={valuePlaceholder} value={value} onChange={(e) => onValue(e.target.value)} />
      <button type="button" className="link kv-remove" onClick={onRemove} aria-label={removeLabel}>
        {t('common.remove')}
      </button>
      {duplicate && (
        <span className="field-error kv-error" role="alert" data-testid="duplicate-row">
          {duplicate}
        </span>
      )}
    </div>
  );
}
