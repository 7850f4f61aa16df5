/**
 * Whether a task can still change (MCP Tasks; docs/ARCHITECTURE.md "Tasks"): main decides from it
 * which tasks to pick up after a restart, the window whether to offer Cancel.
 */

/** Whether a task of this status kind still runs (`working`, `input_required`): it can change and be cancelled. */
export function isTaskActive(status: { kind: string }): boolean {
  return status.kind === 'working' || status.kind === 'input_required';
}
