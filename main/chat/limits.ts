/**
 * Size limits of tool results in the chat (pure): what the model receives and what the window
 * shows, each cut with a visible notice — per text block, and in total (all blocks, images
 * included; main/mcp/result-limits.ts). See docs/ARCHITECTURE.md "Conversations".
 */
import type { ContentView, TranscriptItem } from '../../preload/contract/index.js';
import { capContent, UI_CONTENT_CHARS } from '../mcp/result-limits.js';

/** Tool-result text sent to the model (and saved) is cut to this many characters per block, with a notice. */
export const MODEL_RESULT_LIMIT = 100_000;
/**
 * A tool result's total text for the model, all text blocks together (characters). Images are not
 * counted here: they have their own byte budgets (./model-context.ts `fitImagesForModel`).
 */
export const MODEL_CONTENT_CHARS = 4 * MODEL_RESULT_LIMIT;
/** Tool-result text sent to the window is cut to this many characters per block, with a notice. */
export const UI_RESULT_LIMIT = 64 * 1024;

/** Cut a long text and say so. */
export function truncateText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  return `${text.slice(0, limit)}\n[… truncated: ${text.length - limit} more characters not shown]`;
}

/** Cut every text block of a result to `limit` characters. */
export function limitContent(content: ContentView[], limit: number): ContentView[] {
  return content.map((c) => (c.type === 'text' ? { type: 'text', text: truncateText(c.text, limit) } : c));
}

/**
 * A result's text as the model receives it: each text block, then all text together, cut with
 * notices. Images pass unchanged: the caller fits them with `fitImagesForModel` (per-image and
 * per-result byte budgets, a note instead of an image that does not fit) — counting their base64
 * here would turn every image over ~300 KB into a placeholder before that budget is consulted.
 */
export function contentForModel(content: ContentView[]): ContentView[] {
  return capContent(limitContent(content, MODEL_RESULT_LIMIT), MODEL_CONTENT_CHARS, { images: 'pass' });
}

/**
 * A transcript entry as the window receives it: tool results cut per block to `UI_RESULT_LIMIT`
 * and in total to `UI_CONTENT_CHARS`. Returns the same object when nothing needs cutting.
 */
export function itemForUi(item: TranscriptItem): TranscriptItem {
  if (item.kind !== 'tool') return item;
  const long = (t: string): boolean => t.length > UI_RESULT_LIMIT;
  const total = item.content.reduce((n, c) => n + (c.type === 'text' ? c.text.length : c.data.length), 0);
  if (!item.content.some((c) => c.type === 'text' && long(c.text)) && total <= UI_CONTENT_CHARS && !(item.error !== null && long(item.error))) return item;
  return {
    ...item,
    content: capContent(limitContent(item.content, UI_RESULT_LIMIT), UI_CONTENT_CHARS),
    error: item.error === null ? null : truncateText(item.error, UI_RESULT_LIMIT),
  };
}
