/**
 * The card of a tool call in the transcript: its name, arguments, state, approval, progress, task
 * (MCP Tasks) and result — or, while the model still writes the call's input, the provisional "Preparing" card.
 */
import { useState } from 'react';
import type { TranscriptItem } from '../../../preload/contract/index.js';
import { isTaskActive } from '../../../preload/contract/rules/index.js';
import { useApp } from '../store';
import type { PreparingTool } from '../store/chat';
import { chatCallTag } from '../store/inspector';
import { useTranslation } from '../i18n';
import { said, SentencesView, type Sentence } from '../i18n/sentence';
import { ApprovalCard } from './ApprovalCard';
import { FoldedText } from './FoldedText';
import { ToolProgressBar, ToolResult } from './ToolResult';
import { TaskStatusText } from './TaskStatus';
import { ToolEndText } from './ToolEndText';

type ToolItem = Extract<TranscriptItem, { kind: 'tool' }>;

const VIA = ['always_allow', 'conversation_grant', 'mode_never_ask', 'read_only_hint'] as const;
/** How a call was allowed, in words; null for the other `via` values (refusals show in the state). */
function viaLabel(t: ReturnType<typeof useTranslation>['t'], via: string): string | null {
  const known = VIA.find((v) => v === via);
  // A plain key lookup: the key is one of VIA's (all in en.ts); typing the template key against
  // every resource key is deeper than the type checker goes.
  return known ? (t as unknown as (key: string) => string)(`tool.via.${known}`) : null;
}

/** A tool call: namespaced name, arguments, result or error, duration. */
export function ToolCard({ call: item }: { call: ToolItem }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(true);
  const cancelTool = useApp((s) => s.cancelTool);
  const cancelTask = useApp((s) => s.cancelTask);
  const openInspector = useApp((s) => s.openInspector);
  // The approval main is holding for this very call, if any.
  const approval = useApp((s) => {
    for (const id of s.approvalOrder) {
      const a = s.approvals[id];
      if (a && a.run_id === item.run_id && a.call_id === item.call_id) return a;
    }
    return null;
  });
  const pending = item.state === 'running' || item.state === 'awaiting_approval';
  const failed = !pending && item.state !== 'ok';
  const how = item.permission ? (item.permission.decision ? t(`tool.decision.${item.permission.decision}`) : viaLabel(t, item.permission.via)) : null;
  const stateLabel = t(`tool.state.${item.state}`);
  return (
    <div className={`tool-card ${failed ? 'error' : item.state}`} data-testid="tool-card" data-state={item.state}>
      <button className="tool-head" onClick={() => setOpen(!open)} aria-expanded={open}>
        <span className={`tool-icon ${failed ? 'error' : item.state}`} aria-label={stateLabel} />
        {/* Two blocks that each stay on one line: what was called, and how it went. */}
        <span className="tool-title">
          <span className="tool-name" data-testid="tool-name">
            {item.tool}
          </span>{' '}
          <span className="muted">{item.server}</span>
        </span>
        <span className="tool-meta">
          {how && (
            <span className="muted" data-testid="tool-permission">
              {how} ·
            </span>
          )}
          {!pending && (
            <span className="muted" data-testid="tool-state">
              {stateLabel} ·
            </span>
          )}
          <span className="muted" data-testid="tool-duration">
            {item.duration_ms === null ? stateLabel : t('tool.ms', { n: item.duration_ms })}
          </span>
        </span>
      </button>
      {(item.permission?.not_saved?.length || item.permission?.warning) && (
        <div className="banner warning small" data-testid="tool-permission-warning">
          {/* By what could not be saved, with the system's words as sent; an entry saved before that as main wrote it. */}
          {item.permission.not_saved?.length ? (
            <span>
              <SentencesView sentences={item.permission.not_saved.flatMap((n): Sentence[] => [{ k: `tool.notSaved_${n.what}`, slots: {} }, { k: 'errors.systemSaid', slots: { said: said(n.said) } }])} />
            </span>
          ) : (
            item.permission.warning
          )}
        </div>
      )}
      {approval && <ApprovalCard approval={approval} />}
      {item.task && (
        <div className="tool-task" data-testid="tool-task">
          <span className="muted small">{t('tasks.onCard')}</span> <TaskStatusText task={item.task} />
        </div>
      )}
      {item.state === 'running' && (
        // A task-backed call is cancelled on its server (`tasks/cancel`); that works after a restart too.
        <button
          className="link cancel-call"
          data-testid="tool-cancel"
          onClick={() => void (item.task && isTaskActive(item.task.status) ? cancelTask(item.server, item.task.task_id) : cancelTool(item.call_id))}
        >
          {t('tool.cancelCall')}
        </button>
      )}
      {item.state === 'running' && item.progress && <ToolProgressBar progress={item.progress} />}
      {open && !approval && (
        <div className="tool-body">
          <div className="label">{t('common.arguments')}</div>
          <FoldedText text={JSON.stringify(item.args, null, 2)} mode="text" preClassName="tool-args" preTestId="tool-args" />
          {item.state !== 'awaiting_approval' && item.state !== 'denied' && item.state !== 'approval_interrupted' && (
            <button className="link" onClick={() => openInspector(item.server, chatCallTag(item.run_id, item.call_id))}>
              {t('inspector.openFromCard')}
            </button>
          )}
          {!pending && (
            <>
              <div className="label">{failed ? t('tool.error') : t('tool.result')}</div>
              <div data-testid="tool-result">
                {failed && item.content.length === 0 ? (
                  item.state === 'approval_interrupted' || (item.state === 'interrupted' && !item.error) ? (
                    <pre className="tool-text error-text" data-testid="tool-error">
                      {item.state === 'approval_interrupted' ? t('tool.approvalInterruptedNote') : t('tool.interruptedNote')}
                    </pre>
                  ) : (
                    <ToolEndText item={item} />
                  )
                ) : (
                  <ToolResult content={item.content} progress={null} server={item.server} />
                )}
              </div>
            </>
          )}
        </div>
      )}
    </div>
  );
}

/** A tool call the model is still writing (a provisional row until its entry arrives). */
export function PreparingCard({ call }: { call: PreparingTool }) {
  const { t } = useTranslation();
  return (
    <div className="tool-card running" data-testid="tool-preparing" data-call-id={call.call_id}>
      <div className="tool-head">
        <span className="tool-icon running" aria-hidden />
        <span className="tool-name">{t('tool.preparing', { tool: call.tool })}</span>
        <span className="muted">{call.server}</span>
      </div>
    </div>
  );
}
