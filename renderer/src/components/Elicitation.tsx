import { useEffect, useMemo, useState } from 'react';
import { call, on } from '../api';
import { useTranslation } from '../i18n';
import { Fill } from '../i18n/Fill';
import { ElicitationField } from './elicitation/ElicitationField';
import { check, formFields, initialValues, type FormValue, type Problem } from './elicitation/schema';
import { focusProblem, scrollsItself, useFocusFirstProblem } from './first-problem';

interface Request {
  id: string;
  server: string;
  message: string;
  requested_schema: Record<string, unknown>;
}

/**
 * Forms that servers ask the user to fill in (MCP elicitation, form mode). The server's name is
 * always shown; the user can accept, decline or cancel. Every field kind the spec allows is
 * rendered as its own control (./elicitation/), defaults pre-filled and named under their field;
 * a field left empty is omitted (the SDK then applies the schema's default, the one shown).
 * Problems are shown beside their fields, and Accept with a problem moves the focus to the first;
 * only a dialog that scrolls (a problem may be out of view) adds a line naming those fields, each
 * a button to it. Nothing is sent until every field is accepted.
 */
export function ElicitationDialogs() {
  const { t } = useTranslation();
  const [queue, setQueue] = useState<Request[]>([]);
  const [values, setValues] = useState<Record<string, FormValue>>({});
  const [problems, setProblems] = useState<Record<string, Problem>>({});
  // Whether the dialog scrolled when Accept found problems (then a line points at the fields).
  const [scrolls, setScrolls] = useState(false);
  const [formRef, focusFirstProblem] = useFocusFirstProblem<HTMLFormElement>();

  useEffect(() => {
    const offs = [
      on('elicitation.request', (r) => setQueue((q) => [...q, r])),
      on('elicitation.closed', ({ id }) => setQueue((q) => q.filter((r) => r.id !== id))),
    ];
    return () => offs.forEach((o) => o());
  }, []);

  const current = queue[0];
  const fields = useMemo(() => (current ? formFields(current.requested_schema) : []), [current?.id]);
  useEffect(() => {
    setValues(initialValues(fields));
    setProblems({});
  }, [fields]);

  if (!current) return null;

  const answer = async (action: 'accept' | 'decline' | 'cancel') => {
    const content: Record<string, string | number | boolean | string[]> = {};
    if (action === 'accept') {
      const found: Record<string, Problem> = {};
      for (const f of fields) {
        const r = check(f, values[f.key]);
        if (!r.ok) found[f.key] = r.problem;
        else if (r.value !== null) content[f.key] = r.value;
      }
      setProblems(found);
      if (Object.keys(found).length) {
        setScrolls(scrollsItself(formRef.current));
        focusFirstProblem();
        return;
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
        ref={formRef}
        className="modal panel"
        // The app checks every field itself and says why beside it (the browser's bubbles would not).
        noValidate
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
        {fields.map((f) => (
          <ElicitationField
            key={f.key}
            f={f}
            value={values[f.key]}
            problem={problems[f.key] ?? null}
            onChange={(v) => {
              setValues((old) => ({ ...old, [f.key]: v }));
              setProblems(({ [f.key]: _gone, ...rest }) => rest);
            }}
          />
        ))}
        {scrolls && Object.keys(problems).length > 0 && (
          <div className="field-error" data-testid="elicit-summary">
            {t('elicitation.fixAt', { count: Object.keys(problems).length })}{' '}
            {fields
              .filter((f) => problems[f.key])
              .map((f) => (
                <button key={f.key} type="button" className="link" onClick={() => focusProblem(formRef.current?.querySelector(`[data-key="${CSS.escape(f.key)}"] [aria-invalid="true"]`) ?? null)}>
                  {f.label}
                </button>
              ))}
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
