/**
 * The tasks tool calls started (MCP Tasks), saved with their conversation: one row per task in
 * `tasks`, keyed by its server and task id, with the library's serialized reference (so a task
 * still running when the app stopped is picked up again at the next start), where it came from
 * (conversation, run, tool call, entry), and its latest status. The rows go with the conversation
 * (`ON DELETE CASCADE`). See docs/ARCHITECTURE.md "Tasks" and "Conversations".
 */
import type Database from 'better-sqlite3';
import { TASK_ARGS_PREVIEW_CHARS, type TaskOrigin, type TaskStatus, type TaskView } from '../../../preload/contract/index.js';
import { asConversationDatabase, type ConversationDatabase, type DatabaseSource } from './database.js';

/** The most tasks one list returns. */
export const TASK_LIST_LIMIT = 500;

/** One saved task: its view and the reference that resumes it (JSON, as the library made it), and its entry's id. */
export interface SavedTask {
  view: TaskView;
  /** The library's serialized task reference (parsed JSON; checked by the library when resumed). */
  reference: unknown;
  item_id: string;
}

/** A new task's row (its title and arguments are read from its conversation and tool entry). */
export type NewTask = Omit<TaskView, 'conversation_title' | 'args_preview' | 'updated_at'> & { reference: unknown };

const KINDS = new Set<TaskStatus['kind']>(['working', 'input_required', 'completed', 'failed', 'cancelled', 'lost']);

interface Row {
  server: string;
  task_id: string;
  conversation_id: string;
  run_id: string;
  call_id: string;
  item_id: string;
  tool: string;
  original_name: string;
  reference: string;
  status: string;
  status_message: string | null;
  origin: string;
  created_at: number;
  updated_at: number;
  title: string | null;
  /** The first characters of the tool entry's arguments (compact JSON), or null when the entry cannot be read. */
  args: string | null;
  /** Whether the arguments go on past {@link Row.args}. */
  args_cut: number | null;
}

/** Saved tasks, in the conversation database. Synchronous (better-sqlite3). */
export class TaskStore {
  private readonly live: ConversationDatabase;
  private q: ReturnType<typeof queries>;

  /** @param source the database (healed and the operation tried once more when it is found damaged) */
  constructor(
    source: DatabaseSource,
    private readonly now: () => number = Date.now,
  ) {
    this.live = asConversationDatabase(source);
    this.q = queries(this.live.db);
    this.live.onReopen((next) => (this.q = queries(next)));
  }

  /** Save a task a call just started (replacing a row of the same server and task id). Nothing when its conversation is gone. */
  add(task: NewTask): SavedTask | null {
    const at = this.now();
    this.live.guard(() =>
      this.q.add.run({
        server: task.server,
        task_id: task.task_id,
        conversation_id: task.conversation_id,
        run_id: task.run_id,
        call_id: task.call_id,
        item_id: task.item_id,
        tool: task.tool,
        original_name: task.original_name,
        reference: JSON.stringify(task.reference),
        status: task.status.kind,
        status_message: task.status.message,
        origin: task.origin,
        created_at: task.created_at,
        updated_at: at,
      }),
    );
    return this.get(task.server, task.task_id);
  }

  /** Record a task's status (and who follows it). @returns the saved task, or null when there is no such row. */
  update(server: string, taskId: string, status: TaskStatus, origin?: TaskOrigin): SavedTask | null {
    this.live.guard(() => this.q.update.run({ server, task_id: taskId, status: status.kind, status_message: status.message, origin: origin ?? null, at: this.now() }));
    return this.get(server, taskId);
  }

  /** One saved task, or null. */
  get(server: string, taskId: string): SavedTask | null {
    const row = this.live.guard(() => this.q.get.get(server, taskId));
    return row ? saved(row) : null;
  }

  /** The tasks of one conversation, or of all (no id); newest first, at most {@link TASK_LIST_LIMIT}. */
  list(conversationId?: string): SavedTask[] {
    const rows = this.live.guard(() => (conversationId === undefined ? this.q.all.all(TASK_LIST_LIMIT) : this.q.ofConversation.all(conversationId, TASK_LIST_LIMIT)));
    return rows.map(saved);
  }

  /** The tasks still running (or waiting for input) as last seen: those to pick up again at start. */
  active(): SavedTask[] {
    return this.live.guard(() => this.q.active.all()).map(saved);
  }
}

function saved(row: Row): SavedTask {
  let reference: unknown = null;
  try {
    reference = JSON.parse(row.reference);
  } catch {
    // An unreadable reference cannot be resumed; the task is reported lost when tried.
  }
  const kind = KINDS.has(row.status as TaskStatus['kind']) ? (row.status as TaskStatus['kind']) : 'lost';
  return {
    reference,
    item_id: row.item_id,
    view: {
      task_id: row.task_id,
      server: row.server,
      tool: row.tool,
      original_name: row.original_name,
      conversation_id: row.conversation_id,
      conversation_title: row.title ?? '',
      run_id: row.run_id,
      call_id: row.call_id,
      item_id: row.item_id,
      args_preview: row.args === null ? '' : row.args_cut ? `${row.args}…` : row.args,
      status: { kind, message: row.status_message },
      origin: row.origin === 'resumed' ? 'resumed' : 'started',
      created_at: row.created_at,
      updated_at: row.updated_at,
    },
  };
}

/** The statements on one connection. */
function queries(db: Database.Database) {
  // The call's arguments from its saved tool entry (redacted when it was written), cut by SQLite,
  // which counts characters, never halves of one; an entry that is not JSON has none.
  const args = `CASE WHEN json_valid(i.data) THEN i.data -> '$.args' END`;
  const select = `SELECT t.*, c.title AS title, substr(${args}, 1, ${TASK_ARGS_PREVIEW_CHARS}) AS args, length(${args}) > ${TASK_ARGS_PREVIEW_CHARS} AS args_cut
    FROM tasks t LEFT JOIN conversations c ON c.id = t.conversation_id LEFT JOIN items i ON i.id = t.item_id`;
  return {
    add: db.prepare(
      `INSERT INTO tasks(server, task_id, conversation_id, run_id, call_id, item_id, tool, original_name, reference, status, status_message, origin, created_at, updated_at)
       SELECT @server, @task_id, @conversation_id, @run_id, @call_id, @item_id, @tool, @original_name, @reference, @status, @status_message, @origin, @created_at, @updated_at
       WHERE EXISTS (SELECT 1 FROM conversations WHERE id = @conversation_id)
       ON CONFLICT(server, task_id) DO UPDATE SET conversation_id = excluded.conversation_id, run_id = excluded.run_id, call_id = excluded.call_id,
         item_id = excluded.item_id, tool = excluded.tool, original_name = excluded.original_name, reference = excluded.reference,
         status = excluded.status, status_message = excluded.status_message, origin = excluded.origin, created_at = excluded.created_at, updated_at = excluded.updated_at`,
    ),
    update: db.prepare<{ server: string; task_id: string; status: string; status_message: string | null; origin: string | null; at: number }>(
      'UPDATE tasks SET status = @status, status_message = @status_message, origin = coalesce(@origin, origin), updated_at = @at WHERE server = @server AND task_id = @task_id',
    ),
    get: db.prepare<[string, string], Row>(`${select} WHERE t.server = ? AND t.task_id = ?`),
    all: db.prepare<[number], Row>(`${select} ORDER BY t.created_at DESC, t.rowid DESC LIMIT ?`),
    ofConversation: db.prepare<[string, number], Row>(`${select} WHERE t.conversation_id = ? ORDER BY t.created_at DESC, t.rowid DESC LIMIT ?`),
    active: db.prepare<[], Row>(`${select} WHERE t.status IN ('working', 'input_required') ORDER BY t.created_at`),
  };
}
