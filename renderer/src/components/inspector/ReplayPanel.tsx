/**
 * Replay a recorded `tools/call` with edited arguments (docs/ARCHITECTURE.md "Protocol
 * inspector"). Main runs it through the permission gate like any call: when the mode asks, the
 * approval card shows here; the replay's result is shown beside the original one.
 */
import { useMemo, useState } from 'react';
import type { ApprovalView, InspectorReplayResult, INSPECTOR_RUN_ID } from '../../../../preload/contract/index.js';
import { call } from '../../api';
import { useApp } from '../../store';
import { useTranslation } from '../../i18n';
import { ApprovalCard } from '../ApprovalCard';
import { finalResult, type Exchange } from './exchanges';
import { ErrorText } from '../ErrorText';

/** The `run_id` of a replay's approval (the contract's `INSPECTOR_RUN_ID`; the renderer imports types only). */
const REPLAY_RUN: typeof INSPECTOR_RUN_ID = 'inspector-replay';

/** Whether an approval is one a replay asked for. */
export function isReplayApproval(a: ApprovalView): boolean {
  return a.run_id === REPLAY_RUN;
}

export function ReplayPanel({ server, exchange, seq, tool, args, onClose }: { server: string; exchange: Exchange; seq: number; tool: string; args: Record<string, unknown>; onClose: () => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState(() => JSON.stringify(args, null, 2));
  const [parseError, setParseError] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const [outcome, setOutcome] = useState<InspectorReplayResult | null>(null);
  const [error, setError] = useState<unknown>(null);
  // Select the store's own objects (a selector that builds a new array would render forever).
  const order = useApp((s) => s.approvalOrder);
  const pending = useApp((s) => s.approvals);
  const approvals = useMemo(() => order.map((id) => pending[id]).filter((a): a is ApprovalView => a !== undefined && isReplayApproval(a) && a.server === server && a.tool === tool), [order, pending, server, tool]);

  const run = async () => {
    setParseError(null);
    setError(null);
    let edited: unknown;
    try {
      edited = JSON.parse(text);
    } catch {
      return setParseError(t('inspector.argsInvalid'));
    }
    if (typeof edited !== 'object' || edited === null || Array.isArray(edited)) return setParseError(t('inspector.argsObject'));
    setRunning(true);
    setOutcome(null);
    try {
      setOutcome(await call('inspector.replay', { server, seq, arguments: edited as Record<string, unknown> }));
    } catch (err) {
      setError(err);
    } finally {
      setRunning(false);
    }
  };

  return (
    <div className="inspector-replay" data-testid="inspector-replay">
      <label className="label" htmlFor={`replay-${seq}`}>
        {t('inspector.replayArgs', { tool })}
      </label>
      <textarea id={`replay-${seq}`} className="mono" aria-label={t('inspector.replayArgs', { tool })} value={text} onChange={(e) => setText(e.target.value)} rows={5} />
      {parseError && (
        <div className="field-error" role="alert">
          {parseError}
        </div>
      )}
      <div className="row">
        <button className="primary" onClick={() => void run()} disabled={running}>
          {running ? t('inspector.replayRunning') : t('inspector.replayRun')}
        </button>
        <button onClick={onClose}>{t('common.cancel')}</button>
      </div>
      {running && approvals.map((a) => <ApprovalCard key={a.id} approval={a} />)}
      {error !== null && (
        <div className="field-error" role="alert">
          <ErrorText error={error} />
        </div>
      )}
      {outcome && (
        <div className="replay-compare">
          <div>
            <div className="label">{t('inspector.original')}</div>
            <pre className="tool-args" data-testid="replay-original">
              {JSON.stringify(finalResult(exchange), null, 2)}
            </pre>
          </div>
          <div>
            <div className="label">{outcome.kind === 'ok' ? t('inspector.replayResult', { ms: outcome.duration_ms }) : outcome.kind === 'refused' ? t('inspector.replayRefused') : t('inspector.replayFailed')}</div>
            <pre className={`tool-args${outcome.kind === 'ok' ? '' : ' error-text'}`} data-testid="replay-result" data-outcome={outcome.kind}>
              {outcome.kind === 'ok' ? JSON.stringify(outcome.result, null, 2) : outcome.message}
            </pre>
          </div>
        </div>
      )}
    </div>
  );
}
