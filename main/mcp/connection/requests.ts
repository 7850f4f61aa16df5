/**
 * The requests the app makes of a ready server beyond tools: `prompts/get`,
 * `completion/complete`, resource templates, reads and subscriptions (the composer,
 * docs/ARCHITECTURE.md "Prompts and resources in chat"), and `logging/setLevel`
 * (docs/ARCHITECTURE.md "Protocol features"). McpConnection delegates to one of these per call.
 */
import type { Client, CompleteRequest, CompleteResult, GetPromptResult, ReadResourceResult, ResourceTemplateType as ResourceTemplate } from '@modelcontextprotocol/client';
import type { LoggingLevel } from '../../../preload/contract/index.js';
import { collectPages } from '../lists.js';

/** Most pages one listing follows. */
export const MAX_LIST_PAGES = 100;

/** Requests on one ready session's SDK `Client`, each with the server's read timeout (ms). */
export class ServerRequests {
  /**
   * @param client the live session's client (the caller checked it is ready)
   * @param timeoutMs the server's per-request read timeout (`timeout_seconds` × 1000)
   */
  constructor(
    private readonly client: Client,
    private readonly timeoutMs: number,
  ) {}

  /** `logging/setLevel` (MCP spec "Utilities: Logging"). @throws the SDK's error when the server lacks `logging`. */
  async setLoggingLevel(level: LoggingLevel): Promise<void> {
    await this.client.setLoggingLevel(level, { timeout: this.timeoutMs });
  }

  /** `prompts/get` (MCP spec "Prompts: Getting a Prompt"). @throws the SDK's error. */
  async getPrompt(name: string, args: Record<string, string>, signal?: AbortSignal): Promise<GetPromptResult> {
    return this.client.getPrompt({ name, arguments: args }, { signal, timeout: this.timeoutMs });
  }

  /** `completion/complete` (MCP spec "Completion"); empty when the server has no completions. */
  async complete(params: CompleteRequest['params'], signal?: AbortSignal): Promise<CompleteResult> {
    if (!this.client.getServerCapabilities()?.completions) return { completion: { values: [] } };
    return this.client.complete(params, { signal, timeout: this.timeoutMs });
  }

  /** Every page of `resources/templates/list` (MCP spec "Resource Templates"); empty without `resources`. */
  async listResourceTemplates(): Promise<{ items: ResourceTemplate[] }> {
    const client = this.client;
    if (!client.getServerCapabilities()?.resources) return { items: [] };
    // Its own page walk (not the connection's listing): a template listing must not replace the resource list's issues.
    const timeout = this.timeoutMs;
    const r = await collectPages(async (cursor) => {
      const res = await client.request({ method: 'resources/templates/list', params: cursor === undefined ? {} : { cursor } }, { timeout });
      return { items: res.resourceTemplates, nextCursor: res.nextCursor };
    }, MAX_LIST_PAGES, (t) => t.uriTemplate);
    return { items: r.items };
  }

  /** `resources/read` (MCP spec "Resources: Reading Resources"), never from a cache. */
  async readResource(uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
    return this.client.readResource({ uri }, { signal, timeout: this.timeoutMs, cacheMode: 'bypass' });
  }

  /**
   * `resources/subscribe`, with `onUpdated` receiving this session's
   * `notifications/resources/updated` (one listener per session; the last one set wins).
   */
  async subscribeResource(uri: string, onUpdated: (uri: string) => void): Promise<void> {
    this.client.setNotificationHandler('notifications/resources/updated', (n) => onUpdated(String(n.params.uri)));
    await this.client.subscribeResource({ uri }, { timeout: this.timeoutMs });
  }

  /** `resources/unsubscribe`. */
  async unsubscribeResource(uri: string): Promise<void> {
    await this.client.unsubscribeResource({ uri }, { timeout: this.timeoutMs });
  }
}
