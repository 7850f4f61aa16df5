import type { MaskedValue } from '../../../preload/contract/index.js';
import { splitCommandLine } from '../commandLine';
import { useTranslation } from '../i18n';
import { StoredValueRow } from './ValueRows';

/** What main shows in place of a stored secret inside a command line or URL (docs/ARCHITECTURE.md "Masked views only"). */
const PLACEHOLDER = '***';

/** The arguments of a command line typed so far, or [] while a quote is open. */
function argsOf(line: string): string[] {
  try {
    return splitCommandLine(line);
  } catch {
    return [];
  }
}

/** Positions (≥ 1) of `line`'s arguments that are `***` (stored secrets main keeps). */
export function storedSecretPositions(line: string): number[] {
  return argsOf(line).flatMap((a, i) => (i > 0 && a === PLACEHOLDER ? [i] : []));
}

/**
 * The arguments of a command line, each with a "secret" checkbox: a marked argument is kept in
 * the secret store and shown as `***` (`secret_args`). A `***` argument is a stored secret already
 * and stays one. `marked` are positions in the current line.
 */
export function SecretArgs({ line, marked, onChange }: { line: string; marked: number[]; onChange: (m: number[]) => void }) {
  const { t } = useTranslation();
  const args = argsOf(line).slice(1);
  if (args.length === 0) return null;
  return (
    <div className="field secret-args">
      <span>{t('secretArgs.title')}</span>
      {args.map((a, k) => {
        const i = k + 1;
        const stored = a === PLACEHOLDER;
        const on = stored || marked.includes(i);
        return (
          <label className="check mono" key={i}>
            <input
              type="checkbox"
              aria-label={t('secretArgs.mark', { n: i })}
              checked={on}
              disabled={stored}
              onChange={(e) => onChange(e.target.checked ? [...marked, i] : marked.filter((x) => x !== i))}
            />{' '}
            {stored ? <span className="badge set">{t('secretArgs.stored')}</span> : on ? '••••••••' : a}
          </label>
        );
      })}
      <span className="hint">{t('secretArgs.hint')}</span>
    </div>
  );
}

/** Edits of a URL's stored secret parts: a new value replaces, "remove" deletes, nothing keeps. */
export interface UrlSecretEdits {
  replace: Record<string, string>;
  removed: Record<string, boolean>;
}

/** The `url_secrets` PATCH of {@link UrlSecretEdits} (absent → keep, value → replace, "" → delete), or undefined. */
export function urlSecretsPatch(stored: Record<string, MaskedValue>, edits: UrlSecretEdits): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const part of Object.keys(stored)) {
    if (edits.removed[part]) out[part] = '';
    else if (edits.replace[part]) out[part] = edits.replace[part]!;
  }
  return Object.keys(out).length ? out : undefined;
}

/**
 * A URL's stored secret parts (user name, password, query values), like env values in the edit
 * form (./ValueRows.tsx): a "set" badge, a new-value field (empty keeps) and Remove.
 */
export function UrlSecrets({ stored, edits, onChange }: { stored: Record<string, MaskedValue>; edits: UrlSecretEdits; onChange: (e: UrlSecretEdits) => void }) {
  const { t } = useTranslation();
  const parts = Object.entries(stored);
  if (parts.length === 0) return null;
  return (
    <div className="field">
      <span>{t('urlSecrets.title')}</span>
      {parts.map(([part, v]) => {
        // Words for the part: the user name, the password, or a query parameter.
        const label = part === 'username' ? t('urlSecrets.username') : part === 'password' ? t('urlSecrets.password') : t('urlSecrets.query', { name: part.replace(/^query:/, '') });
        return (
          <StoredValueRow
            key={part}
            name={part}
            label={label}
            hasValue={v.has_value}
            value={edits.replace[part] ?? ''}
            removed={!!edits.removed[part]}
            onValue={(value) => onChange({ ...edits, replace: { ...edits.replace, [part]: value } })}
            onRemoved={(r) => onChange({ ...edits, removed: { ...edits.removed, [part]: r } })}
          />
        );
      })}
    </div>
  );
}
