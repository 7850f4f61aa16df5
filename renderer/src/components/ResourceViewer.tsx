/**
 * The in-app resource viewer (docs/ARCHITECTURE.md "Prompts and resources in chat"): text,
 * markdown (through ./Markdown.tsx, sanitized) and raster images of a resource read from the
 * server that offered it; anything else can be saved to a file (Electron: save dialog; browser
 * shell: a download). While open it follows the server's `notifications/resources/updated`.
 * Also `ResourceLink`, the link a resource URI in a tool result becomes when it may be opened.
 */
import { useEffect, useMemo, useState } from 'react';
import { call } from '../api';
import { useApp } from '../store';
import { formatBytes, useTranslation } from '../i18n';
import { ContextNotesText } from './ContextNotesText';
import { ErrorText } from './ErrorText';
import { classifyResourceUri, ownSchemes } from '../../../preload/contract/rules/index.js';
import { Markdown, openExternal } from './Markdown';

/** The viewer dialog (rendered while the store's viewer is open). */
export function ResourceViewer() {
  const { t } = useTranslation();
  const viewer = useApp((s) => s.viewer);
  const close = useApp((s) => s.closeViewer);
  const [note, setNote] = useState<{ tone: 'info'; text: string } | { tone: 'error'; error: unknown } | null>(null);
  useEffect(() => setNote(null), [viewer.state === 'closed']);
  if (viewer.state === 'closed') return null;
  const server = viewer.state === 'ready' ? viewer.view.server : viewer.server;
  const uri = viewer.state === 'ready' ? viewer.view.uri : viewer.uri;
  const save = async (): Promise<void> => {
    try {
      const r = await call('context.save', { server, uri });
      if (r.kind === 'content') {
        const bytes = Uint8Array.from(atob(r.base64), (c) => c.charCodeAt(0));
        const url = URL.createObjectURL(new Blob([bytes], { type: r.mime }));
        const a = document.createElement('a');
        a.href = url;
        a.download = r.filename;
        a.click();
        setTimeout(() => URL.revokeObjectURL(url), 10_000);
        setNote({ tone: 'info', text: t('composer.viewerDownloaded', { file: r.filename }) });
      } else if (r.kind === 'saved') setNote({ tone: 'info', text: t('composer.viewerSaved', { path: r.saved_to }) });
    } catch (e) {
      setNote({ tone: 'error', error: e });
    }
  };
  return (
    <div className="modal-backdrop" onClick={close}>
      <div
        className="modal resource-viewer"
        role="dialog"
        aria-modal="true"
        aria-label={t('composer.viewer')}
        onClick={(e) => e.stopPropagation()}
        onKeyDown={(e) => e.key === 'Escape' && close()}
      >
        <div className="viewer-head">
          <div>
            <div className="mono viewer-uri" data-testid="viewer-uri">
              {uri}
            </div>
            <div className="muted small">{t('composer.viewerFrom', { server })}</div>
          </div>
          <span className="spacer" />
          <button onClick={() => void save()}>{t('composer.viewerSave')}</button>
          <button onClick={close} autoFocus>
            {t('common.close')}
          </button>
        </div>
        {note && (
          <div className={`notice ${note.tone}`} role="status" data-testid="viewer-note">
            {note.tone === 'error' ? <ErrorText error={note.error} /> : note.text}
          </div>
        )}
        {viewer.state === 'loading' && <div className="muted">{t('composer.viewerLoading')}</div>}
        {viewer.state === 'error' && (
          <div className="notice error" role="alert" data-testid="viewer-error">
            <ErrorText error={viewer.error} />
          </div>
        )}
        {viewer.state === 'ready' && (
          <div className="viewer-body" data-testid="viewer-body">
            {viewer.updated && <div className="muted small" role="status">{t('composer.viewerUpdated')}</div>}
            {viewer.view.notice && (
              <div className="notice info">
                <ContextNotesText notes={viewer.view.notes} notice={viewer.view.notice} uri={viewer.view.uri} />
              </div>
            )}
            {viewer.view.parts.length === 0 && <div className="muted">{t('composer.viewerEmpty')}</div>}
            {viewer.view.parts.map((p, i) =>
              p.type === 'text' ? (
                p.mime_type === 'text/markdown' ? (
                  <Markdown key={i} text={p.text} />
                ) : (
                  <pre key={i} className="tool-text">
                    {p.text}
                  </pre>
                )
              ) : p.type === 'image' ? (
                <img key={i} className="tool-image" alt={t('composer.viewerImageAlt')} src={`data:${p.mime_type};base64,${p.data}`} />
              ) : (
                <div key={i} className="muted">
                  {t('composer.viewerBinary', { type: p.mime_type ?? '?', size: formatBytes(p.bytes) })}
                </div>
              ),
            )}
          </div>
        )}
      </div>
    </div>
  );
}

/**
 * A resource URI from a server's content: a button that opens the viewer when the URI is one of
 * that server's own resources, an external link for `https:`, the viewer for a `data:` image —
 * and plain text for anything else (../resource-links.ts).
 */
export function ResourceLink({ server, uri, prefix }: { server: string; uri: string; prefix: string }) {
  const { t } = useTranslation();
  const view = useApp((s) => s.servers[server]);
  const templates = useApp((s) => s.templates);
  const loadTemplates = useApp((s) => s.loadTemplates);
  const openResource = useApp((s) => s.openResource);
  useEffect(() => {
    void loadTemplates();
  }, [loadTemplates]);
  const own = useMemo(
    () => ownSchemes([...(view?.resources.map((r) => r.uri) ?? []), ...(templates.state === 'ready' ? templates.templates.filter((x) => x.server === server).map((x) => x.uri_template) : [])]),
    [view, templates, server],
  );
  const kind = classifyResourceUri(uri, own);
  if (kind === 'text')
    return (
      <pre className="tool-text" data-testid="resource-text">
        {prefix} {uri}]
      </pre>
    );
  const open = (): void => {
    if (kind === 'https') openExternal(uri);
    else if (kind === 'server') void openResource(server, uri);
    else useApp.setState({ viewer: { state: 'ready', updated: false, view: { server, uri: uri.slice(0, 64) + '…', parts: [{ type: 'image', uri: '', mime_type: /^data:([^;]+)/.exec(uri)![1]!, data: uri.slice(uri.indexOf(',') + 1) }], notice: null, notes: [], can_subscribe: false } } });
  };
  return (
    <div className="resource-link">
      {prefix}{' '}
      <button className="link mono" aria-label={t('composer.openResource', { uri })} onClick={open}>
        {uri}
      </button>
      ]
    </div>
  );
}
