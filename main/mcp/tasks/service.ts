/**
 * The app's tasks (MCP Tasks; docs/ARCHITECTURE.md "Tasks"): it follows every task a tool call
 * started — saves it with its reference, records each status, tells the window
 * (`tasks.changed`) — answers the Tasks list and its Cancel, and, after the app restarted, picks
 * each task that was still running up again once its server is ready, so its result lands on the
 * tool entry. Its one job is the tasks' bookkeeping; the wire is main/mcp/tasks/session.ts.
 */
import { isTaskActive, type TaskStatus, type TaskView, type ToolTask } from '../../../preload/contract/index.js';
import { TaskElsewhereError, TaskLostError, type TaskEnd, type TaskObserver, type TaskReference } from './session.js';

/** Where a task-backed call came from (what its row keeps). */
export interface TaskCall {
  conversation_id: string;
  run_id: string;
  call_id: string;
  /** The call's tool entry. */
  item_id: string;
  server: string;
  /** Namespaced name as offered to the model. */
  tool: string;
  original_name: string;
}

/** One saved task as the service reads it back (see main/chat/conversations/tasks.ts). */
export interface SavedTaskRow {
  view: TaskView;
  reference: unknown;
  item_id: string;
}

/** The saved tasks (main/chat/conversations/tasks.ts `TaskStore`). */
export interface TaskRows {
  add(task: Omit<TaskView, 'conversation_title' | 'args_preview' | 'updated_at'> & { reference: unknown }): SavedTaskRow | null;
  update(server: string, taskId: string, status: TaskStatus, origin?: TaskView['origin']): SavedTaskRow | null;
  get(server: string, taskId: string): SavedTaskRow | null;
  list(conversationId?: string): SavedTaskRow[];
  active(): SavedTaskRow[];
}

/** What the service needs of the servers: whether one is ready, and resuming a task on it. */
export interface TaskServers {
  ready(server: string): boolean;
  /** @throws TaskLostError when the server does not know the task; other errors when it could not be asked. */
  resumeTask(server: string, reference: TaskReference, opts: { observer: TaskObserver }): Promise<TaskEnd>;
}

/** Writes a resumed task's state and end onto its tool entry (main/chat/task-entries.ts). */
export type TaskEntryWriter = (conversationId: string, itemId: string, task: ToolTask, end: TaskEnd | { kind: 'lost'; message: string } | null) => void;

/** The tool entry's part of a saved task. */
function toolTaskOf(view: TaskView): ToolTask {
  return { task_id: view.task_id, status: view.status, origin: view.origin, created_at: view.created_at, updated_at: view.updated_at };
}

/** Follows the app's tasks. One instance per app core. */
export class TaskService {
  /** Cancels of the tasks followed now (a run's, or a resumed one), by `server\0task id`. */
  private readonly live = new Map<string, () => Promise<void>>();
  /** Saved running tasks waiting for their server to be ready, by server. */
  private readonly pending = new Map<string, SavedTaskRow[]>();

  constructor(
    private readonly rows: TaskRows,
    private readonly servers: TaskServers,
    private readonly entries: TaskEntryWriter,
    private readonly emit: (view: TaskView) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The observer of one run's call: saves the task when the server creates it, records each
   * status, and hands the entry's part to `onTask` (the run recorder saves it with the entry).
   */
  observe(call: TaskCall, onTask: (task: ToolTask) => void): TaskObserver & { detached(): void } {
    let taskId: string | null = null;
    return {
      // The connection closed while the task ran: pick it up again when the server is ready next.
      detached: () => {
        if (taskId === null) return;
        this.live.delete(key(call.server, taskId));
        const saved = this.rows.get(call.server, taskId);
        if (saved && isTaskActive(saved.view.status)) this.wait(saved);
      },
      created: ({ reference, status, cancel }) => {
        taskId = reference.taskId;
        this.live.set(key(call.server, reference.taskId), cancel);
        const saved = this.rows.add({ ...call, task_id: reference.taskId, reference, status, origin: 'started', created_at: this.now() });
        if (saved) this.announce(saved, onTask);
      },
      updated: (status) => {
        if (taskId === null) return;
        if (!isTaskActive(status)) this.live.delete(key(call.server, taskId));
        const saved = this.rows.update(call.server, taskId, status);
        if (saved) this.announce(saved, onTask);
      },
    };
  }

  private announce(saved: SavedTaskRow, onTask: (task: ToolTask) => void): void {
    onTask(toolTaskOf(saved.view));
    this.emit(saved.view);
  }

  /** The tasks of one conversation, or of all; newest first. */
  list(conversationId?: string): TaskView[] {
    return this.rows.list(conversationId).map((r) => r.view);
  }

  /**
   * Ask the server to cancel a task the app follows now (`tasks/cancel`); its cancelled status
   * arrives as any other. @returns false when no live connection follows the task.
   * @throws the server's refusal (e.g. a task that cannot be cancelled any more).
   */
  async cancel(server: string, taskId: string): Promise<boolean> {
    const cancel = this.live.get(key(server, taskId));
    if (!cancel) return false;
    await cancel();
    return true;
  }

  /** At start: take the saved tasks that were still running, to pick up once their servers are ready. */
  loadSaved(): void {
    for (const row of this.rows.active()) this.wait(row);
  }

  /** Keep a saved running task to pick up when its server is ready (at once when it is). */
  private wait(row: SavedTaskRow): void {
    const list = this.pending.get(row.view.server) ?? [];
    if (!list.some((r) => r.view.task_id === row.view.task_id)) list.push(row);
    this.pending.set(row.view.server, list);
  }

  /** A server's state changed: when it is ready, pick up its saved running tasks. */
  serverChanged(server: string): void {
    const waiting = this.pending.get(server);
    if (!waiting?.length || !this.servers.ready(server)) return;
    this.pending.delete(server);
    for (const row of waiting) void this.resume(row);
  }

  /** Pick one saved task up again and follow it to its end; the tool entry says it was picked up again. */
  private async resume(row: SavedTaskRow): Promise<void> {
    const { server, task_id: taskId, conversation_id: conversationId } = row.view;
    const show = (saved: SavedTaskRow | null, end: Parameters<TaskEntryWriter>[3]): void => {
      if (!saved) return;
      this.entries(conversationId, row.item_id, toolTaskOf(saved.view), end);
      this.emit(saved.view);
    };
    show(this.rows.update(server, taskId, row.view.status, 'resumed'), null);
    const observer: TaskObserver = {
      created: ({ cancel }) => this.live.set(key(server, taskId), cancel),
      updated: (status) => show(this.rows.update(server, taskId, status), null),
    };
    try {
      const end = await this.servers.resumeTask(server, row.reference as TaskReference, { observer });
      // The observer heard the end's status already (main/mcp/tasks/session.ts); keep its message.
      const last = this.rows.get(server, taskId)?.view.status;
      const status: TaskStatus = last && last.kind === end.kind ? last : end.kind === 'failed' ? { kind: 'failed', message: end.message } : { kind: end.kind, message: null };
      show(this.rows.update(server, taskId, status), end);
    } catch (err) {
      if (err instanceof TaskLostError || err instanceof TaskElsewhereError || !row.reference) {
        const message = err instanceof TaskElsewhereError ? 'The server was changed since this task started; the task was not asked for there.' : 'The server no longer knows this task.';
        show(this.rows.update(server, taskId, { kind: 'lost', message }), { kind: 'lost', message });
      } else {
        // The server could not be asked now (it went away): try again when it is ready next.
        this.wait(row);
      }
    } finally {
      this.live.delete(key(server, taskId));
    }
  }
}

function key(server: string, taskId: string): string {
  return `${server}\u0000${taskId}`;
}
