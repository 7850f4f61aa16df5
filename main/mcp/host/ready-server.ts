/**
 * What the rest of the app may do with one server while it is ready: read what it listed and send
 * it requests. Handed out by `McpHost.ready(name)` only while the server is `ready` (null
 * otherwise), so a caller never reads a connection's state or writes it; the connection itself
 * stays inside the host (docs/ARCHITECTURE.md "Status").
 */
import type {
  CompleteRequest,
  CompleteResult,
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplateType as ResourceTemplate,
  Tool,
} from '@modelcontextprotocol/client';
import type { LoggingLevel } from '../../../preload/contract/index.js';
import type { McpConnection } from '../connection.js';
import type { TaskEnd, TaskObserver, TaskReference } from '../tasks/session.js';

/** A ready server's handle: its listings (as listed, read-only) and its requests (MCP spec "Server features"). */
export interface ReadyServer {
  /** The server's configured name. */
  readonly name: string;
  /** Tools as the server listed them (MCP "Tools: Listing tools"), checked ones only. */
  readonly tools: readonly Tool[];
  /** Resources as listed (MCP "Resources"). */
  readonly resources: readonly Resource[];
  /** Prompts as listed (MCP "Prompts"). */
  readonly prompts: readonly Prompt[];
  /** Whether the server declared `logging` (MCP "Utilities: Logging"). */
  readonly supportsLogging: boolean;
  /** Whether the server declared a capability. */
  supports(capability: 'prompts' | 'resources' | 'completions' | 'subscribe'): boolean;
  /** Pick a saved task up again and wait for its end (MCP Tasks). @throws TaskLostError; the server's error */
  resumeTask(reference: TaskReference, opts?: { signal?: AbortSignal; observer?: TaskObserver }): Promise<TaskEnd>;
  /** `logging/setLevel`. @throws the server's error */
  setLoggingLevel(level: LoggingLevel): Promise<void>;
  /** `notifications/roots/list_changed` (a no-op when roots are not declared). */
  notifyRootsChanged(): Promise<void>;
  /** `prompts/get`. @throws the server's error */
  getPrompt(name: string, args: Record<string, string>, signal?: AbortSignal): Promise<GetPromptResult>;
  /** `completion/complete`. @throws the server's error */
  complete(params: CompleteRequest['params'], signal?: AbortSignal): Promise<CompleteResult>;
  /** Every `resources/templates/list` page. @throws the server's error */
  listResourceTemplates(): Promise<{ items: ResourceTemplate[] }>;
  /** `resources/read`. @throws the server's error */
  readResource(uri: string, signal?: AbortSignal): Promise<ReadResourceResult>;
  /** `resources/subscribe`; `onUpdated` hears `notifications/resources/updated`. @throws the server's error */
  subscribeResource(uri: string, onUpdated: (uri: string) => void): Promise<void>;
  /** `resources/unsubscribe`. @throws the server's error */
  unsubscribeResource(uri: string): Promise<void>;
}

/** Where services find ready servers: by name, and every configured name in file order. */
export interface ReadyServers {
  /** The handle of a ready server, or null (unknown, disabled, starting, failed, needs sign-in). */
  ready(name: string): ReadyServer | null;
  /** Names of every configured server. */
  names(): string[];
}

/**
 * The handle of `conn` (which the host hands out only while it is ready): its listings read
 * through, its requests on its live session (each throws `NotConnectedError` once the server
 * is no longer ready).
 */
export function readyServer(conn: McpConnection): ReadyServer {
  return {
    name: conn.name,
    get tools() {
      return conn.tools;
    },
    get resources() {
      return conn.resources;
    },
    get prompts() {
      return conn.prompts;
    },
    get supportsLogging() {
      return conn.supportsLogging;
    },
    supports: (capability) => conn.supports(capability),
    resumeTask: (reference, opts) => conn.resumeTask(reference, opts),
    setLoggingLevel: (level) => conn.setLoggingLevel(level),
    notifyRootsChanged: () => conn.notifyRootsChanged(),
    getPrompt: (name, args, signal) => conn.requests().getPrompt(name, args, signal),
    complete: (params, signal) => conn.requests().complete(params, signal),
    listResourceTemplates: () => conn.requests().listResourceTemplates(),
    readResource: (uri, signal) => conn.requests().readResource(uri, signal),
    subscribeResource: (uri, onUpdated) => conn.requests().subscribeResource(uri, onUpdated),
    unsubscribeResource: (uri) => conn.requests().unsubscribeResource(uri),
  };
}
