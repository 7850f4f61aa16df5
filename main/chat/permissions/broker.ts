/**
 * The approval broker: tool calls waiting for the user's answer, held in main.
 *
 * Each request gets a random single-use id (crypto, 192 bits) bound to that one call (conversation,
 * run, call id, server, tool) and the SHA-256 of its exact canonical arguments. The renderer can
 * only answer an id main issued and still waits on: answering twice, late (after Stop, shutdown or
 * the timeout) or with an id never issued throws `ApprovalError` (code `approval_invalid`), and an
 * answer that names other arguments (`args_sha256`) is refused without consuming the id. Pending
 * approvals are listed by `pending()`, so a reloaded window shows them again.
 */
import { randomBytes } from 'node:crypto';
import type { ApprovalClosedOutcome, ApprovalDecision, ApprovalView } from '../../../preload/contract/index.js';
import { interruptedByApp } from '../interruption.js';
import { argsHash } from './args-hash.js';

/** How long a card waits for the user before the call is refused as unanswered, in ms. */
export const APPROVAL_TIMEOUT_MS = 30 * 60 * 1000;
/** How many closed ids are remembered (to tell "late/duplicate" from "never issued"). */
export const REMEMBERED_CLOSED = 4096;

/** The call a card is about (the view without its id, argument hash and time). `tool` is the real name on its server. */
export type ApprovalCall = Omit<ApprovalView, 'id' | 'args_sha256' | 'created_at'>;

/** The user's answer. `reason` (deny) goes back to the model. */
export interface ApprovalAnswer {
  decision: ApprovalDecision;
  reason?: string;
}

/**
 * How a request ended: answered; cancelled by the user (Stop, or the asking page went away);
 * timed out; interrupted by the app (shutdown or restart) before anyone answered; or covered (an
 * answer the user gave on another card now decides this call too: the gate decides it again).
 */
export type ApprovalResult = { outcome: 'answered'; answer: ApprovalAnswer; args_sha256: string } | { outcome: 'cancelled' } | { outcome: 'timed_out' } | { outcome: 'interrupted' } | { outcome: 'covered' };

/** What exactly was wrong with an answer. */
export type ApprovalErrorKind = 'unknown_id' | 'already_answered' | 'withdrawn' | 'args_mismatch';

/** A refused answer. `code` is the contract's ErrorCode `approval_invalid`; `kind` says why. */
export class ApprovalError extends Error {
  override name = 'ApprovalError';
  readonly code = 'approval_invalid' as const;
  constructor(
    readonly kind: ApprovalErrorKind,
    message: string,
  ) {
    super(message);
  }
}

/** Where the broker reports cards opening and closing (wired to contract events). */
export interface ApprovalEvents {
  opened(view: ApprovalView): void;
  closed(id: string, outcome: ApprovalClosedOutcome): void;
}

interface Pending {
  view: ApprovalView;
  finish: (r: ApprovalResult) => void;
}

/** How a closed, unanswered approval is described to a late answer. */
const WITHDRAWN: Record<Exclude<ApprovalClosedOutcome, 'answered'>, string> = {
  cancelled: 'it was cancelled',
  timed_out: 'it timed out',
  interrupted: 'the app stopped before it was answered',
  covered: 'your answer on another card already decided it',
};

/** Pending approvals of one app core. */
export class ApprovalBroker {
  private readonly open = new Map<string, Pending>();
  /** Recently closed ids → how they closed (bounded, oldest dropped first). */
  private readonly closedIds = new Map<string, ApprovalClosedOutcome>();

  constructor(
    private readonly events: Partial<ApprovalEvents> = {},
    private readonly timeoutMs = APPROVAL_TIMEOUT_MS,
  ) {}

  /**
   * Ask the user about one call. Resolves when they answer, or with `cancelled` when `signal`
   * aborts (Stop) or `cancelRun` runs, with `interrupted` when `signal` aborts with an
   * `AppInterruption` (../interruption.ts) or `cancelAll` runs (shutdown), with `covered` when
   * `covered` aborts (the gate's grant given on another card decides this call), or `timed_out`
   * after the timeout. Never rejects.
   */
  request(call: ApprovalCall, signal?: AbortSignal, covered?: AbortSignal): Promise<ApprovalResult> {
    const id = randomBytes(24).toString('base64url');
    const view: ApprovalView = { id, ...call, args_sha256: argsHash(call.args), created_at: Date.now() };
    return new Promise((resolve) => {
      const finish = (r: ApprovalResult): void => {
        if (!this.open.delete(id)) return;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        covered?.removeEventListener('abort', onCovered);
        const outcome: ApprovalClosedOutcome = r.outcome;
        this.remember(id, outcome);
        this.events.closed?.(id, outcome);
        resolve(r);
      };
      const onAbort = (): void => finish({ outcome: interruptedByApp(signal) ? 'interrupted' : 'cancelled' });
      const onCovered = (): void => finish({ outcome: 'covered' });
      const timer = setTimeout(() => finish({ outcome: 'timed_out' }), this.timeoutMs);
      timer.unref?.();
      this.open.set(id, { view, finish });
      if (signal?.aborted) return onAbort();
      if (covered?.aborted) return onCovered();
      signal?.addEventListener('abort', onAbort, { once: true });
      covered?.addEventListener('abort', onCovered, { once: true });
      this.events.opened?.(view);
    });
  }

  /**
   * Deliver the user's answer to a pending approval (consumes the id).
   * @param argsSha256 when given, must equal the pending call's `args_sha256`.
   * @throws ApprovalError `unknown_id` (never issued, or long forgotten), `already_answered`,
   *   `withdrawn` (cancelled or timed out), `args_mismatch` (the id stays pending).
   */
  answer(id: string, answer: ApprovalAnswer, argsSha256?: string): void {
    const p = this.open.get(id);
    if (!p) {
      const closed = this.closedIds.get(id);
      if (closed === 'answered') throw new ApprovalError('already_answered', 'This approval was already answered.');
      if (closed) throw new ApprovalError('withdrawn', `This approval is no longer waiting (${WITHDRAWN[closed]}).`);
      throw new ApprovalError('unknown_id', 'No such approval was asked for.');
    }
    if (argsSha256 !== undefined && argsSha256 !== p.view.args_sha256) throw new ApprovalError('args_mismatch', 'The answer is for different arguments than the pending call.');
    const reason = answer.reason?.trim();
    p.finish({ outcome: 'answered', answer: { decision: answer.decision, ...(reason ? { reason } : {}) }, args_sha256: p.view.args_sha256 });
  }

  /** Every pending approval, oldest first (a reloaded window shows them again). */
  pending(): ApprovalView[] {
    return [...this.open.values()].map((p) => p.view);
  }

  /** Cancel the pending approvals of one run (Stop). Returns how many were cancelled. */
  cancelRun(runId: string): number {
    const hits = [...this.open.values()].filter((p) => p.view.run_id === runId);
    for (const p of hits) p.finish({ outcome: 'cancelled' });
    return hits.length;
  }

  /** End every pending approval as interrupted by the app (shutdown). Returns how many were ended. */
  cancelAll(): number {
    const all = [...this.open.values()];
    for (const p of all) p.finish({ outcome: 'interrupted' });
    return all.length;
  }

  private remember(id: string, outcome: ApprovalClosedOutcome): void {
    this.closedIds.set(id, outcome);
    if (this.closedIds.size > REMEMBERED_CLOSED) this.closedIds.delete(this.closedIds.keys().next().value!);
  }
}
