/**
 * Links servers ask the user to open (MCP elicitation, URL mode). The dialog names the server and
 * shows the link's host large, then the full address; nothing opens until the user chooses Open,
 * and then main opens it in the system browser (https:, or http: to this computer — main checked
 * it before the dialog was shown). The server gets the answer: accept, decline or cancel.
 */
import { useEffect, useState } from 'react';
import type { UrlElicitationRequest } from '../../../preload/contract/index.js';
import { call, on } from '../api';
import { useApp } from '../store';
import { useTranslation } from '../i18n';
import { Fill } from '../i18n/Fill';
import { ErrorText } from './ErrorText';

/** The queue of URL requests, one dialog at a time. */
export function UrlElicitationDialogs() {
  const { t } = useTranslation();
  const [queue, setQueue] = useState<UrlElicitationRequest[]>([]);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    const offs = [
      on('elicitation.urlRequest', (r) => setQueue((q) => [...q, r])),
      on('elicitation.urlClosed', ({ id }) => setQueue((q) => q.filter((r) => r.id !== id))),
      on('elicitation.urlComplete', ({ server }) => useApp.getState().addWarning({ kind: 'url_completed', server })),
    ];
    return () => offs.forEach((o) => o());
  }, []);

  const current = queue[0];
  if (!current) return null;

  const answer = async (action: 'accept' | 'decline' | 'cancel') => {
    setError(null);
    try {
      await call('elicitation.respondUrl', { id: current.id, action });
    } catch (err) {
      if (action === 'accept') setError(err);
    }
    setQueue((q) => q.filter((r) => r.id !== current.id));
  };

  return (
    <div className="modal-backdrop">
      <div className="modal panel" role="dialog" aria-label={t('protocol.urlLabel', { server: current.server })}>
        <h3>
          <Fill k="protocol.urlAsks" slots={{ server: <span className="mono">{current.server}</span> }} />
        </h3>
        <p className="elicitation-message">{current.message}</p>
        <div className="field">
          <span>{t('protocol.urlHost')}</span>
          <strong className="url-host mono" data-testid="url-host">
            {current.host}
          </strong>
        </div>
        <div className="field">
          <span>{t('protocol.urlFull')}</span>
          <code className="url-full" data-testid="url-full">
            {current.url}
          </code>
        </div>
        <p className="muted small">{t('protocol.urlWarning')}</p>
        {error !== null && (
          <div className="field-error" role="alert">
            <ErrorText error={error} />
          </div>
        )}
        <div className="row">
          <button type="button" className="primary" onClick={() => void answer('accept')}>
            {t('protocol.urlOpen')}
          </button>
          <button type="button" onClick={() => void answer('decline')}>
            {t('protocol.urlDecline')}
          </button>
          <button type="button" onClick={() => void answer('cancel')}>
            {t('common.cancel')}
          </button>
          {queue.length > 1 && <span className="muted">{t('common.moreWaiting', { count: queue.length - 1 })}</span>}
        </div>
      </div>
    </div>
  );
}
