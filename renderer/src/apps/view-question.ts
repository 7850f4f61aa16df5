/**
 * A question the window asks the user on a view's behalf (ext-apps `ui/open-link`), answered to the
 * view in time. A view's request to the host times out on the view's side — the ext-apps SDK's
 * default is {@link VIEW_REQUEST_TIMEOUT_MS} unless the view chose another — and a timed-out
 * request is an error in the view's page. So a question the user has not answered by
 * {@link VIEW_ANSWER_BY_MS} is answered for the view with the "not done" value (an open-link
 * result with `isError`, as the ext-apps host examples answer a link the user did not confirm);
 * the question itself stays open in the window, and the user's later answer still acts there
 * (docs/ARCHITECTURE.md "MCP Apps").
 */

/** The ext-apps SDK's default request timeout, in ms (a view's `openLink` without options). */
export const VIEW_REQUEST_TIMEOUT_MS = 60_000;
/** When an unanswered question is answered "not done" for the view, in ms: well before {@link VIEW_REQUEST_TIMEOUT_MS}. */
export const VIEW_ANSWER_BY_MS = 50_000;

/** One open question: the view's reply, sent at most once. */
export interface ViewQuestion<T> {
  /** Send `value` to the view, unless it was answered already. @returns whether it was still waiting */
  reply(value: T): boolean;
  /** Stop the clock (the view went away); nothing is sent. */
  dispose(): void;
}

/**
 * Start the clock of one question. `send` delivers the view's reply (once); at `answerByMs`
 * without a reply, `unanswered` is sent and `onLate` runs (the window says so beside the question).
 */
export function viewQuestion<T>(send: (value: T) => void, unanswered: T, onLate: () => void, answerByMs: number = VIEW_ANSWER_BY_MS): ViewQuestion<T> {
  let replied = false;
  const reply = (value: T): boolean => {
    if (replied) return false;
    replied = true;
    clearTimeout(timer);
    send(value);
    return true;
  };
  const timer = setTimeout(() => {
    if (reply(unanswered)) onLate();
  }, answerByMs);
  return {
    reply,
    dispose: () => {
      replied = true;
      clearTimeout(timer);
    },
  };
}
