/**
 * Who ended a run: the user (Stop, "Cancel this call") or the app itself (shutdown or restart of
 * the core). The app aborts a run's signal with an {@link AppInterruption} as its reason, so every
 * part that waits on that signal (a pending approval, a running tool call, the answer) records an
 * interruption by the app instead of a cancellation by the user (docs/ARCHITECTURE.md
 * "Start-up and shutdown").
 */

/** The abort reason of a run the app ended (shutdown, restart); never thrown to a caller. */
export class AppInterruption extends Error {
  override name = 'AppInterruption';
  constructor() {
    super('The app stopped or restarted.');
  }
}

/** Whether `signal` has been aborted by the app ({@link AppInterruption}), not by the user. */
export function interruptedByApp(signal: AbortSignal | undefined): boolean {
  return !!signal?.aborted && signal.reason instanceof AppInterruption;
}

/**
 * What the model is told about a call that waited for the user's approval when the app stopped or
 * restarted: nobody answered, and it never ran (the transcript's `approval_interrupted` state).
 */
export const APPROVAL_INTERRUPTED_RESULT = 'Interrupted: the app restarted before the user answered the approval request; the call was not run.';
