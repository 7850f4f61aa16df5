/**
 * The host's own tools for the model (MCP "Resources" and "Prompts" through tools): list the
 * resources and prompts of ready servers, read a resource, fetch a prompt. They are offered as
 * `host__list_resources`, `host__read_resource`, `host__list_prompts` and `host__get_prompt`
 * (valid provider tool names, built like every tool name by ../adapter.ts), declare
 * `readOnlyHint: true`, and pass the same permission gate as any tool. A read goes only to the
 * server that listed the resource, a prompt only to the server that listed it; every result is
 * bounded (docs/ARCHITECTURE.md "Protocol features").
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { ServerTool } from '../adapter.js';
import type { ReadyServer, ReadyServers } from '../host/ready-server.js';

/**
 * The pseudo-server the host's tools belong to in the tool table. It is not a valid server name
 * (names start with a letter or digit), so no configured server can be confused with it.
 */
export const META_SERVER = '@host';
/** The name part the tools are namespaced with (`host__…`). */
const NAME_PART = 'host';

/** Most resources or prompts one listing returns (all servers together). */
export const MAX_LISTED = 300;
/** Most characters of text one read or prompt returns (the host's total cap applies on top). */
export const MAX_META_TEXT = 200_000;
/** Longest description kept in a listing. */
const MAX_DESCRIPTION = 300;

const serverArg = { type: 'string', description: 'The server name, as given in a listing.' };
const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** The tool definitions (before naming); `resources` / `prompts`: whether any ready server offers them. */
export function metaToolDefinitions(has: { resources: boolean; prompts: boolean }): ServerTool[] {
  const out: ServerTool[] = [];
  if (has.resources) {
    out.push({
      server: NAME_PART,
      name: 'list_resources',
      title: 'List resources',
      description: 'List the resources (documents, files, data) that the connected MCP servers offer. Optionally only those of one server.',
      inputSchema: { type: 'object', properties: { server: { ...serverArg, description: 'Only this server (optional).' } }, additionalProperties: false },
      annotations: READ_ONLY,
    });
    out.push({
      server: NAME_PART,
      name: 'read_resource',
      title: 'Read a resource',
      description: 'Read one resource that a server listed (see list_resources), by its server and URI.',
      inputSchema: { type: 'object', properties: { server: serverArg, uri: { type: 'string', description: 'The resource URI, exactly as listed.' } }, required: ['server', 'uri'], additionalProperties: false },
      annotations: READ_ONLY,
    });
  }
  if (has.prompts) {
    out.push({
      server: NAME_PART,
      name: 'list_prompts',
      title: 'List prompts',
      description: 'List the prompt templates that the connected MCP servers offer, with their arguments.',
      inputSchema: { type: 'object', properties: { server: { ...serverArg, description: 'Only this server (optional).' } }, additionalProperties: false },
      annotations: READ_ONLY,
    });
    out.push({
      server: NAME_PART,
      name: 'get_prompt',
      title: 'Get a prompt',
      description: 'Fetch one prompt template that a server listed (see list_prompts), filled with its arguments.',
      inputSchema: {
        type: 'object',
        properties: { server: serverArg, name: { type: 'string', description: 'The prompt name, as listed.' }, arguments: { type: 'object', additionalProperties: { type: 'string' }, description: 'Argument values by name.' } },
        required: ['server', 'name'],
        additionalProperties: false,
      },
      annotations: READ_ONLY,
    });
  }
  return out;
}

/** Which host tools to offer for the ready servers. */
export function metaToolsFor(ready: Iterable<ReadyServer>): ServerTool[] {
  let resources = false;
  let prompts = false;
  for (const c of ready) {
    resources ||= c.resources.length > 0;
    prompts ||= c.prompts.length > 0;
  }
  return metaToolDefinitions({ resources, prompts });
}

/** A tool error the model reads (the same path as a server's `isError` result). */
function fail(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

function ok(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 1) }] };
}

function cut(text: string, budget: { left: number }): string {
  if (text.length <= budget.left) {
    budget.left -= text.length;
    return text;
  }
  const kept = text.slice(0, Math.max(0, budget.left));
  const n = text.length - kept.length;
  budget.left = 0;
  return `${kept}\n[… ${n} more characters not shown]`;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** Runs the host's tools over the host's live connections. */
export class MetaTools {
  /** @param servers the host's ready servers and configured names (file order) */
  constructor(private readonly servers: ReadyServers) {}

  private names(): string[] {
    return this.servers.names();
  }

  private ready(only: string | null): ReadyServer[] {
    const out: ReadyServer[] = [];
    for (const n of only === null ? this.names() : [only]) {
      const c = this.servers.ready(n);
      if (c) out.push(c);
    }
    return out;
  }

  /**
   * Run one host tool by its real name (`list_resources`, `read_resource`, `list_prompts`,
   * `get_prompt`). Bad arguments, unknown servers and unlisted items give a tool error result;
   * protocol failures of the server throw (the caller records them as tool errors).
   */
  async call(tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallToolResult> {
    switch (tool) {
      case 'list_resources':
        return this.listResources(args);
      case 'read_resource':
        return this.readResource(args, signal);
      case 'list_prompts':
        return this.listPrompts(args);
      case 'get_prompt':
        return this.getPrompt(args, signal);
      default:
        return fail(`Unknown host tool "${tool.slice(0, 64)}".`);
    }
  }

  private only(args: Record<string, unknown>): string | null | Error {
    if (args.server === undefined || args.server === null) return null;
    const s = str(args.server);
    if (s === null || !this.names().includes(s)) return new Error(`No server named "${String(args.server).slice(0, 64)}".`);
    return s;
  }

  private listResources(args: Record<string, unknown>): CallToolResult {
    const only = this.only(args);
    if (only instanceof Error) return fail(only.message);
    const resources: Array<Record<string, string>> = [];
    let total = 0;
    for (const c of this.ready(only)) {
      for (const r of c.resources) {
        total++;
        if (resources.length >= MAX_LISTED) continue;
        resources.push({
          server: c.name,
          uri: r.uri,
          name: r.name,
          ...(r.mimeType ? { mimeType: r.mimeType } : {}),
          ...(r.description ? { description: r.description.slice(0, MAX_DESCRIPTION) } : {}),
        });
      }
    }
    return ok({ resources, ...(total > resources.length ? { note: `${total - resources.length} more resources were not listed.` } : {}) });
  }

  private listPrompts(args: Record<string, unknown>): CallToolResult {
    const only = this.only(args);
    if (only instanceof Error) return fail(only.message);
    const prompts: Array<Record<string, unknown>> = [];
    let total = 0;
    for (const c of this.ready(only)) {
      for (const p of c.prompts) {
        total++;
        if (prompts.length >= MAX_LISTED) continue;
        prompts.push({
          server: c.name,
          name: p.name,
          ...(p.description ? { description: p.description.slice(0, MAX_DESCRIPTION) } : {}),
          arguments: (p.arguments ?? []).slice(0, 32).map((a) => ({ name: a.name, required: a.required === true, ...(a.description ? { description: a.description.slice(0, MAX_DESCRIPTION) } : {}) })),
        });
      }
    }
    return ok({ prompts, ...(total > prompts.length ? { note: `${total - prompts.length} more prompts were not listed.` } : {}) });
  }

  /** The ready server `args.server`, or the error to give the model. */
  private target(args: Record<string, unknown>): ReadyServer | string {
    const server = str(args.server);
    if (!server) return 'Give the server name.';
    if (!this.names().includes(server)) return `No server named "${server.slice(0, 64)}".`;
    return this.servers.ready(server) ?? `Server "${server}" is not ready (not connected, starting, failed or waiting for sign-in).`;
  }

  private async readResource(args: Record<string, unknown>, signal?: AbortSignal): Promise<CallToolResult> {
    const c = this.target(args);
    if (typeof c === 'string') return fail(c);
    const uri = str(args.uri);
    if (!uri) return fail('Give the resource URI.');
    // Reads go only to the server that listed the resource.
    if (!c.resources.some((r) => r.uri === uri)) return fail(`Server "${c.name}" did not list a resource "${uri.slice(0, 512)}"; use list_resources.`);
    const r = await c.readResource(uri, signal);
    const budget = { left: MAX_META_TEXT };
    const content: CallToolResult['content'] = [];
    for (const item of (r.contents ?? []).slice(0, 64)) {
      const it = item as { uri?: unknown; mimeType?: unknown; text?: unknown; blob?: unknown };
      const mime = str(it.mimeType);
      if (typeof it.text === 'string') content.push({ type: 'text', text: `[${str(it.uri) ?? uri}${mime ? ` (${mime})` : ''}]\n${cut(it.text, budget)}` });
      else if (typeof it.blob === 'string' && mime && /^image\/(png|jpeg|gif|webp)$/i.test(mime)) content.push({ type: 'image', data: it.blob, mimeType: mime });
      else content.push({ type: 'text', text: `[${str(it.uri) ?? uri}: binary content${mime ? ` (${mime})` : ''}, ${typeof it.blob === 'string' ? Math.floor((it.blob.length * 3) / 4) : 0} bytes, not shown]` });
    }
    if (content.length === 0) content.push({ type: 'text', text: `[${uri}: empty]` });
    return { content };
  }

  private async getPrompt(args: Record<string, unknown>, signal?: AbortSignal): Promise<CallToolResult> {
    const c = this.target(args);
    if (typeof c === 'string') return fail(c);
    const name = str(args.name);
    if (!name) return fail('Give the prompt name.');
    if (!c.prompts.some((p) => p.name === name)) return fail(`Server "${c.name}" did not list a prompt "${name.slice(0, 128)}"; use list_prompts.`);
    const raw = args.arguments;
    const values: Record<string, string> = {};
    if (raw !== undefined && raw !== null) {
      if (typeof raw !== 'object' || Array.isArray(raw)) return fail('"arguments" must be an object of strings.');
      for (const [k, v] of Object.entries(raw as Record<string, unknown>).slice(0, 64)) {
        if (typeof v !== 'string') return fail(`Argument "${k.slice(0, 64)}" must be a string.`);
        values[k] = v.slice(0, 10_000);
      }
    }
    const r = await c.getPrompt(name, values, signal);
    const budget = { left: MAX_META_TEXT };
    const content: CallToolResult['content'] = [];
    if (r.description) content.push({ type: 'text', text: `[prompt ${name}: ${cut(r.description, budget)}]` });
    for (const m of (r.messages ?? []).slice(0, 200)) {
      const b = m.content as { type?: string; text?: unknown; data?: unknown; mimeType?: unknown; resource?: { uri?: unknown; text?: unknown }; uri?: unknown };
      if (b.type === 'text' && typeof b.text === 'string') content.push({ type: 'text', text: `${m.role}: ${cut(b.text, budget)}` });
      else if (b.type === 'image' && typeof b.data === 'string' && typeof b.mimeType === 'string') content.push({ type: 'image', data: b.data, mimeType: b.mimeType });
      else if (b.type === 'resource' && b.resource) {
        const text = typeof b.resource.text === 'string' ? `\n${cut(b.resource.text, budget)}` : ' (binary, not shown)';
        content.push({ type: 'text', text: `${m.role}: [resource ${str(b.resource.uri) ?? ''}]${text}` });
      } else if (b.type === 'resource_link') content.push({ type: 'text', text: `${m.role}: [resource link ${str(b.uri) ?? ''}]` });
      else content.push({ type: 'text', text: `${m.role}: [${String(b.type ?? 'unknown').slice(0, 32)} content not shown]` });
    }
    return { content };
  }
}
