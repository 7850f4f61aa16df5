/**
 * One server session's MCP Tasks (the `io.modelcontextprotocol/tasks` extension), through the
 * official requester library `@modelcontextprotocol/ext-tasks`: a task-backed `tools/call`, its
 * status until it settles (`tasks/get`; `tasks/result` on 2025-11-25), `tasks/cancel`, and picking
 * a persisted task up again (`resumeTask`). Its one job is to turn the library's executions into
 * the app's {@link TaskStatus} and a `CallToolResult`. Both generations: 2025-11-25 tasks through
 * the SDK client, the 2026-07-28 extension through the raw request lane (./raw-lane.ts) the
 * library asks the host for. See docs/ARCHITECTURE.md "Tasks".
 */
import type { CallToolResult, Client, Tool } from '@modelcontextprotocol/client';
import {
  createTaskSessionEndpointId,
  createTaskSessionFromClient,
  type CreateTaskSessionFromClientOptions,
  TaskCancelledError,
  TaskExecutionClosedError,
  toolDeclarationFromMcpTool,
  type ApplicationInputRequest,
  type SerializedTaskReference,
  type TaskEnabledSession,
  type TaskExecutionEvent,
  type TaskOutcome,
  type TaskView as LibraryTaskView,
  type ToolExecution,
} from '@modelcontextprotocol/ext-tasks/client';
import { TaskResultV1Schema } from '@modelcontextprotocol/ext-tasks/core/v1';
import type { TaskStatus } from '../../../preload/contract/index.js';
import { interruptedByApp } from '../../chat/interruption.js';
import type { JsonValue } from '@modelcontextprotocol/ext-tasks/core';
import type { RawProgress, RawRequestLane } from './raw-lane.js';

/** How long the `tasks/result` sent for an `input_required` task may wait for the task's end (ms). */
const TASK_RESULT_WAIT_MS = 60 * 60 * 1000;

/** Longest status message kept (characters). */
const MAX_MESSAGE = 1000;

/** A task reference as the library serializes it (JSON; saved so the task can be resumed). */
export type TaskReference = SerializedTaskReference;

/**
 * What a caller learns of one task while it runs: `created` once, with the reference to save and
 * the way to cancel it (`tasks/cancel`), then `updated` for each status the library observes.
 */
export interface TaskObserver {
  created(task: { reference: TaskReference; status: TaskStatus; cancel: () => Promise<void> }): void;
  updated(status: TaskStatus): void;
}

/** How a task ended, for the tool entry: the result, or why there is none. */
export type TaskEnd =
  | { kind: 'completed'; result: CallToolResult }
  | { kind: 'failed'; message: string }
  | { kind: 'cancelled' };

/** A task ended `cancelled` (by the user, through `tasks/cancel`, or by the server). */
export class TaskCancelled extends Error {
  override name = 'TaskCancelled';
}

/** The session closed while a task ran: the app stopped following it; it may still run on the server. */
export class TaskDetached extends Error {
  override name = 'TaskDetached';
}

/** The server no longer knows a task the app saved (retention over, or forgotten by a restart). */
export class TaskLostError extends Error {
  override name = 'TaskLostError';
}

/**
 * A saved task belongs to another server than this session's (its reference names another
 * endpoint: the server's address or command changed since): it is never asked about there.
 */
export class TaskElsewhereError extends Error {
  override name = 'TaskElsewhereError';
}

/**
 * Answers one input request a server makes inside a 2026-07-28 task (`inputRequests`: an
 * elicitation, a sampling request or `roots/list`, as `kind` + the request's params) with the
 * request's result. @throws when the client does not answer that kind (the library then does).
 */
export type TaskInput = (request: { kind: string; params?: unknown }, signal: AbortSignal) => Promise<unknown>;

/**
 * What a 2026-07-28 session needs for the extension's requests: the raw request lane of its
 * transport, the client it sends cancellation notices with, and the per-request framing
 * (MCP 2026-07-28 "`_meta` envelope": protocol version, client info and capabilities).
 */
export interface RawTaskPath {
  lane: RawRequestLane;
  protocolVersion: string;
  clientInfo: Record<string, unknown>;
  clientCapabilities: Record<string, unknown>;
}

/** The Tasks extension's identifier (2026-07-28). */
const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/**
 * Which Tasks generation a connected client's server offers: `v2` when the session is 2026-07-28
 * and the server declares the extension, `v1` when a 2025 session's server declares `tasks`.
 */
export function taskGeneration(client: Client): 'v1' | 'v2' | null {
  const caps = client.getServerCapabilities() as { tasks?: unknown; extensions?: Record<string, unknown> } | undefined;
  if (client.getProtocolEra() === 'modern') return caps?.extensions?.[TASKS_EXTENSION] !== undefined ? 'v2' : null;
  return caps?.tasks !== undefined ? 'v1' : null;
}

/** Whether a listed tool asks to run as a task (`execution.taskSupport`, Tasks spec "Tool-Level Negotiation"). */
export function taskSupportOf(tool: Tool): 'required' | 'optional' | null {
  const support = (tool as { execution?: { taskSupport?: unknown } }).execution?.taskSupport;
  return support === 'required' || support === 'optional' ? support : null;
}

/** The app's status of a library task view (message cut to {@link MAX_MESSAGE}). */
export function statusOf(view: Pick<LibraryTaskView, 'status' | 'statusMessage'>): TaskStatus {
  const message = typeof view.statusMessage === 'string' ? view.statusMessage.slice(0, MAX_MESSAGE) : null;
  return { kind: view.status, message };
}

/**
 * The Tasks side of one live SDK `Client` (one per session: the library adapts a client once).
 * Create with {@link ServerTasks.open} after the client connected; {@link close} before the client closes.
 */
export class ServerTasks {
  private constructor(
    private readonly session: TaskEnabledSession,
    private readonly client: Client,
    /** The 2026-07-28 lane, when the session is one; null for 2025-11-25 tasks. */
    private readonly lane: RawRequestLane | null,
  ) {}

  /**
   * Adapt a connected client. `identity` names the server as configured (its name and where it
   * lives), so a saved reference is only ever resumed against the same server. `input` answers
   * a task's input requests; `raw` carries the 2026-07-28 extension's requests (without it a
   * 2026-07-28 server gets no task session).
   * @returns null when the server does not offer tasks (or the library cannot adapt the session).
   */
  static async open(client: Client, identity: unknown, input: TaskInput | null, raw: RawTaskPath | null = null): Promise<ServerTasks | null> {
    const generation = taskGeneration(client);
    if (!generation) return null;
    const endpointId = await createTaskSessionEndpointId('openprogram-desktop', identity);
    const v2 = generation === 'v2' && raw ? raw : null;
    const base = { endpointId, ...(input ? { onInputRequest: inputHandler(input) } : {}) };
    const options: CreateTaskSessionFromClientOptions = v2
      ? { ...base, rawDispatch: v2.lane.dispatcher(client), v2RequestFraming: { protocolVersion: v2.protocolVersion, clientInfo: toJson(v2.clientInfo), clientCapabilities: toJson(v2.clientCapabilities) } }
      : base;
    let session: TaskEnabledSession;
    try {
      session = createTaskSessionFromClient(client, options);
    } catch {
      // A 2026-07-28 Tasks server without the raw lane (docs/ARCHITECTURE.md "Tasks").
      return null;
    }
    if (!session.capabilities.execution) {
      await session.close().catch(() => undefined);
      return null;
    }
    return new ServerTasks(session, client, v2?.lane ?? null);
  }

  /**
   * Whether the server decides per call whether to answer with a task (the 2026-07-28 extension:
   * every `tools/call` goes through here), rather than the tool declaring it (`taskSupport`, 2025-11-25).
   */
  get serverDecides(): boolean {
    return this.lane !== null;
  }

  /** Whether the server can cancel tasks (`tasks/cancel`). */
  get canCancel(): boolean {
    return this.session.capabilities.cancellation;
  }

  /**
   * Call `tool` as a task and wait until it settles. `signal` cancels the task on the server
   * (`tasks/cancel`), then waits for its cancelled outcome. An ordinary (immediate) answer is
   * returned as it is.
   * @throws the library's errors for a failed request; TaskCancelledError never (a cancel is a `cancelled` end).
   */
  async call(tool: Tool, args: Record<string, unknown>, opts: { signal?: AbortSignal; observer?: TaskObserver; timeoutMs?: number; onProgress?: (p: RawProgress) => void }): Promise<TaskEnd> {
    // The library's signal bounds the call's local lifetime, so it is aborted only while the
    // `tools/call` itself is under way (a task created late is then cancelled by the library);
    // once a task exists, a cancel is `tasks/cancel` (follow), and the app stopping leaves it running.
    const request = new AbortController();
    const onAbort = (): void => {
      if (!interruptedByApp(opts.signal)) request.abort(opts.signal?.reason);
    };
    if (opts.signal?.aborted) onAbort();
    else opts.signal?.addEventListener('abort', onAbort, { once: true });
    // 2026-07-28: progress of the call on a token of the lane (the SDK's own tokens are its ids).
    const progress = this.lane && opts.onProgress ? this.lane.progressToken(opts.onProgress) : null;
    let execution: ToolExecution<unknown>;
    try {
      execution = await this.session.callTool(tool.name, args as never, {
        declaration: toolDeclarationFromMcpTool(tool),
        task: { preference: 'prefer' },
        signal: request.signal,
        ...(progress ? { metadata: { progressToken: progress.token }, resetTimeoutOnProgress: true } : {}),
        ...(opts.timeoutMs !== undefined ? { requestTimeoutMs: opts.timeoutMs } : {}),
      });
    } finally {
      opts.signal?.removeEventListener('abort', onAbort);
      progress?.release();
    }
    return this.follow(execution, opts);
  }

  /**
   * Pick a saved task up again and wait until it settles (as {@link call}).
   * @throws TaskElsewhereError when the reference names another server; TaskLostError when the
   *   server does not know the task any more; the library's errors otherwise.
   */
  async resume(reference: TaskReference, opts: { signal?: AbortSignal; observer?: TaskObserver; timeoutMs?: number }): Promise<TaskEnd> {
    // Guard: a task id is only ever sent to the server that issued it (docs/ARCHITECTURE.md "Tasks").
    if ((reference as { endpointId?: unknown } | null)?.endpointId !== this.session.endpointId) throw new TaskElsewhereError('This task was started on a server at another address.');
    let execution: ToolExecution<unknown>;
    try {
      execution = await this.session.resumeTask(reference, opts.timeoutMs !== undefined ? { requestTimeoutMs: opts.timeoutMs } : {});
    } catch (err) {
      // A JSON-RPC error on the lookup (`tasks/get`): the server does not have the task.
      if (err instanceof Error && typeof (err as { code?: unknown }).code === 'number') throw new TaskLostError(err.message, { cause: err });
      throw err;
    }
    return this.follow(execution, opts);
  }

  private async follow(execution: ToolExecution<unknown>, opts: { signal?: AbortSignal; observer?: TaskObserver }): Promise<TaskEnd> {
    const observer = opts.observer;
    if (execution.kind === 'task') {
      let first: TaskStatus = { kind: 'working', message: null };
      try {
        first = statusOf(await this.session.task(execution.handle.taskId).snapshot());
      } catch {
        // The first status arrives with the updates.
      }
      observer?.created({ reference: execution.serializeReference(), status: first, cancel: () => execution.cancel() });
    }
    const onAbort = (): void => {
      // The app stopping leaves the task running (it is picked up again at the next start).
      if (interruptedByApp(opts.signal)) return;
      if (execution.kind === 'task') void execution.cancel().catch(() => undefined);
    };
    if (opts.signal?.aborted) onAbort();
    else opts.signal?.addEventListener('abort', onAbort, { once: true });
    let last: TaskStatus | null = null;
    const seen = (status: TaskStatus): void => {
      if (last && last.kind === status.kind && last.message === status.message) return;
      last = status;
      observer?.updated(status);
    };
    // The last status the observer hears is the end's, even when the library saw no task event for it.
    const ended = (end: TaskEnd, task: LibraryTaskView | undefined): TaskEnd => {
      if (execution.kind === 'task') seen(task && task.status === end.kind ? statusOf(task) : { kind: end.kind, message: end.kind === 'failed' ? end.message : (last?.message ?? null) });
      return end;
    };
    // 2025-11-25 `input_required` (Tasks spec 2025-11-25 "Input Required Status"): the server
    // delivers its request (e.g. an elicitation) with a `tasks/result`, which the library's driver
    // sends only once the task is terminal. So once per task the app sends that `tasks/result`
    // itself, with the SDK's generic request and the library's V1 result schema; the request then
    // reaches the user through the client's own handlers (docs/ARCHITECTURE.md "Tasks").
    let drained = false;
    const drain = (taskId: string): void => {
      if (drained || execution.kind !== 'task' || execution.serializeReference().generation !== 'v1') return;
      drained = true;
      void this.client.request({ method: 'tasks/result', params: { taskId } }, TaskResultV1Schema, { timeout: TASK_RESULT_WAIT_MS }).catch(() => undefined);
    };
    try {
      const { outcome } = await execution.settle({
        onEvent: (event: TaskExecutionEvent<unknown>) => {
          if (event.type !== 'task') return;
          if (event.task.status === 'input_required') drain(event.task.taskId);
          seen(statusOf(event.task));
        },
      });
      // The session closed under the task (the server went away, or the app stops): the task goes
      // on on the server, and is not over for the app (a restart picks it up again).
      if (outcome.status === 'failed' && outcome.error.cause instanceof TaskExecutionClosedError) throw new TaskDetached('The connection closed while the task ran; it may still run on the server.', { cause: outcome.error });
      return ended(endOf(outcome), outcome.task);
    } catch (err) {
      if (err instanceof TaskCancelledError) return ended({ kind: 'cancelled' }, undefined);
      throw err;
    } finally {
      opts.signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Release the library's hold on the client (nothing is sent; running tasks go on on the server). */
  async close(): Promise<void> {
    await this.session.close().catch(() => undefined);
  }
}

/** The tool entry's end of a settled outcome. */
function endOf(outcome: TaskOutcome<unknown>): TaskEnd {
  if (outcome.status === 'completed') return { kind: 'completed', result: withoutResultType(outcome.result) };
  if (outcome.status === 'failed') return { kind: 'failed', message: outcome.error.message.slice(0, MAX_MESSAGE) };
  return { kind: 'cancelled' };
}

/** A plain JSON object (client info, capabilities) as the library's JSON type. */
function toJson(value: Record<string, unknown>): Readonly<Record<string, JsonValue>> {
  return JSON.parse(JSON.stringify(value)) as Record<string, JsonValue>;
}

/** A settled call's result as a `CallToolResult`: a 2026-07-28 result's `resultType` discriminator is wire framing, not content. */
function withoutResultType(result: unknown): CallToolResult {
  const { resultType: _framing, ...rest } = result as CallToolResult & { resultType?: unknown };
  return rest as CallToolResult;
}

/** The library's input handler: each request goes to the client's own answerer of its kind. */
function inputHandler(input: TaskInput) {
  return async <R extends ApplicationInputRequest>(request: R, context: { signal?: AbortSignal }): Promise<never> =>
    (await input({ kind: request.kind, params: (request as { params?: unknown }).params }, context.signal ?? new AbortController().signal)) as never;
}
