/**
 * MCP wire types ↔ app tool types. Pure functions, no state.
 *
 * - Tool names: `{server}__{tool}`, characters outside `[A-Za-z0-9_-]` → `_`, at most 64 characters
 *   keeping the tool's suffix (OpenAI and Anthropic accept `^[a-zA-Z0-9_-]{1,64}$`). Collisions get a
 *   stable short hash suffix and a visible warning; nothing is shadowed or dropped.
 * - Result content (MCP spec 2025-06-18, "Tool Result"): text → text; image → image; embedded
 *   resource → `[resource: <uri>]`; anything else → a short textual description.
 */
import { createHash } from 'node:crypto';
import type { ContentView, ServerIssue, ToolAnnotations } from '../../preload/contract/index.js';

/** A tool renamed because its namespaced name was taken (an issue on its server's view). */
export type ToolRenamed = Extract<ServerIssue, { kind: 'tool_renamed' }>;

/** Maximum length of a tool name accepted by model providers. */
export const MAX_TOOL_NAME = 64;

/** Replace every code point outside `[A-Za-z0-9_-]` with `_`. */
export function sanitizeNamePart(s: string): string {
  let out = '';
  for (const ch of s) out += /^[A-Za-z0-9_-]$/.test(ch) ? ch : '_';
  return out || '_';
}

/**
 * Build the namespaced tool name `{server}__{tool}` (sanitized, ≤ 64 chars).
 * When too long, the server part is shortened first (kept to at least 8 chars), then the tool
 * name is cut from the front so that its suffix — usually the distinctive part — survives.
 */
export function namespaceToolName(server: string, tool: string): string {
  const s = sanitizeNamePart(server);
  const t = sanitizeNamePart(tool);
  const full = `${s}__${t}`;
  if (full.length <= MAX_TOOL_NAME) return full;
  const room = MAX_TOOL_NAME - 2;
  const sp = s.slice(0, Math.max(Math.min(s.length, 8), room - t.length));
  const tp = t.slice(-(room - sp.length));
  return `${sp}__${tp}`;
}

/** A stable 6-hex-digit hash of a server/tool pair, used to break name collisions. */
export function shortHash(server: string, tool: string): string {
  return createHash('sha256').update(`${server}\u0000${tool}`).digest('hex').slice(0, 6);
}

/** One tool of one server, before naming. */
export interface ServerTool {
  server: string;
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  /** The tool's display title (MCP 2025-06-18+ `title`), if any. */
  title?: string;
  /** The server's declared hints (MCP spec 2025-11-25 "Tool annotations"), if any. */
  annotations?: unknown;
}

/** A tool as registered for the model. */
export interface RegisteredTool {
  /** Unique namespaced name offered to the model. */
  name: string;
  server: string;
  /** The tool's real name on its server. */
  original_name: string;
  description: string;
  input_schema: Record<string, unknown>;
  /** Display title (`title`, else `annotations.title`), or null. */
  title: string | null;
  /** The server's declared hints, cleaned to the known fields (hints, not guarantees). */
  annotations: ToolAnnotations;
}

/** The annotations of a tool that declares none: one frozen object shared by every such tool. */
const NO_ANNOTATIONS: ToolAnnotations = Object.freeze({});

/**
 * Keep only the known annotation fields with the right types (MCP spec 2025-11-25 "Tool
 * annotations"); anything else a server sends is dropped. Titles are cut to 256 characters. Without
 * annotations the result is a shared frozen empty object (never mutate it).
 */
export function cleanAnnotations(raw: unknown): ToolAnnotations {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return NO_ANNOTATIONS;
  const r = raw as Record<string, unknown>;
  const out: ToolAnnotations = {};
  if (typeof r.title === 'string') out.title = r.title.slice(0, 256);
  for (const k of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) if (typeof r[k] === 'boolean') out[k] = r[k];
  return out;
}

/** Result of naming every tool of every server. */
export interface ToolTable {
  tools: RegisteredTool[];
  byName: Map<string, RegisteredTool>;
  /** Per server: its tools renamed because their name was taken (collisions), as issues the window words. */
  renames: Map<string, ToolRenamed[]>;
}

/**
 * Name every tool of every server, in the given order, with collision handling: when a
 * namespaced name is already taken (two tools that sanitize alike, or a name cut to 64 chars),
 * the later one gets `_<hash>` (hash of its real server and tool names, so it is stable across
 * restarts) and its server gets a warning. Never drops a tool. With `reuse`, a tool named as
 * last time keeps its `RegisteredTool` object (the cache is keyed by the `ServerTool` object, so
 * the caller must pass the same one while the listing is the same; docs/ARCHITECTURE.md "Memory per server").
 */
export function buildToolTable(tools: ServerTool[], reuse?: WeakMap<ServerTool, RegisteredTool>): ToolTable {
  const byName = new Map<string, RegisteredTool>();
  const renames = new Map<string, ToolRenamed[]>();
  const out: RegisteredTool[] = [];
  for (const t of tools) {
    let name = namespaceToolName(t.server, t.name);
    if (byName.has(name)) {
      const clash = byName.get(name)!;
      const suffix = `_${shortHash(t.server, t.name)}`;
      name = name.length + suffix.length <= MAX_TOOL_NAME ? name + suffix : name.slice(0, MAX_TOOL_NAME - suffix.length) + suffix;
      const hashed = name;
      for (let n = 2; byName.has(name); n++) name = hashed.slice(0, MAX_TOOL_NAME - `_${n}`.length) + `_${n}`;
      const w = renames.get(t.server) ?? [];
      w.push({ kind: 'tool_renamed', tool: t.name.slice(0, 128), like: clash.original_name.slice(0, 128), like_server: clash.server, offered_as: name });
      renames.set(t.server, w);
    }
    const prior = reuse?.get(t);
    const reg = prior && prior.name === name ? prior : registered(t, name);
    reuse?.set(t, reg);
    byName.set(name, reg);
    out.push(reg);
  }
  return { tools: out, byName, renames };
}

/** The registered form of one server tool under its final name. */
function registered(t: ServerTool, name: string): RegisteredTool {
  const reg: RegisteredTool = {
    name,
    server: t.server,
    original_name: t.name,
    description: t.description ?? '',
    input_schema: normalizeInputSchema(t.inputSchema),
    title: null,
    annotations: cleanAnnotations(t.annotations),
  };
  reg.title = typeof t.title === 'string' && t.title ? t.title.slice(0, 256) : (reg.annotations.title ?? null);
  return reg;
}

/** Deepest nesting of objects/arrays accepted in a tool's input schema. */
export const MAX_SCHEMA_DEPTH = 64;

/**
 * Whether `value` nests objects/arrays more than `maxDepth` levels deep. Iterative, so it is safe
 * on values too deep for recursion; shared references are visited once (cycles end the walk).
 */
export function exceedsDepth(value: unknown, maxDepth: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  const seen = new Set<object>();
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (typeof v !== 'object' || v === null || seen.has(v)) continue;
    if (d >= maxDepth) return true;
    seen.add(v);
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (typeof child === 'object' && child !== null) stack.push([child, d + 1]);
  }
  return false;
}

/**
 * Ensure an input schema is an object schema (some servers omit `type` or `properties`). A schema
 * that already is one is returned as it is, shared with the listing (never mutate the result);
 * otherwise a shallow copy with the missing parts.
 */
export function normalizeInputSchema(schema: unknown): Record<string, unknown> {
  if (typeof schema === 'object' && schema !== null && !Array.isArray(schema)) {
    const given = schema as Record<string, unknown>;
    if (given.type !== undefined && (given.type !== 'object' || (typeof given.properties === 'object' && given.properties !== null))) return given;
  }
  const s = typeof schema === 'object' && schema !== null && !Array.isArray(schema) ? { ...(schema as Record<string, unknown>) } : {};
  if (s.type === undefined) s.type = 'object';
  if (s.type === 'object' && (typeof s.properties !== 'object' || s.properties === null)) s.properties = {};
  return s;
}

/** A tool result converted for the app: content plus the error flag. */
export interface ConvertedResult {
  content: ContentView[];
  isError: boolean;
}

function describeUnknown(block: Record<string, unknown>): string {
  const type = typeof block.type === 'string' ? block.type : 'unknown';
  const keys = Object.keys(block).filter((k) => k !== 'type').slice(0, 8).map((k) => k.slice(0, 32));
  return `[unsupported content type "${type.slice(0, 64)}"${keys.length ? ` with fields ${keys.join(', ')}` : ''}]`;
}

/**
 * Convert an MCP `CallToolResult` into app content (docs/ARCHITECTURE.md "Tool names and result content").
 * Tolerant: a malformed result never throws; unknown block types become a short description.
 * `structuredContent` without content becomes JSON text. `isError: true` sets `isError`.
 */
export function convertCallResult(result: unknown): ConvertedResult {
  const r = (typeof result === 'object' && result !== null ? result : {}) as Record<string, unknown>;
  const isError = r.isError === true;
  const blocks = Array.isArray(r.content) ? r.content : [];
  const content: ContentView[] = [];
  for (const raw of blocks) {
    if (typeof raw !== 'object' || raw === null) {
      content.push({ type: 'text', text: '[malformed content block]' });
      continue;
    }
    const b = raw as Record<string, unknown>;
    switch (b.type) {
      case 'text':
        content.push({ type: 'text', text: typeof b.text === 'string' ? b.text : '' });
        break;
      case 'image':
        if (typeof b.data === 'string' && typeof b.mimeType === 'string') content.push({ type: 'image', data: b.data, mimeType: b.mimeType });
        else content.push({ type: 'text', text: '[image without data]' });
        break;
      case 'audio':
        content.push({ type: 'text', text: `[audio: ${typeof b.mimeType === 'string' ? b.mimeType : 'unknown type'}]` });
        break;
      case 'resource': {
        const res = (typeof b.resource === 'object' && b.resource !== null ? b.resource : {}) as Record<string, unknown>;
        content.push({ type: 'text', text: `[resource: ${typeof res.uri === 'string' ? res.uri : 'unknown'}]` });
        break;
      }
      case 'resource_link':
        content.push({ type: 'text', text: `[resource: ${typeof b.uri === 'string' ? b.uri : 'unknown'}]` });
        break;
      default:
        content.push({ type: 'text', text: describeUnknown(b) });
    }
  }
  if (content.length === 0 && r.structuredContent !== undefined) {
    let text: string;
    try {
      text = JSON.stringify(r.structuredContent) ?? '';
    } catch {
      text = '[structured content that could not be encoded]';
    }
    content.push({ type: 'text', text });
  }
  return { content, isError };
}

/** Join the text parts of converted content (images become `[image: mime]`). */
export function contentToText(content: ContentView[]): string {
  return content.map((c) => (c.type === 'text' ? c.text : `[image: ${c.mimeType}]`)).join('\n');
}
