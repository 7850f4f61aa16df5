import { useEffect, useState } from 'react';
import { call, on } from '../api';
import { useTranslation } from '../i18n';
import { Fill } from '../i18n/Fill';

interface Request {
  id: string;
  server: string;
  message: string;
  requested_schema: Record<string, unknown>;
}

interface FieldSchema {
  type?: string;
  title?: string;
  description?: string;
  enum?: unknown[];
  enumNames?: string[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
}

type Value = string | number | boolean;

function initialValues(schema: Record<string, unknown>): Record<string, Value | ''> {
  const props = (schema.properties ?? {}) as Record<string, FieldSchema>;
  const out: Record<string, Value | ''> = {};
  for (const [k, f] of Object.entries(props)) {
    if (f.default !== undefined && (typeof f.default === 'string' || typeof f.default === 'number' || typeof f.default === 'boolean')) out[k] = f.default;
    else out[k] = f.type === 'boolean' ? false : '';
  }
  return out;
}

/**
 * Forms that servers ask the user to fill in (MCP elicitation, form mode). The server's name is
 * always shown; the user can accept, decline or cancel. Fields left empty are omitted, and the
 * app fills in the schema's defaults for them.
 */
export function ElicitationDialogs() {
  const { t } = useTranslation();
  const [queue, setQueue] = useState<Request[]>([]);
  const [values, setValues] = useState<Record<string, Value | ''>>({});
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const offs = [
      on('elicitation.request', (r) => setQueue((q) => [...q, r])),
      on('elicitation.closed', ({ id }) => setQueue((q) => q.filter((r) => r.id !== id))),
    ];
    return () => offs.forEach((o) => o());
  }, []);

  const current = queue[0];
  useEffect(() => {
    if (current) setValues(initialValues(current.requested_schema));
    setError(null);
  }, [current?.id]);

  if (!current) return null;
  const props = (current.requested_schema.properties ?? {}) as Record<string, FieldSchema>;
  const required = new Set((current.requested_schema.required ?? []) as string[]);

  const answer = async (action: 'accept' | 'decline' | 'cancel') => {
    const content: Record<string, Value> = {};
    if (action === 'accept') {
      for (const [k, f] of Object.entries(props)) {
        const v = values[k];
        if (v === '' || v === undefined) {
          if (required.has(k)) {
            setError(t('elicitation.required', { field: f.title ?? k }));
            return;
          }
          continue;
        }
        content[k] = f.type === 'number' || f.type === 'integer' ? Number(v) : v;
        if ((f.type === 'number' || f.type === 'integer') && Number.isNaN(content[k])) {
          setError(t('elicitation.mustBeNumber', { field: f.title ?? k }));
          return;
        }
      }
    }
    try {
      await call('elicitation.respond', { id: current.id, action, ...(action === 'accept' ? { content } : {}) });
    } catch {
      // Already withdrawn: just close it.
    }
    setQueue((q) => q.filter((r) => r.id !== current.id));
  };

  return (
    <div className="modal-backdrop">
      <form
        className="modal panel"
        role="dialog"
        aria-label={t('elicitation.label', { server: current.server })}
        onSubmit={(e) => {
          e.preventDefault();
          void answer('accept');
        }}
      >
        <h3>
          <Fill k="elicitation.asks" slots={{ server: <span className="mono">{current.server}</span> }} />
        </h3>
        <p className="elicitation-message">{current.message}</p>
        {Object.entries(props).map(([k, f]) => (
          <label key={k} className={f.type === 'boolean' ? 'check' : 'field'}>
            {f.type === 'boolean' ? (
              <>
                <input type="checkbox" aria-label={f.title ?? k} checked={values[k] === true} onChange={(e) => setValues({ ...values, [k]: e.target.checked })} />
                {f.title ?? k}
              </>
            ) : (
              <>
                <span>
                  {f.title ?? k}
                  {required.has(k) ? ' *' : ''} {f.description && <span className="hint">— {f.description}</span>}
                </span>
                {Array.isArray(f.enum) ? (
                  <select aria-label={f.title ?? k} value={String(values[k] ?? '')} onChange={(e) => setValues({ ...values, [k]: e.target.value })}>
                    <option value="">—</option>
                    {f.enum.map((opt, i) => (
                      <option key={String(opt)} value={String(opt)}>
                        {f.enumNames?.[i] ?? String(opt)}
                      </option>
                    ))}
                  </select>
                ) : (
                  <input
                    aria-label={f.title ?? k}
                    inputMode={f.type === 'number' || f.type === 'integer' ? 'decimal' : undefined}
                    value={String(values[k] ?? '')}
                    onChange={(e) => setValues({ ...values, [k]: e.target.value })}
                  />
                )}
              </>
            )}
          </label>
        ))}
        {error && (
          <div className="field-error" role="alert">
            {error}
          </div>
        )}
        <div className="row">
          <button type="submit" className="primary">
            {t('elicitation.accept')}
          </button>
          <button type="button" onClick={() => void answer('decline')}>
            {t('elicitation.decline')}
          </button>
          <button type="button" onClick={() => void answer('cancel')}>
            {t('common.cancel')}
          </button>
          {queue.length > 1 && <span className="muted">{t('common.moreWaiting', { count: queue.length - 1 })}</span>}
        </div>
      </form>
    </div>
  );
}
