/**
 * The contract of tools, their per-tool settings, the permissions and the approval cards: the
 * tool view, the approval modes and decisions, their channels and the approval events.
 * docs/ARCHITECTURE.md "The IPC contract".
 */
import { z } from 'zod';
import { LIMITS, serverNameSchema } from './limits.js';
import { PERMISSION_MODES, TOOL_APPROVALS, type PermissionMode, type ToolApproval } from './rules/index.js';
import type { ServerView } from './server-view.js';

/** A tool's real name on its server, as a key of the per-tool settings (MCP: 1–128 characters). */
export const toolNameSchema = z.string().min(1).max(128);

/** Per-tool approval: ask every time, or always allow. Absent/null = follow the global mode. */
export const toolApprovalSchema = z.enum(TOOL_APPROVALS);

/**
 * PATCH of one tool's settings: a field absent → keep; a value → replace; `approval: null` →
 * remove the per-tool choice (follow the global mode again).
 */
export const toolSettingPatchSchema = z.strictObject({
  enabled: z.boolean().optional(),
  approval: toolApprovalSchema.nullable().optional(),
});
export type ToolSettingPatch = z.infer<typeof toolSettingPatchSchema>;

/**
 * PATCH of a server's `tools` map: a tool absent → keep its settings; present → its entry is
 * patched field by field ({@link toolSettingPatchSchema}); `null` → forget every choice for it.
 */
export const toolSettingsPatchSchema = z
  .record(toolNameSchema, toolSettingPatchSchema.nullable())
  .refine((m) => Object.keys(m).length <= 1024, 'At most 1024 tools');

/**
 * Tool annotations (MCP spec 2025-11-25 "Tool annotations"). They are hints the server declares
 * about its own tool — not verified by anyone — so the UI says so wherever it shows them.
 */
export interface ToolAnnotations {
  title?: string;
  /** The tool does not modify its environment. */
  readOnlyHint?: boolean;
  /** The tool may perform destructive updates (meaningful when not read-only). */
  destructiveHint?: boolean;
  /** Calling it again with the same arguments has no further effect. */
  idempotentHint?: boolean;
  /** The tool interacts with an open world of external entities. */
  openWorldHint?: boolean;
}

/**
 * Who may call a tool, from its `_meta.ui.visibility` (ext-apps spec "Tool metadata"; both
 * audiences when absent): `model_and_app` — offered to the model and callable from its server's
 * MCP App views; `model` — the model only (views are refused); `app` — only its server's views,
 * never offered to the model; `none` — an empty list: never offered, views refused.
 */
export type ToolAudience = 'model_and_app' | 'model' | 'app' | 'none';

/**
 * One difference between a tool's pinned definition and the one its server lists now
 * (docs/ARCHITECTURE.md "Pinned tool definitions"). Schema parts are shown as JSON text cut to
 * 300 characters; `path` names a property by its dotted path inside `properties` (`options.mode`).
 * - `title` / `description`: the text before and after (null = absent);
 * - `property_added` / `property_removed` / `property_changed`: one property of the input or output schema;
 * - `required`: property names that became required (`added`) or stopped being (`removed`);
 * - `schema`: another part of a schema changed (its type, `additionalProperties`, …), or the whole
 *   output schema appeared or went away;
 * - `annotation`: one declared hint changed (`readOnlyHint` true → false …; null = not declared).
 */
export type ToolDiffEntry =
  | { kind: 'title'; before: string | null; after: string | null }
  | { kind: 'description'; before: string | null; after: string | null }
  | { kind: 'property_added'; schema: 'input' | 'output'; path: string; after: string }
  | { kind: 'property_removed'; schema: 'input' | 'output'; path: string; before: string }
  | { kind: 'property_changed'; schema: 'input' | 'output'; path: string; before: string; after: string }
  | { kind: 'required'; schema: 'input' | 'output'; path: string; added: string[]; removed: string[] }
  | { kind: 'schema'; schema: 'input' | 'output'; before: string | null; after: string | null }
  | { kind: 'annotation'; hint: string; before: string | boolean | null; after: string | boolean | null };

/**
 * How a listed tool stands against the definition the user last accepted (its pin), rendered as is:
 * - `pinned`: the same definition, from the same program;
 * - `new`: first listed after the server's first listing (no accepted pin yet);
 * - `changed`: the definition differs from the pin (`diff`, may be empty when only the program
 *   changed), or `program_changed`: the server's command or URL now points at another program
 *   than the one the pin was accepted for (config identity, docs/ARCHITECTURE.md "Permissions").
 *   `pinned_at`: when the pin was accepted (ms epoch).
 * A tool that is not `pinned` never runs on an earlier "Always allow" or conversation grant.
 */
export type ToolPinStatus = { kind: 'pinned' } | { kind: 'new' } | { kind: 'changed'; diff: ToolDiffEntry[]; program_changed: boolean; pinned_at: number };

/** A tool as offered to the model: namespaced name plus the server's real name. */
export interface ToolView {
  /** `{server}__{tool}`, sanitized, ≤ 64 chars, unique across servers. */
  name: string;
  /** The tool's name on its server. */
  original_name: string;
  /** Display title (`title`, else `annotations.title`), when the server gives one. */
  title: string | null;
  description: string;
  input_schema: Record<string, unknown>;
  /** The server's declared hints (may be empty). */
  annotations: ToolAnnotations;
  /** False: never offered to the model and refused if called (the user's per-tool choice). */
  enabled: boolean;
  /** The user's per-tool approval; null = follow the global mode. */
  approval: ToolApproval | null;
  /** Who may call it (MCP Apps visibility); `app` and `none` tools are never offered to the model. */
  audience: ToolAudience;
  /** The tool declares an MCP App view (`_meta.ui.resourceUri`, a `ui://` URI): its calls show it in the chat. */
  has_view: boolean;
  /** Its definition against the pinned one (see {@link ToolPinStatus}). */
  pin: ToolPinStatus;
}

/**
 * When tool calls need the user's approval (per-tool choices override it):
 * `ask_all` = every call; `ask_unless_read_only` = every call unless the tool declares
 * `readOnlyHint: true`; `never_ask` = no call.
 */
export const permissionModeSchema = z.enum(PERMISSION_MODES);

/** The user's answer to an approval card. */
export type ApprovalDecision = 'allow_once' | 'allow_conversation' | 'always_allow' | 'deny';
export const approvalDecisionSchema = z.enum(['allow_once', 'allow_conversation', 'always_allow', 'deny']);

/** A tool call waiting for the user's approval (main holds it; a reloaded window lists it again). */
export interface ApprovalView {
  /** Random, single-use id bound to this call and its exact arguments. */
  id: string;
  conversation_id: string;
  run_id: string;
  call_id: string;
  server: string;
  /** The tool's real name on its server. */
  tool: string;
  /** The namespaced name offered to the model. */
  namespaced_tool: string;
  title: string | null;
  annotations: ToolAnnotations;
  /** The exact arguments the call will run with. */
  args: unknown;
  /** The tool's definition against its pin: not `pinned` → allowing accepts the definition listed now. */
  pin: ToolPinStatus;
  /** SHA-256 (hex) of the canonical JSON of `args`; an answer may echo it to bind itself to them. */
  args_sha256: string;
  /** When it was asked (ms epoch). */
  created_at: number;
}

/** Settings of the pins: `hold_unaccepted` — tools that are `new` or `changed` are not offered to the model until accepted. */
export interface PinSettings {
  hold_unaccepted: boolean;
}

/**
 * Why a pending approval closed: answered; cancelled (Stop, the asking view went away); timed out;
 * interrupted (the app stopped or restarted); covered ("Allow in this conversation" answered on
 * another card now allows this call too; docs/ARCHITECTURE.md "Permissions").
 */
export type ApprovalClosedOutcome = 'answered' | 'cancelled' | 'timed_out' | 'interrupted' | 'covered';

const empty = z.strictObject({});

/** The tool-settings, permission and approval channels (spread into `channels`, channels.ts). */
export const toolChannels = {
  'permissions.getMode': { input: empty },
  'permissions.setMode': { input: z.strictObject({ mode: permissionModeSchema }) },
  /** Change one tool's settings (PATCH rules of {@link toolSettingPatchSchema}); no restart. */
  'servers.setToolSettings': { input: z.strictObject({ name: serverNameSchema, tool: toolNameSchema, settings: toolSettingPatchSchema }) },
  /**
   * Bulk per-server actions over the tools the server lists now: `enable_all`, `disable_all`, or
   * `allow_read_only` (always allow the tools that declare `readOnlyHint: true`).
   */
  'servers.bulkToolSettings': { input: z.strictObject({ name: serverNameSchema, action: z.enum(['enable_all', 'disable_all', 'allow_read_only']) }) },
  /**
   * Accept the definitions a server lists now as its tools' pins (docs/ARCHITECTURE.md "Pinned
   * tool definitions"): the named tools, or every tool that is `new` or `changed` when `tools` is absent.
   */
  'servers.acceptToolDefinitions': { input: z.strictObject({ name: serverNameSchema, tools: z.array(toolNameSchema).max(1024).optional() }) },
  /** Whether changed and new tools are held back from the model until accepted. */
  'pins.getSettings': { input: empty },
  'pins.setSettings': { input: z.strictObject({ hold_unaccepted: z.boolean() }) },
  'approvals.list': { input: empty },
  /**
   * Answer a pending approval. `args_sha256`, when given, must equal the pending call's (so the
   * answer binds to the arguments shown). An unknown, answered or withdrawn id → `approval_invalid`.
   */
  'approvals.respond': {
    input: z.strictObject({
      id: z.string().min(1).max(128),
      decision: approvalDecisionSchema,
      reason: z.string().max(LIMITS.shortText).optional(),
      args_sha256: z.string().regex(/^[0-9a-f]{64}$/).optional(),
    }),
  },
} as const;

/** What each of {@link toolChannels} returns (part of `ChannelOutputs`, channels.ts). */
export interface ToolChannelOutputs {
  'permissions.getMode': { mode: PermissionMode };
  'permissions.setMode': { mode: PermissionMode };
  'servers.setToolSettings': ServerView;
  'servers.bulkToolSettings': ServerView;
  'servers.acceptToolDefinitions': ServerView;
  'pins.getSettings': PinSettings;
  'pins.setSettings': PinSettings;
  'approvals.list': ApprovalView[];
  'approvals.respond': { ok: true };
}

/** The approval events (part of `EventPayloads`, events.ts). */
export interface ToolEventPayloads {
  /** A tool call waits for the user's approval; answer with `approvals.respond`. */
  'approvals.request': ApprovalView;
  /** A pending approval closed (answered, cancelled by Stop/shutdown, or timed out). */
  'approvals.closed': { id: string; outcome: ApprovalClosedOutcome };
}
/** The names of {@link ToolEventPayloads}, one entry each (merged into `eventTable`, events.ts). */
export const toolEventTable: { [E in keyof ToolEventPayloads]: true } = { 'approvals.request': true, 'approvals.closed': true };
