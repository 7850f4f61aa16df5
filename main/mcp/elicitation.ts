/**
 * Elicitation broker (MCP spec 2025-06-18 "Elicitation", form mode): a server's request for user
 * input becomes an `elicitation.request` event for the renderer; the user's answer comes back
 * through the `elicitation.respond` channel. Unanswered requests are cancelled after a timeout,
 * and when the server cancels (or the connection ends) the form is withdrawn.
 */
import { randomUUID } from 'node:crypto';
import type { ElicitationAnswer, ElicitationForm } from './connection.js';

/** How long a form waits for the user before it is answered `cancel`, in ms. */
export const ELICITATION_TIMEOUT_MS = 10 * 60 * 1000;

/** A pending request as the renderer sees it. */
export interface ElicitationRequestEvent {
  id: string;
  server: string;
  message: string;
  requested_schema: Record<string, unknown>;
}

/** Thrown by `respond` for an unknown (answered, withdrawn, timed-out) request id. */
export class UnknownElicitationError extends Error {
  override name = 'UnknownElicitationError';
}

/** Holds pending elicitations and routes answers to them. */
export class ElicitationBroker {
  private readonly pending = new Map<string, { resolve: (a: ElicitationAnswer) => void; timer: NodeJS.Timeout }>();

  /**
   * @param emitRequest shows a form (renderer event)
   * @param emitClosed withdraws a form that is no longer awaited
   */
  constructor(
    private readonly emitRequest: (e: ElicitationRequestEvent) => void,
    private readonly emitClosed: (id: string) => void,
    private readonly timeoutMs = ELICITATION_TIMEOUT_MS,
  ) {}

  /** Ask the user. Resolves with their answer, or `cancel` on timeout / abort. */
  ask(server: string, form: ElicitationForm, signal: AbortSignal): Promise<ElicitationAnswer> {
    const id = randomUUID();
    return new Promise((resolve) => {
      const finish = (a: ElicitationAnswer, withdraw: boolean): void => {
        const p = this.pending.get(id);
        if (!p) return;
        clearTimeout(p.timer);
        this.pending.delete(id);
        signal.removeEventListener('abort', onAbort);
        if (withdraw) this.emitClosed(id);
        resolve(a);
      };
      const onAbort = (): void => finish({ action: 'cancel' }, true);
      const timer = setTimeout(() => finish({ action: 'cancel' }, true), this.timeoutMs);
      timer.unref?.();
      this.pending.set(id, { resolve: (a) => finish(a, false), timer });
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      this.emitRequest({ id, server, message: form.message, requested_schema: form.requestedSchema });
    });
  }

  /**
   * Deliver the user's answer. @throws UnknownElicitationError when the request is no longer pending.
   */
  respond(id: string, answer: ElicitationAnswer): void {
    const p = this.pending.get(id);
    if (!p) throw new UnknownElicitationError('This request is no longer waiting for an answer.');
    p.resolve(answer.action === 'accept' ? { action: 'accept', content: answer.content ?? {} } : { action: answer.action });
  }

  /** Cancel everything (shutdown). */
  cancelAll(): void {
    for (const id of [...this.pending.keys()]) this.pending.get(id)?.resolve({ action: 'cancel' });
  }
}
