/**
 * Export of one conversation as Markdown or JSON (pure): every entry, tool calls with arguments,
 * results, errors and durations included. Images are described, not embedded, in Markdown; JSON
 * keeps them. See docs/ARCHITECTURE.md "Conversations".
 */
import type { ContentView, TranscriptItem } from '../../../preload/contract/index.js';
import type { StoredConversation } from './store.js';
import { exportFileName } from './text.js';

/** The `format` marker of a JSON export. */
export const JSON_EXPORT_FORMAT = 'openprogram.conversation';

/** A code fence longer than any backtick run inside `text`. */
function fence(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const f = '`'.repeat(longest + 1);
  return `${f}${lang}\n${text}\n${f}`;
}

function iso(ts: number): string {
  return new Date(ts).toISOString();
}

function describeContent(c: ContentView): string {
  if (c.type === 'text') return fence(c.text);
  const bytes = Math.floor((c.data.length * 3) / 4);
  return `*[image: ${c.mimeType}, ${Math.max(1, Math.round(bytes / 1024))} KB]*`;
}

/** A prompt or resource sent with a message (main/chat/context/): its source and its content. */
function contextToMarkdown(c: NonNullable<Extract<TranscriptItem, { kind: 'user' }>['context']>[number]): string {
  const head = c.kind === 'prompt' ? `Prompt \`${c.server}/${c.name}\`:` : c.kind === 'text' ? `Attached text \`${c.title}\`:` : `Resource \`${c.uri}\` from \`${c.server}\`:`;
  const body = c.kind === 'prompt' ? c.messages.map((m) => `${m.role}:\n\n${m.content.map(describeContent).join('\n\n')}`) : c.content.map(describeContent);
  return [head, ...body, ...(c.notice ? [`*(${c.notice})*`] : [])].join('\n\n');
}

const ANSWER_NOTE: Record<string, string> = { stopped: ' *(stopped)*', failed: ' *(failed)*', interrupted: ' *(interrupted)*', streaming: ' *(still streaming)*' };

function itemToMarkdown(item: TranscriptItem): string {
  switch (item.kind) {
    case 'user':
      return [`## You`, ...(item.context ?? []).map(contextToMarkdown), item.text].filter(Boolean).join('\n\n');
    case 'assistant':
      return `## Assistant${ANSWER_NOTE[item.state] ?? ''}\n\n${item.text}`;
    case 'tool': {
      const head = `### Tool call \`${item.tool}\` — ${item.state}${item.duration_ms === null ? '' : `, ${item.duration_ms} ms`}`;
      const decided = item.permission ? ` Permission: ${item.permission.allowed ? 'allowed' : 'refused'} (${item.permission.decision ?? item.permission.via}).` : '';
      const parts = [head, `Server \`${item.server}\`, tool \`${item.original_name}\`.${decided}`, `Arguments:\n\n${fence(JSON.stringify(item.args ?? {}, null, 2), 'json')}`];
      if (item.content.length) parts.push(`Result:\n\n${item.content.map(describeContent).join('\n\n')}`);
      if (item.error) parts.push(`Error:\n\n${fence(item.error)}`);
      return parts.join('\n\n');
    }
    case 'notice':
      return `> ${item.tone === 'error' ? '**Error:** ' : ''}${item.text.replace(/\n/g, '\n> ')}`;
  }
}

/** A Markdown document of the conversation. */
export function conversationToMarkdown(conv: StoredConversation): string {
  const s = conv.summary;
  const head = `# ${s.title}\n\n*Exported from OpenProgram Desktop. Started ${iso(s.created_at)}, last message ${iso(s.updated_at)}.*`;
  return `${[head, ...conv.items.map(itemToMarkdown)].join('\n\n')}\n`;
}

/** A JSON document of the conversation (`format`, `version`, the summary and every entry). */
export function conversationToJson(conv: StoredConversation, exportedAt: number): string {
  const doc = { format: JSON_EXPORT_FORMAT, version: 1, exported_at: iso(exportedAt), conversation: { ...conv.summary, items: conv.items } };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** File name, MIME type and content of an export in the given format. */
export function renderExport(conv: StoredConversation, format: 'markdown' | 'json', exportedAt: number): { filename: string; mime: string; content: string } {
  return format === 'markdown'
    ? { filename: exportFileName(conv.summary.title, 'md'), mime: 'text/markdown', content: conversationToMarkdown(conv) }
    : { filename: exportFileName(conv.summary.title, 'json'), mime: 'application/json', content: conversationToJson(conv, exportedAt) };
}
