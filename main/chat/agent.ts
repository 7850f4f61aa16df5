/**
 * The agent loop: the model ↔ MCP tools until the model answers (bounded steps), streamed as
 * `ChatEvent`s. Uses the AI SDK's `streamText` for model calls and tool-call plumbing; tool
 * execution goes through the host (namespaced name → server + real name).
 */
import { randomUUID } from 'node:crypto';
import { dynamicTool, jsonSchema, stepCountIs, streamText, type ModelMessage, type ToolSet } from 'ai';
import type { ChatEvent, ContentView } from '../../preload/contract/index.js';
import { contentToText, convertCallResult } from '../mcp/adapter.js';
import type { McpHost } from '../mcp/host.js';
import { createModel } from './providers.js';
import type { SettingsStore } from './settings.js';

/** Most model steps (model turns) in one run. */
export const MAX_STEPS = 12;
/** Tool-result text sent to the model is cut to this many characters, with a notice. */
export const MODEL_RESULT_LIMIT = 100_000;
/** Tool-result text sent to the UI is cut to this many characters, with a notice. */
export const UI_RESULT_LIMIT = 64 * 1024;

/** Thrown when chat is used before a model is configured. */
export class NotConfiguredError extends Error {
  override name = 'NotConfiguredError';
}

/** Cut a long text and say so. */
export function truncateText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  return `${text.slice(0, limit)}\n[… truncated: ${text.length - limit} more characters not shown]`;
}

function limitContent(content: ContentView[], limit: number): ContentView[] {
  return content.map((c) => (c.type === 'text' ? { type: 'text', text: truncateText(c.text, limit) } : c));
}

/** An error raised for a tool result flagged `isError` (same path as a local tool error). */
class ToolResultError extends Error {
  override name = 'ToolResultError';
}

/** Conversations and runs. One instance per app core. */
export class ChatService {
  private readonly conversations = new Map<string, ModelMessage[]>();
  private readonly runs = new Map<string, AbortController>();
  /** Running tool calls by `${run_id}\u0000${call_id}`, for cancelling one call alone. */
  private readonly calls = new Map<string, AbortController>();

  constructor(
    private readonly host: McpHost,
    private readonly settings: SettingsStore,
    private readonly emit: (e: ChatEvent) => void,
  ) {}

  /**
   * Start a run: append the user's message and stream the answer as events. Returns at once.
   * @throws NotConfiguredError when no model is configured.
   */
  async send(conversationId: string, text: string): Promise<{ run_id: string }> {
    const s = await this.settings.get();
    if (!s.base_url || !s.model) throw new NotConfiguredError('Configure a model in Settings → Model first.');
    const model = createModel(s, await this.settings.apiKey());
    const runId = randomUUID();
    const ctrl = new AbortController();
    this.runs.set(runId, ctrl);
    const history = this.conversations.get(conversationId) ?? [];
    this.conversations.set(conversationId, history);
    history.push({ role: 'user', content: text });
    void this.run(runId, model, history, ctrl).finally(() => this.runs.delete(runId));
    return { run_id: runId };
  }

  /** Stop a run: cancels generation and any running tool call. */
  stop(runId: string): { stopped: boolean } {
    const ctrl = this.runs.get(runId);
    if (!ctrl) return { stopped: false };
    ctrl.abort();
    return { stopped: true };
  }

  /**
   * Cancel one running tool call: the server gets `notifications/cancelled`, the call ends as a
   * tool error ("Cancelled by the user.") and the model continues with that result.
   */
  cancelTool(runId: string, callId: string): { cancelled: boolean } {
    const c = this.calls.get(`${runId}\u0000${callId}`);
    if (!c) return { cancelled: false };
    c.abort();
    return { cancelled: true };
  }

  /** Forget a conversation's history (stops its nothing; runs finish on their own). */
  reset(conversationId: string): void {
    this.conversations.delete(conversationId);
  }

  /** Stop every run (shutdown). */
  stopAll(): void {
    for (const c of this.runs.values()) c.abort();
  }

  private buildTools(runId: string, signal: AbortSignal): ToolSet {
    const tools: ToolSet = {};
    for (const t of this.host.tools()) {
      tools[t.name] = dynamicTool({
        description: t.description,
        inputSchema: jsonSchema(t.input_schema as Parameters<typeof jsonSchema>[0]),
        execute: async (input, { toolCallId, abortSignal }) => {
          const started = performance.now();
          this.emit({ run_id: runId, type: 'tool-start', call_id: toolCallId, tool: t.name, server: t.server, original_name: t.original_name, args: input });
          const end = (ok: boolean, content: ContentView[], error: string | null): void =>
            this.emit({
              run_id: runId,
              type: 'tool-end',
              call_id: toolCallId,
              ok,
              content: limitContent(content, UI_RESULT_LIMIT),
              error: error === null ? null : truncateText(error, UI_RESULT_LIMIT),
              duration_ms: Math.round(performance.now() - started),
            });
          let converted;
          const own = new AbortController();
          const key = `${runId}\u0000${toolCallId}`;
          this.calls.set(key, own);
          try {
            const args = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
            const result = await this.host.callTool(t.name, args, { signal: AbortSignal.any([abortSignal ?? signal, own.signal]) });
            converted = convertCallResult(result);
          } catch (err) {
            const cancelled = signal.aborted || own.signal.aborted;
            const msg = cancelled ? 'Cancelled by the user.' : (err as Error).message;
            end(false, [], msg);
            throw cancelled ? new ToolResultError(msg) : err;
          } finally {
            this.calls.delete(key);
          }
          if (converted.isError) {
            const msg = contentToText(converted.content) || 'The tool reported an error.';
            end(false, converted.content, msg);
            throw new ToolResultError(truncateText(msg, MODEL_RESULT_LIMIT));
          }
          end(true, converted.content, null);
          return converted.content;
        },
        toModelOutput: ({ output }) => {
          const content = limitContent(output as ContentView[], MODEL_RESULT_LIMIT);
          if (content.every((c) => c.type === 'text')) return { type: 'text', value: contentToText(content) };
          return {
            type: 'content',
            value: content.map((c) => (c.type === 'text' ? { type: 'text' as const, text: c.text } : { type: 'file-data' as const, data: c.data, mediaType: c.mimeType })),
          };
        },
      });
    }
    return tools;
  }

  private async run(runId: string, model: ReturnType<typeof createModel>, history: ModelMessage[], ctrl: AbortController): Promise<void> {
    try {
      const result = streamText({
        model,
        messages: history,
        tools: this.buildTools(runId, ctrl.signal),
        stopWhen: stepCountIs(MAX_STEPS),
        abortSignal: ctrl.signal,
        maxRetries: 1,
      });
      let failed: string | null = null;
      for await (const part of result.fullStream) {
        if (part.type === 'text-delta') this.emit({ run_id: runId, type: 'text-delta', text: part.text });
        else if (part.type === 'error') failed = errorMessage(part.error);
        else if (part.type === 'abort') break;
      }
      if (ctrl.signal.aborted) {
        this.emit({ run_id: runId, type: 'aborted' });
        return;
      }
      if (failed) {
        this.emit({ run_id: runId, type: 'error', message: failed });
        return;
      }
      const response = await result.response;
      history.push(...response.messages);
      this.emit({ run_id: runId, type: 'done' });
    } catch (err) {
      if (ctrl.signal.aborted) this.emit({ run_id: runId, type: 'aborted' });
      else this.emit({ run_id: runId, type: 'error', message: errorMessage(err) });
    }
  }
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
