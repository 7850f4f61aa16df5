import { useEffect, useState } from 'react';
import type { EventPayloads } from '../../../preload/contract/index.js';
import { call, on } from '../api';
import { useTranslation } from '../i18n';
import { Fill } from '../i18n/Fill';

type Request = EventPayloads['sampling.request'];

/**
 * Approval of sampling requests (MCP "Sampling"): a server wants a completion from your model.
 * Shows which server asks and everything it sends; nothing reaches the model until you allow it.
 */
export function SamplingDialogs() {
  const { t } = useTranslation();
  const [queue, setQueue] = useState<Request[]>([]);
  useEffect(() => {
    const offs = [
      on('sampling.request', (r) => setQueue((q) => [...q, r])),
      on('sampling.closed', ({ id }) => setQueue((q) => q.filter((r) => r.id !== id))),
    ];
    return () => offs.forEach((o) => o());
  }, []);
  const current = queue[0];
  if (!current) return null;
  const answer = async (approve: boolean) => {
    try {
      await call('sampling.respond', { id: current.id, approve });
    } catch {
      // Already withdrawn.
    }
    setQueue((q) => q.filter((r) => r.id !== current.id));
  };
  return (
    <div className="modal-backdrop">
      <div className="modal panel" role="dialog" aria-label={t('sampling.label', { server: current.server })}>
        <h3>
          <Fill k="sampling.wants" slots={{ server: <span className="mono">{current.server}</span> }} />
        </h3>
        <p className="muted">{t('sampling.sends', { count: current.max_tokens })}</p>
        {current.system_prompt && (
          <div>
            <div className="label">{t('sampling.systemPrompt')}</div>
            <pre className="tool-text">{current.system_prompt}</pre>
          </div>
        )}
        {current.messages.map((m, i) => (
          <div key={i}>
            <div className="label">{m.role === 'user' || m.role === 'assistant' ? t(`sampling.role.${m.role}`) : m.role}</div>
            <pre className="tool-text">{m.text}</pre>
          </div>
        ))}
        <div className="row">
          <button className="primary" onClick={() => void answer(true)}>
            {t('common.allow')}
          </button>
          <button onClick={() => void answer(false)}>{t('common.deny')}</button>
          {queue.length > 1 && <span className="muted">{t('common.moreWaiting', { count: queue.length - 1 })}</span>}
        </div>
      </div>
    </div>
  );
}
