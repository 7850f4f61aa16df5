import { useState } from 'react';
import type { ExportResult, ImportPreview, ImportResult } from '../../../preload/contract/index.js';
import { call } from '../api';
import { useApp } from '../store';
import { t as translate, useTranslation } from '../i18n';

/** "Import 2 servers (1 new, 1 replaced)" — what the button will really do (current language). */
function importLabel(preview: ImportPreview, replace: boolean): string {
  const existing = preview.servers.filter((s) => s.exists).length;
  const refused = preview.servers.filter((s) => !s.exists && s.collides_with !== null).length;
  const fresh = preview.servers.length - existing - refused;
  const n = importCount(preview, replace);
  if (n === 0) return translate('importExport.nothingNew');
  const parts = [translate('importExport.fresh', { count: fresh })];
  if (replace && existing) parts.push(translate('importExport.replaced', { count: existing }));
  else if (existing) parts.push(translate('importExport.skipped', { count: existing }));
  if (refused) parts.push(translate('importExport.refused', { count: refused }));
  return translate('importExport.import', { count: n, parts: parts.join(translate('importExport.listSep')) });
}

/** How many entries the import would add or replace (entries main refuses are not counted). */
function importCount(preview: ImportPreview, replace: boolean): number {
  return preview.servers.filter((s) => (s.exists ? replace : s.collides_with === null)).length;
}

/**
 * Import servers from pasted JSON (`{"servers": …}` or other hosts' `{"mcpServers": …}`), with a
 * masked preview first; export the list without secrets (shown here) or with secrets (written by
 * the app to an owner-only file; the secrets never reach this window).
 */
export function ImportExport({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const loadServers = useApp((s) => s.loadServers);
  const [json, setJson] = useState('');
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [replace, setReplace] = useState(false);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [exported, setExported] = useState<ExportResult | null>(null);
  const [error, setError] = useState<string | null>(null);

  const run = async <T,>(fn: () => Promise<T>, then: (v: T) => void) => {
    setError(null);
    try {
      then(await fn());
    } catch (err) {
      setError((err as Error).message);
    }
  };

  return (
    <div className="panel add-form import-box" data-testid="import-export">
      <div className="row">
        <h3>{t('importExport.title')}</h3>
        <span className="spacer" />
        <button onClick={onClose}>{t('common.close')}</button>
      </div>
      <label className="field">
        <span>{t('importExport.paste', { a: '{"servers": …}', b: '{"mcpServers": …}' })}</span>
        <textarea
          aria-label={t('importExport.importJson')}
          className="mono"
          value={json}
          onChange={(e) => {
            setJson(e.target.value);
            setPreview(null);
            setResult(null);
          }}
        />
      </label>
      <div className="row">
        <button disabled={!json.trim()} onClick={() => void run(() => call('servers.importPreview', { json }), setPreview)}>
          {t('importExport.preview')}
        </button>
        {preview && (
          <>
            <label className="check">
              <input type="checkbox" checked={replace} onChange={(e) => setReplace(e.target.checked)} /> {t('importExport.replace')}
            </label>
            <button
              className="primary"
              disabled={importCount(preview, replace) === 0}
              onClick={() =>
                void run(
                  () => call('servers.import', { json, replace_existing: replace }),
                  (r) => {
                    setResult(r);
                    setJson('');
                    setPreview(null);
                    void loadServers();
                  },
                )
              }
            >
              {importLabel(preview, replace)}
            </button>
          </>
        )}
      </div>
      {preview && (
        <ul className="preview-list" data-testid="import-preview">
          {preview.servers.map((s) => (
            <li key={s.name}>
              <strong>{s.name}</strong> <span className="muted mono">{s.type === 'local' ? s.command.join(' ') : s.url}</span>{' '}
              {Object.entries({ ...s.env, ...s.headers }).map(([k, v]) => (
                <span key={k} className="badge set">
                  {k} {v.has_value ? v.masked : t('common.empty')}
                </span>
              ))}
              {s.exists && <span className="badge error">{t('importExport.exists')}</span>}
              {!s.exists && s.collides_with !== null && (
                <div className="error-text" data-testid="import-refused">
                  {t('importExport.collides', { other: s.collides_with })}
                </div>
              )}
              {s.exists && (
                <div className="muted" data-testid="import-kept">
                  {s.kept_secrets.length > 0
                    ? t('importExport.keeps', { names: s.kept_secrets.join(', ') })
                    : t('importExport.keepsNone')}
                </div>
              )}
              {!s.enabled && <span className="badge">{t('importExport.importedDisabled')}</span>}
              {s.disabled_tools.length > 0 && (
                <div className="small" data-testid="preview-disabled-tools">
                  {t('importExport.disabledTools')}<span className="mono">{s.disabled_tools.join(', ')}</span>
                </div>
              )}
              {s.always_allow_tools.length > 0 && (
                <div className="small" data-testid="preview-always-allow">
                  {t('importExport.alwaysAllowed')}<span className="mono">{s.always_allow_tools.join(', ')}</span>
                </div>
              )}
              {s.unmapped_keys.length > 0 && (
                <div className="small muted" data-testid="preview-unmapped">
                  {t('importExport.unmappedBefore')}<span className="mono">{s.unmapped_keys.join(', ')}</span>{t('importExport.unmappedAfter')}
                </div>
              )}
            </li>
          ))}
          {preview.warning && <li className="error-text">{preview.warning}</li>}
        </ul>
      )}
      {result && (
        <div data-testid="import-result">
          {t('importExport.added', { names: result.added.join(', ') || t('common.none') })}
          {result.replaced.length > 0 && t('importExport.replacedList', { names: result.replaced.join(', ') })}
          {result.skipped.map((s) => (
            <div key={s.name} className="error-text">
              {t('importExport.skippedOne', { name: s.name, reason: s.reason })}
            </div>
          ))}
        </div>
      )}
      <div className="row">
        <button onClick={() => void run(() => call('servers.export', { include_secrets: false }), setExported)}>{t('importExport.exportPlain')}</button>
        <button
          className="danger"
          onClick={() => {
            if (confirm(t('importExport.confirmSecrets'))) void run(() => call('servers.export', { include_secrets: true }), setExported);
          }}
        >
          {t('importExport.exportSecrets')}
        </button>
      </div>
      {exported?.json && <textarea aria-label={t('importExport.exportedJson')} className="mono" readOnly value={exported.json} />}
      {exported?.path && (
        <div className="notice-block warning" role="alert">
          <div>
            {t('importExport.writtenTo')}<span className="mono">{exported.path}</span>
          </div>
          <div>{exported.warning}</div>
        </div>
      )}
      {error && (
        <div className="field-error" role="alert">
          {error}
        </div>
      )}
    </div>
  );
}
