/**
 * The contract of MCP Apps (docs/ARCHITECTURE.md "MCP Apps"): a tool's interactive view beside
 * its call — how a view loads, and the channels its requests come through (each bound to one
 * issued view instance).
 */
import { z } from 'zod';
import { conversationIdSchema } from './chat.js';
import { jsonWithin, LIMITS, serverNameSchema } from './limits.js';
import { loggingLevels, resourceUriSchema } from './protocol.js';
import { toolNameSchema } from './tools.js';

/** A view's declared network origins, as main accepted them (ext-apps `McpUiResourceCsp`). */
export interface AppViewCsp {
  connectDomains?: string[];
  resourceDomains?: string[];
  frameDomains?: string[];
  baseUriDomains?: string[];
}

/** A device permission a view may ask for (ext-apps `McpUiResourcePermissions`). */
export type AppViewPermission = 'camera' | 'microphone' | 'geolocation' | 'clipboardWrite';

/**
 * The view of one tool call. `none`: the tool declares no view. `unavailable`: it cannot be shown
 * now (`not_a_call`: the conversation holds no call of that tool on that server under these ids;
 * `not_connected`: the server is not running; `unknown_tool`: the server no longer lists the
 * tool; `no_sandbox`: this shell serves no view origin; `read_failed` / `bad_resource`: the
 * server's `ui://` resource could not be read or is not `text/html;profile=mcp-app`). `closed`:
 * the user closed this call's view ("Close view", saved with the conversation; nothing was read —
 * `apps.setViewClosed` with `closed: false` and a new `apps.view` bring it back). `ready`: the
 * document, and the sandbox page (on its own origin) that will hold it.
 */
export type AppViewLoad =
  | { kind: 'none' }
  | { kind: 'closed' }
  | { kind: 'unavailable'; reason: 'not_a_call' | 'not_connected' | 'unknown_tool' | 'no_sandbox' | 'read_failed' | 'bad_resource' }
  | {
      kind: 'ready';
      /** The view instance main issued for this showing: every request of the view names it. */
      view_instance: string;
      resource_uri: string;
      html: string;
      sandbox_url: string;
      sandbox_origin: string;
      csp: AppViewCsp;
      permissions: AppViewPermission[];
      prefers_border: boolean | null;
      tool: { name: string; title: string | null; description: string | null; input_schema: Record<string, unknown> };
    };

/** One tool call's view: its conversation, the run that made the call, the model's call id. */
const viewCallShape = {
  conversation_id: conversationIdSchema,
  run_id: z.string().min(1).max(128),
  call_id: z.string().min(1).max(256),
};

/**
 * One shown view instance, as main issued it in `apps.view` (`ready.view_instance`): its requests
 * reach only the server and the conversation it was issued for, and end when it is released
 * (`apps.releaseView`) or the page that loaded it goes away.
 */
const viewInstanceSchema = z.string().min(8).max(128).regex(/^[A-Za-z0-9_-]+$/, 'A view instance id is letters, digits, - and _.');

/** MCP Apps channels (spread into `channels`, channels.ts). The results are MCP JSON as the server sent it. */
export const appsChannels = {
  /**
   * The view of a tool call (reads the tool's `ui://` resource from its server), unless the user
   * closed it: then `closed`, before anything is read. The call is named by its conversation, run
   * and call id (call ids are unique per run only).
   */
  'apps.view': { input: z.strictObject({ ...viewCallShape, server: serverNameSchema, tool: toolNameSchema }) },
  /**
   * Save the user's Close view (`closed: true`) or Show app view (`false`) for one tool call's
   * view, with the conversation, so it holds across reloads, conversation switches and restarts.
   * Fails with `not_found` for a conversation that does not exist (nothing written).
   */
  'apps.setViewClosed': { input: z.strictObject({ ...viewCallShape, closed: z.boolean() }) },
  /**
   * A view's `tools/call`: to the server its instance was issued for only (never one the request
   * names), tools with "app" visibility, through the permissions; its approval card shows in that view.
   */
  'apps.callTool': {
    input: z.strictObject({
      view_instance: viewInstanceSchema,
      tool: toolNameSchema,
      arguments: z.record(z.string().max(256), z.unknown()).refine((v) => jsonWithin(v, 1_000_000), 'Arguments too large or nested too deeply'),
    }),
  },
  /**
   * A view's `ui/update-model-context`: text the model gets in later turns of the view's
   * conversation (saved with the conversation per view — its tool call — each update replacing
   * the last; empty text removes it). Fails with `forbidden` when the instance is not shown, and
   * `not_found` when its conversation no longer exists.
   */
  'apps.updateModelContext': { input: z.strictObject({ view_instance: viewInstanceSchema, text: z.string().max(LIMITS.viewContext) }) },
  /** A view's `resources/read`: its own server only; released with its view instance. */
  'apps.readResource': { input: z.strictObject({ view_instance: viewInstanceSchema, uri: resourceUriSchema }) },
  /**
   * A view's log message (ext-apps: the view's `notifications/message`, its `data` as sent): written
   * to its server's log as a `view` entry (`level logger: data`), rate-limited with the server's
   * own messages. `kept`: false when the server is gone; `forbidden` when the instance is not shown.
   */
  'apps.log': {
    input: z.strictObject({
      view_instance: viewInstanceSchema,
      level: z.enum(loggingLevels),
      logger: z.string().max(128).optional(),
      data: z.unknown().refine((v) => jsonWithin(v, 65_536), 'Log data too large or nested too deeply'),
    }),
  },
  /**
   * A shown view was torn down: its tool calls and resource reads still under way are withdrawn
   * (pending approval cards close as cancelled, server requests are cancelled) and later requests
   * of that instance are refused. `aborted`: how many were under way.
   */
  'apps.releaseView': { input: z.strictObject({ view_instance: viewInstanceSchema }) },
} as const;

/** What each of {@link appsChannels} returns (part of `ChannelOutputs`, channels.ts). */
export interface AppsChannelOutputs {
  'apps.view': AppViewLoad;
  'apps.setViewClosed': { closed: boolean };
  'apps.callTool': Record<string, unknown>;
  'apps.updateModelContext': { kept: boolean };
  'apps.readResource': Record<string, unknown>;
  'apps.log': { kept: boolean };
  'apps.releaseView': { aborted: number };
}
