/**
 * A task's status in words (MCP Tasks; docs/ARCHITECTURE.md "Tasks"), rendered by its kind:
 * the status, the server's latest status message (while it runs, or why it failed), and whether the app picked the task up again
 * after a restart. Used on the tool card and in the Tasks list.
 */
import type { ToolTask } from '../../../preload/contract/index.js';
import { useTranslation } from '../i18n';

/** The status line of a task. */
export function TaskStatusText({ task }: { task: ToolTask }) {
  const { t } = useTranslation();
  const s = task.status;
  const label =
    s.kind === 'working'
      ? t('tasks.status.working')
      : s.kind === 'input_required'
        ? t('tasks.status.input_required')
        : s.kind === 'completed'
          ? t('tasks.status.completed')
          : s.kind === 'failed'
            ? t('tasks.status.failed')
            : s.kind === 'cancelled'
              ? t('tasks.status.cancelled')
              : t('tasks.status.lost');
  // A finished task's last status message is usually its last progress step ("Generating
  // report..."): shown only while it runs, or as the reason it failed.
  const message = s.kind === 'completed' || s.kind === 'cancelled' ? null : s.message;
  return (
    <span className={`task-status ${s.kind}`} data-testid="task-status" data-status={s.kind}>
      <span className="task-badge">{label}</span>
      {message && (
        <span className="muted" data-testid="task-message">
          {' '}
          {message}
        </span>
      )}
      {task.origin === 'resumed' && (
        <span className="muted small" data-testid="task-resumed">
          {' '}
          · {t('tasks.resumed')}
        </span>
      )}
    </span>
  );
}
