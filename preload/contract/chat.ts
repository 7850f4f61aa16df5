/**
 * The contract of chat and conversations (main owns the transcript; docs/ARCHITECTURE.md
 * "Conversations"): transcript entries, conversation summaries and views, search hits, the
 * database warnings, the chat events, and their channels.
 */
import { z } from 'zod';
import { LIMITS, serverNameSchema } from './limits.js';
import { contextRefSchema, MAX_CONTEXT_REFS, type ContextEntry } from './protocol.js';
import type { ApprovalDecision } from './tools.js';
import type { ToolTask } from './tasks.js';
import type { ModelErrorCode, ModelErrorDetail } from './profiles.js';

/** Tool-result content as shown in the UI (images as data, resources as text). */
export type ContentView =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string };

/** A conversation id: letters, digits, `_` and `-` (the renderer makes UUIDs for new chats). */
export const conversationIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Invalid conversation id');

/** How an assistant answer ended: still streaming, complete, stopped by the user, failed, or cut by an app exit. */
export type AnswerState = 'streaming' | 'done' | 'stopped' | 'failed' | 'interrupted';

/**
 * How a tool call stands: awaiting the user's approval, running, ok, error (the tool or the server
 * said so), denied (by the user or the permissions; it did not run), cancelled (by the user),
 * interrupted (the app stopped before a result came; it may have taken effect), or
 * approval_interrupted (the app stopped or restarted while the call waited for the user's
 * approval: nobody answered, and it never ran).
 */
export type ToolCallState = 'awaiting_approval' | 'running' | 'ok' | 'error' | 'denied' | 'cancelled' | 'interrupted' | 'approval_interrupted';

/**
 * How the permissions decided about a call (recorded in the conversation): `via` is the rule
 * (`always_allow`, `conversation_grant`, `mode_never_ask`, `read_only_hint`, `user`) or the
 * refusal (`disabled`, `denied`, `cancelled`, `timed_out`, `args_changed`, `unknown_tool`);
 * `decision` is the user's answer on the approval card, when there was one.
 */
export interface PermissionRecord {
  allowed: boolean;
  via: string;
  decision: ApprovalDecision | null;
  /**
   * The user's answer was applied to this call, but remembering it failed (e.g. "Always allow" not
   * saved), in English (exports; an entry saved before `not_saved` existed); absent when all went well.
   */
  warning?: string;
  /** The same by what could not be saved, for the window to word (docs/ARCHITECTURE.md "Languages"). */
  not_saved?: PermissionNotSaved[];
}

/**
 * A choice on an approval card that was applied to the call but could not be remembered: the
 * accepted tool definition (`definition`: the pin) or "Always allow" (`always_allow`); `said` is
 * the system's words (the write's error), shown as sent.
 */
export interface PermissionNotSaved {
  what: 'definition' | 'always_allow';
  said: string;
}

/**
 * Why a call ended without a result of its own, by code — what the app did, or whose words
 * `error` holds (the window words it, docs/ARCHITECTURE.md "Languages"; `error` stays the English
 * text the model was given):
 * - `cancelled`: by the user (`by: 'user'`: its card's Cancel), by Stop ending the run (`run`), or
 *   its task was cancelled on the server (`task`);
 * - `refused`: the permissions did not let it run; `via` as `PermissionRecord.via`, with the
 *   user's own `reason` for `denied` (else null);
 * - `failed`: no answer came from the tool: its server stopped or restarted (`server_gone`), was
 *   not connected (`not_connected`), did not answer in time (`timeout`), its task is not known
 *   to the server any more (`task_lost`), or something else (`other`: `error` has the detail);
 * - `server_error`: the tool or its server said the call failed; `error` is its own words
 *   (`said: false` when it gave none).
 */
export type ToolEnd =
  | { code: 'cancelled'; by: 'user' | 'run' | 'task' }
  | { code: 'refused'; via: string; reason: string | null }
  | { code: 'failed'; why: 'server_gone' | 'not_connected' | 'timeout' | 'task_lost' | 'other' }
  | { code: 'server_error'; said: boolean };

/** Progress a server reported for a running call (MCP `notifications/progress`). */
export interface ToolProgress {
  progress: number;
  total: number | null;
  message: string | null;
}

/**
 * One entry of a saved transcript, exactly as the user saw it. `ts` is ms since the Unix epoch.
 * `run_id` names the run (one model turn with its tool calls) that produced the entry.
 */
export type TranscriptItem =
  | { kind: 'user'; id: string; ts: number; text: string; /** Prompts and resources sent with it. */ context?: ContextEntry[] }
  | { kind: 'assistant'; id: string; ts: number; run_id: string; text: string; state: AnswerState }
  | {
      kind: 'tool';
      id: string;
      ts: number;
      run_id: string;
      /** The model's tool-call id (unique within a run). */
      call_id: string;
      /** Namespaced name `{server}__{tool}` as offered to the model. */
      tool: string;
      server: string;
      original_name: string;
      args: unknown;
      state: ToolCallState;
      content: ContentView[];
      error: string | null;
      /** Why it ended without a result of its own (absent: it did not, or an older entry). */
      end?: ToolEnd;
      duration_ms: number | null;
      progress: ToolProgress | null;
      /** How the permissions decided (null until they have). */
      permission: PermissionRecord | null;
      /**
       * The result's `structuredContent` (MCP "Structured content"), kept for the tool's MCP App
       * view when it fits `MAX_STRUCTURED_CHARS` as JSON; absent otherwise and in older entries.
       */
      structured_content?: unknown;
      /**
       * The call's task when the server ran it as one (MCP Tasks; docs/ARCHITECTURE.md "Tasks"):
       * its status as last seen, and whether the app picked it up again after a restart. Absent
       * for an ordinary call and in older entries.
       */
      task?: ToolTask;
    }
  | {
      kind: 'notice';
      id: string;
      ts: number;
      run_id: string | null;
      tone: 'info' | 'error';
      /** The notice in English (exports, search, windows that do not know the fields below). */
      text: string;
      /** A run note about the tools the run offered and found (the window words it). */
      run_tools?: RunToolsNote;
      /** Why a run was not sent: the request does not fit the context window (the window words it). */
      context_overflow?: ContextOverflowNote;
      /** How the run ended, when the notice says only that (the window words it): `stopped` by the user. */
      run_end?: 'stopped';
      /** Why the model request failed, by code and facts (the window words it; profiles.ts `ModelErrorDetail`). */
      model_error?: { code: ModelErrorCode; detail: ModelErrorDetail };
      /** What was left out of the conversation to fit the model's context window (the window words it). */
      context_fit?: ContextFitNote;
      /** The run's end could not be saved: the database failed (`said`: its words, as sent); the window words it. */
      save_failed?: { said: string };
    };

/**
 * What fitting a run's conversation into the model's context window left out (docs/ARCHITECTURE.md
 * "Context budget"): tool results `shortened` (of the current turn too when `current_turn`),
 * tool results `removed`, the oldest `dropped_messages`; `still_too_long` when even that was not
 * enough (about `estimated_tokens` of `budget_tokens`).
 */
export interface ContextFitNote {
  shortened: number;
  removed: number;
  dropped_messages: number;
  current_turn: boolean;
  still_too_long: boolean;
  estimated_tokens: number;
  budget_tokens: number;
}

/**
 * Which tools a run gave the model when not all of the conversation's enabled tools fit
 * (docs/ARCHITECTURE.md "Tool discovery"): at the start (`offered`: the servers' tools sent first,
 * of `total` — the servers' tools the conversation has, the count the chat shows as available),
 * and at the end (`found`: what the model's searches brought in, in order). The app's own tools
 * (`host__…`, reading servers' resources and prompts) are counted apart: `host_total` of them,
 * `host_offered` sent first (both absent in notes written before, whose `total` counted them too).
 * `reason` says which limit applied: the provider's tool cap (`count`, `max_tools`) or the tool
 * share of the context budget (`tokens`, `max_tokens`, estimated tokens of definitions).
 */
export interface RunToolsNote {
  stage: 'offered' | 'found';
  total: number;
  offered: string[];
  found: string[];
  host_total?: number;
  host_offered?: string[];
  reason: 'count' | 'tokens';
  max_tools: number | null;
  max_tokens: number;
}

/**
 * The numbers of a request the app did not send because it would not fit the model's context
 * window (estimated tokens; docs/ARCHITECTURE.md "Context budget"): the window, what is kept for
 * the answer, the tool definitions (and how many tools), the system prompt, and the conversation
 * as small as it could be made. `needed` is their sum.
 */
export interface ContextOverflowNote {
  context_window: number;
  answer_reserve: number;
  tool_tokens: number;
  tool_count: number;
  system_tokens: number;
  conversation_tokens: number;
  needed: number;
}

/** A conversation in the list. Times are ms since the Unix epoch. */
export interface ConversationSummary {
  id: string;
  title: string;
  created_at: number;
  updated_at: number;
  message_count: number;
  /** A run is streaming in this conversation now. */
  running: boolean;
  /** The model profile this conversation uses (null: the default profile). */
  profile_id: string | null;
  /** The servers whose tools the model gets in this conversation (null: every ready server). */
  tool_servers: string[] | null;
}

/**
 * A whole conversation: its summary and every transcript item in order, as a JSON array text of
 * `TranscriptItem` (main forwards what it stored without parsing it; the window parses it once).
 */
export interface ConversationView extends ConversationSummary {
  items_json: string;
}

/**
 * A piece of a search snippet: `hit` marks the words the search engine matched. Which pieces are
 * hits comes from the engine alone, never from characters stored in the message (docs/ARCHITECTURE.md
 * "Conversations"); the window renders the pieces as text.
 */
export interface SnippetSegment {
  text: string;
  hit: boolean;
}

/** One full-text search hit: the entry and its snippet (the matched words and some around them, in pieces). */
export interface SearchHit {
  conversation_id: string;
  title: string;
  item_id: string;
  kind: TranscriptItem['kind'];
  snippet: SnippetSegment[];
  ts: number;
}

/** What a repair copied from a damaged conversation database into the new one. */
export interface ConversationsRecovered {
  conversations: number;
  entries: number;
  /** False when some rows could not be read (they are only in the kept file). */
  complete: boolean;
}

/** Why the conversation database file could not be used as it was. */
export type ConversationsDbProblem = 'damaged' | 'newer_schema' | 'not_writable' | 'unreadable';

/**
 * A warning about the conversation database (docs/ARCHITECTURE.md "Conversations", a damaged
 * database); the window words it by `code`:
 * - `index_rebuilt`: the search index was damaged and was rebuilt from the saved entries (nothing lost);
 * - `set_aside`: the file could not be used; it was kept as `kept_as` in `dir` and a new one
 *   started, with what could still be read copied into it (`recovered`, null when nothing could);
 * - `memory_only`: not even a new file could be made; conversations of this session are not
 *   saved (`kept_as` null: the file was left where it is).
 */
export type ConversationsWarning =
  | { code: 'index_rebuilt' }
  | { code: 'set_aside'; problem: ConversationsDbProblem; kept_as: string; dir: string; recovered: ConversationsRecovered | null }
  | { code: 'memory_only'; problem: ConversationsDbProblem; kept_as: string | null; dir: string; recovered: ConversationsRecovered | null };

/**
 * An export. Where main can ask the user for a path (Electron's save dialog) it writes the file
 * and returns `saved_to` (or `cancelled`); otherwise it returns `content` for the renderer to
 * download as `filename`.
 */
export type ConversationExport =
  | { kind: 'saved'; saved_to: string }
  | { kind: 'cancelled' }
  | { kind: 'content'; filename: string; mime: string; content: string };

/**
 * Events of the chat, per conversation (main → every window):
 * - `item`: an entry was added or changed (the whole entry; replaces one with the same id);
 * - `text-delta`: text appended to an assistant entry while it streams;
 * - `items-removed`: entries dropped by an edit-and-resend or a regenerate;
 * - `tool-input`: the input of a tool call the model is still writing (see {@link ToolInputEvent});
 * - `run-end`: the run ended (also announced through `conversations.changed`).
 */
export type ChatEvent =
  | { conversation_id: string; run_id: string; type: 'item'; item: TranscriptItem }
  | { conversation_id: string; run_id: string; type: 'text-delta'; item_id: string; text: string }
  | { conversation_id: string; run_id: string; type: 'items-removed'; item_ids: string[] }
  | ToolInputEvent
  | { conversation_id: string; run_id: string; type: 'run-end'; outcome: 'done' | 'stopped' | 'failed' | 'interrupted' };

/**
 * The input of a tool call while the model still streams it, for tools that declare an MCP App
 * view only (ext-apps `ui/notifications/tool-input-partial`; docs/ARCHITECTURE.md "MCP Apps").
 * Transient: never saved — the call's `tool` entry, which follows with the same `call_id`, holds
 * the final arguments. Sent at most every ~100 ms per call and once more when the input is
 * complete; none when the input text grows past 256 KB. `args` is the object parsed from the text
 * so far (unfinished strings and values completed or left out), so it may lack fields the final
 * input has; `tool` is the namespaced name, `server` and `original_name` where it lives.
 */
export interface ToolInputEvent {
  conversation_id: string;
  run_id: string;
  type: 'tool-input';
  call_id: string;
  tool: string;
  server: string;
  original_name: string;
  args: Record<string, unknown>;
}

const empty = z.strictObject({});

/** The chat and conversation channels (spread into `channels`, channels.ts). */
export const chatChannels = {
  /** Send a message; `profile_id` (optional) sets the conversation's model profile first. */
  'chat.send': {
    input: z.strictObject({
      conversation_id: conversationIdSchema,
      /** May be empty when `context` carries the message (a prompt). */
      text: z.string().max(LIMITS.chatText),
      profile_id: z.string().min(1).max(128).optional(),
      /** For a new conversation: the servers whose tools the model gets (absent: all). */
      tool_servers: z.array(serverNameSchema).max(256).optional(),
      /** Prompts and resources attached to the message (resolved by main). */
      context: z.array(contextRefSchema).max(MAX_CONTEXT_REFS).optional(),
    }).refine((v) => v.text.trim().length > 0 || (v.context?.length ?? 0) > 0, { message: 'Type a message or attach something', path: ['text'], params: { rule: 'required' } }),
  },
  /** Choose which servers' tools the model gets in a conversation (`null`: every ready server). */
  'conversations.setToolServers': { input: z.strictObject({ id: conversationIdSchema, servers: z.array(serverNameSchema).max(256).nullable() }) },
  /** Choose the model profile of an existing conversation (`null`: follow the default profile). */
  'conversations.setProfile': { input: z.strictObject({ id: conversationIdSchema, profile_id: z.string().min(1).max(128).nullable() }) },
  /** Replace the last user message's text, drop what followed it, and run again. */
  'chat.editResend': { input: z.strictObject({ conversation_id: conversationIdSchema, item_id: z.string().min(1).max(128), text: z.string().min(1).max(LIMITS.chatText) }) },
  /** Drop the last answer (everything after the last user message) and run again. */
  'chat.regenerate': { input: z.strictObject({ conversation_id: conversationIdSchema }) },
  'chat.stop': { input: z.strictObject({ conversation_id: conversationIdSchema }) },
  'chat.cancelTool': { input: z.strictObject({ conversation_id: conversationIdSchema, call_id: z.string().min(1).max(256) }) },
  /** Newest first (at most `LIMITS.conversationList`), and the one the user had open last. */
  'conversations.list': { input: empty },
  /** Open one conversation (it becomes the one reopened at the next start). */
  'conversations.get': { input: z.strictObject({ id: conversationIdSchema }) },
  'conversations.rename': { input: z.strictObject({ id: conversationIdSchema, title: z.string().max(LIMITS.shortText) }) },
  /** Delete a conversation (its run is stopped first). */
  'conversations.remove': { input: z.strictObject({ id: conversationIdSchema }) },
  /** Full-text search over every saved message, tool arguments and results included. */
  'conversations.search': { input: z.strictObject({ query: z.string().max(1000) }) },
  'conversations.export': { input: z.strictObject({ id: conversationIdSchema, format: z.enum(['markdown', 'json']) }) },
} as const;

/** What each of {@link chatChannels} returns (part of `ChannelOutputs`, channels.ts). */
export interface ChatChannelOutputs {
  'chat.send': { run_id: string };
  'conversations.setToolServers': ConversationSummary;
  'conversations.setProfile': ConversationSummary;
  'chat.editResend': { run_id: string };
  'chat.regenerate': { run_id: string };
  'chat.stop': { stopped: boolean };
  'chat.cancelTool': { cancelled: boolean };
  'conversations.list': { conversations: ConversationSummary[]; last_opened: string | null };
  'conversations.get': ConversationView;
  'conversations.rename': ConversationSummary;
  'conversations.remove': { removed: true };
  'conversations.search': SearchHit[];
  'conversations.export': ConversationExport;
}

/** The chat and conversation events (part of `EventPayloads`, events.ts). */
export interface ChatEventPayloads {
  'chat.event': ChatEvent;
  /** A conversation was created, renamed, or got new entries, or a run started or ended in it. */
  'conversations.changed': ConversationSummary;
  'conversations.removed': { id: string };
  /** The conversation database was healed while the app ran (search index rebuilt, or file set aside). */
  'conversations.warning': ConversationsWarning;
}
/** The names of {@link ChatEventPayloads}, one entry each (merged into `eventTable`, events.ts). */
export const chatEventTable: { [E in keyof ChatEventPayloads]: true } = {
  'chat.event': true,
  'conversations.changed': true,
  'conversations.removed': true,
  'conversations.warning': true,
};
