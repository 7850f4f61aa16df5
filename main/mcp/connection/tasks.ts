/**
 * The Tasks side of one connection (MCP Tasks; docs/ARCHITECTURE.md "Tasks"): the
 * `ServerTasks` of the live SDK client, opened at first use and closed with the session, and how
 * a task's end becomes a tool result. McpConnection owns one of these.
 */
import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../config.js';
import { ServerTasks, TaskCancelled, type TaskEnd } from '../tasks/session.js';
import type { ElicitHandler } from './types.js';

/** One connection's Tasks side: a `ServerTasks` per live client. */
export class ConnectionTasks {
  private side: { client: Client; tasks: Promise<ServerTasks | null> } | null = null;

  /**
   * @param name the server's configured name (elicitations inside tasks are asked in its name)
   * @param config its stored config (only its type, URL and program name reach saved task references)
   * @param elicit asks the user for a task's `input_required` form; null = not declared
   */
  constructor(
    private readonly name: string,
    private readonly config: ServerConfig,
    private readonly elicit: ElicitHandler | null,
  ) {}

  /** The Tasks side of `client`, opened at first use (the previous client's is closed); null when the server offers no tasks. */
  of(client: Client): Promise<ServerTasks | null> {
    if (this.side?.client !== client) {
      void this.side?.tasks.then((t) => t?.close());
      const elicit = this.elicit;
      this.side = {
        client,
        tasks: ServerTasks.open(client, this.identity(), elicit ? (form, signal) => elicit(this.name, form, signal) : null).catch(() => null),
      };
    }
    return this.side.tasks;
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
