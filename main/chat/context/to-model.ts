/**
 * A saved user entry with its attachments as model messages (pure; used by
 * main/chat/conversations/history.ts, docs/ARCHITECTURE.md "Prompts and resources in chat"):
 * each prompt message in its own role, then one user message with the attached resources and the
 * typed text. Images go as image parts only when the profile's model accepts images; otherwise
 * a one-line note. Content was fitted to its budgets when it was saved (./budget.ts).
 */
import type { ModelMessage, TextPart, ImagePart } from 'ai';
import type { ContentView, ContextEntry, TranscriptItem } from '../../../preload/contract/index.js';
import { base64Bytes } from '../model-context.js';

type UserItem = Extract<TranscriptItem, { kind: 'user' }>;

function parts(content: ContentView[], acceptsImages: boolean): Array<TextPart | ImagePart> {
  return content.map((c) =>
    c.type === 'text'
      ? { type: 'text' as const, text: c.text }
      : acceptsImages
        ? { type: 'image' as const, image: c.data, mediaType: c.mimeType }
        : { type: 'text' as const, text: `[image ${c.mimeType}, ${Math.max(1, Math.round(base64Bytes(c.data) / 1000))} KB: not shown (this model does not accept images)]` },
  );
}

function header(e: ContextEntry): string {
  return e.kind === 'prompt' ? `[prompt ${e.server}/${e.name}]` : e.kind === 'text' ? `[attached text: ${e.title}]` : `[attached resource ${e.server}: ${e.uri}]`;
}

/**
 * The model messages of one user entry. Without attachments: one user message with its text.
 * Consecutive messages of the same role are kept separate (providers accept that).
 */
export function userItemToMessages(item: UserItem, acceptsImages: boolean): ModelMessage[] {
  const context = item.context ?? [];
  if (context.length === 0) return [{ role: 'user', content: item.text }];
  const out: ModelMessage[] = [];
  const tail: Array<TextPart | ImagePart> = [];
  for (const e of context) {
    if (e.kind === 'prompt') {
      for (const m of e.messages) {
        const p = parts(m.content, acceptsImages);
        if (m.role === 'assistant') out.push({ role: 'assistant', content: p.map((x) => (x.type === 'text' ? x : { type: 'text' as const, text: '[image]' })) });
        else out.push({ role: 'user', content: p });
      }
      if (e.notice) tail.push({ type: 'text', text: `${header(e)} note: ${e.notice}` });
    } else {
      tail.push({ type: 'text', text: header(e) }, ...parts(e.content, acceptsImages));
      if (e.notice) tail.push({ type: 'text', text: `note: ${e.notice}` });
    }
  }
  if (item.text.trim()) tail.push({ type: 'text', text: item.text });
  if (tail.length) out.push({ role: 'user', content: tail });
  return out;
}
