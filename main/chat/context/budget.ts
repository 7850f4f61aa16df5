/**
 * Fitting prompt messages and resource contents into what a message may carry (pure;
 * docs/ARCHITECTURE.md "Prompts and resources in chat"): text inline within a character budget
 * (cut with a notice), raster images as images within byte budgets, anything else — binary where
 * text was expected, audio, malformed blocks — as a one-line description. Nothing is pasted whole.
 * What was changed is kept as typed notes (`ContextNote`, the window words them) and as one
 * English notice for the model and exports.
 */
import type { ContentView, ContextNote, PromptMessageView, ResourcePartView } from '../../../preload/contract/index.js';
import { base64Bytes, MAX_IMAGE_BYTES, MAX_TOTAL_IMAGE_BYTES } from '../model-context.js';
import { MESSAGE_CONTEXT_CHARS } from '../../../preload/contract/rules/index.js';

/** Text of one attachment (a resource, or all messages of a prompt), in characters. */
export const ATTACHMENT_TEXT_CHARS = 40_000;
/** Text of all attachments of one message together, in characters (a shared rule: the window warns with it). */
export { MESSAGE_CONTEXT_CHARS };
/** Text of a resource shown in the viewer, in characters. */
export const VIEWER_TEXT_CHARS = 200_000;
/** Images of one message's attachments together (decoded bytes); one image: `MAX_IMAGE_BYTES`. */
export const MESSAGE_IMAGE_BYTES = MAX_TOTAL_IMAGE_BYTES;

const RASTER = /^image\/(png|jpeg|gif|webp)$/i;

/** A note of what fitting changed, with the label of the attachment it is about (for the English notice). */
export interface LabelledNote {
  label: string;
  note: ContextNote;
}

/** A budget shared by the blocks of one message: characters of text, bytes of images. */
export class ContextBudget {
  /** What was cut or described instead of included, in order. */
  readonly notes: LabelledNote[] = [];
  constructor(
    private textLeft = MESSAGE_CONTEXT_CHARS,
    private imageBytesLeft = MESSAGE_IMAGE_BYTES,
    readonly maxImageBytes = MAX_IMAGE_BYTES,
  ) {}

  /** Take up to `limit` characters of `text` (and what the message has left); cut with a marker. */
  text(text: string, limit: number): { text: string; cut: number } {
    const keep = Math.max(0, Math.min(limit, this.textLeft));
    this.textLeft -= Math.min(text.length, keep);
    if (text.length <= keep) return { text, cut: 0 };
    const cut = text.length - keep;
    return { text: `${text.slice(0, keep)}\n[… cut: ${cut} more characters not included]`, cut };
  }

  /** Note what fitting changed in the attachment `label`. */
  note(label: string, note: ContextNote): void {
    this.notes.push({ label, note });
  }

  /** Whether an image of `bytes` fits; counts it when it does. */
  image(bytes: number): 'ok' | 'too_large' | 'over_total' {
    if (bytes > this.maxImageBytes) return 'too_large';
    if (bytes > this.imageBytesLeft) return 'over_total';
    this.imageBytesLeft -= bytes;
    return 'ok';
  }
}

function size(bytes: number): string {
  return bytes >= 1_000_000 ? `${(bytes / 1_000_000).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1000))} KB`;
}

/** One note in English, for the notice the model and exports get (`label: what happened`). */
export function noteText({ label, note }: LabelledNote): string {
  switch (note.kind) {
    case 'cut':
      return `${label}: ${note.chars} characters${note.uri ? ` of ${note.uri}` : ''} were cut`;
    case 'described':
      return `${label}: ${note.content_kind} content was described, not included`;
    case 'image_type':
      return `${label}: an image of type ${note.mime} was described, not included`;
    case 'image_left_out':
      return `${label}: an image of ${size(note.bytes)} was left out (${note.why === 'too_large' ? `larger than ${size(note.limit)}` : `the images of this message exceed ${size(note.limit)}`})`;
    case 'binary':
      return `${label}: binary content of ${note.uri ?? 'a part'} was described, not included`;
    case 'no_content':
      return note.uri ? `${label}: ${note.uri} had no readable content` : `${label}: the server returned no content`;
    case 'malformed':
      return `${label}: a malformed block was left out`;
    case 'more_parts':
      return `${label}: ${note.count} more parts were left out`;
    case 'more_messages':
      return `${label}: ${note.count} more messages were left out`;
    case 'no_messages':
      return `${label}: the prompt returned no messages`;
  }
}

/** Bounded display text from server data (one line, ≤ 200 characters). */
export function shortLabel(s: unknown, max = 200): string {
  const t = (typeof s === 'string' ? s : '').replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max)}…` : t;
}

/** Whether a MIME type (or its absence) says the content is text a person can read. */
export function isTextMime(mime: string | null | undefined): boolean {
  if (!mime) return true;
  return /^text\//i.test(mime) || /^(application\/(json|xml|javascript|x-yaml|yaml|toml|x-sh|sql|graphql|ld\+json)|[^;]+\+(json|xml))(;|$)/i.test(mime);
}

/** Decode base64 as UTF-8 when it is text (no NUL, valid UTF-8); else null. */
function decodeTextBlob(blob: string): string | null {
  const buf = Buffer.from(blob, 'base64');
  if (buf.includes(0)) return null;
  const text = new TextDecoder('utf-8', { fatal: false }).decode(buf);
  return text.includes('\uFFFD') ? null : text;
}

/**
 * One block of MCP content (a prompt message's `content`, or one `resources/read` content) as
 * what a message carries. `budget` is shared by the message; `label` names the source in notes.
 */
export function fitBlock(block: unknown, budget: ContextBudget, label: string): ContentView {
  if (typeof block !== 'object' || block === null) {
    budget.note(label, { kind: 'malformed' });
    return { type: 'text', text: `[${label}: malformed content left out]` };
  }
  const b = block as Record<string, unknown>;
  // A `resources/read` content has no `type`; a prompt's embedded resource nests it.
  if (b.type === 'resource' && typeof b.resource === 'object' && b.resource !== null) return fitResourceContents(b.resource, budget, label);
  if (b.type === undefined && typeof b.uri === 'string') return fitResourceContents(b, budget, label);
  if (b.type === 'text' && typeof b.text === 'string') {
    const r = budget.text(b.text, ATTACHMENT_TEXT_CHARS);
    if (r.cut) budget.note(label, { kind: 'cut', chars: r.cut, uri: null });
    return { type: 'text', text: r.text };
  }
  if (b.type === 'image' && typeof b.data === 'string' && typeof b.mimeType === 'string') return fitImage(b.data, b.mimeType, budget, label);
  if (b.type === 'resource_link' && typeof b.uri === 'string') return { type: 'text', text: `[resource link: ${shortLabel(b.uri, 2000)}]` };
  const kind = shortLabel(b.type, 40) || 'unknown';
  const mime = typeof b.mimeType === 'string' ? `, ${shortLabel(b.mimeType, 64)}` : '';
  budget.note(label, { kind: 'described', content_kind: kind });
  return { type: 'text', text: `[${kind} content${mime}: not included]` };
}

function fitImage(data: string, mime: string, budget: ContextBudget, label: string): ContentView {
  const bytes = base64Bytes(data);
  const m = shortLabel(mime, 64);
  if (!RASTER.test(mime) || !/^[A-Za-z0-9+/=\s]*$/.test(data)) {
    budget.note(label, { kind: 'image_type', mime: m });
    return { type: 'text', text: `[image ${m}, ${size(bytes)}: not included (a type models do not take)]` };
  }
  const fit = budget.image(bytes);
  if (fit !== 'ok') {
    const why = fit === 'too_large' ? `larger than ${size(budget.maxImageBytes)}` : `the images of this message exceed ${size(MESSAGE_IMAGE_BYTES)}`;
    budget.note(label, { kind: 'image_left_out', bytes, why: fit, limit: fit === 'too_large' ? budget.maxImageBytes : MESSAGE_IMAGE_BYTES });
    return { type: 'text', text: `[image ${m}, ${size(bytes)}: not included (${why})]` };
  }
  return { type: 'image', data: data.replace(/\s+/g, ''), mimeType: mime.toLowerCase() };
}

/** One `ResourceContents` (text or blob) as message content. */
export function fitResourceContents(res: unknown, budget: ContextBudget, label: string): ContentView {
  const r = (typeof res === 'object' && res !== null ? res : {}) as Record<string, unknown>;
  const uri = shortLabel(r.uri, 2000) || 'unknown';
  const mime = typeof r.mimeType === 'string' ? r.mimeType : null;
  if (typeof r.text === 'string') {
    const t = budget.text(r.text, ATTACHMENT_TEXT_CHARS);
    if (t.cut) budget.note(label, { kind: 'cut', chars: t.cut, uri });
    return { type: 'text', text: `[resource: ${uri}]\n${t.text}` };
  }
  if (typeof r.blob === 'string') {
    if (mime && RASTER.test(mime)) return fitImage(r.blob, mime, budget, label);
    const bytes = base64Bytes(r.blob);
    const asText = isTextMime(mime) && bytes <= 4 * ATTACHMENT_TEXT_CHARS ? decodeTextBlob(r.blob) : null;
    if (asText !== null) return fitResourceContents({ uri: r.uri, mimeType: mime, text: asText }, budget, label);
    budget.note(label, { kind: 'binary', uri });
    return { type: 'text', text: `[resource: ${uri} — binary${mime ? ` ${shortLabel(mime, 64)}` : ''}, ${size(bytes)}: not included]` };
  }
  budget.note(label, { kind: 'no_content', uri });
  return { type: 'text', text: `[resource: ${uri} — no readable content]` };
}

/** A prompt's messages (MCP `PromptMessage[]`) fitted to the budget; malformed ones described. */
export function fitPromptMessages(messages: unknown, budget: ContextBudget, label: string): PromptMessageView[] {
  if (!Array.isArray(messages)) {
    budget.note(label, { kind: 'no_messages' });
    return [];
  }
  const out: PromptMessageView[] = [];
  for (const m of messages.slice(0, 100)) {
    const msg = (typeof m === 'object' && m !== null ? m : {}) as Record<string, unknown>;
    const role = msg.role === 'assistant' ? 'assistant' : 'user';
    const content = Array.isArray(msg.content) ? msg.content.slice(0, 100) : [msg.content];
    out.push({ role, content: content.map((c) => fitBlock(c, budget, label)) });
  }
  if (messages.length > 100) budget.note(label, { kind: 'more_messages', count: messages.length - 100 });
  return out;
}

/** Most notes kept with one attachment. */
const MAX_NOTES = 20;

/**
 * What fitting an attachment changed, from the notes it added to `budget` since `from`: the
 * typed notes (the window words them) and the English notice (the model and exports read it), or null.
 */
export function notesFrom(budget: ContextBudget, from: number): { notice: string | null; notes: ContextNote[] } {
  const mine = budget.notes.slice(from);
  const notice = mine.length ? mine.slice(0, 5).map(noteText).join('; ') + (mine.length > 5 ? ` (and ${mine.length - 5} more)` : '') : null;
  return { notice, notes: mine.slice(0, MAX_NOTES).map((n) => n.note) };
}

/**
 * A resource read for the viewer: text cut to `VIEWER_TEXT_CHARS`, raster images up to
 * `MAX_IMAGE_BYTES`, anything else as binary (size only; saved through `context.save`).
 */
export function partsForViewer(contents: unknown): { parts: ResourcePartView[]; notice: string | null; notes: ContextNote[] } {
  const list = Array.isArray(contents) ? contents.slice(0, 50) : [];
  const notes: string[] = [];
  const typed: ContextNote[] = [];
  let textLeft = VIEWER_TEXT_CHARS;
  const parts: ResourcePartView[] = [];
  for (const c of list) {
    const r = (typeof c === 'object' && c !== null ? c : {}) as Record<string, unknown>;
    const uri = shortLabel(r.uri, 2000);
    const mime = typeof r.mimeType === 'string' ? shortLabel(r.mimeType, 128) : null;
    let text: string | null = typeof r.text === 'string' ? r.text : null;
    if (text === null && typeof r.blob === 'string') {
      const bytes = base64Bytes(r.blob);
      if (mime && RASTER.test(mime) && bytes <= MAX_IMAGE_BYTES && /^[A-Za-z0-9+/=\s]*$/.test(r.blob)) {
        parts.push({ type: 'image', uri, mime_type: mime.toLowerCase(), data: r.blob.replace(/\s+/g, '') });
        continue;
      }
      text = isTextMime(mime) && bytes <= 4 * VIEWER_TEXT_CHARS ? decodeTextBlob(r.blob) : null;
      if (text === null) {
        parts.push({ type: 'binary', uri, mime_type: mime, bytes });
        continue;
      }
    }
    if (text === null) {
      notes.push(`${uri || 'a part'} had no readable content`);
      typed.push({ kind: 'no_content', uri: uri || null });
      continue;
    }
    const keep = Math.max(0, textLeft);
    if (text.length > keep) {
      notes.push(`${text.length - keep} characters of ${uri || 'the text'} are not shown`);
      typed.push({ kind: 'cut', chars: text.length - keep, uri: uri || null });
      text = `${text.slice(0, keep)}\n[… cut]`;
    }
    textLeft -= Math.min(text.length, keep);
    parts.push({ type: 'text', uri, mime_type: mime, text });
  }
  if (Array.isArray(contents) && contents.length > 50) {
    notes.push(`${contents.length - 50} more parts are not shown`);
    typed.push({ kind: 'more_parts', count: contents.length - 50 });
  }
  return { parts, notice: notes.length ? notes.join('; ') : null, notes: typed };
}
