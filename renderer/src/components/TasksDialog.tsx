/**
 * The Tasks list (MCP Tasks; docs/ARCHITECTURE.md "Tasks"): the tasks of the open conversation or
 * of every conversation, each with its status, the call (tool, server, arguments), its
 * conversation, start time and — while it runs — Cancel; a row opens its conversation at the
 * call's tool card. Opened from the conversation's header and from the conversation list.
 */
import type { TaskView } from '../../../preload/contract/index.js';
import { isTaskActive } from '../../../preload/contract/rules/index.js';
import { formatDateTime, useTranslation } from '../i18n';
import { useApp } from '../store';
import { TaskStatusText } from './TaskStatus';
import { ErrorText } from './ErrorText';

/** The Tasks dialog (nothing while closed). */
export function TasksDialog() {
  const { t } = useTranslation();
  const scope = useApp((s) => s.tasksOpen);
  const all = useApp((s) => s.tasks);
  const error = useApp((s) => s.tasksError);
  const close = useApp((s) => s.closeTasks);
  const openTasks = useApp((s) => s.openTasks);
  if (!scope) return null;
  const tasks = scope.kind === 'conversation' ? all.filter((v) => v.conversation_id === scope.conversation_id) : all;
  return (
    <div className="modal-backdrop" onClick={close}>
      <div
        className="modal tasks-dialog"
        role="dialog"
        aria-modal="true"
        aria-label={t('tasks.title')}
        data-testid="tasks-dialog"
        onClick={(e) => e.stopPropagation()}
        onKeyDown={(e) => e.key === 'Escape' && close()}
      >
        <div className="viewer-head">
          <h2>{t('tasks.title')}</h2>
          <span className="spacer" />
          <div className="segmented" role="group" aria-label={t('tasks.scope')}>
            {scope.kind === 'conversation' ? (
              <button onClick={() => void openTasks({ kind: 'all' })} data-testid="tasks-show-all">
                {t('tasks.showAll')}
              </button>
            ) : null}
          </div>
          <button onClick={close} autoFocus>
            {t('common.close')}
          </button>
        </div>
        <p className="muted small">{scope.kind === 'conversation' ? t('tasks.scopeConversation') : t('tasks.scopeAll')}</p>
        {error !== null && (
          <div className="notice error" role="alert">
            <ErrorText error={error} />
          </div>
        )}
        {tasks.length === 0 ? (
          <p className="muted" data-testid="tasks-empty">
            {t('tasks.empty')}
          </p>
        ) : (
          <table className={`tasks-table ${scope.kind}`}>
            <thead>
              <tr>
                <th>{t('tasks.colStatus')}</th>
                <th>{t('tasks.colCall')}</th>
                {scope.kind === 'all' && <th>{t('tasks.colConversation')}</th>}
                <th>{t('tasks.colStarted')}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {tasks.map((v) => (
                <TaskRow key={`${v.server}\u0000${v.task_id}`} task={v} showConversation={scope.kind === 'all'} />
              ))}
            </tbody>
          </table>
        )}
      </div>
    </div>
  );
}

/**
 * One task: its status, the call (tool, server and arguments — a button that opens the
 * conversation at the call's tool card), the conversation (across conversations), when it
 * started, and Cancel while it runs. Names and arguments stay on one line each, cut with an
 * ellipsis; the whole is in the tooltip.
 */
function TaskRow({ task, showConversation }: { task: TaskView; showConversation: boolean }) {
  const { t } = useTranslation();
  const cancelTask = useApp((s) => s.cancelTask);
  const close = useApp((s) => s.closeTasks);
  const openConversation = useApp((s) => s.openConversation);
  const title = task.conversation_title || t('tasks.untitled');
  const open = (): void => {
    close();
    void openConversation(task.conversation_id, task.item_id);
  };
  return (
    <tr data-testid="task-row" data-status={task.status.kind}>
      <td className="task-state">
        <TaskStatusText task={task} />
      </td>
      <td className="task-call">
        <button
          className="task-open"
          onClick={open}
          title={`${task.original_name} · ${task.server}${task.args_preview ? `\n${task.args_preview}` : ''}\n${t('tasks.openCall')}`}
          data-testid="task-open"
        >
          <span className="task-line">
            <span className="mono task-tool">{task.original_name}</span> <span className="muted">{task.server}</span>
          </span>
          {task.args_preview && (
            <span className="task-line mono muted small" data-testid="task-args">
              {task.args_preview}
            </span>
          )}
        </button>
      </td>
      {showConversation && (
        <td className="task-conversation" title={title}>
          <span className="task-line">{title}</span>
        </td>
      )}
      <td className="task-started muted small">
        {formatDateTime(task.created_at)}
      </td>
      <td className="task-action">
        {isTaskActive(task.status) && (
          <button className="link" onClick={() => void cancelTask(task.server, task.task_id)} data-testid="task-cancel">
            {t('tasks.cancel')}
          </button>
        )}
      </td>
    </tr>
  );
}
