/**
 * The tool-approval vocabularies (docs/ARCHITECTURE.md "Permissions"), each one tuple: the
 * contract's zod enums, main's readers of stored settings and the window's choices all derive
 * from these. Dependency-free: main and the window import these values alike.
 */

/**
 * The global permission modes, in the order the settings show them: `ask_all` = every call needs
 * approval; `ask_unless_read_only` = every call unless the tool declares `readOnlyHint: true`
 * (MCP spec "Tools: Tool annotations"); `never_ask` = no call does.
 */
export const PERMISSION_MODES = ['ask_all', 'ask_unless_read_only', 'never_ask'] as const;
/** One of {@link PERMISSION_MODES}. */
export type PermissionMode = (typeof PERMISSION_MODES)[number];

/** Whether `v` is one of {@link PERMISSION_MODES}. */
export function isPermissionMode(v: unknown): v is PermissionMode {
  return (PERMISSION_MODES as readonly unknown[]).includes(v);
}

/**
 * A tool's own approval choice, overriding the mode: `ask` = ask every time; `always_allow` =
 * never ask. Absent = follow the global mode.
 */
export const TOOL_APPROVALS = ['ask', 'always_allow'] as const;
/** One of {@link TOOL_APPROVALS}. */
export type ToolApproval = (typeof TOOL_APPROVALS)[number];

/** Whether `v` is one of {@link TOOL_APPROVALS}. */
export function isToolApproval(v: unknown): v is ToolApproval {
  return (TOOL_APPROVALS as readonly unknown[]).includes(v);
}
