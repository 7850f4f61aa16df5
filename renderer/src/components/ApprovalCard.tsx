import { useState } from 'react';
import type { ApprovalDecision, ApprovalView, ToolAnnotations } from '../../../preload/contract/index.js';
import { useApp } from '../store';

/** Plain-language labels for the MCP tool annotations (hints the server declares itself). */
export function annotationBadges(a: ToolAnnotations): Array<{ key: string; label: string; tone: 'ok' | 'warn' | 'muted' }> {
  const out: Array<{ key: string; label: string; tone: 'ok' | 'warn' | 'muted' }> = [];
  if (a.readOnlyHint === true) out.push({ key: 'ro', label: 'read-only', tone: 'ok' });
  if (a.readOnlyHint === false) out.push({ key: 'rw', label: 'modifies things', tone: 'warn' });
  if (a.destructiveHint === true && a.readOnlyHint !== true) out.push({ key: 'destructive', label: 'destructive', tone: 'warn' });
  if (a.destructiveHint === false && a.readOnlyHint !== true) out.push({ key: 'additive', label: 'not destructive', tone: 'muted' });
  if (a.idempotentHint === true) out.push({ key: 'idem', label: 'idempotent', tone: 'muted' });
  if (a.openWorldHint === true) out.push({ key: 'open', label: 'reaches outside (open world)', tone: 'warn' });
  if (a.openWorldHint === false) out.push({ key: 'closed', label: 'closed world', tone: 'muted' });
  return out;
}

/** The annotation badges with the note that servers declare them themselves. */
export function AnnotationBadges({ annotations }: { annotations: ToolAnnotations }) {
  const badges = annotationBadges(annotations);
  return (
    <span className="annotations" data-testid="tool-annotations" title="The server declares these hints about its own tool; nobody checks them.">
      {badges.length === 0 ? (
        <span className="badge">no hints declared</span>
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
 * server's declared annotations, the full arguments; Allow once · Allow in this conversation ·
 * Always allow · Deny (with an optional reason). Props-driven so it can be placed in the
 * transcript next to its tool call; `onAnswer` defaults to the store's `answerApproval`.
 */
export function ApprovalCard({ approval, onAnswer }: { approval: ApprovalView; onAnswer?: (decision: ApprovalDecision, reason?: string) => Promise<void> }) {
  const answerApproval = useApp((s) => s.answerApproval);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const answer = async (decision: ApprovalDecision) => {
    setBusy(true);
    setError(null);
    try {
      await (onAnswer ? onAnswer(decision, decision === 'deny' ? reason : undefined) : answerApproval(approval.id, decision, decision === 'deny' ? reason : undefined));
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const argsText = JSON.stringify(approval.args, null, 2) ?? 'null';
  return (
    <section className="approval-card" data-testid="approval-card" data-approval-id={approval.id} aria-label={`Approve ${approval.tool} of ${approval.server}`}>
      <div className="approval-head">
        <strong>{approval.title ?? approval.tool}</strong>
        <span className="muted">
          wants to run <span className="mono">{approval.tool}</span> of server <span className="mono">{approval.server}</span>
        </span>
      </div>
      <div className="row wrap">
        <AnnotationBadges annotations={approval.annotations} />
        <span className="muted small">hints the server declares about its own tool</span>
      </div>
      <div className="label">Arguments</div>
      <pre className="tool-args" data-testid="approval-args">
        {argsText}
      </pre>
      <div className="row wrap">
        <button className="primary" disabled={busy} onClick={() => void answer('allow_once')}>
          Allow once
        </button>
        <button disabled={busy} onClick={() => void answer('allow_conversation')}>
          Allow in this conversation
        </button>
        <button disabled={busy} onClick={() => void answer('always_allow')} title={`Never ask again for ${approval.tool} of ${approval.server} (change it in Settings → MCP servers → Tools)`}>
          Always allow
        </button>
        <span className="spacer" />
        <input aria-label="Reason for denying" placeholder="Reason (optional, sent to the model)" value={reason} onChange={(e) => setReason(e.target.value)} maxLength={4096} />
        <button className="danger" disabled={busy} onClick={() => void answer('deny')}>
          Deny
        </button>
      </div>
      {error && (
        <div className="field-error" role="alert">
          {error}
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
  const order = useApp((s) => s.approvalOrder);
  const approvals = useApp((s) => s.approvals);
  const current = useApp((s) => s.conversationId);
  const conversations = useApp((s) => s.conversations);
  const open = useApp((s) => s.openConversation);
  const elsewhere = order.map((id) => approvals[id]).filter((a): a is ApprovalView => a !== undefined && a.conversation_id !== current);
  if (elsewhere.length === 0) return null;
  return (
    <div className="approvals-tray" data-testid="pending-approvals">
      {elsewhere.map((a) => (
        <div key={a.id} className="row wrap">
          <span>
            <strong>{a.server}</strong> wants to run <span className="mono">{a.title ?? a.tool}</span> in “{conversations.find((c) => c.id === a.conversation_id)?.title ?? 'another conversation'}”.
          </span>
          <button onClick={() => void open(a.conversation_id)}>Open to decide</button>
        </div>
      ))}
    </div>
  );
}
