/**
 * What the model is sent, fitted to the profile (pure functions; the agent loop wires them):
 * - `fitImagesForModel`: a tool's images go to the model as image parts only when the profile's
 *   model accepts images and each image fits a byte budget; otherwise the model gets a short text
 *   note. Base64 never goes to a model as text. (No image library is installed, so an image over
 *   the budget is omitted with a note rather than downscaled.)
 * - `fitToContextWindow`: the request fits the profile's context window: the oldest tool results
 *   are shortened first, then removed, then the oldest turns are dropped, the newest tool result
 *   of the current turn kept whole until nothing else is left to leave out — with a notice saying
 *   what was left out (docs/ARCHITECTURE.md "Context budget").
 */
import type { ModelMessage, ToolResultPart } from 'ai';
import type { ContentView, ContextFitNote } from '../../preload/contract/index.js';
import { textTokens } from '../../preload/contract/rules/index.js';

/** The output of one tool result as the AI SDK sends it to a model. */
export type ModelToolOutput = ToolResultPart['output'];

/** Default largest single image sent to a model (bytes, decoded). */
export const MAX_IMAGE_BYTES = 1_000_000;
/** Default largest total of images in one tool result (bytes, decoded). */
export const MAX_TOTAL_IMAGE_BYTES = 3_000_000;

/** How images may reach the model of a profile. */
export interface ImagePolicy {
  /** The profile's "model accepts images" setting. */
  acceptsImages: boolean;
  /**
   * Whether the provider takes images inside a tool result (Anthropic: yes; OpenAI Chat
   * Completions tool messages: text only). When false, accepted images come back in
   * `followUpImages` for the caller to attach to a user message.
   */
  imagesInToolResults: boolean;
  maxImageBytes?: number;
  maxTotalImageBytes?: number;
}

/** An image to send as its own part (base64 data + IANA media type). */
export interface ModelImage {
  data: string;
  mediaType: string;
}

/** The fitted tool output, images for a follow-up user message, and counts. */
export interface FittedToolOutput {
  output: ModelToolOutput;
  followUpImages: ModelImage[];
  imagesSent: number;
  imagesOmitted: number;
}

/** Decoded size of base64 data in bytes. */
export function base64Bytes(data: string): number {
  const clean = data.replace(/\s+/g, '');
  const pad = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - pad);
}

function kb(bytes: number): string {
  return bytes >= 1_000_000 ? `${(bytes / 1_000_000).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1000))} KB`;
}

/**
 * Turn a tool result's content into what the model gets. Text stays text; each image becomes an
 * image part (or a follow-up image) when allowed and within budget, else a one-line note such as
 * `[image/png, 2.4 MB: not shown to the model (larger than 1.0 MB)]`.
 */
export function fitImagesForModel(content: ContentView[], policy: ImagePolicy): FittedToolOutput {
  const maxOne = policy.maxImageBytes ?? MAX_IMAGE_BYTES;
  const maxAll = policy.maxTotalImageBytes ?? MAX_TOTAL_IMAGE_BYTES;
  const parts: Array<{ type: 'text'; text: string } | { type: 'image-data'; data: string; mediaType: string }> = [];
  const followUpImages: ModelImage[] = [];
  let total = 0;
  let sent = 0;
  let omitted = 0;
  for (const c of content) {
    if (c.type === 'text') {
      parts.push({ type: 'text', text: c.text });
      continue;
    }
    const bytes = base64Bytes(c.data);
    let why: string | null = null;
    if (!policy.acceptsImages) why = 'this model does not accept images';
    else if (!/^image\/(png|jpeg|gif|webp)$/i.test(c.mimeType)) why = 'a type models do not take';
    else if (bytes > maxOne) why = `larger than ${kb(maxOne)}`;
    else if (total + bytes > maxAll) why = `the images of this result exceed ${kb(maxAll)}`;
    if (why) {
      omitted++;
      parts.push({ type: 'text', text: `[${c.mimeType.slice(0, 64)}, ${kb(bytes)}: not shown to the model (${why})]` });
      continue;
    }
    total += bytes;
    sent++;
    if (policy.imagesInToolResults) parts.push({ type: 'image-data', data: c.data, mediaType: c.mimeType });
    else {
      followUpImages.push({ data: c.data, mediaType: c.mimeType });
      parts.push({ type: 'text', text: `[${c.mimeType}, ${kb(bytes)}: attached as image ${followUpImages.length} of the next message]` });
    }
  }
  const output: ModelToolOutput = parts.every((p) => p.type === 'text')
    ? { type: 'text', value: parts.map((p) => (p as { text: string }).text).join('\n') }
    : { type: 'content', value: parts };
  return { output, followUpImages, imagesSent: sent, imagesOmitted: omitted };
}

// ---- context window ----------------------------------------------------------------------------

/** Rough tokens of a text: ~4 characters per token (the shared rule `textTokens`). */
export function estimateTextTokens(text: string): number {
  return textTokens(text.length);
}

/** Tokens counted for one image part (providers charge roughly 1–2k for a typical image). */
export const IMAGE_TOKENS = 1_500;
/** Per-message overhead (role, separators). */
const MESSAGE_TOKENS = 4;

function partTokens(p: unknown): number {
  if (!p || typeof p !== 'object') return 0;
  const part = p as Record<string, unknown>;
  switch (part.type) {
    case 'text':
    case 'reasoning':
      return estimateTextTokens(String(part.text ?? ''));
    case 'image':
    case 'image-data':
    case 'file':
    case 'file-data':
    case 'media':
      return IMAGE_TOKENS;
    case 'tool-call':
      return estimateTextTokens(String(part.toolName ?? '')) + estimateTextTokens(JSON.stringify(part.input ?? null) ?? '');
    case 'tool-result':
      return outputTokens(part.output as ModelToolOutput);
    default:
      return estimateTextTokens(JSON.stringify(part) ?? '');
  }
}

function outputTokens(o: ModelToolOutput | undefined): number {
  if (!o) return 0;
  if (o.type === 'text' || o.type === 'error-text') return estimateTextTokens(o.value);
  if (o.type === 'json' || o.type === 'error-json') return estimateTextTokens(JSON.stringify(o.value) ?? '');
  if (o.type === 'content') return o.value.reduce((n, v) => n + partTokens(v), 0);
  return estimateTextTokens(JSON.stringify(o) ?? '');
}

/** Estimated tokens of a request's messages. */
export function estimateTokens(messages: ModelMessage[]): number {
  let n = 0;
  for (const m of messages) {
    n += MESSAGE_TOKENS;
    n += typeof m.content === 'string' ? estimateTextTokens(m.content) : (m.content as unknown[]).reduce<number>((s, p) => s + partTokens(p), 0);
  }
  return n;
}

/** What fitting left out, for a notice in the transcript. */
export interface ContextNotice {
  shortenedToolResults: number;
  removedToolResults: number;
  removedMessages: number;
  estimatedTokens: number;
  budgetTokens: number;
  /** Still over budget after everything that may be left out was: the request will likely fail. */
  stillTooLong: boolean;
  /** Whether a result of the current turn (after the last user message) had to be shortened or left out too. */
  currentTurn: boolean;
  /** Plain-language summary (English, for exports and logs; the window words {@link contextFitNote}). */
  message: string;
}

/** A fitting's notice as the facts the transcript keeps for the window to word (the contract's `ContextFitNote`). */
export function contextFitNote(n: ContextNotice): ContextFitNote {
  return {
    shortened: n.shortenedToolResults,
    removed: n.removedToolResults,
    dropped_messages: n.removedMessages,
    current_turn: n.currentTurn,
    still_too_long: n.stillTooLong,
    estimated_tokens: n.estimatedTokens,
    budget_tokens: n.budgetTokens,
  };
}

/** Tool-result text kept when a result is shortened (characters). */
export const SHORTENED_RESULT_CHARS = 2_000;

function shortenOutput(o: ModelToolOutput, keep: number): ModelToolOutput {
  const text =
    o.type === 'text' || o.type === 'error-text'
      ? o.value
      : o.type === 'json' || o.type === 'error-json'
        ? (JSON.stringify(o.value) ?? '')
        : o.type === 'content'
          ? o.value.map((v) => (v.type === 'text' ? v.text : `[${'mediaType' in v ? v.mediaType : v.type} removed to fit the context window]`)).join('\n')
          : JSON.stringify(o);
  if (text.length <= keep && o.type !== 'content') return o;
  const cut = text.length > keep ? `${text.slice(0, keep)}\n[… shortened to fit the context window: ${text.length - keep} characters left out]` : text;
  return { type: o.type === 'error-text' || o.type === 'error-json' ? 'error-text' : 'text', value: cut };
}

function mapToolResults(m: ModelMessage, f: (o: ModelToolOutput) => ModelToolOutput): ModelMessage {
  if (m.role !== 'tool') return m;
  return { ...m, content: m.content.map((p) => (p.type === 'tool-result' ? { ...p, output: f(p.output) } : p)) };
}

/**
 * Fit messages into `budgetTokens` (the profile's context window minus what the caller reserves
 * for the answer, the tool definitions and the system prompt). Order of what is left out: older
 * tool results are shortened to `SHORTENED_RESULT_CHARS` (oldest first), then replaced by a
 * one-line note, then the oldest messages are dropped — never the system messages and never the
 * last user message and what follows it. The newest tool result of the current turn (after the
 * last user message: the one just returned) is kept whole through all of that and shortened only
 * when everything else is out and it alone is still too big. A dropped assistant tool call is
 * dropped together with its results, so the history stays valid. `notice.stillTooLong` says the
 * request does not fit even so (the caller must not send it).
 * @returns the fitted messages (new arrays; inputs untouched) and a notice, or null when nothing had to change
 */
export function fitToContextWindow(messages: ModelMessage[], budgetTokens: number): { messages: ModelMessage[]; notice: ContextNotice | null } {
  let msgs = messages.slice();
  if (estimateTokens(msgs) <= budgetTokens) return { messages: msgs, notice: null };
  let lastUser = -1;
  for (let i = msgs.length - 1; i >= 0; i--)
    if (msgs[i]!.role === 'user') {
      lastUser = i;
      break;
    }
  const protectedFrom = lastUser === -1 ? msgs.length : lastUser;
  const toolIdx = msgs.map((m, i) => (m.role === 'tool' ? i : -1)).filter((i) => i >= 0);
  // The result just returned (the newest tool message of the current turn) is kept whole longest.
  const newest = toolIdx.length && toolIdx[toolIdx.length - 1]! >= protectedFrom ? toolIdx[toolIdx.length - 1]! : -1;
  // Older turns' results first, then the current turn's older results.
  const order = [...toolIdx.filter((i) => i < protectedFrom), ...toolIdx.filter((i) => i >= protectedFrom && i !== newest)];
  let shortened = 0;
  let removed = 0;
  // Whether a result of the current turn (after the last user message) had to be touched too.
  let currentTurn = false;
  const shorten = (i: number): void => {
    const before = estimateTokens([msgs[i]!]);
    const next = mapToolResults(msgs[i]!, (o) => shortenOutput(o, SHORTENED_RESULT_CHARS));
    if (estimateTokens([next]) < before) {
      msgs[i] = next;
      shortened++;
      if (i >= protectedFrom) currentTurn = true;
    }
  };
  for (const i of order) {
    if (estimateTokens(msgs) <= budgetTokens) break;
    shorten(i);
  }
  for (const i of order) {
    if (estimateTokens(msgs) <= budgetTokens) break;
    msgs[i] = mapToolResults(msgs[i]!, () => ({ type: 'text', value: '[tool result removed to fit the context window]' }));
    removed++;
    if (i >= protectedFrom) currentTurn = true;
  }
  let dropped = 0;
  while (estimateTokens(msgs) > budgetTokens) {
    // Drop the oldest non-system message before the protected tail (a whole tool exchange at once).
    const i = msgs.findIndex((m, j) => m.role !== 'system' && j < protectedFrom - dropped);
    if (i === -1) break;
    let end = i + 1;
    while (end < msgs.length && msgs[end]!.role === 'tool') end++;
    msgs = [...msgs.slice(0, i), ...msgs.slice(end)];
    dropped += end - i;
  }
  // Last resort: the newest result itself is shortened (its index moved by what was dropped).
  if (newest >= 0 && estimateTokens(msgs) > budgetTokens) shorten(newest - dropped);
  const est = estimateTokens(msgs);
  const still = est > budgetTokens;
  const bits: string[] = [];
  if (shortened) bits.push(`${shortened}${currentTurn ? '' : ' older'} tool result${shortened === 1 ? ' was' : 's were'} shortened`);
  if (removed) bits.push(`${removed} tool result${removed === 1 ? ' was' : 's were'} left out`);
  if (dropped) bits.push(`the ${dropped} oldest message${dropped === 1 ? ' was' : 's were'} left out`);
  const message = still
    ? `This conversation is too long for the model's context window (about ${est} of ${budgetTokens} tokens) even after leaving out older parts. Start a new chat, use fewer tools, or choose a profile with a larger context window.`
    : `To fit the model's context window, ${bits.join(', ')}.`;
  return { messages: msgs, notice: { shortenedToolResults: shortened, removedToolResults: removed, removedMessages: dropped, estimatedTokens: est, budgetTokens, stillTooLong: still, currentTurn, message } };
}
