/**
 * The contract of MCP protocol features beyond tools (docs/ARCHITECTURE.md "Protocol features"):
 * server logs, form and URL elicitation, sampling, roots, icons, and the prompts, resources and
 * completions of the composer (docs/ARCHITECTURE.md "Prompts and resources in chat") — their
 * views, channels and events.
 */
import { z } from 'zod';
import type { ContentView } from './chat.js';
import { LIMITS, serverNameSchema } from './limits.js';
import type { LogEntry, ServerView } from './server-view.js';

/** MCP log severities, lowest first (MCP spec "Utilities: Logging", RFC 5424 names). */
export const loggingLevels = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
export type LoggingLevel = (typeof loggingLevels)[number];

/**
 * An icon a server declares for itself, a tool, a prompt or a resource (MCP spec 2025-11-25
 * "Icons"). Main keeps only `https:` URLs and `data:` images, so `src` is one of those.
 */
export interface IconView {
  src: string;
  mime_type: string | null;
}

/** How a session is carried: stdio, Streamable HTTP, or the legacy HTTP+SSE transport. */
export type TransportKind = 'stdio' | 'streamable_http' | 'legacy_sse';

/** A server's protocol features as the window shows them. */
export interface ServerProtocolView {
  /** The transport of the live session; null while not connected. */
  transport: TransportKind | null;
  /** An `http` server that answered only the legacy HTTP+SSE transport (MCP spec "Backwards Compatibility"). */
  sse_fallback: boolean;
  /** Whether the server declares `logging`, and the level last set on this session (null: the server's own). */
  logging: { supported: boolean; level: LoggingLevel | null };
  /** The server's own folders (null: it follows the default) and the folders it is given now. */
  roots: { own: string[] | null; effective: string[] };
  /** The server's icon (from its `serverInfo`), when it declares a usable one. */
  icon: IconView | null;
  /** Icons by tool name, prompt name and resource URI (only items that declare a usable one). */
  tool_icons: Record<string, IconView>;
  prompt_icons: Record<string, IconView>;
  resource_icons: Record<string, IconView>;
}

/** A server asks the user to open a URL (MCP spec 2025-11-25 "Elicitation", URL mode). */
export interface UrlElicitationRequest {
  id: string;
  server: string;
  message: string;
  /** The full URL (already checked: https:, or http: to loopback). */
  url: string;
  /** The URL's host (with port), shown prominently. */
  host: string;
}

/** A root folder as the user gives it: an absolute path. */
export const rootPathSchema = z.string().min(1).max(LIMITS.shortText);

// Prompts and resources in the composer (docs/ARCHITECTURE.md "Prompts and resources in chat")

/** A resource URI or URI template the renderer may send back (MCP URIs are RFC 3986 strings). */
export const resourceUriSchema = z.string().min(1).max(8192);
/** One prompt argument or template variable value (bounded). */
const argumentValueSchema = z.string().max(LIMITS.shortText);
/** Prompt arguments / template variables by name (at most 64). */
const argumentMapSchema = z
  .record(z.string().min(1).max(256), argumentValueSchema)
  .refine((m) => Object.keys(m).length <= 64, 'At most 64 arguments');

/**
 * What the user attached to a message, by reference; main resolves it at send time from the
 * server that listed it (`prompts/get`, `resources/read`) and saves the result in the user entry.
 */
export const contextRefSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('prompt'), server: serverNameSchema, name: z.string().min(1).max(256), arguments: argumentMapSchema }),
  z.strictObject({ kind: z.literal('resource'), server: serverNameSchema, uri: resourceUriSchema }),
  /** A text the user pasted, attached as a file (no server): main fits it to the budget like a resource's text. */
  z.strictObject({ kind: z.literal('text'), name: z.string().min(1).max(200), text: z.string().min(1).max(LIMITS.attachedText) }),
]);
export type ContextRef = z.infer<typeof contextRefSchema>;
/** Most attachments on one message. */
export const MAX_CONTEXT_REFS = 16;

/** One message of a prompt as saved (MCP `PromptMessage`, content already fitted). */
export interface PromptMessageView {
  role: 'user' | 'assistant';
  content: ContentView[];
}

/**
 * What fitting an attachment into a message (or a resource into the viewer) changed, by code —
 * the window words it (docs/ARCHITECTURE.md "Prompts and resources in chat", "Languages"):
 * - `cut`: `chars` characters of text were left out (of the part `uri`, when it names one);
 * - `described`: content of the kind `content_kind` was described, not included;
 * - `image_type`: an image of the type `mime` was described (a type models do not take);
 * - `image_left_out`: an image of `bytes` was left out — larger than `limit` bytes
 *   (`too_large`), or over what the message's images may take together, `limit` (`over_total`);
 * - `binary`: binary content (of the part `uri`) was described, not included;
 * - `no_content`: the part `uri` (or, when null, the whole reply) had no readable content;
 * - `malformed`: a malformed block was left out;
 * - `more_parts`, `more_messages`: `count` more parts or prompt messages were left out;
 * - `no_messages`: the prompt returned no messages.
 */
export type ContextNote =
  | { kind: 'cut'; chars: number; uri: string | null }
  | { kind: 'described'; content_kind: string }
  | { kind: 'image_type'; mime: string }
  | { kind: 'image_left_out'; bytes: number; why: 'too_large' | 'over_total'; limit: number }
  | { kind: 'binary'; uri: string | null }
  | { kind: 'no_content'; uri: string | null }
  | { kind: 'malformed' }
  | { kind: 'more_parts'; count: number }
  | { kind: 'more_messages'; count: number }
  | { kind: 'no_messages' };

/**
 * What a reference resolved to, saved in the user entry and sent to the model with it. Content
 * is already cut to the budgets (main/chat/context/budget.ts); `notes` say what was cut or
 * described instead of pasted (the window words them); `notice` is the same in English for the
 * model and exports, or null. An older entry has no `notes`.
 */
export type ContextEntry =
  | { kind: 'prompt'; server: string; name: string; title: string; arguments: Record<string, string>; messages: PromptMessageView[]; notice: string | null; notes?: ContextNote[] }
  | { kind: 'resource'; server: string; uri: string; title: string; mime_type: string | null; content: ContentView[]; notice: string | null; notes?: ContextNote[] }
  | { kind: 'text'; title: string; content: ContentView[]; notice: string | null; notes?: ContextNote[] };

/** A resource template of a ready server (MCP "Resource Templates"). */
export interface ResourceTemplateView {
  server: string;
  uri_template: string;
  name: string;
  title: string | null;
  description: string;
  mime_type: string | null;
  /** The template's variable names, in order (RFC 6570 expressions). */
  variables: string[];
}

/** What a completion request refers to (MCP "Completion": `ref/prompt` or `ref/resource`). */
export const completionRefSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('ref/prompt'), name: z.string().min(1).max(256) }),
  z.strictObject({ type: z.literal('ref/resource'), uri: resourceUriSchema }),
]);

/** Suggested values for one argument (at most 100, as the spec caps them). */
export interface CompletionView {
  values: string[];
  has_more: boolean;
}

/** One part of a resource read for the viewer (text cut to a budget, images as data). */
export type ResourcePartView =
  | { type: 'text'; uri: string; mime_type: string | null; text: string }
  | { type: 'image'; uri: string; mime_type: string; data: string }
  | { type: 'binary'; uri: string; mime_type: string | null; bytes: number };

/** A resource as the in-app viewer shows it; `notes` say what was cut (`notice`: the same in English, for logs). */
export interface ResourceReadView {
  server: string;
  uri: string;
  parts: ResourcePartView[];
  notice: string | null;
  notes: ContextNote[];
  /** Whether the server supports `resources/subscribe` (the viewer refreshes on updates). */
  can_subscribe: boolean;
}

/** A saved resource: written by main (Electron save dialog), cancelled, or data to download. */
export type ResourceSaveResult =
  | { kind: 'saved'; saved_to: string }
  | { kind: 'cancelled' }
  | { kind: 'content'; filename: string; mime: string; base64: string };

const byResource = z.strictObject({ server: serverNameSchema, uri: resourceUriSchema });

/** The protocol-feature and composer channels (spread into `channels`, channels.ts). */
export const protocolChannels = {
  // The composer: resource templates, completions, the resource viewer.
  /** Resource templates of every ready server (listed on demand). */
  'context.templates': { input: z.strictObject({}) },
  /**
   * Completions for one prompt argument or template variable (MCP `completion/complete`);
   * `context_arguments` are the values already chosen for the other arguments.
   */
  'context.complete': {
    input: z.strictObject({
      server: serverNameSchema,
      ref: completionRefSchema,
      argument: z.strictObject({ name: z.string().min(1).max(256), value: argumentValueSchema }),
      context_arguments: argumentMapSchema.optional(),
    }),
  },
  /** Read a resource for the viewer, only from the server that listed it. */
  'context.read': { input: byResource },
  /** Save a resource's content to a file (Electron: save dialog; browser shell: download). */
  'context.save': { input: byResource },
  /** Subscribe to a resource's updates while it is open in the viewer (where supported). */
  'context.subscribe': { input: byResource },
  'context.unsubscribe': { input: byResource },
  // Logs, elicitation, sampling, roots.
  /** Send `logging/setLevel` to a ready server that declares `logging`. */
  'servers.setLogLevel': { input: z.strictObject({ name: serverNameSchema, level: z.enum(loggingLevels) }) },
  'elicitation.respond': {
    input: z.strictObject({
      id: z.string().min(1).max(128),
      action: z.enum(['accept', 'decline', 'cancel']),
      content: z
        .record(z.string().max(256), z.union([z.string().max(LIMITS.shortText), z.number(), z.boolean(), z.array(z.string().max(LIMITS.shortText)).max(256)]))
        .refine((m) => Object.keys(m).length <= 256, 'Too many fields')
        .optional(),
    }),
  },
  /** Answer a URL elicitation: `accept` opens the URL in the system browser, then tells the server. */
  'elicitation.respondUrl': { input: z.strictObject({ id: z.string().min(1).max(128), action: z.enum(['accept', 'decline', 'cancel']) }) },
  'sampling.respond': { input: z.strictObject({ id: z.string().min(1).max(128), approve: z.boolean() }) },
  /** The default root folders (for servers without their own); `can_pick`: a folder picker exists. */
  'roots.getDefault': { input: z.strictObject({}) },
  /** Replace the default root folders; servers that follow it are told (`notifications/roots/list_changed`). */
  'roots.setDefault': { input: z.strictObject({ roots: z.array(rootPathSchema).max(64) }) },
  /** Ask the user for a folder (Electron's folder picker); `path: null` when cancelled. */
  'roots.pickFolder': { input: z.strictObject({}) },
  /** Check a typed folder (`~` allowed) before a server works in it: its absolute path and whether it is a readable folder. */
  'roots.checkFolder': { input: z.strictObject({ path: rootPathSchema }) },
} as const;

/** What each of {@link protocolChannels} returns (part of `ChannelOutputs`, channels.ts). */
export interface ProtocolChannelOutputs {
  'context.templates': ResourceTemplateView[];
  'context.complete': CompletionView;
  'context.read': ResourceReadView;
  'context.save': ResourceSaveResult;
  'context.subscribe': { subscribed: boolean };
  'context.unsubscribe': { unsubscribed: boolean };
  'servers.setLogLevel': ServerView;
  'elicitation.respond': { ok: true };
  'elicitation.respondUrl': { ok: true; opened: boolean };
  'sampling.respond': { ok: true };
  'roots.getDefault': { roots: string[]; can_pick: boolean };
  'roots.setDefault': { roots: string[] };
  'roots.pickFolder': { path: string | null };
  'roots.checkFolder': FolderCheckView;
}

/**
 * A typed folder, checked by main: `path` absolute (`~` expanded) unless `not_absolute`; `state`
 * says whether it is a folder the user can read (the window words each state).
 */
export interface FolderCheckView {
  path: string;
  state: 'folder' | 'missing' | 'not_folder' | 'unreadable' | 'not_absolute';
}

/** The protocol-feature and composer events (part of `EventPayloads`, events.ts). */
export interface ProtocolEventPayloads {
  /** A subscribed resource changed (MCP `notifications/resources/updated`). */
  'context.resourceUpdated': { server: string; uri: string };
  /**
   * New entries of a server's log, oldest first, pushed as they happen (batched at most every
   * 50 ms; server log notifications are rate-limited, see docs/ARCHITECTURE.md "Protocol features").
   */
  'servers.log': { name: string; entries: LogEntry[] };
  /** A server asks the user to open a URL; answer with `elicitation.respondUrl`. */
  'elicitation.urlRequest': UrlElicitationRequest;
  /** A pending URL request was withdrawn (the server cancelled, the connection ended, or it timed out). */
  'elicitation.urlClosed': { id: string };
  /** A server says an out-of-band interaction finished (`notifications/elicitation/complete`). */
  'elicitation.urlComplete': { server: string; elicitation_id: string };
  /** A server asks the user for input (form elicitation); answer with `elicitation.respond`. */
  'elicitation.request': { id: string; server: string; message: string; requested_schema: Record<string, unknown> };
  /** A pending form was withdrawn (the server cancelled, the connection ended, or it timed out). */
  'elicitation.closed': { id: string };
  /** A server asks the host's model for a completion; approve or decline with `sampling.respond`. */
  'sampling.request': { id: string; server: string; system_prompt: string | null; messages: { role: 'user' | 'assistant'; text: string }[]; max_tokens: number };
  /** A pending sampling approval was withdrawn. */
  'sampling.closed': { id: string };
}
/** The names of {@link ProtocolEventPayloads}, one entry each (merged into `eventTable`, events.ts). */
export const protocolEventTable: { [E in keyof ProtocolEventPayloads]: true } = {
  'context.resourceUpdated': true,
  'servers.log': true,
  'elicitation.urlRequest': true,
  'elicitation.urlClosed': true,
  'elicitation.urlComplete': true,
  'elicitation.request': true,
  'elicitation.closed': true,
  'sampling.request': true,
  'sampling.closed': true,
};
