import { useState } from 'react';
import type { ExportResult, ImportPreview, ImportResult } from '../../../preload/contract/index.js';
import { call } from '../api';
import { useApp } from '../store';

/** "Import 2 new servers (1 replaced)" — what the button will really do. */
function importLabel(preview: ImportPreview, replace: boolean): string {
  const existing = preview.servers.filter((s) => s.exists).length;
  const fresh = preview.servers.length - existing;
  const n = fresh + (replace ? existing : 0);
  if (n === 0) return 'Nothing new to import';
  const parts = [`${fresh} new`];
  if (replace && existing) parts.push(`${existing} replaced`);
  else if (existing) parts.push(`${existing} skipped`);
  return `Import ${n} server${n === 1 ? '' : 's'} (${parts.join(', ')})`;
}

/**
 * Import servers from pasted JSON (`{"servers": …}` or other hosts' `{"mcpServers": …}`), with a
 * masked preview first; export the list without secrets (shown here) or with secrets (written by
 * the app to an owner-only file; the secrets never reach this window).
 */
export function ImportExport({ onClose }: { onClose: () => void }) {
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
        <h3>Import / export</h3>
        <span className="spacer" />
        <button onClick={onClose}>Close</button>
      </div>
      <label className="field">
        <span>Paste a config ({'{"servers": …}'} or {'{"mcpServers": …}'} from another app)</span>
        <textarea
          aria-label="Import JSON"
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
          Preview
        </button>
        {preview && (
          <>
            <label className="check">
              <input type="checkbox" checked={replace} onChange={(e) => setReplace(e.target.checked)} /> replace servers that exist
            </label>
            <button
              className="primary"
              disabled={preview.servers.every((s) => s.exists) && !replace}
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
                  {k} {v.has_value ? v.masked : 'empty'}
                </span>
              ))}
              {s.exists && <span className="badge error">exists</span>}
              {s.exists && (
                <div className="muted" data-testid="import-kept">
                  {s.kept_secrets.length > 0
                    ? `If replaced, keeps the stored ${s.kept_secrets.join(', ')}.`
                    : 'If replaced, no stored secret is kept (values left empty stay empty).'}
                </div>
              )}
              {!s.enabled && <span className="badge">imported disabled</span>}
              {s.disabled_tools.length > 0 && (
                <div className="small" data-testid="preview-disabled-tools">
                  Disabled tools: <span className="mono">{s.disabled_tools.join(', ')}</span>
                </div>
              )}
              {s.always_allow_tools.length > 0 && (
                <div className="small" data-testid="preview-always-allow">
                  Always allowed (no approval asked): <span className="mono">{s.always_allow_tools.join(', ')}</span>
                </div>
              )}
              {s.unmapped_keys.length > 0 && (
                <div className="small muted" data-testid="preview-unmapped">
                  Not imported (needs per-tool names): <span className="mono">{s.unmapped_keys.join(', ')}</span> — those tools will ask as usual.
                </div>
              )}
            </li>
          ))}
          {preview.warning && <li className="error-text">{preview.warning}</li>}
        </ul>
      )}
      {result && (
        <div data-testid="import-result">
          Added: {result.added.join(', ') || 'none'}. {result.replaced.length > 0 && `Replaced: ${result.replaced.join(', ')}. `}
          {result.skipped.map((s) => (
            <div key={s.name} className="error-text">
              Skipped {s.name}: {s.reason}
            </div>
          ))}
        </div>
      )}
      <div className="row">
        <button onClick={() => void run(() => call('servers.export', { include_secrets: false }), setExported)}>Export (secrets left out)</button>
        <button
          className="danger"
          onClick={() => {
            if (confirm('Write a file that contains your secrets in plain text?')) void run(() => call('servers.export', { include_secrets: true }), setExported);
          }}
        >
          Export with secrets…
        </button>
      </div>
      {exported?.json && <textarea aria-label="Exported JSON" className="mono" readOnly value={exported.json} />}
      {exported?.path && (
        <div className="notice-block warning" role="alert">
          <div>
            Written to <span className="mono">{exported.path}</span>
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
