/**
 * The run recorder: turns what happens in one run (streamed text, tool calls starting and ending,
 * the run's end) into saved transcript entries and the matching `chat.event`s, in that order —
 * saved first, then announced — so a window that reloads sees what was shown, and a run that is
 * stopped, fails or is killed keeps what already happened. See docs/ARCHITECTURE.md "Conversations".
 */
import { isTaskActive, type AnswerState, type ChatEvent, type ContentView, type PermissionRecord, type ToolEnd, type ToolProgress, type ToolTask, type TranscriptItem } from '../../preload/contract/index.js';
import { newItemId, type ConversationStore } from './conversations/store.js';
import { itemForUi, limitContent, MODEL_RESULT_LIMIT, truncateText } from './limits.js';

type AssistantItem = Extract<TranscriptItem, { kind: 'assistant' }>;
type ToolItem = Extract<TranscriptItem, { kind: 'tool' }>;
type NoticeItem = Extract<TranscriptItem, { kind: 'notice' }>;

/** Records one run of one conversation. */
/** Largest `structuredContent` saved with a tool entry (for its MCP App view), as JSON characters. */
export const MAX_STRUCTURED_CHARS = 256 * 1024;

/** Whether a result's structured content is saved: present and at most `MAX_STRUCTURED_CHARS`. */
function keepStructured(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  try {
    return JSON.stringify(value).length <= MAX_STRUCTURED_CHARS;
  } catch {
    return false;
  }
}

export class RunRecorder {
  private answer: AssistantItem | null = null;
  private readonly tools = new Map<string, ToolItem>();

  constructor(
    private readonly store: ConversationStore,
    readonly conversationId: string,
    readonly runId: string,
    private readonly emit: (e: ChatEvent) => void,
    private readonly now: () => number = Date.now,
  ) {}

  private announce(item: TranscriptItem): void {
    this.emit({ conversation_id: this.conversationId, run_id: this.runId, type: 'item', item: itemForUi(item) });
  }

  private add(item: TranscriptItem): void {
    this.store.append(this.conversationId, item);
    this.announce(item);
  }

  private replace(item: TranscriptItem): void {
    this.store.update(this.conversationId, item);
    this.announce(item);
  }

  /** Append streamed answer text (a new answer entry starts after a tool call or a new step). */
  text(delta: string): void {
    if (!delta) return;
    if (!this.answer) {
      this.answer = { kind: 'assistant', id: newItemId(), ts: this.now(), run_id: this.runId, text: '', state: 'streaming' };
      this.add(this.answer);
    }
    this.answer = { ...this.answer, text: this.answer.text + delta };
    this.store.updateLater(this.conversationId, this.answer);
    this.emit({ conversation_id: this.conversationId, run_id: this.runId, type: 'text-delta', item_id: this.answer.id, text: delta });
  }

  /** The current answer entry ends (a step ended, a tool call begins, or the run ends). */
  endAnswer(state: AnswerState = 'done'): void {
    if (!this.answer) return;
    this.replace({ ...this.answer, state });
    this.answer = null;
  }

  /** A tool call starts: it waits for the permissions (`awaiting_approval`) or runs at once. */
  toolStart(call: { call_id: string; tool: string; server: string; original_name: string; args: unknown }, state: 'awaiting_approval' | 'running' = 'running'): void {
    this.endAnswer();
    const item: ToolItem = { kind: 'tool', id: newItemId(), ts: this.now(), run_id: this.runId, ...call, state, content: [], error: null, duration_ms: null, progress: null, permission: null };
    this.tools.set(call.call_id, item);
    this.add(item);
  }

  /** Whether a tool call of this run has its entry already. */
  hasTool(callId: string): boolean {
    return this.tools.has(callId);
  }

  /** The permissions allowed the call; it runs now (the decision is recorded with it). */
  toolRunning(callId: string, permission: PermissionRecord): void {
    const item = this.tools.get(callId);
    if (!item || item.state !== 'awaiting_approval') return;
    const next: ToolItem = { ...item, state: 'running', permission };
    this.tools.set(callId, next);
    this.replace(next);
  }

  /** Progress of a running call (shown, saved with the entry). */
  toolProgress(callId: string, progress: ToolProgress): void {
    const item = this.tools.get(callId);
    if (!item || item.state !== 'running') return;
    const next = { ...item, progress };
    this.tools.set(callId, next);
    this.store.updateLater(this.conversationId, next);
    this.announce(next);
  }

  /** The entry id of a tool call of this run, or null. */
  toolItemId(callId: string): string | null {
    return this.tools.get(callId)?.id ?? null;
  }

  /** The task of a running call (MCP Tasks) was created or changed (saved with the entry, shown). */
  toolTask(callId: string, task: ToolTask): void {
    const item = this.tools.get(callId);
    if (!item || item.state !== 'running') return;
    const next: ToolItem = { ...item, task };
    this.tools.set(callId, next);
    this.replace(next);
  }

  /**
   * A tool call ended (or was refused before it ran: `denied`, with the permission record).
   * Content is saved as the model receives it (text cut to `MODEL_RESULT_LIMIT`).
   */
  toolEnd(
    callId: string,
    outcome: { state: 'ok' | 'error' | 'denied' | 'cancelled' | 'interrupted' | 'approval_interrupted'; content: ContentView[]; error: string | null; duration_ms: number; structured_content?: unknown; end?: ToolEnd },
    permission?: PermissionRecord,
  ): void {
    const item = this.tools.get(callId);
    if (!item || (item.state !== 'running' && item.state !== 'awaiting_approval')) return;
    const next: ToolItem = {
      ...item,
      ...(permission ? { permission } : {}),
      state: outcome.state,
      // Saved whole but for long text blocks; the model's share is cut again when it is sent.
      content: limitContent(outcome.content, MODEL_RESULT_LIMIT),
      error: outcome.error === null ? null : truncateText(outcome.error, MODEL_RESULT_LIMIT),
      ...(outcome.end ? { end: outcome.end } : {}),
      duration_ms: outcome.duration_ms,
      progress: null,
      ...(keepStructured(outcome.structured_content) ? { structured_content: outcome.structured_content } : {}),
    };
    this.tools.set(callId, next);
    this.replace(next);
  }

  /** A notice for the user (not sent to the model), with the structured note the window words, if any. */
  notice(tone: 'info' | 'error', text: string, note: Pick<NoticeItem, 'run_tools' | 'context_overflow' | 'run_end' | 'model_error' | 'context_fit'> = {}): void {
    this.add({ kind: 'notice', id: newItemId(), ts: this.now(), run_id: this.runId, tone, text, ...note });
  }

  /**
   * The run ended: the open answer gets its final state; calls still running are cancelled when
   * the run was stopped (their own cancellation normally gets there first). When the app ended the
   * run (`interrupted`: shutdown or restart), a running call is `interrupted` (it may have taken
   * effect) and one waiting for approval `approval_interrupted` (it never ran) — but with
   * `keepTasks`, a running call whose task still runs stays running, to be picked up at the next start.
   */
  finish(outcome: 'done' | 'stopped' | 'failed' | 'interrupted', opts: { keepTasks?: boolean } = {}): void {
    this.endAnswer(outcome === 'done' ? 'done' : outcome);
    if (outcome === 'done') return;
    for (const item of this.tools.values()) {
      if (opts.keepTasks && item.state === 'running' && item.task && isTaskActive(item.task.status)) continue;
      const duration_ms = Math.max(0, this.now() - item.ts);
      if (outcome === 'interrupted' && item.state === 'awaiting_approval') this.toolEnd(item.call_id, { state: 'approval_interrupted', content: [], error: null, duration_ms });
      else if (outcome === 'interrupted' && item.state === 'running') this.toolEnd(item.call_id, { state: 'interrupted', content: [], error: null, duration_ms });
      else if (item.state === 'running' || item.state === 'awaiting_approval') this.toolEnd(item.call_id, { state: 'cancelled', content: [], error: 'Cancelled: the run was stopped.', duration_ms, end: { code: 'cancelled', by: 'run' } });
    }
  }
}
