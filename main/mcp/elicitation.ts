/**
 * Requests from servers that need the user (MCP spec 2025-06-18, client features):
 * - Elicitation (form mode): a server asks the user for input; the answer goes back.
 * - Sampling: a server asks the host's model for a completion; the user approves first
 *   (human in the loop), then the configured model answers.
 *
 * `UserRequestBroker` turns each into an event for the renderer and waits for the answer through
 * a channel. Unanswered requests are cancelled after a timeout, and when the server cancels (or
 * the connection ends) the dialog is withdrawn.
 */
import { randomUUID } from 'node:crypto';

/** How long a dialog waits for the user before it is cancelled, in ms. */
export const USER_REQUEST_TIMEOUT_MS = 10 * 60 * 1000;

/** Most dialogs one server may have waiting for the user at once (per kind). */
export const MAX_PENDING_PER_SERVER = 3;

/** Thrown by `ask` when the server already has {@link MAX_PENDING_PER_SERVER} dialogs waiting. */
export class TooManyRequestsError extends Error {
  override name = 'TooManyRequestsError';
}

/** Thrown by `respond` for an unknown (answered, withdrawn, timed-out) request id. */
export class UnknownElicitationError extends Error {
  override name = 'UnknownElicitationError';
}

/**
 * Holds pending user requests of one kind and routes answers to them.
 * @typeParam Q the request payload shown to the user (without `id`)
 * @typeParam A the answer
 */
export class UserRequestBroker<Q extends { server: string }, A> {
  private readonly pending = new Map<string, { resolve: (a: A) => void; timer: NodeJS.Timeout; server: string }>();

  /**
   * @param emitRequest shows a dialog (renderer event)
   * @param emitClosed withdraws a dialog that is no longer awaited
   * @param cancelled the answer used on timeout, abort and shutdown
   */
  constructor(
    private readonly emitRequest: (e: Q & { id: string }) => void,
    private readonly emitClosed: (id: string) => void,
    private readonly cancelled: A,
    private readonly timeoutMs = USER_REQUEST_TIMEOUT_MS,
    private readonly maxPerServer = MAX_PENDING_PER_SERVER,
  ) {}

  /** How many requests of `server` are waiting for the user. */
  pendingFor(server: string): number {
    let n = 0;
    for (const p of this.pending.values()) if (p.server === server) n++;
    return n;
  }

  /**
   * Ask the user. Resolves with their answer, or the `cancelled` answer on timeout / abort.
   * @throws TooManyRequestsError (rejects at once, no dialog) when the request's server already
   *   has `maxPerServer` dialogs waiting.
   */
  ask(request: Q, signal: AbortSignal): Promise<A> {
    if (this.pendingFor(request.server) >= this.maxPerServer) {
      return Promise.reject(new TooManyRequestsError(`Server "${request.server}" already has ${this.maxPerServer} requests waiting for the user; answer those first.`));
    }
    const id = randomUUID();
    return new Promise((resolve) => {
      const finish = (a: A, withdraw: boolean): void => {
        const p = this.pending.get(id);
        if (!p) return;
        clearTimeout(p.timer);
        this.pending.delete(id);
        signal.removeEventListener('abort', onAbort);
        if (withdraw) this.emitClosed(id);
        resolve(a);
      };
      const onAbort = (): void => finish(this.cancelled, true);
      const timer = setTimeout(() => finish(this.cancelled, true), this.timeoutMs);
      timer.unref?.();
      this.pending.set(id, { resolve: (a) => finish(a, false), timer, server: request.server });
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      this.emitRequest({ ...request, id });
    });
  }

  /** Deliver the user's answer. @throws UnknownElicitationError when the request is no longer pending. */
  respond(id: string, answer: A): void {
    const p = this.pending.get(id);
    if (!p) throw new UnknownElicitationError('This request is no longer waiting for an answer.');
    p.resolve(answer);
  }

  /** Cancel everything (shutdown). */
  cancelAll(): void {
    for (const id of [...this.pending.keys()]) this.pending.get(id)?.resolve(this.cancelled);
  }
}
