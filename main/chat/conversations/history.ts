/**
 * The model's context from a saved transcript (pure): user messages, answers (partial ones of
 * stopped or failed runs too), and every tool call with its outcome — an interrupted or cancelled
 * call is told to the model as such, so a call that may have had side effects is never forgotten.
 * Notices are for the user only. See docs/ARCHITECTURE.md "Conversations".
 */
import type { AssistantModelMessage, ModelMessage, ToolResultPart } from 'ai';
import type { ContentView, TranscriptItem } from '../../../preload/contract/index.js';
import { contentToText } from '../../mcp/adapter.js';
import { capContent } from '../../mcp/result-limits.js';
import { contentForModel, MODEL_CONTENT_CHARS } from '../limits.js';
import { fitImagesForModel, type ImagePolicy } from '../model-context.js';
import { userItemToMessages } from '../context/to-model.js';
import { APPROVAL_INTERRUPTED_RESULT } from '../interruption.js';

/** What the model is told about a call whose result never came because the app stopped. */
export const INTERRUPTED_RESULT = 'Interrupted: the app stopped before this call returned a result. The call may or may not have taken effect.';
/** What the model is told about a task-backed call whose task still runs (its result is not in yet). */
export const TASK_RUNNING_RESULT = 'Still running as a task on the server: its result is not in yet. It will be shown to the user when it arrives.';
/** What the model is told about a call the user cancelled. */
export const CANCELLED_RESULT = 'Cancelled by the user.';

type ToolOutput = ToolResultPart['output'];

/** A tool's content as the model receives it: text alone, or text and images as content parts. */
export function contentToModelOutput(content: ContentView[]): ToolOutput {
  if (content.every((c) => c.type === 'text')) return { type: 'text', value: contentToText(content) };
  return {
    type: 'content',
    value: content.map((c) => (c.type === 'text' ? { type: 'text' as const, text: c.text } : { type: 'file-data' as const, data: c.data, mediaType: c.mimeType })),
  };
}

/** Saved tool results of earlier turns carry no follow-up images: those the provider takes only as messages become notes. */
function earlierTurnPolicy(p: ImagePolicy): ImagePolicy {
  return p.imagesInToolResults ? p : { ...p, acceptsImages: false };
}

function toolOutput(item: Extract<TranscriptItem, { kind: 'tool' }>, images: ImagePolicy | undefined): ToolOutput {
  switch (item.state) {
    case 'ok':
      return images ? fitImagesForModel(contentForModel(item.content), earlierTurnPolicy(images)).output : contentToModelOutput(capContent(contentForModel(item.content), MODEL_CONTENT_CHARS));
    case 'error':
      return { type: 'error-text', value: item.error ?? (contentToText(item.content) || 'The tool reported an error.') };
    case 'cancelled':
      return { type: 'error-text', value: item.error ?? CANCELLED_RESULT };
    case 'denied':
      return { type: 'error-text', value: item.error ?? 'Denied by the user.' };
    case 'awaiting_approval':
      return { type: 'error-text', value: 'Not run: it was never approved.' };
    case 'approval_interrupted':
      return { type: 'error-text', value: APPROVAL_INTERRUPTED_RESULT };
    case 'running':
      // A task the app picked up again after a restart is still running on the server (docs/ARCHITECTURE.md "Tasks").
      if (item.task) return { type: 'error-text', value: TASK_RUNNING_RESULT };
      return { type: 'error-text', value: INTERRUPTED_RESULT };
    case 'interrupted':
      return { type: 'error-text', value: INTERRUPTED_RESULT };
  }
}

/**
 * Build the model messages for a transcript. Consecutive tool calls after an answer belong to that
 * answer's step (one assistant message with text and tool calls, then one tool message with their
 * results), the way the AI SDK recorded them. With `images`, tool images are fitted to the model
 * (`fitImagesForModel`): never base64 as text.
 */
export function transcriptToMessages(items: readonly TranscriptItem[], images?: ImagePolicy): ModelMessage[] {
  const out: ModelMessage[] = [];
  let assistant: Exclude<AssistantModelMessage['content'], string> | null = null;
  let results: ToolResultPart[] = [];
  const close = (): void => {
    if (assistant && assistant.length) out.push({ role: 'assistant', content: assistant });
    if (results.length) out.push({ role: 'tool', content: results });
    assistant = null;
    results = [];
  };
  for (const item of items) {
    switch (item.kind) {
      case 'user':
        close();
        out.push(...userItemToMessages(item, images?.acceptsImages ?? false));
        break;
      case 'assistant':
        if (results.length) close();
        assistant ??= [];
        if (item.text) assistant.push({ type: 'text', text: item.text });
        break;
      case 'tool':
        assistant ??= [];
        assistant.push({ type: 'tool-call', toolCallId: item.call_id, toolName: item.tool, input: item.args ?? {} });
        results.push({ type: 'tool-result', toolCallId: item.call_id, toolName: item.tool, output: toolOutput(item, images) });
        break;
      case 'notice':
        break;
    }
  }
  close();
  return out;
}
