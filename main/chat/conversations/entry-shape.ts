/**
 * Stored entries are checked when main reads them (docs/ARCHITECTURE.md "Conversations", a
 * damaged entry): a row's JSON must be a `TranscriptItem` of the shape this build writes (zod),
 * else main reads it as an error notice — "unreadable entry" — in its place. The row is never
 * changed or dropped; the notice keeps its id (edit and regenerate still remove it), is shown in
 * exports, and — being a notice — is left out of the model's context, so one damaged entry never
 * stops a conversation from sending. Free-form values (`args`, `structured_content`) are bounded
 * in nesting depth as they are read (main/mcp/nesting.ts), as they were when first saved.
 */
import { z } from 'zod';
import type { TranscriptItem } from '../../../preload/contract/index.js';
import { boundDepth } from '../../mcp/nesting.js';

/** The text of the notice read in place of an entry that does not have a known shape. */
export const UNREADABLE_ENTRY_TEXT =
  'This entry could not be read: it was stored damaged or by another version of the app. It is kept as it was stored, and left out of what the model is sent.';

const contentView = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('text'), text: z.string() }),
  z.looseObject({ type: z.literal('image'), data: z.string(), mimeType: z.string() }),
]);

const contextEntry = z.discriminatedUnion('kind', [
  z.looseObject({
    kind: z.literal('prompt'),
    server: z.string(),
    name: z.string(),
    title: z.string(),
    arguments: z.record(z.string(), z.string()),
    messages: z.array(z.looseObject({ role: z.enum(['user', 'assistant']), content: z.array(contentView) })),
    notice: z.string().nullable().default(null),
  }),
  z.looseObject({
    kind: z.literal('resource'),
    server: z.string(),
    uri: z.string(),
    title: z.string(),
    mime_type: z.string().nullable().default(null),
    content: z.array(contentView),
    notice: z.string().nullable().default(null),
  }),
  z.looseObject({ kind: z.literal('text'), title: z.string(), content: z.array(contentView), notice: z.string().nullable().default(null) }),
]);

const bounded = z.unknown().transform((v) => boundDepth(v));

// Fields added after the first release default when absent; present ones must have their type.
/** A tool call's task (MCP Tasks), as saved with its entry. */
const toolTask = z.looseObject({
  task_id: z.string(),
  status: z.looseObject({ kind: z.enum(['working', 'input_required', 'completed', 'failed', 'cancelled', 'lost']), message: z.string().nullable() }),
  origin: z.enum(['started', 'resumed']),
  created_at: z.number(),
  updated_at: z.number(),
});

const storedEntry = z.discriminatedUnion('kind', [
  z.looseObject({ kind: z.literal('user'), id: z.string(), ts: z.number(), text: z.string(), context: z.array(contextEntry).optional() }),
  z.looseObject({
    kind: z.literal('assistant'),
    id: z.string(),
    ts: z.number(),
    run_id: z.string(),
    text: z.string(),
    state: z.enum(['streaming', 'done', 'stopped', 'failed', 'interrupted']),
  }),
  z.looseObject({
    kind: z.literal('tool'),
    id: z.string(),
    ts: z.number(),
    run_id: z.string(),
    call_id: z.string(),
    tool: z.string(),
    server: z.string(),
    original_name: z.string(),
    args: bounded,
    state: z.enum(['awaiting_approval', 'running', 'ok', 'error', 'denied', 'cancelled', 'interrupted', 'approval_interrupted']),
    content: z.array(contentView),
    error: z.string().nullable().default(null),
    duration_ms: z.number().nullable().default(null),
    progress: z.looseObject({ progress: z.number(), total: z.number().nullable(), message: z.string().nullable() }).nullable().default(null),
    permission: z
      .looseObject({
        allowed: z.boolean(),
        via: z.string(),
        decision: z.enum(['allow_once', 'allow_conversation', 'always_allow', 'deny']).nullable(),
        warning: z.string().optional(),
        not_saved: z.array(z.looseObject({ what: z.enum(['definition', 'always_allow']), said: z.string() })).optional(),
      })
      .nullable()
      .default(null),
    structured_content: bounded.optional(),
    task: toolTask.optional(),
  }),
  z.looseObject({ kind: z.literal('notice'), id: z.string(), ts: z.number(), run_id: z.string().nullable(), tone: z.enum(['info', 'error']), text: z.string() }),
]);

// What the schema accepts is a TranscriptItem (checked by the compiler).
const _isTranscriptItem = (x: z.output<typeof storedEntry>): TranscriptItem => x;
void _isTranscriptItem;

/** A stored row as read: its id and time columns, and the entry's JSON text. */
export interface StoredRow {
  id: string;
  ts: number;
  data: string;
}

/** How a stored row reads: the entry, or why not (the notice stands in its place). */
export type ReadEntry = { kind: 'entry'; item: TranscriptItem } | { kind: 'unreadable'; item: Extract<TranscriptItem, { kind: 'notice' }>; reason: 'not_json' | 'bad_shape' };

/** The notice read in place of the row `row`: its id and time, no run. */
export function unreadableNotice(row: Pick<StoredRow, 'id' | 'ts'>): Extract<TranscriptItem, { kind: 'notice' }> {
  return { kind: 'notice', id: row.id, ts: row.ts, run_id: null, tone: 'error', text: UNREADABLE_ENTRY_TEXT };
}

/**
 * Read one stored row: its JSON parsed and checked against the entry shapes. The entry's id is
 * the row's. Never throws.
 */
export function readStoredEntry(row: StoredRow): ReadEntry {
  let raw: unknown;
  try {
    raw = JSON.parse(row.data);
  } catch {
    return { kind: 'unreadable', item: unreadableNotice(row), reason: 'not_json' };
  }
  const parsed = storedEntry.safeParse(raw);
  if (!parsed.success) return { kind: 'unreadable', item: unreadableNotice(row), reason: 'bad_shape' };
  return { kind: 'entry', item: { ...parsed.data, id: row.id } as TranscriptItem };
}
