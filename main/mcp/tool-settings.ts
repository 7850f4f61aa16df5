/**
 * Per-tool settings of one server, stored with the server in mcp_servers.json as a `tools` map
 * (how they are enforced: main/chat/permissions/index.ts):
 *
 * ```json
 * "files": {"type": "local", "command": [...],
 *           "tools": {"write_file": {"enabled": false}, "read_file": {"approval": "always_allow"}}}
 * ```
 *
 * Keys are the tools' real names on their server (not the namespaced `{server}__{tool}` names,
 * which may change when another server's tool collides). This module owns the shape: parsing
 * (strict for our own key, mapping other hosts' keys on import), normalising, and the PATCH merge.
 * Pure functions, no state.
 */

import type { ToolApproval } from '../../preload/contract/index.js';
import { TOOL_APPROVALS, isToolApproval } from '../../preload/contract/rules/index.js';

/** `ask` = ask every time; `always_allow` = never ask. Absent = follow the global mode. */
export type { ToolApproval };

/** The user's choices for one tool. Absent fields mean the default (enabled, follow the mode). */
export interface ToolSetting {
  enabled?: boolean;
  approval?: ToolApproval;
}

/** Tool name → setting. Only tools with a non-default choice appear. */
export type ToolSettingsMap = Record<string, ToolSetting>;

/**
 * One entry of a tool-settings PATCH: a field absent → keep; present with a value → replace;
 * `approval: null` → remove the per-tool approval (follow the mode again). A whole entry of
 * `null` removes every choice for that tool.
 */
export type ToolSettingsPatchEntry = { enabled?: boolean; approval?: ToolApproval | null } | null;

/** Most entries in one server's `tools` map. */
export const MAX_TOOL_SETTINGS = 1024;
/** Longest tool name accepted as a key (MCP spec 2025-11-25 "Tool names": 1–128 characters). */
export const MAX_TOOL_NAME_LENGTH = 128;

/** Thrown for a `tools` map (or another host's equivalent) that cannot be understood. */
export class ToolSettingsError extends Error {
  override name = 'ToolSettingsError';
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Set `map[name]` as an own data property. Tool names come from servers and files; a tool may be
 * named `__proto__`, which a plain assignment would turn into a prototype change.
 */
function put<T>(map: Record<string, T>, name: string, value: T): void {
  Object.defineProperty(map, name, { value, enumerable: true, writable: true, configurable: true });
}

/** `map[name]` only if it is an own property. */
function own<T>(map: Record<string, T>, name: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(map, name) ? map[name] : undefined;
}

function checkToolName(name: string, where: string): void {
  if (name.length === 0 || name.length > MAX_TOOL_NAME_LENGTH) throw new ToolSettingsError(`${where}: tool names must be 1–${MAX_TOOL_NAME_LENGTH} characters`);
}

/** Drop default values and empty entries so the file stays minimal and comparisons are stable. */
export function normalizeToolSettings(map: ToolSettingsMap): ToolSettingsMap {
  const out: ToolSettingsMap = {};
  for (const [name, s] of Object.entries(map)) {
    const n: ToolSetting = {};
    if (s.enabled === false) n.enabled = false;
    if (s.approval !== undefined) n.approval = s.approval;
    if (Object.keys(n).length) put(out, name, n);
  }
  return out;
}

/**
 * Parse our own `tools` key (strict: unknown fields or wrong types are refused).
 * @throws ToolSettingsError
 */
export function parseToolSettings(raw: unknown): ToolSettingsMap {
  if (raw === undefined || raw === null) return {};
  if (!isRecord(raw)) throw new ToolSettingsError('tools must be an object of tool name → {enabled, approval}');
  const entries = Object.entries(raw);
  if (entries.length > MAX_TOOL_SETTINGS) throw new ToolSettingsError(`tools has more than ${MAX_TOOL_SETTINGS} entries`);
  const out: ToolSettingsMap = {};
  for (const [name, v] of entries) {
    checkToolName(name, 'tools');
    const label = `tools.${name.slice(0, 64)}`;
    if (!isRecord(v)) throw new ToolSettingsError(`${label} must be an object`);
    for (const k of Object.keys(v)) if (k !== 'enabled' && k !== 'approval') throw new ToolSettingsError(`${label} has an unknown field "${k.slice(0, 32)}"`);
    const s: ToolSetting = {};
    if (v.enabled !== undefined) {
      if (typeof v.enabled !== 'boolean') throw new ToolSettingsError(`${label}.enabled must be true or false`);
      s.enabled = v.enabled;
    }
    if (v.approval !== undefined && v.approval !== null) {
      if (!isToolApproval(v.approval)) throw new ToolSettingsError(`${label}.approval must be ${TOOL_APPROVALS.map((a) => `"${a}"`).join(' or ')}`);
      s.approval = v.approval;
    }
    put(out, name, s);
  }
  return normalizeToolSettings(out);
}

function nameList(v: unknown, key: string): string[] {
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw new ToolSettingsError(`${key} must be a list of tool names`);
  if (v.length > MAX_TOOL_SETTINGS) throw new ToolSettingsError(`${key} has more than ${MAX_TOOL_SETTINGS} entries`);
  for (const n of v as string[]) checkToolName(n, key);
  return v as string[];
}

/** Other hosts' per-tool keys we map, and what they mean. */
const DISABLE_KEYS = ['disabledTools', 'disabled_tools', 'excludeTools'] as const;
const ALLOW_KEYS = ['alwaysAllow', 'autoApprove', 'always_allow'] as const;

/** What was read from other hosts' keys of one entry. */
export interface ForeignToolKeys {
  /** Settings they map to (merged under our own `tools` key, which wins). */
  tools: ToolSettingsMap;
  /** Keys seen but not mappable to per-tool settings (e.g. `autoApprove: true`), for the preview. */
  unmapped: string[];
}

/**
 * Map other hosts' per-tool keys of one server entry:
 * - `disabledTools` (Roo Code, Kiro, Amazon Q), `disabled_tools` (Codex, mcphub), `excludeTools`
 *   (Gemini CLI): lists of names → `enabled: false`;
 * - `alwaysAllow` (Cline, Roo Code), `autoApprove` (Cline, Kiro), `always_allow`: lists of names →
 *   `approval: "always_allow"`.
 * A key whose value is not a list (e.g. `autoApprove: true`, Gemini CLI's `trust` and
 * `includeTools`) cannot be turned into per-tool choices without the tool list; it is reported in
 * `unmapped` and nothing is granted.
 * @throws ToolSettingsError for a list holding non-strings or over-long names.
 */
export function mapForeignToolKeys(raw: Record<string, unknown>): ForeignToolKeys {
  const tools: ToolSettingsMap = {};
  const unmapped: string[] = [];
  for (const key of DISABLE_KEYS) {
    if (raw[key] === undefined) continue;
    for (const n of nameList(raw[key], key)) put<ToolSetting>(tools, n, { ...own(tools, n), enabled: false });
  }
  for (const key of ALLOW_KEYS) {
    if (raw[key] === undefined) continue;
    if (!Array.isArray(raw[key])) {
      unmapped.push(key);
      continue;
    }
    for (const n of nameList(raw[key], key)) put<ToolSetting>(tools, n, { ...own(tools, n), approval: 'always_allow' });
  }
  for (const key of ['trust', 'includeTools', 'enabled_tools'] as const) if (raw[key] !== undefined) unmapped.push(key);
  if (Object.keys(tools).length > MAX_TOOL_SETTINGS) throw new ToolSettingsError(`more than ${MAX_TOOL_SETTINGS} tool settings`);
  return { tools: normalizeToolSettings(tools), unmapped };
}

/**
 * Read a server entry's tool settings: other hosts' keys first, then our own `tools` map on top
 * (a tool named in both keeps our fields where set).
 * @throws ToolSettingsError
 */
export function toolSettingsOfEntry(raw: Record<string, unknown>): ForeignToolKeys {
  const foreign = mapForeignToolKeys(raw);
  const ours = parseToolSettings(raw.tools);
  const merged: ToolSettingsMap = { ...foreign.tools };
  for (const [n, s] of Object.entries(ours)) put(merged, n, { ...own(merged, n), ...s });
  return { tools: normalizeToolSettings(merged), unmapped: foreign.unmapped };
}

/**
 * Apply a tool-settings PATCH (see {@link ToolSettingsPatchEntry}); returns a new normalised map.
 * Tools absent from the patch keep their settings.
 */
export function applyToolSettingsPatch(stored: ToolSettingsMap | undefined, patch: Record<string, ToolSettingsPatchEntry> | undefined): ToolSettingsMap {
  const out: ToolSettingsMap = structuredClone(stored ?? {});
  for (const [name, p] of Object.entries(patch ?? {})) {
    if (p === null) {
      delete out[name];
      continue;
    }
    const cur: ToolSetting = { ...own(out, name) };
    if (p.enabled !== undefined) cur.enabled = p.enabled;
    if (p.approval === null) delete cur.approval;
    else if (p.approval !== undefined) cur.approval = p.approval;
    put(out, name, cur);
  }
  const n = normalizeToolSettings(out);
  if (Object.keys(n).length > MAX_TOOL_SETTINGS) throw new ToolSettingsError(`more than ${MAX_TOOL_SETTINGS} tool settings`);
  return n;
}
