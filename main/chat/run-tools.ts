/**
 * The tools of one run: each MCP tool the host offers becomes an AI SDK tool whose `execute`
 * records the call, asks the permission gate (main decides, at execution time, with the exact
 * arguments), calls the tool the gate approved — on exactly the server instance it was approved
 * on (`McpHost.callResolved`) — and records the outcome. Tool images reach the
 * model only as the profile allows (`fitImagesForModel`). The tools arrive fitted to the
 * provider's schema subset (./schemas/): a strict-mode tool is marked `strict`, and the marker
 * nulls of its arguments are removed before anyone sees them. See docs/ARCHITECTURE.md "The path
 * of a tool call".
 */
import { dynamicTool, jsonSchema, type ToolSet } from 'ai';
import type { ContentView, ToolEnd } from '../../preload/contract/index.js';
import { failedCallEnd, toolErrorEnd } from './tool-end.js';
import { contentToText, convertCallResult } from '../mcp/adapter.js';
import type { McpHost } from '../mcp/host.js';
import { TaskCancelled, TaskDetached } from '../mcp/tasks/session.js';
import type { TaskService } from '../mcp/tasks/service.js';
import { boundDepth } from '../mcp/nesting.js';
import { CANCELLED_RESULT, INTERRUPTED_RESULT, TASK_RUNNING_RESULT } from './conversations/history.js';
import { interruptedByApp } from './interruption.js';
import { contentForModel, MODEL_RESULT_LIMIT, truncateText } from './limits.js';
import { fitImagesForModel, type ImagePolicy, type ModelImage } from './model-context.js';
import type { PermissionGate } from './permissions/gate.js';
import type { RunRecorder } from './run-recorder.js';
import { restoreArguments, type FittedTool } from './schemas/index.js';

/** An error raised for a tool result the model should see as an error (isError, refusal, cancel). */
export class ToolResultError extends Error {
  override name = 'ToolResultError';
}

/** What the tools of one run need. */
export interface RunToolsContext {
  conversationId: string;
  runId: string;
  /** The run's abort signal (Stop). */
  signal: AbortSignal;
  /** Running calls by call id, so one call can be cancelled alone. */
  calls: Map<string, AbortController>;
  recorder: RunRecorder;
  images: ImagePolicy;
  /** Images the provider cannot take inside a tool result, to attach to the next step. */
  followUpImages: ModelImage[];
  /** Follows task-backed calls (MCP Tasks; docs/ARCHITECTURE.md "Tasks"); null = not followed. */
  tasks?: TaskService | null;
}

/** Build the AI SDK tools of one run over `tools` (the host's offered tools, fitted for the provider). */
export function buildRunTools(host: McpHost, gate: PermissionGate, tools: readonly FittedTool[], ctx: RunToolsContext): ToolSet {
  const set: ToolSet = {};
  const rec = ctx.recorder;
  // The AI SDK may convert one result more than once (stream part and step messages): its
  // follow-up images are queued once per call, not once per conversion.
  const queued = new Set<string>();
  for (const t of tools) {
    const tool = dynamicTool({
      description: t.description,
      // The model's input enters here: bounded in nesting depth (../mcp/nesting.ts) before the AI
      // SDK keeps it for the next step, the gate, the recorder or the server sees it.
      inputSchema: jsonSchema(t.input_schema as Parameters<typeof jsonSchema>[0], { validate: (value) => ({ success: true, value: boundDepth(value) }) }),
      execute: async (input, { toolCallId, abortSignal }) => {
        let started = performance.now();
        const elapsed = (): number => Math.round(performance.now() - started);
        const args = restoreArguments((typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>, t.nulls);
        const own = new AbortController();
        const signal = AbortSignal.any([abortSignal ?? ctx.signal, own.signal]);
        ctx.calls.set(toolCallId, own);
        try {
          rec.toolStart({ call_id: toolCallId, tool: t.name, server: t.server, original_name: t.original_name, args }, 'awaiting_approval');
          // The decision is made here, in main, when the call is about to execute.
          const auth = await gate.authorize({ conversation_id: ctx.conversationId, run_id: ctx.runId, call_id: toolCallId, tool: t, args, signal });
          if (!auth.allowed && auth.reason === 'interrupted') {
            // The app stopped or restarted while the card waited: nobody answered, and it never ran.
            rec.toolEnd(toolCallId, { state: 'approval_interrupted', content: [], error: null, duration_ms: elapsed() }, { allowed: false, via: auth.reason, decision: null });
            throw new ToolResultError(auth.message);
          }
          if (!auth.allowed) {
            const cancelled = auth.reason === 'cancelled' && (ctx.signal.aborted || own.signal.aborted);
            const end: ToolEnd = cancelled ? { code: 'cancelled', by: own.signal.aborted ? 'user' : 'run' } : { code: 'refused', via: auth.reason, reason: auth.said ?? null };
            rec.toolEnd(toolCallId, { state: cancelled ? 'cancelled' : 'denied', content: [], error: cancelled ? CANCELLED_RESULT : auth.message, duration_ms: elapsed(), end }, { allowed: false, via: auth.reason, decision: auth.decision });
            throw new ToolResultError(cancelled ? CANCELLED_RESULT : auth.message);
          }
          // A choice the user made that could not be remembered is recorded with the call, never dropped.
          const warning = auth.via === 'user' ? auth.warning : null;
          const notSaved = auth.via === 'user' ? auth.not_saved : [];
          rec.toolRunning(toolCallId, { allowed: true, via: auth.via, decision: auth.decision, ...(warning ? { warning } : {}), ...(notSaved.length ? { not_saved: notSaved } : {}) });
          // The duration shown is the call's own, not the time the approval waited for the user.
          started = performance.now();
          let converted;
          let structured: unknown;
          // A task-backed call's task is followed (saved, its statuses shown on the entry).
          const itemId = rec.toolItemId(toolCallId);
          const task =
            ctx.tasks && itemId
              ? ctx.tasks.observe(
                  { conversation_id: ctx.conversationId, run_id: ctx.runId, call_id: toolCallId, item_id: itemId, server: t.server, tool: t.name, original_name: t.original_name },
                  (tt) => rec.toolTask(toolCallId, tt),
                )
              : undefined;
          try {
            const result = await host.callResolved(auth.resolved, args, { signal, onProgress: (p) => rec.toolProgress(toolCallId, p), trace: `chat:${ctx.runId}:${toolCallId}`, ...(task ? { task } : {}) });
            converted = convertCallResult(result);
            structured = result.structuredContent;
          } catch (err) {
            // The connection closed while the call's task ran (the app stops, or the server went
            // away): the entry stays running with its task, which is picked up again when the
            // server is ready (docs/ARCHITECTURE.md "Tasks").
            if (err instanceof TaskDetached && task) {
              task.detached();
              throw new ToolResultError(TASK_RUNNING_RESULT);
            }
            if (interruptedByApp(signal)) {
              // The app ended the run under the call: it may or may not have taken effect.
              rec.toolEnd(toolCallId, { state: 'interrupted', content: [], error: null, duration_ms: elapsed() });
              throw new ToolResultError(INTERRUPTED_RESULT);
            }
            // A task cancelled from the Tasks list (or by its server) ends cancelled too.
            const cancelled = ctx.signal.aborted || own.signal.aborted || err instanceof TaskCancelled;
            const msg = cancelled ? CANCELLED_RESULT : (err as Error).message;
            const end: ToolEnd = !cancelled ? failedCallEnd(err) : { code: 'cancelled', by: own.signal.aborted ? 'user' : ctx.signal.aborted ? 'run' : 'task' };
            rec.toolEnd(toolCallId, { state: cancelled ? 'cancelled' : 'error', content: [], error: msg, duration_ms: elapsed(), end });
            throw cancelled ? new ToolResultError(msg) : err;
          }
          if (converted.isError) {
            const said = contentToText(converted.content);
            const msg = said || 'The tool reported an error.';
            rec.toolEnd(toolCallId, { state: 'error', content: converted.content, error: msg, duration_ms: elapsed(), structured_content: structured, end: toolErrorEnd(said) });
            throw new ToolResultError(truncateText(msg, MODEL_RESULT_LIMIT));
          }
          rec.toolEnd(toolCallId, { state: 'ok', content: converted.content, error: null, duration_ms: elapsed(), structured_content: structured });
          return converted.content;
        } finally {
          ctx.calls.delete(toolCallId);
        }
      },
      toModelOutput: ({ toolCallId, output }) => {
        const fitted = fitImagesForModel(contentForModel(output as ContentView[]), ctx.images);
        if (!queued.has(toolCallId)) {
          queued.add(toolCallId);
          ctx.followUpImages.push(...fitted.followUpImages);
        }
        return fitted.output;
      },
    });
    set[t.name] = t.strict ? { ...tool, strict: true } : tool;
  }
  return set;
}
