/**
 * The agent loop: the model ↔ MCP tools until the model answers (bounded steps), one run at a time
 * per conversation (several conversations may run at once). The model's context is built from the
 * saved transcript; everything a run does is recorded as it happens (RunRecorder). Uses the AI
 * SDK's `streamText` for model calls and tool-call plumbing; tool execution goes through the host
 * (namespaced name → server + real name). See docs/ARCHITECTURE.md "The path of a tool call".
 */
import { randomUUID } from 'node:crypto';
import { dynamicTool, jsonSchema, stepCountIs, streamText, type LanguageModel, type ModelMessage, type ToolSet } from 'ai';
import type { ChatEvent, ContentView, ConversationSummary, TranscriptItem } from '../../preload/contract/index.js';
import { contentToText, convertCallResult } from '../mcp/adapter.js';
import type { McpHost } from '../mcp/host.js';
import { contentToModelOutput, transcriptToMessages, CANCELLED_RESULT } from './conversations/history.js';
import { newItemId, type ConversationStore } from './conversations/store.js';
import { limitContent, MODEL_RESULT_LIMIT, truncateText } from './limits.js';
import { createModel } from './providers.js';
import { RunRecorder } from './run-recorder.js';
import type { SettingsStore } from './settings.js';

export { MODEL_RESULT_LIMIT, UI_RESULT_LIMIT, truncateText } from './limits.js';

/** Most model steps (model turns) in one run. */
export const MAX_STEPS = 12;

/** Thrown when chat is used before a model is configured. */
export class NotConfiguredError extends Error {
  override name = 'NotConfiguredError';
}

/** Thrown when a conversation already has a run (one turn at a time per conversation). */
export class ConversationBusyError extends Error {
  override name = 'ConversationBusyError';
  constructor() {
    super('This conversation is still answering. Wait for it to finish or press Stop, then send again.');
  }
}

/** Thrown when an edit names a message that is not the conversation's last user message. */
export class NotEditableError extends Error {
  override name = 'NotEditableError';
  constructor() {
    super('Only the last message you sent can be edited.');
  }
}

/** An error raised for a tool result flagged `isError` (same path as a local tool error). */
class ToolResultError extends Error {
  override name = 'ToolResultError';
}

/** Where the chat announces what happens. */
export interface ChatEvents {
  /** Transcript entries and run ends (`chat.event`). */
  chat(e: ChatEvent): void;
  /** A conversation's summary changed (`conversations.changed`). */
  changed(summary: ConversationSummary): void;
}

interface ActiveRun {
  runId: string;
  ctrl: AbortController;
  /** Running tool calls by call id, for cancelling one call alone. */
  calls: Map<string, AbortController>;
  done: Promise<void>;
}

/** Runs of every conversation. One instance per app core. */
export class ChatService {
  /** The active run of each conversation, by conversation id. */
  private readonly runs = new Map<string, ActiveRun>();

  constructor(
    private readonly host: McpHost,
    private readonly settings: SettingsStore,
    private readonly store: ConversationStore,
    private readonly events: ChatEvents,
  ) {}

  /** Whether a conversation has a run now. */
  isRunning(conversationId: string): boolean {
    return this.runs.has(conversationId);
  }

  /** A conversation's summary with its running flag, or null when it does not exist. */
  summary(conversationId: string): ConversationSummary | null {
    const s = this.store.summary(conversationId);
    return s ? { ...s, running: this.isRunning(conversationId) } : null;
  }

  private announceSummary(conversationId: string): void {
    const s = this.summary(conversationId);
    if (s) this.events.changed(s);
  }

  private async model(): Promise<LanguageModel> {
    const s = await this.settings.get();
    if (!s.base_url || !s.model) throw new NotConfiguredError('Configure a model in Settings → Model first.');
    return createModel(s, await this.settings.apiKey());
  }

  private refuseIfBusy(conversationId: string): void {
    if (this.runs.has(conversationId)) throw new ConversationBusyError();
  }

  /**
   * Send a user message: the conversation is created if new (titled after this message), the
   * message is saved, and a run starts. Returns at once.
   * @throws NotConfiguredError when no model is configured; ConversationBusyError while it runs.
   */
  async send(conversationId: string, text: string): Promise<{ run_id: string }> {
    this.refuseIfBusy(conversationId);
    const model = await this.model();
    this.refuseIfBusy(conversationId);
    this.store.ensure(conversationId, text);
    const item: TranscriptItem = { kind: 'user', id: newItemId(), ts: Date.now(), text };
    this.store.append(conversationId, item);
    return this.begin(conversationId, model, (runId) => this.events.chat({ conversation_id: conversationId, run_id: runId, type: 'item', item }));
  }

  /**
   * Replace the text of the last user message, drop everything after it, and run again.
   * @throws NotEditableError when `itemId` is not the last user message; ConversationBusyError;
   *   NotConfiguredError; ConversationNotFoundError.
   */
  async editResend(conversationId: string, itemId: string, text: string): Promise<{ run_id: string }> {
    this.refuseIfBusy(conversationId);
    const model = await this.model();
    const { items } = this.store.get(conversationId);
    const at = lastUserIndex(items);
    const last = items[at];
    if (!last || last.id !== itemId || last.kind !== 'user') throw new NotEditableError();
    this.refuseIfBusy(conversationId);
    const dropped = items.slice(at + 1).map((i) => i.id);
    const edited: TranscriptItem = { ...last, text, ts: Date.now() };
    this.store.removeItems(conversationId, dropped);
    this.store.update(conversationId, edited);
    return this.begin(conversationId, model, (runId) => {
      if (dropped.length) this.events.chat({ conversation_id: conversationId, run_id: runId, type: 'items-removed', item_ids: dropped });
      this.events.chat({ conversation_id: conversationId, run_id: runId, type: 'item', item: edited });
    });
  }

  /**
   * Drop the last answer (everything after the last user message) and run again.
   * @throws NotEditableError when there is no user message; ConversationBusyError;
   *   NotConfiguredError; ConversationNotFoundError.
   */
  async regenerate(conversationId: string): Promise<{ run_id: string }> {
    this.refuseIfBusy(conversationId);
    const model = await this.model();
    const { items } = this.store.get(conversationId);
    const at = lastUserIndex(items);
    if (at < 0) throw new NotEditableError();
    this.refuseIfBusy(conversationId);
    const dropped = items.slice(at + 1).map((i) => i.id);
    this.store.removeItems(conversationId, dropped);
    return this.begin(conversationId, model, (runId) => {
      if (dropped.length) this.events.chat({ conversation_id: conversationId, run_id: runId, type: 'items-removed', item_ids: dropped });
    });
  }

  /** Start a run on the saved transcript; `announce` runs first with the new run id. */
  private begin(conversationId: string, model: LanguageModel, announce: (runId: string) => void): { run_id: string } {
    const runId = randomUUID();
    const history = transcriptToMessages(this.store.get(conversationId).items);
    // The conversation the user works in is the one to reopen at the next start.
    this.store.setLastOpened(conversationId);
    const run: ActiveRun = { runId, ctrl: new AbortController(), calls: new Map(), done: Promise.resolve() };
    this.runs.set(conversationId, run);
    announce(runId);
    this.announceSummary(conversationId);
    const recorder = new RunRecorder(this.store, conversationId, runId, (e) => this.events.chat(e));
    run.done = this.run(run, recorder, model, history).finally(() => {
      this.runs.delete(conversationId);
      this.announceSummary(conversationId);
    });
    return { run_id: runId };
  }

  /** Stop a conversation's run: cancels generation and any running tool call. */
  stop(conversationId: string): { stopped: boolean } {
    const run = this.runs.get(conversationId);
    if (!run) return { stopped: false };
    run.ctrl.abort();
    return { stopped: true };
  }

  /**
   * Cancel one running tool call: the server gets `notifications/cancelled`, the call ends as a
   * tool error ("Cancelled by the user.") and the model continues with that result.
   */
  cancelTool(conversationId: string, callId: string): { cancelled: boolean } {
    const c = this.runs.get(conversationId)?.calls.get(callId);
    if (!c) return { cancelled: false };
    c.abort();
    return { cancelled: true };
  }

  /** Stop a conversation's run and wait until it has ended (its last entries saved). */
  async stopAndWait(conversationId: string): Promise<void> {
    const run = this.runs.get(conversationId);
    if (!run) return;
    run.ctrl.abort();
    await run.done;
  }

  /** Stop every run and wait until each has recorded its end (shutdown). */
  async stopAll(): Promise<void> {
    const runs = [...this.runs.values()];
    for (const r of runs) r.ctrl.abort();
    await Promise.all(runs.map((r) => r.done));
  }

  private buildTools(run: ActiveRun, rec: RunRecorder): ToolSet {
    const tools: ToolSet = {};
    for (const t of this.host.tools()) {
      tools[t.name] = dynamicTool({
        description: t.description,
        inputSchema: jsonSchema(t.input_schema as Parameters<typeof jsonSchema>[0]),
        execute: async (input, { toolCallId, abortSignal }) => {
          const started = performance.now();
          rec.toolStart({ call_id: toolCallId, tool: t.name, server: t.server, original_name: t.original_name, args: input });
          const elapsed = (): number => Math.round(performance.now() - started);
          const own = new AbortController();
          run.calls.set(toolCallId, own);
          let converted;
          try {
            const args = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
            const result = await this.host.callTool(t.name, args, {
              signal: AbortSignal.any([abortSignal ?? run.ctrl.signal, own.signal]),
              onProgress: (p) => rec.toolProgress(toolCallId, p),
            });
            converted = convertCallResult(result);
          } catch (err) {
            const cancelled = run.ctrl.signal.aborted || own.signal.aborted;
            const msg = cancelled ? CANCELLED_RESULT : (err as Error).message;
            rec.toolEnd(toolCallId, { state: cancelled ? 'cancelled' : 'error', content: [], error: msg, duration_ms: elapsed() });
            throw cancelled ? new ToolResultError(msg) : err;
          } finally {
            run.calls.delete(toolCallId);
          }
          if (converted.isError) {
            const msg = contentToText(converted.content) || 'The tool reported an error.';
            rec.toolEnd(toolCallId, { state: 'error', content: converted.content, error: msg, duration_ms: elapsed() });
            throw new ToolResultError(truncateText(msg, MODEL_RESULT_LIMIT));
          }
          rec.toolEnd(toolCallId, { state: 'ok', content: converted.content, error: null, duration_ms: elapsed() });
          return converted.content;
        },
        toModelOutput: ({ output }) => contentToModelOutput(limitContent(output as ContentView[], MODEL_RESULT_LIMIT)),
      });
    }
    return tools;
  }

  private async run(run: ActiveRun, rec: RunRecorder, model: LanguageModel, history: ModelMessage[]): Promise<void> {
    const { ctrl } = run;
    let outcome: 'done' | 'stopped' | 'failed' = 'done';
    let failure: string | null = null;
    try {
      const result = streamText({
        model,
        messages: history,
        tools: this.buildTools(run, rec),
        stopWhen: stepCountIs(MAX_STEPS),
        abortSignal: ctrl.signal,
        maxRetries: 1,
      });
      for await (const part of result.fullStream) {
        if (part.type === 'text-delta') rec.text(part.text);
        else if (part.type === 'start-step') rec.endAnswer();
        else if (part.type === 'error') failure = errorMessage(part.error);
        else if (part.type === 'abort') break;
      }
      if (ctrl.signal.aborted) outcome = 'stopped';
      else if (failure) outcome = 'failed';
    } catch (err) {
      if (ctrl.signal.aborted) outcome = 'stopped';
      else {
        outcome = 'failed';
        failure = errorMessage(err);
      }
    }
    try {
      rec.finish(outcome);
      if (outcome === 'stopped') rec.notice('info', 'Stopped.');
      if (outcome === 'failed') rec.notice('error', failure ?? 'The model request failed.');
    } catch (err) {
      // The database failed (disk full, file removed): the window still learns how the run ended.
      this.events.chat({ conversation_id: rec.conversationId, run_id: run.runId, type: 'item', item: { kind: 'notice', id: newItemId(), ts: Date.now(), run_id: run.runId, tone: 'error', text: `Could not save this conversation: ${errorMessage(err)}` } });
    }
    this.events.chat({ conversation_id: rec.conversationId, run_id: run.runId, type: 'run-end', outcome });
  }
}

/** Index of the last user message, or -1. */
function lastUserIndex(items: readonly TranscriptItem[]): number {
  for (let i = items.length - 1; i >= 0; i--) if (items[i]!.kind === 'user') return i;
  return -1;
}

/** A short, secret-free message for a model error. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) {
    const e = err as Error & { statusCode?: number; url?: string };
    const status = e.statusCode ? ` (HTTP ${e.statusCode})` : '';
    return `${e.message.slice(0, 500)}${status}`;
  }
  return String(err).slice(0, 500);
}
