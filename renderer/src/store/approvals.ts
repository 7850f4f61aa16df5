import type { StateCreator } from 'zustand';
import type { ApprovalDecision, ApprovalView } from '../../../preload/contract/index.js';
import { call, on } from '../api';
import type { AppState } from './index';

/**
 * Tool calls waiting for the user's approval, as main holds them (main is the source of truth:
 * a reloaded window loads `approvals.list` again). Answers go back with `approvals.respond`.
 */
export interface ApprovalsSlice {
  /** Pending approvals by id, oldest first in `approvalOrder`. */
  approvals: Record<string, ApprovalView>;
  approvalOrder: string[];
  /** Replace the list with main's (start and reconnect). */
  loadApprovals(): Promise<void>;
  addApproval(view: ApprovalView): void;
  removeApproval(id: string): void;
  /**
   * Answer one approval (bound to the arguments shown via their hash). Removes it locally on
   * success; throws `ApiError` (e.g. `approval_invalid` when it was withdrawn meanwhile).
   */
  answerApproval(id: string, decision: ApprovalDecision, reason?: string): Promise<void>;
  /** Subscribe to `approvals.request` / `approvals.closed` and load the list; returns an unsubscribe. */
  followApprovals(): () => void;
}

/** The approvals slice (wired into the app store in ./index.ts). */
export const createApprovalsSlice: StateCreator<AppState, [], [], ApprovalsSlice> = (set, get) => ({
  approvals: {},
  approvalOrder: [],
  async loadApprovals() {
    const list = await call('approvals.list', {});
    set({ approvals: Object.fromEntries(list.map((a) => [a.id, a])), approvalOrder: list.map((a) => a.id) });
  },
  addApproval(view) {
    set((s) => ({ approvals: { ...s.approvals, [view.id]: view }, approvalOrder: s.approvalOrder.includes(view.id) ? s.approvalOrder : [...s.approvalOrder, view.id] }));
  },
  removeApproval(id) {
    set((s) => {
      if (!s.approvals[id]) return s;
      const approvals = { ...s.approvals };
      delete approvals[id];
      return { approvals, approvalOrder: s.approvalOrder.filter((x) => x !== id) };
    });
  },
  async answerApproval(id, decision, reason) {
    const a = get().approvals[id];
    try {
      await call('approvals.respond', { id, decision, ...(reason?.trim() ? { reason: reason.trim() } : {}), ...(a ? { args_sha256: a.args_sha256 } : {}) });
    } catch (err) {
      // Withdrawn or already answered elsewhere: main no longer waits on it, so drop it here too.
      if ((err as { code?: string }).code === 'approval_invalid') get().removeApproval(id);
      throw err;
    }
    get().removeApproval(id);
  },
  followApprovals() {
    const reload = () => void get().loadApprovals().catch((error: unknown) => get().addWarning({ kind: 'error', error }));
    const offs = [
      on('approvals.request', (v) => get().addApproval(v)),
      on('approvals.closed', ({ id }) => get().removeApproval(id)),
      on('__reconnected' as never, reload),
    ];
    reload();
    return () => offs.forEach((off) => off());
  },
});
