/**
 * The Tasks side of one connection (MCP Tasks; docs/ARCHITECTURE.md "Tasks"): the
 * `ServerTasks` of the live SDK client, opened at first use and closed with the session, which
 * calls go through it, and how a task's end becomes a tool result. McpConnection owns one of these.
 */
import type { CallToolResult, Client, ClientCapabilities, Tool } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../config.js';
import type { RawRequestLane } from '../tasks/raw-lane.js';
import { ServerTasks, TaskCancelled, taskGeneration, taskSupportOf, type TaskEnd } from '../tasks/session.js';
import { answerInputRequest, type ClientHandlers } from './client-handlers.js';
import { CLIENT_INFO } from './types.js';

/** One connection's Tasks side: a `ServerTasks` per live client. */
export class ConnectionTasks {
  private side: { client: Client; tasks: Promise<ServerTasks | null> } | null = null;

  /**
   * @param name the server's configured name
   * @param config its stored config (only its type, URL and program name reach saved task references)
   * @param handlers the connection's answerers of server requests (a task's input requests go to them)
   * @param capabilities the client capabilities the connection declares (framing 2026-07-28 task requests)
   */
  constructor(
    private readonly name: string,
    private readonly config: ServerConfig,
    private readonly handlers: ClientHandlers,
    private readonly capabilities: ClientCapabilities,
  ) {}

  /**
   * The Tasks side of `client`, opened at first use (the previous client's is closed); null when
   * the server offers no tasks. `lane` is the raw request lane of the client's transport (the
   * 2026-07-28 extension's requests go through it).
   */
  of(client: Client, lane: RawRequestLane | null): Promise<ServerTasks | null> {
    if (this.side?.client !== client) {
      void this.side?.tasks.then((t) => t?.close());
      const version = client.getNegotiatedProtocolVersion();
      const raw =
        lane && version && client.getProtocolEra() === 'modern'
          ? { lane, protocolVersion: version, clientInfo: { ...CLIENT_INFO }, clientCapabilities: this.capabilities as Record<string, unknown> }
          : null;
      this.side = {
        client,
        tasks: ServerTasks.open(client, this.identity(), (request, signal) => answerInputRequest(this.handlers, request, signal), raw).catch(() => null),
      };
    }
    return this.side.tasks;
  }

  /**
   * The Tasks side a call of `tool` goes through, or null for the SDK's ordinary `tools/call`: on
   * a 2026-07-28 server that declares the extension every call (the server decides whether to
   * answer with a task), on a 2025-11-25 one a tool that declares `execution.taskSupport`.
   */
  async forCall(client: Client, lane: RawRequestLane | null, tool: Tool | undefined): Promise<ServerTasks | null> {
    const generation = taskGeneration(client);
    if (!tool || !generation || (generation === 'v1' && !taskSupportOf(tool))) return null;
    const tasks = await this.of(client, lane);
    return tasks && (tasks.serverDecides || taskSupportOf(tool)) ? tasks : null;
  }

  /** Release the library's hold on the closing client (its tasks go on on the server). Never throws. */
  async close(): Promise<void> {
    const side = this.side;
    this.side = null;
    await side?.tasks.then((t) => t?.close()).catch(() => undefined);
  }

  /** What names this server for saved task references: its name and where it lives (never its secrets). */
  private identity(): unknown {
    const c = this.config as { type: string; url?: string; command?: string[] };
    return { name: this.name, type: c.type, url: c.url ?? null, command: c.command?.[0] ?? null };
  }
}

/**
 * A settled task as a tool result: its result when it completed, an error result with the
 * server's reason when it failed. @throws TaskCancelled when it was cancelled.
 */
export function resultOfTask(end: TaskEnd): CallToolResult {
  if (end.kind === 'completed') return end.result;
  if (end.kind === 'failed') return { content: [{ type: 'text', text: end.message || 'The task failed.' }], isError: true };
  throw new TaskCancelled('The task was cancelled.');
}
