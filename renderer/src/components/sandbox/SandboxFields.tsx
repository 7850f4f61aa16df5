/**
 * The "Sandbox" section of a local server's add and edit forms (docs/ARCHITECTURE.md "Sandbox"):
 * the on/off switch (turning it off asks first, in the page: the server would run with the user's
 * full rights), extra read folders, extra write folders and allowed hosts, one per line. Main
 * checks every entry; its refusal is shown beside the field it names. `useSandboxForm` keeps the
 * draft and gives the add form its input and the edit form its PATCH, so a form needs a few lines.
 */
import { useState, type ReactNode } from 'react';
import type { SandboxPatch, SandboxSettings } from '../../../../preload/contract/index.js';
import { ApiError } from '../../api';
import { useTranslation } from '../../i18n';
import { Fill } from '../../i18n/Fill';
import { draftOf, fieldErrorOf, sandboxFieldOf, sandboxPatchOf, settingsOf, type SandboxDraft, type SandboxField, type SandboxFieldError } from './sandbox-form';
import './sandbox.css';

/** The state of one form's sandbox section. */
export interface SandboxForm {
  draft: SandboxDraft;
  setDraft: (d: SandboxDraft) => void;
  errors: Partial<Record<SandboxField, SandboxFieldError>>;
  /** The add form's `sandbox` input (the whole settings). */
  input: () => { sandbox: SandboxSettings };
  /** The edit form's `sandbox` PATCH: only what changed; undefined when nothing did. */
  patch: () => SandboxPatch | undefined;
  /**
   * Show an error from main beside the sandbox field it names (its `field`); clears the previous
   * ones. @returns true when it was a sandbox field's error (the form shows nothing else for it).
   */
  takeError: (err: unknown) => boolean;
}

/** The sandbox section's state for a form, starting from stored settings (null: a new server). */
export function useSandboxForm(stored: SandboxSettings | null): SandboxForm {
  const [draft, setDraft] = useState<SandboxDraft>(() => draftOf(stored));
  const [errors, setErrors] = useState<SandboxForm['errors']>({});
  return {
    draft,
    setDraft: (d) => {
      setDraft(d);
      setErrors({});
    },
    errors,
    input: () => ({ sandbox: settingsOf(draft) }),
    patch: () => sandboxPatchOf(stored, draft),
    takeError: (err) => {
      const at = err instanceof ApiError ? sandboxFieldOf(err.field) : null;
      setErrors(at ? { [at.field]: fieldErrorOf(draft, at, (err as Error).message) } : {});
      return at !== null;
    },
  };
}

/** The example host rules of the hosts field's hint and error (data, shown in monospace). */
const HOST_EXAMPLES = { name: <span className="mono">api.example.com</span>, wildcard: <span className="mono">*.example.com</span>, port: <span className="mono">:port</span> };

/** One list of the section, one entry per line. */
function ListField({ label, hint, value, onChange, error, kind }: { label: string; hint: ReactNode; value: string; onChange: (v: string) => void; error: SandboxFieldError | undefined; kind: 'folder' | 'host' }) {
  const { t } = useTranslation();
  const lines = Math.min(6, Math.max(2, value.split('\n').length));
  return (
    <label className="field">
      <span>{label}</span>
      <textarea aria-label={label} className="mono" rows={lines} value={value} onChange={(e) => onChange(e.target.value)} aria-invalid={!!error} spellCheck={false} />
      <span className="hint">{hint}</span>
      {error && (
        <span className="field-error" role="alert">
          {error.value === null ? error.message : kind === 'host' ? <Fill k="sandbox.errHost" slots={{ value: error.value, ...HOST_EXAMPLES }} /> : t('sandbox.errFolder', { value: error.value })}
        </span>
      )}
    </label>
  );
}

/** The "Sandbox" section of a local server's form. */
export function SandboxFields({ form }: { form: SandboxForm }) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  const { draft, setDraft, errors } = form;
  return (
    <fieldset className="sandbox-fields" data-testid="sandbox-fields">
      <legend>{t('sandbox.section')}</legend>
      <label className="check">
        <input
          type="checkbox"
          role="switch"
          aria-label={t('sandbox.switch')}
          checked={draft.enabled}
          onChange={(e) => {
            if (e.target.checked) {
              setConfirming(false);
              setDraft({ ...draft, enabled: true });
            } else setConfirming(true);
          }}
        />{' '}
        {t('sandbox.switch')}
      </label>
      {draft.enabled && <span className="hint">{t('sandbox.switchHint')}</span>}
      {confirming && (
        <div className="banner warning small sandbox-confirm" role="alertdialog" aria-label={t('sandbox.confirmOffYes')}>
          <span>{t('sandbox.confirmOff')}</span>
          <span className="row">
            <button
              type="button"
              className="danger"
              onClick={() => {
                setConfirming(false);
                setDraft({ ...draft, enabled: false });
              }}
            >
              {t('sandbox.confirmOffYes')}
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              {t('sandbox.confirmOffNo')}
            </button>
          </span>
        </div>
      )}
      {!draft.enabled && !confirming && <span className="sandbox-reason warn">{t('sandbox.offNote')}</span>}
      {errors.enabled && (
        <span className="field-error" role="alert">
          {errors.enabled.message}
        </span>
      )}
      {draft.enabled && (
        <>
          <ListField label={t('sandbox.extraRead')} hint={t('sandbox.oneFolderPerLine')} value={draft.read} onChange={(v) => setDraft({ ...draft, read: v })} error={errors.read} kind="folder" />
          <ListField label={t('sandbox.extraWrite')} hint={t('sandbox.oneFolderPerLine')} value={draft.write} onChange={(v) => setDraft({ ...draft, write: v })} error={errors.write} kind="folder" />
          <ListField label={t('sandbox.hosts')} hint={<Fill k="sandbox.oneHostPerLine" slots={HOST_EXAMPLES} />} value={draft.hosts} onChange={(v) => setDraft({ ...draft, hosts: v })} error={errors.hosts} kind="host" />
        </>
      )}
    </fieldset>
  );
}
