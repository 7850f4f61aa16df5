/**
 * The contract of MCP Tasks (the `io.modelcontextprotocol/tasks` extension; docs/ARCHITECTURE.md
 * "Tasks"): how a task-backed tool call stands, as a tool entry carries it and as the Tasks list
 * shows it, and the channels and event of that list.
 */
import { z } from 'zod';
import { serverNameSchema } from './limits.js';
import { conversationIdSchema } from './chat.js';

/**
 * How a task stands, by kind (Tasks spec "Task Status"): `working`, `input_required` (the server
 * waits for an answer the user gives through an elicitation), and the terminal `completed`,
 * `failed`, `cancelled`; plus the app's own terminal `lost`: the server no longer knows the task
 * (its retention ended, or it forgot it across a restart). `message` is the server's latest
 * `statusMessage` (or, for `lost`/`failed`, why), cut to 1000 characters; null when none.
 */
export type TaskStatus =
  | { kind: 'working'; message: string | null }
  | { kind: 'input_required'; message: string | null }
  | { kind: 'completed'; message: string | null }
  | { kind: 'failed'; message: string | null }
  | { kind: 'cancelled'; message: string | null }
  | { kind: 'lost'; message: string | null };

/** The kinds of {@link TaskStatus}. */
export type TaskStatusKind = TaskStatus['kind'];

export { isTaskActive } from './rules/index.js';

/**
 * Who follows a task: `started` — the run that made the call, which waits for its result;
 * `resumed` — the app picked the task up again after it restarted (the run that made the call is
 * gone; the result lands on the tool entry, and the chat goes on when the user continues it).
 */
export type TaskOrigin = 'started' | 'resumed';

/**
 * The task of a task-backed tool call, as its tool entry keeps it (saved with the entry, so a
 * reloaded window shows it). Times are ms since the Unix epoch.
 */
export interface ToolTask {
  /** The server's task id (opaque). */
  task_id: string;
  status: TaskStatus;
  origin: TaskOrigin;
  created_at: number;
  updated_at: number;
}

/** The most characters of a call's arguments {@link TaskView.args_preview} holds (an ellipsis marks a cut). */
export const TASK_ARGS_PREVIEW_CHARS = 160;

/**
 * One task in the Tasks list: the task with where it came from — its server, the tool (namespaced
 * and real name), the conversation, run and tool call that started it, and the call's tool entry
 * (the list opens the conversation there).
 */
export interface TaskView extends ToolTask {
  server: string;
  tool: string;
  original_name: string;
  conversation_id: string;
  run_id: string;
  call_id: string;
  /** The id of the call's tool entry in its conversation. */
  item_id: string;
  /**
   * The call's arguments as compact JSON, as its saved tool entry holds them (stored secrets
   * redacted, as in every saved entry), cut to {@link TASK_ARGS_PREVIEW_CHARS} characters with a
   * final "…"; empty when the entry cannot be read.
   */
  args_preview: string;
  /** The conversation's title, for the list across conversations. */
  conversation_title: string;
}

const taskIdSchema = z.string().min(1).max(512);

/** The Tasks channels (spread into `channels`, channels.ts). */
export const taskChannels = {
  /** The tasks of one conversation, or (no id) of every conversation; newest first, at most 500. */
  'tasks.list': { input: z.strictObject({ conversation_id: conversationIdSchema.optional() }) },
  /** Ask the server to cancel a running task (`tasks/cancel`). */
  'tasks.cancel': { input: z.strictObject({ server: serverNameSchema, task_id: taskIdSchema }) },
} as const;

/** What each of {@link taskChannels} returns (part of `ChannelOutputs`, channels.ts). */
export interface TaskChannelOutputs {
  'tasks.list': { tasks: TaskView[] };
  /** `cancelled` false: the task is not running, or no live connection follows it now. */
  'tasks.cancel': { cancelled: boolean };
}

/** The Tasks events (part of `EventPayloads`, events.ts). */
export interface TaskEventPayloads {
  /** A task was created or changed (the whole view; replaces the one with the same server and id). */
  'tasks.changed': TaskView;
}

/** The names of {@link TaskEventPayloads} (merged into `eventTable`, events.ts). */
export const taskEventTable: { [E in keyof TaskEventPayloads]: true } = {
  'tasks.changed': true,
};
