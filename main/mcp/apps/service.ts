/**
 * MCP Apps in main (docs/ARCHITECTURE.md "MCP Apps", "MCP Apps: isolation"): issues a view for a
 * real tool call only — an instance bound to that call, its server and an origin of its own
 * (./view-instances.ts) — loading the tool's view resource from the same server (`resources/read`
 * of its `ui://` URI, checked to be `text/html;profile=mcp-app`); and carries out what a shown
 * view asks — tool calls (only tools with `"app"` visibility, on the view's own server, through
 * the permission gate), resource reads, model context and log lines — for the window's app
 * bridge (renderer/src/apps/). A request names only its view instance; the server, conversation
 * and call come from the instance. The view itself never reaches main: it talks to the window's
 * bridge only.
 */
import { randomUUID } from 'node:crypto';
import type { CallToolResult, ReadResourceResult, Tool } from '@modelcontextprotocol/client';
import type { AppViewLoad } from '../../../preload/contract/index.js';
import type { PermissionGate } from '../../chat/permissions/index.js';
import { NotConnectedError, type CallOptions } from '../connection.js';
import type { ReadyServer } from '../host/ready-server.js';
import { boundDepth } from '../nesting.js';
import type { RegisteredTool } from '../adapter.js';
import { HostError, serverRefused, serverUnavailable } from '../host/errors.js';
import type { ResolvedTool } from '../host/resolved-tools.js';
import { sanitizeCsp } from './csp.js';
import { SANDBOX_PAGE_PATH } from './sandbox-page.js';
import { APP_MIME_TYPE, toolUiResourceUri, visibleToApp } from './tool-ui.js';
import { ViewInstances, type ShownView, type ViewCallKey, type ViewRequest } from './view-instances.js';
import { formatLogMessage } from '../protocol/log-format.js';

/** Largest view document accepted, in UTF-8 bytes. */
export const MAX_VIEW_BYTES = 5 * 1024 * 1024;
/** Largest reply to a view (a tool result or a resource read), as JSON characters. */
export const MAX_VIEW_REPLY_CHARS = 3 * 1024 * 1024;

/** What the service needs of the host. */
export interface AppsHost {
  /** A ready server's handle, or null (main/mcp/host/ready-server.ts). */
  ready(name: string): ReadyServer | null;
  /** Every registered tool (for the namespaced name the permission gate takes). */
  allTools(): RegisteredTool[];
  /** Call the tool the permission gate approved, on the very connection it was approved on. */
  callResolved(resolved: ResolvedTool, args: Record<string, unknown>, opts: CallOptions): Promise<CallToolResult>;
  /** Write a view's log message to its server's log. @returns false when there is no such server */
  viewLog(server: string, text: string): boolean;
}

/** A view's request refused by a guard (code `forbidden`). */
export class AppRequestRefusedError extends HostError {
  override name = 'AppRequestRefusedError';
  constructor(message: string) {
    super('forbidden', message);
  }
}

/** A server's failure on a view's request as a typed error (never classified by its text). */
function asTyped(err: unknown, server: string): Error {
  if (err instanceof HostError) return err;
  if (err instanceof NotConnectedError) return serverUnavailable(server, 'not_ready');
  const msg = err instanceof Error ? err.message : String(err);
  return serverRefused(server, msg.slice(0, 500));
}

/** Why a request of a released view (or of a page that went away) is refused. */
const VIEW_GONE = 'The view that asked for this was closed.';

/** The `run_id` of approvals for tool calls a view makes. */
export const VIEW_RUN_ID = 'app-view';

/**
 * Where views' model context is kept: the conversation database (main/chat/conversations/
 * view-contexts.ts; docs/ARCHITECTURE.md "MCP Apps"). The store owns the rules (replace, remove on
 * empty text, the per-conversation cap, the text limit).
 */
export interface ModelContextStore {
  /**
   * Replace a view's context (empty text: remove it). @returns whether one is now kept
   * @throws ConversationNotFoundError (`not_found` over IPC) for an unknown conversation
   */
  set(conversationId: string, callId: string, server: string, text: string): { kept: boolean };
  /** A conversation's views' contexts, least recently updated first. */
  list(conversationId: string): ReadonlyArray<{ server: string; text: string }>;
}

/** One tool call's view (its conversation, run and call id). */
export type ViewCall = ViewCallKey;

/**
 * Where the user's Close view choices are kept: the conversation database (main/chat/
 * conversations/closed-views.ts; docs/ARCHITECTURE.md "MCP Apps").
 */
export interface ClosedViews {
  /** @throws ConversationNotFoundError (`not_found` over IPC) for an unknown conversation */
  set(view: ViewCall, closed: boolean): void;
  isClosed(view: ViewCall): boolean;
}

/**
 * Which tool calls exist, for the check that a view belongs to one (docs/ARCHITECTURE.md
 * "MCP Apps: isolation"): a call of `tool` on `server` in that conversation — saved as a tool
 * entry, or still being written by the model in a live run (a view may start then).
 */
export interface ToolCalls {
  isToolCall(view: ViewCall, server: string, tool: string): boolean;
}

/**
 * How the shell gives each shown view an origin of its own (docs/ARCHITECTURE.md "MCP Apps:
 * isolation"): the browser shell a host `<label>.localhost` on its view port, Electron a host
 * `<label>` on the `op-view:` scheme. Its sandbox page is served for a label only while a view
 * with that label is shown ({@link AppsService.sandboxCsp}).
 */
export interface ViewOrigins {
  /** The origin of label `label` (no trailing slash). */
  originFor(label: string): string;
}

/** The app core's MCP Apps service. */
export class AppsService {
  /** The views shown now: each bound to one call, one server and one origin (./view-instances.ts). */
  private readonly views = new ViewInstances();

  /**
   * @param calls which tool calls exist (a view is issued only for one of them)
   * @param origins the shell's per-view origins; null: this shell serves no views (`no_sandbox`)
   */
  constructor(
    private readonly host: AppsHost,
    private readonly gate: PermissionGate,
    private readonly contexts: ModelContextStore,
    private readonly closedViews: ClosedViews,
    private readonly calls: ToolCalls,
    private readonly origins: ViewOrigins | null,
  ) {}

  private ready(server: string): ReadyServer {
    const c = this.host.ready(server);
    if (!c) throw serverUnavailable(server, 'not_running');
    return c;
  }

  private listedTool(conn: ReadyServer, name: string): Tool | undefined {
    return conn.tools.find((t) => t.name === name);
  }

  /**
   * The view of one tool call: `closed` when the user closed it (checked first: nothing is read,
   * the server need not be running), `none` when the tool declares no view, `unavailable` (with a
   * reason the window can show) when it cannot be had now — `not_a_call` when the conversation
   * holds no call of that tool on that server under these ids — else the document, a new view
   * instance bound to the call and the server, and its sandbox page on an origin of its own.
   * Never throws for a server's mistake; the reasons are typed.
   * @param page the carrier's signal for the asking page: the instance is released when it aborts
   */
  async loadView(view: ViewCall, server: string, tool: string, page?: AbortSignal): Promise<AppViewLoad> {
    if (this.closedViews.isClosed(view)) return { kind: 'closed' };
    // Only a real call's view: an id the window (or anyone holding the channel) made up gets none.
    if (!this.calls.isToolCall(view, server, tool)) return { kind: 'unavailable', reason: 'not_a_call' };
    const conn = this.host.ready(server);
    if (!conn) return { kind: 'unavailable', reason: 'not_connected' };
    const t = this.listedTool(conn, tool);
    if (!t) return { kind: 'unavailable', reason: 'unknown_tool' };
    const uri = toolUiResourceUri(t);
    if (!uri) return { kind: 'none' };
    if (!this.origins) return { kind: 'unavailable', reason: 'no_sandbox' };
    let read: ReadResourceResult;
    try {
      read = await conn.readResource(uri, page);
    } catch {
      return { kind: 'unavailable', reason: 'read_failed' };
    }
    const part = read.contents.find((c) => c.uri === uri) ?? read.contents[0];
    if (!part || (part.mimeType ?? '').replace(/\s/g, '').toLowerCase() !== APP_MIME_TYPE) return { kind: 'unavailable', reason: 'bad_resource' };
    const html = 'text' in part && typeof part.text === 'string' ? part.text : 'blob' in part && typeof part.blob === 'string' ? Buffer.from(part.blob, 'base64').toString('utf8') : null;
    if (html === null || Buffer.byteLength(html) > MAX_VIEW_BYTES) return { kind: 'unavailable', reason: 'bad_resource' };
    const meta = ((part._meta as Record<string, unknown> | undefined)?.ui ?? {}) as Record<string, unknown>;
    const csp = sanitizeCsp(meta.csp);
    const permissions = Object.keys((typeof meta.permissions === 'object' && meta.permissions) || {}).filter((k) => ['camera', 'microphone', 'geolocation', 'clipboardWrite'].includes(k)) as Array<
      'camera' | 'microphone' | 'geolocation' | 'clipboardWrite'
    >;
    const shown = this.views.open({ conversation_id: view.conversation_id, run_id: view.run_id, call_id: view.call_id, server, tool, csp }, page);
    const origin = this.origins.originFor(shown.label);
    return {
      kind: 'ready',
      view_instance: shown.id,
      resource_uri: uri,
      html,
      sandbox_url: `${origin}${SANDBOX_PAGE_PATH}`,
      sandbox_origin: origin,
      csp,
      permissions,
      prefers_border: typeof meta.prefersBorder === 'boolean' ? meta.prefersBorder : null,
      tool: { name: t.name, title: t.title ?? null, description: t.description ?? null, input_schema: t.inputSchema as Record<string, unknown> },
    };
  }

  /**
   * The policy a shown view's sandbox page is served with, by the origin label in its host; null
   * when no view with that label is shown (the page is then not served at all).
   */
  sandboxCsp(label: string): ReturnType<ViewInstances['cspForLabel']> {
    return this.views.cspForLabel(label);
  }

  /**
   * A tool call from a view (`tools/call` over the app bridge), to the view's own server only —
   * the server, conversation and call are those its instance was issued for, never the request's:
   * the tool must be listed there with `"app"` visibility, and the permission gate decides as for
   * the model's calls (an approval card when the mode asks; its `run_id` is {@link VIEW_RUN_ID} and
   * its `call_id` `app:<the view's call id>:<uuid>`, so the window shows it in that view). While
   * such a card is open, the same view's further calls of the same tool are refused (no pile of
   * cards from a view that polls); "Allow in this conversation" given for the same tool on another
   * card (the model's call) decides that waiting call too. Releasing the instance ({@link releaseView}) or `signal`
   * aborting (the page went away) withdraws the card and cancels the server request.
   * @throws AppRequestRefusedError when a guard refuses or the view is not shown; HostError when
   *   the server is not running.
   */
  async callTool(instance: string, tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallToolResult> {
    const req = this.beginRequest(instance, signal);
    try {
      return await this.callToolFor(req.view, tool, args, req.signal);
    } finally {
      req.done();
    }
  }

  private beginRequest(instance: string, signal?: AbortSignal): ViewRequest {
    const req = this.views.begin(instance, signal);
    if (!req) throw new AppRequestRefusedError(VIEW_GONE);
    return req;
  }

  /** A live view by instance id. @throws AppRequestRefusedError when it is not shown. */
  private shown(instance: string): ShownView {
    const v = this.views.get(instance);
    if (!v) throw new AppRequestRefusedError(VIEW_GONE);
    return v;
  }

  /**
   * A shown view was torn down: withdraw its requests under way (approval cards close as
   * cancelled, server requests are cancelled) and refuse its later ones.
   * @returns how many requests were under way
   */
  releaseView(instance: string): { aborted: number } {
    return { aborted: this.views.release(instance) };
  }

  private async callToolFor(view: ShownView, tool: string, rawArgs: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    const { server, conversation_id: conversationId, call_id: viewCallId } = view;
    // Bounded before anything walks them: the permission gate's hash, the approval card, the server.
    const args = boundDepth(rawArgs);
    const conn = this.ready(server);
    const t = this.listedTool(conn, tool);
    if (!t) throw new AppRequestRefusedError(`The view may call only its own server's tools; "${server}" has no tool "${tool}".`);
    if (!visibleToApp(t)) throw new AppRequestRefusedError(`The tool "${tool}" is not visible to views.`);
    const registered = this.host.allTools().find((r) => r.server === server && r.original_name === tool);
    if (!registered) throw new AppRequestRefusedError(`The tool "${tool}" is not registered.`);
    // A view that calls again (a poll, a second click) while its first call of this tool waits
    // for the user's answer gets a refusal, not a second card: one question at a time.
    const ownCalls = `app:${viewCallId}:`;
    if (this.gate.isAsking((a) => a.run_id === VIEW_RUN_ID && a.conversation_id === conversationId && a.call_id.startsWith(ownCalls) && a.server === server && a.tool === tool))
      throw new AppRequestRefusedError(`An earlier call of "${tool}" from this view is still waiting for your approval.`);
    // Named as the view's call: "Allow in this conversation" given for this tool (on the model's
    // card or the view's) covers it, even while its own card waits (docs/ARCHITECTURE.md "Permissions").
    const auth = await this.gate.authorize({ conversation_id: conversationId, run_id: VIEW_RUN_ID, call_id: `app:${viewCallId}:${randomUUID()}`, tool: registered, args, signal, caller: { kind: 'view', server } });
    if (!auth.allowed) throw new AppRequestRefusedError(signal.aborted ? VIEW_GONE : auth.message);
    const result = await this.host.callResolved(auth.resolved, args, { signal }).catch((err: unknown) => Promise.reject(asTyped(err, server)));
    if (JSON.stringify(result).length > MAX_VIEW_REPLY_CHARS) throw new AppRequestRefusedError('The tool result is too large for the view.');
    return result;
  }

  /**
   * Keep a shown view's model context (ext-apps `ui/update-model-context`) for its conversation's
   * later turns, saved with the conversation (it outlives an app restart and goes when the
   * conversation is deleted); an update replaces the view's last one, empty text removes it.
   * @throws AppRequestRefusedError when the view is not shown; ConversationNotFoundError when the
   *   conversation does not exist (nothing is kept)
   */
  updateModelContext(instance: string, text: string): { kept: boolean } {
    const v = this.shown(instance);
    return this.contexts.set(v.conversation_id, v.call_id, v.server, text);
  }

  /**
   * Save the user's Close view (`closed`) or Show app view (`!closed`) for a tool call's view, with
   * the conversation; {@link loadView} answers `closed` for it until it is shown again.
   * @throws ConversationNotFoundError when the conversation does not exist (nothing is written)
   */
  setViewClosed(view: ViewCall, closed: boolean): { closed: boolean } {
    this.closedViews.set(view, closed);
    return { closed };
  }

  /**
   * A shown view's log message (ext-apps: the view's `notifications/message`), written to its
   * server's log as `level logger: data`. @returns whether it was kept (false: no such server)
   * @throws AppRequestRefusedError when the view is not shown
   */
  log(instance: string, message: { level: string; logger?: string; data: unknown }): { kept: boolean } {
    return { kept: this.host.viewLog(this.shown(instance).server, formatLogMessage(message)) };
  }

  /** What the views of a conversation told the model, as system text (null when nothing). */
  modelContext(conversationId: string): string | null {
    const views = this.contexts.list(conversationId);
    if (!views.length) return null;
    const parts = views.map((v) => `[App view of server "${v.server}"]\n${v.text}`);
    return `Context from interactive app views in this conversation:\n\n${parts.join('\n\n')}`;
  }

  /** A resource read from a shown view, from its own server only; released with its view. @throws as {@link callTool}. */
  async readResource(instance: string, uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
    const req = this.beginRequest(instance, signal);
    try {
      const conn = this.ready(req.view.server);
      const read = await conn.readResource(uri, req.signal).catch((err: unknown) => Promise.reject(asTyped(err, req.view.server)));
      if (JSON.stringify(read).length > MAX_VIEW_REPLY_CHARS) throw new AppRequestRefusedError('The resource is too large for the view.');
      return read;
    } finally {
      req.done();
    }
  }
}
