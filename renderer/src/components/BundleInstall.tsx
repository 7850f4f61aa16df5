import { useEffect, useRef, useState } from 'react';
import type { BundlePreview } from '../../../preload/contract/index.js';
import { isValidServerName } from '../../../preload/contract/rules/index.js';
import { ApiError, call } from '../api';
import { Fill } from '../i18n/Fill';
import { useTranslation } from '../i18n';
import { useApp } from '../store';
import { DeclaredNeeds } from './sandbox/DeclaredNeeds';
import { answersToValues, CatalogFieldInputs, defaultAnswers, FixedValues, missingFields, type FieldAnswers } from './CatalogFields';

/** Largest file sent: main takes 64 MB; the browser shell's socket carries at most 4 MB a message (base64 included). */
function maxBytes(shell: 'electron' | 'browser' | undefined): number {
  return shell === 'browser' ? 3 * 1024 * 1024 - 64 * 1024 : 64 * 1024 * 1024;
}

function toBase64(buf: ArrayBuffer): string {
  const bytes = new Uint8Array(buf);
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/** The install form of a bundle looked at (from a file or a registry entry); `onDone` gets the new server's name. */
export function BundleForm({ preview, onDone, onCancel }: { preview: BundlePreview; onDone: (server: string) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const upsert = useApp((s) => s.upsertServer);
  const [name, setName] = useState(() => preview.name.replace(/[^A-Za-z0-9_.-]/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 64) || 'bundle');
  const [answers, setAnswers] = useState<FieldAnswers>(() => defaultAnswers(preview.fields));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const install = async (): Promise<void> => {
    const e: Record<string, string> = {};
    if (!isValidServerName(name)) e.name = t('catalog.errServerName');
    for (const id of missingFields(preview.fields, answers)) e[id] = t('catalog.errRequired');
    setErrors(e);
    if (Object.keys(e).length) return;
    setBusy(true);
    try {
      const view = await call('catalog.bundleInstall', { token: preview.token, server_name: name, values: answersToValues(preview.fields, answers) });
      upsert(view);
      onDone(view.name);
    } catch (err) {
      const field = err instanceof ApiError && err.field && preview.fields.some((f) => f.id === err.field) ? err.field : err instanceof ApiError && err.field === 'name' ? 'name' : 'form';
      setErrors({ [field]: (err as Error).message });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="panel add-form"
      data-testid="bundle-form"
      onSubmit={(ev) => {
        ev.preventDefault();
        void install();
      }}
    >
      <div className="row">
        <strong className="server-name">{preview.display_name ?? preview.name}</strong>
        <span className="mono muted small">
          {preview.name} {preview.version}
        </span>
        <span className="spacer" />
        <span className="muted small">
          <Fill k="catalog.bundleRuntime" slots={{ runtime: <span className="mono">{preview.runtime}</span> }} />
        </span>
      </div>
      <div className="small" lang="en">
        {preview.description}
      </div>
      <label className="field">
        <span>{t('catalog.serverName')}</span>
        <input aria-label={t('catalog.serverName')} className="mono" value={name} onChange={(e) => setName(e.target.value)} />
        {errors.name && (
          <span className="field-error" role="alert">
            {errors.name}
          </span>
        )}
      </label>
      {preview.fields.length === 0 && <p className="muted">{t('catalog.noFields')}</p>}
      <CatalogFieldInputs fields={preview.fields} answers={answers} onChange={setAnswers} errors={errors} />
      <FixedValues fixed={preview.fixed} runtime={preview.runtime} />
      <DeclaredNeeds needs={preview.sandbox_needs} />
      {errors.form && (
        <div className="field-error" role="alert">
          {errors.form}
        </div>
      )}
      <div className="row">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? t('catalog.installing') : t('catalog.install')}
        </button>
        <button type="button" onClick={onCancel}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}

/** "Installed "<server>". It is starting in MCP servers." with the name as data. */
export function Installed({ server }: { server: string }) {
  return <Fill k="catalog.installed" slots={{ name: <span className="mono">{server}</span> }} />;
}

type Step = { kind: 'idle' } | { kind: 'reading' } | { kind: 'preview'; preview: BundlePreview } | { kind: 'done'; server: string };

/** Install a `.mcpb` bundle: a file picker, or a file dropped anywhere on the Catalog screen. */
export function BundleInstall() {
  const { t } = useTranslation();
  const shell = useApp((s) => s.info?.shell);
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [error, setError] = useState('');
  const input = useRef<HTMLInputElement>(null);

  const read = async (file: File): Promise<void> => {
    setError('');
    const max = maxBytes(shell);
    if (file.size > max) return setError(t('catalog.bundleTooLarge', { mb: Math.floor(max / 1024 / 1024) }));
    setStep({ kind: 'reading' });
    try {
      const preview = await call('catalog.bundleInspect', { data_base64: toBase64(await file.arrayBuffer()) });
      setStep({ kind: 'preview', preview });
    } catch (err) {
      setStep({ kind: 'idle' });
      setError((err as Error).message);
    }
  };
  // A file dropped anywhere on the window while the Catalog is open.
  useEffect(() => {
    const over = (e: DragEvent): void => {
      if (e.dataTransfer?.types.includes('Files')) e.preventDefault();
    };
    const drop = (e: DragEvent): void => {
      const file = e.dataTransfer?.files[0];
      if (!file) return;
      e.preventDefault();
      void read(file);
    };
    window.addEventListener('dragover', over);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragover', over);
      window.removeEventListener('drop', drop);
    };
  });

  return (
    <div className="panel" data-testid="bundle-install">
      <div className="row">
        <h3>{t('catalog.bundleTitle')}</h3>
        <span className="spacer" />
        <button onClick={() => input.current?.click()}>{t('catalog.bundleChoose')}</button>
        <input
          ref={input}
          type="file"
          accept=".mcpb,.dxt,application/zip"
          aria-label={t('catalog.bundleChoose')}
          hidden
          onChange={(e) => {
            const f = e.target.files?.[0];
            e.target.value = '';
            if (f) void read(f);
          }}
        />
      </div>
      <p className="muted small">{t('catalog.bundleHint')}</p>
      {step.kind === 'reading' && <p className="muted">{t('catalog.bundleReading')}</p>}
      {error && (
        <div className="banner warning" role="alert" data-testid="bundle-error">
          {error}
        </div>
      )}
      {step.kind === 'done' && (
        <div className="small ok-text" role="status">
          <Installed server={step.server} />
        </div>
      )}
      {step.kind === 'preview' && <BundleForm key={step.preview.token} preview={step.preview} onDone={(server) => setStep({ kind: 'done', server })} onCancel={() => setStep({ kind: 'idle' })} />}
    </div>
  );
}
