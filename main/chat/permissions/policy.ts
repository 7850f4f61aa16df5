/**
 * The permission decision table (the room is described in ./index.ts). Pure: the same inputs
 * always give the same decision; no I/O, no state.
 *
 * Inputs: the global mode × the tool's per-tool setting × its annotations (hints its server
 * declares, MCP spec 2025-11-25 "Tool annotations") × whether the user allowed the tool for this
 * conversation × how its definition stands against its pin (main/mcp/pins/). Rows, first match wins:
 *
 * | # | condition                                   | decision                        |
 * |---|---------------------------------------------|---------------------------------|
 * | 1 | setting.enabled === false                   | refuse (`disabled`)             |
 * | 2 | pin is `changed`                            | ask (`definition_changed`)      |
 * | 3 | setting.approval === 'always_allow', pinned | allow (`always_allow`)          |
 * | 4 | allowed for this conversation, pinned       | allow (`conversation_grant`)    |
 * | 5 | setting.approval === 'ask'                  | ask (`tool_setting`)            |
 * | 6 | mode never_ask                              | allow (`mode_never_ask`)        |
 * | 7 | mode ask_unless_read_only, readOnlyHint true| allow (`read_only_hint`)        |
 * | 8 | otherwise                                   | ask (`mode`)                    |
 *
 * Per-tool choices override the mode (rows 3 and 5 come before 6–8). A conversation grant is the
 * user's later, narrower answer on an approval card, so it wins over "ask every time" (row 4
 * before row 5) but never over "disabled" (row 1). Earlier allows were given for the definition
 * the user saw: a `changed` tool always asks (row 2, whatever the mode — its hints may be new
 * too), and a `new` one is never allowed by an earlier "Always allow" or grant (rows 3–4 need
 * `pinned`) — docs/ARCHITECTURE.md "Pinned tool definitions".
 */
import type { PermissionMode, ToolAnnotations, ToolApproval } from '../../../preload/contract/index.js';

/** The mode used when the user never chose one. */
export const DEFAULT_PERMISSION_MODE: PermissionMode = 'ask_unless_read_only';

/** One tool's stored setting (absent fields = defaults: enabled, follow the mode). */
export interface ToolPolicySetting {
  enabled?: boolean;
  approval?: ToolApproval;
}

/** Everything the decision depends on. */
export interface PolicyInput {
  mode: PermissionMode;
  setting: ToolPolicySetting | undefined;
  annotations: ToolAnnotations;
  /** The user chose "Allow in this conversation" for this tool earlier in the conversation. */
  conversationGrant: boolean;
  /** How the tool's definition stands against its pin (`ToolPinStatus['kind']`). */
  pin: 'pinned' | 'new' | 'changed';
}

/** Why a call may run without asking. */
export type AllowReason = 'always_allow' | 'conversation_grant' | 'mode_never_ask' | 'read_only_hint';
/** Why the user must be asked. */
export type AskReason = 'definition_changed' | 'tool_setting' | 'mode';

/** The decision, as a discriminated union the caller switches on. */
export type PolicyDecision = { kind: 'refuse'; reason: 'disabled' } | { kind: 'allow'; why: AllowReason } | { kind: 'ask'; why: AskReason };

/** Decide whether a call may run, must be asked about, or is refused (table in the module doc). */
export function decide(input: PolicyInput): PolicyDecision {
  const s = input.setting;
  if (s?.enabled === false) return { kind: 'refuse', reason: 'disabled' };
  if (input.pin === 'changed') return { kind: 'ask', why: 'definition_changed' };
  const pinned = input.pin === 'pinned';
  if (pinned && s?.approval === 'always_allow') return { kind: 'allow', why: 'always_allow' };
  if (pinned && input.conversationGrant) return { kind: 'allow', why: 'conversation_grant' };
  if (s?.approval === 'ask') return { kind: 'ask', why: 'tool_setting' };
  if (input.mode === 'never_ask') return { kind: 'allow', why: 'mode_never_ask' };
  if (input.mode === 'ask_unless_read_only' && input.annotations.readOnlyHint === true) return { kind: 'allow', why: 'read_only_hint' };
  return { kind: 'ask', why: 'mode' };
}
