import { useEffect, useMemo, useRef, useState } from 'react';
import type { ExportResult, ImportPreview, ImportResult } from '../../../preload/contract/index.js';
import { call } from '../api';
import { useApp } from '../store';
import { t as translate, useTranslation } from '../i18n';
import { describeImportSkip } from '../i18n/errors';
import { importCounts } from './import-count';
import { ErrorText } from './ErrorText';
import { ConfirmAsk } from './ConfirmAsk';

/** "Import 2 servers (1 new, 1 replaced, 3 skipped)" — what the button will really do (current language). */
function importLabel(preview: ImportPreview, replace: boolean): string {
  const c = importCounts(preview, replace);
  if (c.imported === 0) return translate('importExport.nothingNew');
  const parts = [translate('importExport.fresh', { count: c.fresh })];
  if (c.replaced) parts.push(translate('importExport.replaced', { count: c.replaced }));
  if (c.skipped) parts.push(translate('importExport.skipped', { count: c.skipped }));
  if (c.refused) parts.push(translate('importExport.refused', { count: c.refused }));
  return translate('importExport.import', { count: c.imported, parts: parts.join(translate('importExport.listSep')) });
}

/**
 * Import servers from pasted JSON (`{"servers": …}` or other hosts' `{"mcpServers": …}`), with a
 * masked preview first; export the list without secrets (shown here) or with secrets (written by
 * the app to an owner-only file once the user confirms in the app's own confirmation; the secrets
 * never reach this window). A problem is said where it arose — the pasted text's beside Preview,
 * an export's beside the export buttons — and every entry the import skips says so, an existing
 * one too (unless "replace" is ticked).
 */
export function ImportExport({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const loadServers = useApp((s) => s.loadServers);
  const [json, setJson] = useState('');
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [replace, setReplace] = useState(false);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [exported, setExported] = useState<ExportResult | null>(null);
  // The pasted text's problem (Preview, Import), and an export's: each said beside its buttons.
  const [importError, setImportError] = useState<unknown>(null);
  const [exportError, setExportError] = useState<unknown>(null);
  // "Export with secrets…" asks first, in the app's own confirmation under the export buttons.
  const [askingSecrets, setAskingSecrets] = useState(false);
  const secretsButton = useRef<HTMLButtonElement>(null);

  const run = async <T,>(fn: () => Promise<T>, then: (v: T) => void, setError: (e: unknown) => void) => {
    setImportError(null);
    setExportError(null);
    try {
      then(await fn());
    } catch (err) {
      setError(err);
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
            setImportError(null);
          }}
        />
      </label>
      <div className="row">
        <button disabled={!json.trim()} onClick={() => void run(() => call('servers.importPreview', { json }), setPreview, setImportError)}>
          {t('importExport.preview')}
        </button>
        {importError !== null && (
          <span className="field-error" role="alert" data-testid="import-error">
            <ErrorText error={importError} />
          </span>
        )}
        {preview && importCounts(preview, replace).nothing && (
          <span className="field-error" role="status" data-testid="import-nothing">
            {t('importExport.nothing')}
          </span>
        )}
        {preview && !importCounts(preview, replace).nothing && (
          <>
            <label className="check">
              <input type="checkbox" checked={replace} onChange={(e) => setReplace(e.target.checked)} /> {t('importExport.replace')}
            </label>
            <button
              className="primary"
              disabled={importCounts(preview, replace).imported === 0}
              onClick={() =>
                void run(
                  () => call('servers.import', { json, replace_existing: replace }),
                  (r) => {
                    setResult(r);
                    setJson('');
                    setPreview(null);
                    void loadServers();
                  },
                  setImportError,
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
              {s.exists && (
                <span className="badge error" data-testid="import-exists">
                  {t(replace ? 'importExport.existsReplaced' : 'importExport.existsSkipped')}
                </span>
              )}
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
          {preview.unreadable.map((u) => (
            <li key={`unreadable:${u.name}`} className="error-text" data-testid="import-unreadable">
              {t('importExport.skippedOne', { name: u.name, reason: describeImportSkip(u.why) })}
            </li>
          ))}
        </ul>
      )}
      {result && (
        <div data-testid="import-result">
          {t('importExport.added', { names: result.added.join(', ') || t('common.none') })}
          {result.replaced.length > 0 && t('importExport.replacedList', { names: result.replaced.join(', ') })}
          {result.skipped.map((s) => (
            <div key={s.name} className="error-text">
              {t('importExport.skippedOne', { name: s.name, reason: describeImportSkip(s.why) })}
            </div>
          ))}
        </div>
      )}
      <div className="row">
        <button onClick={() => void run(() => call('servers.export', { include_secrets: false }), setExported, setExportError)}>{t('importExport.exportPlain')}</button>
        <button ref={secretsButton} className="danger" onClick={() => setAskingSecrets(true)}>
          {t('importExport.exportSecrets')}
        </button>
      </div>
      {askingSecrets && (
        <ConfirmAsk
          testId="export-secrets-confirm"
          question={t('importExport.confirmSecrets')}
          confirmLabel={t('importExport.confirmSecretsYes')}
          returnFocus={secretsButton}
          onCancel={() => setAskingSecrets(false)}
          onConfirm={() => {
            setAskingSecrets(false);
            void run(() => call('servers.export', { include_secrets: true }), setExported, setExportError);
          }}
        />
      )}
      {exported?.json && <ExportedJson json={exported.json} />}
      {exported?.path && (
        <div className="notice-block warning" role="alert">
          <div>
            {t('importExport.writtenTo')}<span className="mono">{exported.path}</span>
          </div>
          {/* Main's `warning` is its English for logs; the window says what the file holds. */}
          <div>{t('importExport.secretsWritten')}</div>
        </div>
      )}
      {exportError !== null && (
        <div className="field-error" role="alert" data-testid="export-error">
          <ErrorText error={exportError} />
        </div>
      )}
    </div>
  );
}

/**
 * The exported list (secrets left out) to take away: shown, copied to the clipboard, or saved as
 * `mcp-servers.json` through the browser's download (in Electron, its save handling).
 */
function ExportedJson({ json }: { json: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const href = useMemo(() => URL.createObjectURL(new Blob([json], { type: 'application/json' })), [json]);
  useEffect(() => () => URL.revokeObjectURL(href), [href]);
  return (
    <div className="exported" data-testid="exported-json">
      <p className="muted small">{t('importExport.exportedNote')}</p>
      <textarea aria-label={t('importExport.exportedJson')} className="mono" readOnly value={json} />
      <div className="row">
        <button
          type="button"
          onClick={() =>
            void navigator.clipboard.writeText(json).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? t('chat.copied') : t('chat.copy')}
        </button>
        <a className="button-link" href={href} download="mcp-servers.json">
          {t('importExport.saveFile')}
        </a>
      </div>
    </div>
  );
}
