import { useState } from 'react';
import type { ApprovalDecision, ApprovalView, ToolAnnotations } from '../../../preload/contract/index.js';
import { useApp } from '../store';
import { t as translate, useTranslation } from '../i18n';
import { Fill } from '../i18n/Fill';
import { ApprovalIcon } from './ProtocolBadges';
import { PinBadge, PinDiff } from './PinStatus';
import { isReplayApproval } from './inspector/ReplayPanel';
import { ErrorText } from './ErrorText';

/** Plain-language labels for the MCP tool annotations (hints the server declares itself), in the current language. */
export function annotationBadges(a: ToolAnnotations): Array<{ key: string; label: string; tone: 'ok' | 'warn' | 'muted' }> {
  const out: Array<{ key: string; label: string; tone: 'ok' | 'warn' | 'muted' }> = [];
  const add = (key: 'ro' | 'rw' | 'destructive' | 'additive' | 'idem' | 'open' | 'closed', tone: 'ok' | 'warn' | 'muted') => out.push({ key, label: translate(`approval.badge.${key}`), tone });
  if (a.readOnlyHint === true) add('ro', 'ok');
  if (a.readOnlyHint === false) add('rw', 'warn');
  if (a.destructiveHint === true && a.readOnlyHint !== true) add('destructive', 'warn');
  if (a.destructiveHint === false && a.readOnlyHint !== true) add('additive', 'muted');
  if (a.idempotentHint === true) add('idem', 'muted');
  if (a.openWorldHint === true) add('open', 'warn');
  if (a.openWorldHint === false) add('closed', 'muted');
  return out;
}

/** The annotation badges with the note that servers declare them themselves. */
export function AnnotationBadges({ annotations }: { annotations: ToolAnnotations }) {
  const { t } = useTranslation();
  const badges = annotationBadges(annotations);
  return (
    <span className="annotations" data-testid="tool-annotations" title={t('approval.hintsTitle')}>
      {badges.length === 0 ? (
        <span className="badge">{t('approval.noHints')}</span>
      ) : (
        badges.map((b) => (
          <span key={b.key} className={`badge hint-${b.tone}`}>
            {b.label}
          </span>
        ))
      )}
    </span>
  );
}

/**
 * An approval card for one tool call main is holding: server, tool title and real name, the
 * server's declared annotations, the full arguments, and — for a tool that is new or changed since
 * its definition was accepted — what changed (allowing accepts it); Allow once · Allow in this conversation ·
 * Always allow · Deny (with an optional reason). Props-driven so it can be placed in the
 * transcript next to its tool call; `onAnswer` defaults to the store's `answerApproval`.
 */
export function ApprovalCard({ approval, onAnswer }: { approval: ApprovalView; onAnswer?: (decision: ApprovalDecision, reason?: string) => Promise<void> }) {
  const { t } = useTranslation();
  const answerApproval = useApp((s) => s.answerApproval);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const answer = async (decision: ApprovalDecision) => {
    setBusy(true);
    setError(null);
    try {
      await (onAnswer ? onAnswer(decision, decision === 'deny' ? reason : undefined) : answerApproval(approval.id, decision, decision === 'deny' ? reason : undefined));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const argsText = JSON.stringify(approval.args, null, 2) ?? 'null';
  // A call an MCP App view made (main/mcp/apps/service.ts VIEW_RUN_ID), not the model.
  const fromView = approval.run_id === 'app-view';
  return (
    <section className="approval-card" data-testid="approval-card" data-approval-id={approval.id} aria-label={t('approval.label', { tool: approval.tool, server: approval.server })}>
      <div className="approval-head">
        <ApprovalIcon server={approval.server} tool={approval.tool} />
        <strong>{approval.title ?? approval.tool}</strong>
        <span className="muted">
          <Fill k={fromView ? 'approval.viewWantsToRun' : 'approval.wantsToRun'} slots={{ tool: <span className="mono">{approval.tool}</span>, server: <span className="mono">{approval.server}</span> }} />
        </span>
      </div>
      {approval.pin.kind !== 'pinned' && (
        <div className="banner warning small" data-testid="approval-pin" data-pin={approval.pin.kind}>
          <PinBadge pin={approval.pin} /> {t(approval.pin.kind === 'new' ? 'pins.cardNew' : 'pins.cardChanged')}
          <PinDiff pin={approval.pin} />
        </div>
      )}
      <div className="row wrap">
        <AnnotationBadges annotations={approval.annotations} />
        <span className="muted small">{t('approval.hintsNote')}</span>
      </div>
      <div className="label">{t('common.arguments')}</div>
      <pre className="tool-args" data-testid="approval-args">
        {argsText}
      </pre>
      <div className="row wrap">
        <button className="primary" disabled={busy} onClick={() => void answer('allow_once')}>
          {t('approval.allowOnce')}
        </button>
        <button disabled={busy} onClick={() => void answer('allow_conversation')}>
          {t('approval.allowConversation')}
        </button>
        <button disabled={busy} onClick={() => void answer('always_allow')} title={t('approval.alwaysAllowTitle', { tool: approval.tool, server: approval.server })}>
          {t('approval.alwaysAllow')}
        </button>
        {/* The reason goes with Deny: the two stay on one line, the field narrowing first. */}
        <span className="approval-deny">
          <input
            aria-label={t('approval.reason')}
            placeholder={t(fromView ? 'approval.reasonPlaceholderView' : 'approval.reasonPlaceholder')}
            title={t(fromView ? 'approval.reasonPlaceholderView' : 'approval.reasonPlaceholder')}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            maxLength={4096}
          />
          <button className="danger" disabled={busy} onClick={() => void answer('deny')}>
            {t('common.deny')}
          </button>
        </span>
      </div>
      {error !== null && (
        <div className="field-error" role="alert">
          <ErrorText error={error} />
        </div>
      )}
    </section>
  );
}

/**
 * Approvals waiting in conversations other than the open one (the open one shows each card in its
 * tool call): a line per conversation that opens it. Renders nothing when there are none.
 */
export function PendingApprovals() {
  const { t } = useTranslation();
  const order = useApp((s) => s.approvalOrder);
  const approvals = useApp((s) => s.approvals);
  const current = useApp((s) => s.conversationId);
  const conversations = useApp((s) => s.conversations);
  const open = useApp((s) => s.openConversation);
  // A replay from the protocol inspector shows its card in the inspector.
  const elsewhere = order.map((id) => approvals[id]).filter((a): a is ApprovalView => a !== undefined && a.conversation_id !== current && !isReplayApproval(a));
  if (elsewhere.length === 0) return null;
  return (
    <div className="approvals-tray" data-testid="pending-approvals">
      {elsewhere.map((a) => (
        <div key={a.id} className="row wrap">
          <span>
            <Fill
              k="approval.elsewhere"
              slots={{
                server: <strong>{a.server}</strong>,
                tool: <span className="mono">{a.title ?? a.tool}</span>,
                conversation: conversations.find((c) => c.id === a.conversation_id)?.title ?? t('approval.anotherConversation'),
              }}
            />
          </span>
          <button onClick={() => void open(a.conversation_id)}>{t('approval.openToDecide')}</button>
        </div>
      ))}
    </div>
  );
}
