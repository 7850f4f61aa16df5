/**
 * Listing what a connected server offers (MCP spec "Utilities: Pagination"): one whole list
 * through the page guard of main/mcp/lists.ts with its `list_stopped` issue, and the checks a
 * listed tool must pass before the model sees it (main/mcp/tool-check.ts, SEP-2243 headers), and
 * which provider families must leave a tool out (main/chat/schemas/).
 * docs/ARCHITECTURE.md "Protocol eras".
 */
import type { Client, Tool } from '@modelcontextprotocol/client';
import type { ServerIssue } from '../../../preload/contract/index.js';
import { collectPages, ToolsPageSchema } from '../lists.js';
import { familiesLeavingOut } from '../../chat/schemas/index.js';
import { normalizeInputSchema } from '../adapter.js';
import { checkTools } from '../tool-check.js';
import { invalidHeaderDeclaration } from '../tool-headers.js';
import { MAX_LIST_PAGES } from './requests.js';

/** The lists a connection keeps. */
export type ListName = 'tools' | 'resources' | 'prompts';

/** One page fetcher: `params` carries the cursor; `timeoutMs` the read timeout. */
export type PageFetcher<T> = (client: Client, params: { cursor?: string }, timeoutMs: number) => Promise<{ items: T[]; nextCursor?: string | undefined }>;

/**
 * Follow every page of one list through `collectPages` (deduplicated by `key`); empty when the
 * server did not declare the capability. Pages are fetched one by one with `client.request` (the
 * SDK's no-cursor `list*()` verbs aggregate every page themselves and do not stop on a cursor
 * that cycles).
 * @param priorIssues the list's issues so far; its `list_stopped` issue is replaced
 * @returns the items and the list's new issues. @throws the error of a failed page.
 */
export async function listAll<T>(client: Client, capability: ListName, page: PageFetcher<T>, key: (item: T) => unknown, timeoutMs: number, priorIssues: ServerIssue[], note: (text: string) => void): Promise<{ items: T[]; issues: ServerIssue[] }> {
  const issues = priorIssues.filter((i) => i.kind !== 'list_stopped');
  if (!client.getServerCapabilities()?.[capability]) return { items: [], issues };
  const r = await collectPages((cursor) => page(client, cursor === undefined ? {} : { cursor }, timeoutMs), MAX_LIST_PAGES, key);
  if (r.stopped) note(`listing ${capability} stopped after ${r.items.length} items: ${r.stopped === 'repeated_cursor' ? 'the server repeated a page cursor' : `more than ${MAX_LIST_PAGES} pages`}`);
  return { items: r.items, issues: r.stopped ? [...issues, { kind: 'list_stopped', list: capability, reason: r.stopped }] : issues };
}

/** One `resources/list` page (MCP spec "Resources: Listing Resources"). */
export async function resourcesPage(c: Client, params: { cursor?: string }, timeout: number) {
  const res = await c.request({ method: 'resources/list', params }, { timeout });
  return { items: res.resources, nextCursor: res.nextCursor };
}

/** One `prompts/list` page (MCP spec "Prompts: Listing Prompts"). */
export async function promptsPage(c: Client, params: { cursor?: string }, timeout: number) {
  const res = await c.request({ method: 'prompts/list', params }, { timeout });
  return { items: res.prompts, nextCursor: res.nextCursor };
}

/** One `tools/list` page, checked loosely: one malformed (or absurdly deep) tool must not fail the listing. */
export async function toolsPage(c: Client, params: { cursor?: string }, timeout: number) {
  const res = await c.request({ method: 'tools/list', params }, ToolsPageSchema, { timeout });
  return { items: res.tools, nextCursor: res.nextCursor };
}

/**
 * Check listed tools one by one (main/mcp/tool-check.ts): a malformed tool is left out, or
 * offered without its schema, with an issue naming it. Over HTTP on 2026-07-28 (`modernHttp`) a
 * tool with invalid x-mcp-header declarations is left out too (SEP-2243). A tool some provider
 * family cannot take gets a `tool_left_out_for_provider` issue per family. Each issue is logged.
 */
export function checkListedTools(listed: Parameters<typeof checkTools>[0], modernHttp: boolean, note: (text: string) => void): { tools: Tool[]; issues: ServerIssue[] } {
  const checked = checkTools(listed);
  if (modernHttp) {
    checked.tools = checked.tools.filter((t) => {
      const why = invalidHeaderDeclaration(t.inputSchema);
      if (why) checked.issues.push({ kind: 'tool_rejected', tool: t.name, reason: 'invalid_header' });
      if (why) note(`tool "${t.name}" left out: ${why}`);
      return !why;
    });
  }
  for (const issue of checked.issues) if ((issue.kind === 'tool_rejected' || issue.kind === 'tool_schema_dropped') && issue.reason !== 'invalid_header') note(`tool "${issue.tool}" ${issue.kind === 'tool_rejected' ? 'left out' : 'offered without its schema'}: ${issue.reason}`);
  // A tool kept here may still be beyond what one provider family's schema subset can express:
  // requests to that family leave it out (docs/ARCHITECTURE.md "Schemas every provider accepts").
  for (const f of familiesLeavingOut(checked.tools.map((t) => ({ name: t.name, inputSchema: normalizeInputSchema(t.inputSchema) })))) {
    checked.issues.push({ kind: 'tool_left_out_for_provider', tool: f.tool.slice(0, 128), family: f.family, reason: f.reason });
    note(`tool "${f.tool}" left out of requests to ${f.family} models: ${f.reason}`);
  }
  return checked;
}
