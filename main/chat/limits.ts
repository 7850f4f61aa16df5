/**
 * Size limits of tool results in the chat (pure): what the model receives and what the window
 * shows, each cut with a visible notice. See docs/ARCHITECTURE.md "Conversations".
 */
import type { ContentView, TranscriptItem } from '../../preload/contract/index.js';

/** Tool-result text sent to the model (and saved) is cut to this many characters, with a notice. */
export const MODEL_RESULT_LIMIT = 100_000;
/** Tool-result text sent to the window is cut to this many characters, with a notice. */
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
 * A transcript entry as the window receives it (tool results cut to `UI_RESULT_LIMIT`). Returns
 * the same object when nothing needs cutting.
 */
export function itemForUi(item: TranscriptItem): TranscriptItem {
  if (item.kind !== 'tool') return item;
  const long = (t: string): boolean => t.length > UI_RESULT_LIMIT;
  if (!item.content.some((c) => c.type === 'text' && long(c.text)) && !(item.error !== null && long(item.error))) return item;
  return { ...item, content: limitContent(item.content, UI_RESULT_LIMIT), error: item.error === null ? null : truncateText(item.error, UI_RESULT_LIMIT) };
}
