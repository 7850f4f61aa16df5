/**
 * The Tasks list (MCP Tasks; docs/ARCHITECTURE.md "Tasks"): the tasks main follows, as its
 * `tasks.changed` events keep them, and whether the list is open — for the open conversation or
 * for every conversation — and Cancel (`tasks.cancel`).
 */
import type { StateCreator } from 'zustand';
import type { TaskView } from '../../../preload/contract/index.js';
import { call } from '../api';
import type { AppState } from './index';

/** Which tasks the open list shows: the open conversation's, or every conversation's. */
export type TasksScope = { kind: 'conversation'; conversation_id: string } | { kind: 'all' };

export interface TasksSlice {
  /** The tasks main sent, newest first (the list's scope narrows them). */
  tasks: TaskView[];
  /** The open Tasks list, or null. */
  tasksOpen: TasksScope | null;
  /** Why the last list or cancel failed (shown in the list), or null. */
  /** What listing or cancelling was refused with (components/ErrorText.tsx words it). */
  tasksError: unknown;
  openTasks(scope: TasksScope): Promise<void>;
  closeTasks(): void;
  /** A `tasks.changed` event: the task replaces the one with the same server and id (or is added first). */
  applyTaskEvent(view: TaskView): void;
  /** Ask main to cancel a running task (`tasks/cancel`). */
  cancelTask(server: string, taskId: string): Promise<void>;
}

const same = (a: TaskView, b: TaskView): boolean => a.server === b.server && a.task_id === b.task_id;

export const createTasksSlice: StateCreator<AppState, [], [], TasksSlice> = (set, get) => ({
  tasks: [],
  tasksOpen: null,
  tasksError: null,
  async openTasks(scope) {
    set({ tasksOpen: scope, tasksError: null });
    try {
      const { tasks } = await call('tasks.list', scope.kind === 'conversation' ? { conversation_id: scope.conversation_id } : {});
      // Events that arrived meanwhile are newer than the list.
      const live = get().tasks;
      set({ tasks: [...tasks.map((t) => live.find((l) => same(l, t) && l.updated_at > t.updated_at) ?? t), ...live.filter((l) => !tasks.some((t) => same(l, t)))] });
    } catch (err) {
      set({ tasksError: err });
    }
  },
  closeTasks() {
    set({ tasksOpen: null });
  },
  applyTaskEvent(view) {
    const list = get().tasks;
    const i = list.findIndex((t) => same(t, view));
    set({ tasks: i < 0 ? [view, ...list] : list.map((t, j) => (j === i ? view : t)) });
  },
  async cancelTask(server, taskId) {
    try {
      const { cancelled } = await call('tasks.cancel', { server, task_id: taskId });
      if (!cancelled) set({ tasksError: null });
    } catch (err) {
      set({ tasksError: err });
    }
  },
});
