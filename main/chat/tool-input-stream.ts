/**
 * A tool call's input while the model still writes it, for the tools that have an MCP App view:
 * the AI SDK's `tool-input-start` / `tool-input-delta` / `tool-input-end` stream parts become
 * `tool-input` chat events carrying the object parsed so far, so the window can show the view
 * before the call runs and pass it `ui/notifications/tool-input-partial` (ext-apps spec
 * "Notifications (Host → View)"). Throttled per call, capped in size, never saved — the call's
 * `tool` entry, which follows, holds the final input. See docs/ARCHITECTURE.md "MCP Apps".
 */
import { parsePartialJson } from 'ai';
import type { ToolInputEvent } from '../../preload/contract/index.js';
import { boundDepth } from '../mcp/nesting.js';

/** Least time between two `tool-input` events of one call, in ms (the last one is always sent). */
export const PARTIAL_INPUT_INTERVAL_MS = 100;
/** Input text longer than this (characters of JSON) is no longer announced for that call. */
export const MAX_PARTIAL_INPUT_CHARS = 256 * 1024;

/** Where a tool that has an MCP App view lives. */
export interface ViewToolRef {
  server: string;
  original_name: string;
}

/** What a {@link ToolInputStream} needs. */
export interface ToolInputStreamOptions {
  conversationId: string;
  runId: string;
  /** The tool offered under this namespaced name, when it declares an MCP App view; else null. */
  viewTool(name: string): ViewToolRef | null;
  /** Whether the call's `tool` entry exists already (its input is then complete: nothing more is sent). */
  started(callId: string): boolean;
  emit(e: ToolInputEvent): void;
  /** Clock in ms (tests). */
  now?: () => number;
  intervalMs?: number;
  maxChars?: number;
}

/** One call whose input is streaming. */
interface StreamingCall {
  tool: string;
  ref: ViewToolRef;
  /** The input text so far ('' once it grew past the cap). */
  text: string;
  over: boolean;
  /** When the last parse for an event began (ms, `now()`). */
  lastAt: number;
  /** Parses begun and the newest one whose event was decided, so a late parse never wins. */
  parses: number;
  decided: number;
  /** JSON of the last announced `args` (no event repeats it). */
  sentJson: string | null;
}

/**
 * The streaming inputs of one run's tool calls. Feed it the stream's parts in order; each method
 * resolves once its event (if any) was emitted. Calls of tools without a view are ignored.
 */
export class ToolInputStream {
  private readonly calls = new Map<string, StreamingCall>();
  private readonly now: () => number;
  private readonly intervalMs: number;
  private readonly maxChars: number;

  constructor(private readonly opts: ToolInputStreamOptions) {
    this.now = opts.now ?? (() => performance.now());
    this.intervalMs = opts.intervalMs ?? PARTIAL_INPUT_INTERVAL_MS;
    this.maxChars = opts.maxChars ?? MAX_PARTIAL_INPUT_CHARS;
  }

  /** A call's input begins (`tool-input-start`); `toolName` is the namespaced name. */
  start(id: string, toolName: string): void {
    const ref = this.opts.viewTool(toolName);
    if (!ref) return;
    this.calls.set(id, { tool: toolName, ref, text: '', over: false, lastAt: Number.NEGATIVE_INFINITY, parses: 0, decided: 0, sentJson: null });
  }

  /** More input text (`tool-input-delta`): announced unless one was within the interval. */
  async delta(id: string, delta: string): Promise<void> {
    const c = this.calls.get(id);
    if (!c || c.over) return;
    if (c.text.length + delta.length > this.maxChars) {
      c.over = true;
      c.text = '';
      return;
    }
    c.text += delta;
    const now = this.now();
    if (now - c.lastAt < this.intervalMs) return;
    c.lastAt = now;
    await this.announce(id, c);
  }

  /** The input is complete (`tool-input-end`): the last state is announced, then the call is forgotten. */
  async end(id: string): Promise<void> {
    const c = this.calls.get(id);
    if (!c) return;
    this.calls.delete(id);
    if (!c.over) await this.announce(id, c);
  }

  /** Parse the text so far and emit it when it is an object that differs from the last one sent. */
  private async announce(id: string, c: StreamingCall): Promise<void> {
    const seq = ++c.parses;
    // Bounded in nesting depth like the final input (../mcp/nesting.ts): it is encoded below and sent.
    const value = boundDepth((await parsePartialJson(c.text)).value);
    // A parse that finished after a newer one was decided is stale.
    if (seq < c.decided) return;
    c.decided = seq;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
    if (this.opts.started(id)) return;
    const json = JSON.stringify(value);
    if (json === c.sentJson) return;
    c.sentJson = json;
    this.opts.emit({
      conversation_id: this.opts.conversationId,
      run_id: this.opts.runId,
      type: 'tool-input',
      call_id: id,
      tool: c.tool,
      server: c.ref.server,
      original_name: c.ref.original_name,
      args: value as Record<string, unknown>,
    });
  }
}
