/**
 * What one connection holds of its server's lists: the tools, resources and prompts as last
 * listed on the live session, and the issues with parts of them (a left-out tool, a stopped
 * listing) the server card shows. Re-listing goes through ./listing.ts; list changes decide when
 * (./list-changes.ts). docs/ARCHITECTURE.md "Processes and rooms".
 */
import type { Client, Prompt, Resource, Tool } from '@modelcontextprotocol/client';
import type { ServerIssue } from '../../../preload/contract/index.js';
import { checkListedTools, listAll, promptsPage, resourcesPage, toolsPage, type ListName, type PageFetcher } from './listing.js';
import { NotConnectedError } from './types.js';

/** What {@link HeldLists} needs of its connection. */
export interface HeldListsDeps {
  /** The server's configured name (for errors). */
  server: string;
  /** The live session's client, or null when not connected. */
  client: () => Client | null;
  /** Whether the session is HTTP on the 2026-07-28 era (SEP-2243 header checks apply). */
  modernHttp: () => boolean;
  /** Writes one lifecycle line to the server's log. */
  note: (text: string) => void;
}

/** The lists one connection holds (see the file header). Empty until the first listing. */
export class HeldLists {
  tools: Tool[] = [];
  resources: Resource[] = [];
  prompts: Prompt[] = [];
  private issuesOf: Record<ListName, ServerIssue[]> = { tools: [], resources: [], prompts: [] };

  constructor(private readonly deps: HeldListsDeps) {}

  /** Re-list one list by name. @throws as {@link refreshTools}. */
  refresh(what: ListName, timeoutMs: number): Promise<void> {
    return what === 'tools' ? this.refreshTools(timeoutMs) : what === 'resources' ? this.refreshResources(timeoutMs) : this.refreshPrompts(timeoutMs);
  }

  /** Re-list every page of resources (MCP spec "Resources: Listing Resources"). @throws as {@link refreshTools}. */
  async refreshResources(timeoutMs: number): Promise<void> {
    this.resources = await this.listWhole('resources', resourcesPage, (r) => r.uri, timeoutMs);
  }

  /** Re-list every page of prompts (MCP spec "Prompts: Listing Prompts"). @throws as {@link refreshTools}. */
  async refreshPrompts(timeoutMs: number): Promise<void> {
    this.prompts = await this.listWhole('prompts', promptsPage, (p) => p.name, timeoutMs);
  }

  /**
   * Re-list every page of tools (MCP spec "Tools: Listing Tools"), then check them one by one
   * (main/mcp/tool-check.ts): a malformed tool is left out with an issue naming it.
   * @throws NotConnectedError when not connected; a failed page's error.
   */
  async refreshTools(timeoutMs: number): Promise<void> {
    const listed = await this.listWhole('tools', toolsPage, (t) => t.name, timeoutMs);
    // SEP-2243: over HTTP on 2026-07-28 a tool with invalid x-mcp-header declarations is left out.
    const checked = checkListedTools(listed, this.deps.modernHttp(), this.deps.note);
    this.tools = checked.tools;
    this.issuesOf.tools = [...this.issuesOf.tools.filter((i) => i.kind === 'list_stopped'), ...checked.issues];
  }

  /** Problems with parts of what the server lists (left-out tools, stopped listings), for the view. */
  get issues(): ServerIssue[] {
    return [...this.issuesOf.tools, ...this.issuesOf.resources, ...this.issuesOf.prompts];
  }

  /** Forget every list (the connection closed); the issues stay for the card. */
  clear(): void {
    this.tools = [];
    this.resources = [];
    this.prompts = [];
  }

  /** One whole list through ./listing.ts, keeping its issues. */
  private async listWhole<T>(capability: ListName, page: PageFetcher<T>, key: (item: T) => unknown, timeoutMs: number): Promise<T[]> {
    const client = this.deps.client();
    if (!client) throw new NotConnectedError(`Server "${this.deps.server}" is not connected.`);
    const r = await listAll(client, capability, page, key, timeoutMs, this.issuesOf[capability], this.deps.note);
    this.issuesOf[capability] = r.issues;
    return r.items;
  }
}
