/**
 * Size limits of tool results (README, "Security"): a result's total size, every block counted
 * (text, images, audio, embedded resources, structured content), is capped, and what was cut is
 * said in a notice block. Pure functions.
 *
 * - {@link capCallResult}: on the MCP wire result, applied by `McpHost.callTool` to every call
 *   (a hard upper bound for everything that reaches the UI or the model).
 * - {@link capContent}: on converted content (`ContentView[]`), for the chat's own, tighter
 *   budgets for the UI and for the model.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { ContentView } from '../../preload/contract/index.js';

/** Largest total size of one tool result as returned by `McpHost.callTool`, in characters. */
export const MAX_CALL_RESULT_CHARS = 16 * 1024 * 1024;

/**
 * Largest total size of one tool result's content sent to the UI (a `tool-end` chat event), in
 * characters, images included (base64): enough for a few screenshots, bounded for the renderer.
 */
export const UI_CONTENT_CHARS = 4 * 1024 * 1024;

/** Size of a block: its text or base64 data, in characters; other fields count as their JSON. */
function blockSize(b: Record<string, unknown>): number {
  if (typeof b.text === 'string') return b.text.length;
  if (typeof b.data === 'string') return b.data.length;
  const res = b.resource as Record<string, unknown> | undefined;
  if (res && typeof res === 'object') return (typeof res.text === 'string' ? res.text.length : 0) + (typeof res.blob === 'string' ? res.blob.length : 0);
  try {
    return (JSON.stringify(b) ?? '').length;
  } catch {
    return Number.MAX_SAFE_INTEGER;
  }
}

function notice(limit: number, cut: number): string {
  return `[… the tool result was over the size limit of ${limit} characters: ${cut} characters were not shown]`;
}

function placeholder(what: string, size: number): string {
  return `[${what} of ${size} characters not shown: the tool result is over the size limit]`;
}

/**
 * Cap a wire `CallToolResult` at `limit` characters in total (see {@link blockSize}). Blocks are
 * kept in order while they fit; a text block that does not fit is cut, any other block that does
 * not fit becomes a short text placeholder; `structuredContent` is dropped when it does not fit in
 * what is left. A notice block is appended when anything was cut. Returns `result` itself when it
 * fits. Never throws.
 */
export function capCallResult(result: CallToolResult, limit = MAX_CALL_RESULT_CHARS): CallToolResult {
  const blocks = Array.isArray(result.content) ? (result.content as Array<Record<string, unknown>>) : [];
  let structuredSize = 0;
  if (result.structuredContent !== undefined) {
    try {
      structuredSize = (JSON.stringify(result.structuredContent) ?? '').length;
    } catch {
      structuredSize = Number.MAX_SAFE_INTEGER;
    }
  }
  const sizes = blocks.map((b) => (typeof b === 'object' && b !== null ? blockSize(b) : 0));
  const total = sizes.reduce((a, b) => a + b, 0) + structuredSize;
  if (total <= limit) return result;
  let left = limit;
  let cut = 0;
  const content: Array<Record<string, unknown>> = [];
  blocks.forEach((b, i) => {
    const size = sizes[i]!;
    if (size <= left) {
      content.push(b);
      left -= size;
      return;
    }
    cut += size - (b.type === 'text' ? left : 0);
    if (b.type === 'text' && typeof b.text === 'string') {
      content.push({ ...b, text: b.text.slice(0, left) });
      left = 0;
      return;
    }
    content.push({ type: 'text', text: placeholder(typeof b.type === 'string' ? `${b.type.slice(0, 32)} block` : 'block', size) });
  });
  const out: CallToolResult = { ...result, content: content as CallToolResult['content'] };
  if (result.structuredContent !== undefined) {
    if (structuredSize <= left) left -= structuredSize;
    else {
      delete out.structuredContent;
      cut += structuredSize;
    }
  }
  (out.content as Array<Record<string, unknown>>).push({ type: 'text', text: notice(limit, cut) });
  return out;
}

/**
 * Cap converted content at `limit` characters in total (text length plus image data length).
 * Same rules as {@link capCallResult}: text is cut, an image that does not fit becomes a short
 * placeholder, and a notice block says how much was not shown. Returns `content` itself when it
 * fits. For the chat's UI and model budgets.
 * @param opts.images `'count'` (default): images count with their base64 length and are cut like
 *   any block; `'pass'`: images are kept and not counted — for the model, whose images have their
 *   own byte budgets (main/chat/model-context.ts `fitImagesForModel`).
 */
export function capContent(content: ContentView[], limit: number, opts: { images?: 'count' | 'pass' } = {}): ContentView[] {
  const pass = opts.images === 'pass';
  const size = (c: ContentView): number => (c.type === 'text' ? c.text.length : pass ? 0 : c.data.length);
  const total = content.reduce((a, c) => a + size(c), 0);
  if (total <= limit) return content;
  let left = limit;
  let cut = 0;
  const out: ContentView[] = [];
  for (const c of content) {
    const s = size(c);
    if (s <= left) {
      out.push(c);
      left -= s;
    } else if (c.type === 'text') {
      out.push({ type: 'text', text: c.text.slice(0, left) });
      cut += s - left;
      left = 0;
    } else {
      out.push({ type: 'text', text: placeholder(`image (${c.mimeType.slice(0, 64)})`, s) });
      cut += s;
    }
  }
  out.push({ type: 'text', text: notice(limit, cut) });
  return out;
}
