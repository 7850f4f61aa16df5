/**
 * A picked-up task's tool entry (MCP Tasks; docs/ARCHITECTURE.md "Tasks"): after the app
 * restarted, the run that made a task-backed call is gone, so the task service writes the task's
 * status — and, when it ends, its result — onto the call's saved entry here, then announces the
 * entry (`chat.event`) as a run would. Saved first, then announced.
 */
import type { ChatEvent, ConversationSummary, ToolTask, TranscriptItem } from '../../preload/contract/index.js';
import { contentToText, convertCallResult } from '../mcp/adapter.js';
import type { TaskEnd } from '../mcp/tasks/session.js';
import type { ConversationStore } from './conversations/store.js';
import { itemForUi, limitContent, MODEL_RESULT_LIMIT, truncateText } from './limits.js';
import { toolErrorEnd } from './tool-end.js';

type ToolItem = Extract<TranscriptItem, { kind: 'tool' }>;

/** Where the entry writer announces: the chat event, and the conversation's new summary. */
export interface TaskEntryEvents {
  chat(e: ChatEvent): void;
  changed(summary: Omit<ConversationSummary, 'running'>): void;
}

/**
 * Build the writer: `(conversation, entry, task, end)` saves `task` on the tool entry (a call
 * still running only) and, with an `end`, its outcome — the result as the model will read it
 * (text cut to `MODEL_RESULT_LIMIT`), the server's reason for a failed or lost task, or the
 * cancel. Nothing for an entry that is gone or no longer running.
 */
export function taskEntryWriter(store: ConversationStore, events: TaskEntryEvents, now: () => number = Date.now) {
  return (conversationId: string, itemId: string, task: ToolTask, end: TaskEnd | { kind: 'lost'; message: string } | null): void => {
    const item = store.item(conversationId, itemId);
    if (!item || item.kind !== 'tool' || item.state !== 'running') return;
    let next: ToolItem = { ...item, task };
    if (end) {
      const duration_ms = Math.max(0, now() - item.ts);
      if (end.kind === 'completed') {
        const converted = convertCallResult(end.result);
        const content = limitContent(converted.content, MODEL_RESULT_LIMIT);
        const said = contentToText(converted.content);
        next = converted.isError
          ? { ...next, state: 'error', content, error: truncateText(said || 'The tool reported an error.', MODEL_RESULT_LIMIT), end: toolErrorEnd(said), duration_ms, progress: null }
          : { ...next, state: 'ok', content, error: null, duration_ms, progress: null };
      } else if (end.kind === 'cancelled') {
        next = { ...next, state: 'cancelled', error: 'Cancelled: the task was cancelled.', end: { code: 'cancelled', by: 'task' }, duration_ms, progress: null };
      } else {
        // A failed task's message is its server's words; a lost one's is the app's (the window words it).
        const why = end.kind === 'lost' ? ({ code: 'failed', why: 'task_lost' } as const) : toolErrorEnd(end.message);
        next = { ...next, state: 'error', error: truncateText(end.message || 'The task failed.', MODEL_RESULT_LIMIT), end: why, duration_ms, progress: null };
      }
    }
    store.update(conversationId, next);
    events.chat({ conversation_id: conversationId, run_id: next.run_id, type: 'item', item: itemForUi(next) });
    const summary = store.summary(conversationId);
    if (summary) events.changed(summary);
  };
}
