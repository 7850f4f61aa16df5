/**
 * The MCP host: the façade the rest of the app uses for every configured server — views, the
 * startup queue, management actions, OAuth sign-in, import/export, tool calls and shutdown. Each
 * job lives in its own file under ./host/ (docs/ARCHITECTURE.md "Processes and rooms"):
 * views.ts (masked views), runtime.ts (live connections and their lifecycle), recovery.ts (crash
 * restarts), startup.ts (the startup queue), management.ts (CRUD), oauth-providers.ts (the OAuth
 * provider registry), import-export.ts, tool-table.ts (the tools offered to the model),
 * resolved-tools.ts (a tool bound to its server instance, for the permission gate and the call);
 * start-gate.ts (when the startup queue runs; used by the app core).
 * Implements docs/ARCHITECTURE.md "Readiness" and "Start-up and shutdown".
 */
import { readyServer, type ReadyServer } from './host/ready-server.js';
import type { SandboxLauncher } from './sandbox/launcher.js';
import type { TrafficRecorder } from './inspector/recorder.js';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { ExportResult, ImportPreview, ImportResult, LogEntry, PinSettings, ServerInput, ServerPatch, ServerView, ToolSettingPatch } from '../../preload/contract/index.js';
import type { RegisteredTool } from './adapter.js';
import { programIdentity, type ConfigStore, type ServerConfig } from './config.js';
import type { CallOptions, ElicitHandler, McpConnection, SampleHandler } from './connection.js';
import type { OAuthSignIns } from './oauth/flow.js';
import type { PersistentOAuthProvider } from './oauth/provider.js';
import { ServerEnvironment } from './transports/environment.js';
import { directLaunch, type LaunchWrapper } from './transports/kind.js';
import { MemorySecretStore, type SecretStore } from '../secrets/store.js';
import type { ProcessLedger } from './process-ledger.js';
import type { HostProtocol } from './protocol/service.js';
import { META_SERVER, MetaTools } from './protocol/meta-tools.js';
import { HostToolSettings } from './protocol/meta-tool-settings.js';
import { PinStore, ToolPins, type CheckedTool } from './pins/index.js';
import { askRequiredUrls } from './protocol/url-elicitation.js';
import { boundDepth } from './nesting.js';
import { capCallResult } from './result-limits.js';
import type { TaskEnd, TaskObserver, TaskReference } from './tasks/session.js';
import type { ToolSetting } from './tool-settings.js';
import { HostError, noSignIn, noSuchServer, serverUnavailable, ServerChangedError, ToolDisabledError } from './host/errors.js';
import { isLive, resolveTool, type ResolvedTool, type ToolRef } from './host/resolved-tools.js';
import { ServerTransfer } from './host/import-export.js';
import { ServerManagement } from './host/management.js';
import { ServerRename, type RenameParticipant } from './host/rename.js';
import type { RecoveryPolicy } from './host/recovery.js';
import { ServerRuntime, type HostEvents } from './host/runtime.js';
import { queueEnabledServers, runStartupQueue } from './host/startup.js';
import { CpuAwareAdmission, FixedAdmission, type StartAdmission } from './host/start-admission.js';

export { HostError, NameCollisionError, ServerChangedError, ToolDisabledError } from './host/errors.js';
export type { ResolvedTool, ToolRef } from './host/resolved-tools.js';
export { sameSecretDestination, storedSecretsKept } from './host/import-export.js';
export { backoffDelay, RECOVERY } from './host/recovery.js';
export type { HostEvents } from './host/runtime.js';
export type { RenameParticipant } from './host/rename.js';
export { isToolEnabled, toView, type AuthStatus } from './host/views.js';

/** Host options. */
export interface HostOptions {
  /** A fixed bound on servers starting at once. Default: CPU-aware admission (./host/start-admission.ts). */
  concurrency?: number;
  events?: Partial<HostEvents>;
  /** Where OAuth state (tokens, registrations, PKCE verifiers) is kept. Default: memory. */
  secrets?: SecretStore;
  /**
   * Opens an authorization URL for the user (Electron: the system browser). Called only with a
   * URL that passed the safety check (https:, or http: to loopback).
   */
  openUrl?: (url: URL, server: string) => void | Promise<void>;
  /** Asks the user for input a server requests (elicitation). Absent: the capability is not declared. */
  elicit?: ElicitHandler;
  /** Answers servers' sampling requests (with the user's approval). Absent: the capability is not declared. */
  sample?: SampleHandler;
  /** Records stdio servers' process groups (see `ProcessLedger`). Absent: not recorded. */
  processes?: ProcessLedger;
  /** The environment stdio servers inherit. Absent: this process's environment. */
  environment?: ServerEnvironment;
  /** Wraps every stdio launch (e.g. a sandbox; main/mcp/transports/kind.ts). Absent: the launch as it is. */
  launchWrapper?: LaunchWrapper;
  /** Roots and URL elicitation (main/mcp/protocol/service.ts). Absent: not declared. */
  protocol?: HostProtocol;
  /**
   * Whether a value is a stored secret (the core's redactor): a command argument equal to one is
   * kept as a secret argument and shown as `***` (docs/ARCHITECTURE.md "Masked views only").
   */
  isKnownSecret?: (value: string) => boolean;
  /** Runs stdio servers in the sandbox (main/mcp/sandbox/, docs/ARCHITECTURE.md "Sandbox"). Absent: unsandboxed. */
  sandbox?: SandboxLauncher;
  /** The pinned tool definitions (main/mcp/pins/). Absent: kept in the config store's state folder. */
  pins?: ToolPins;
  /** Records each server's MCP traffic for the protocol inspector (main/mcp/inspector/). Absent: not recorded. */
  traffic?: TrafficRecorder;
  /**
   * The rest of the app's records kept under a server's name, moved by a rename with the host's
   * own (./host/rename.ts). Asked at each rename, since they are built after the host. Absent: none.
   */
  renames?: () => readonly RenameParticipant[];
}

/** The registry of all servers of one profile. */
export class McpHost {
  private readonly rt: ServerRuntime;
  private readonly management: ServerManagement;
  private readonly transfer: ServerTransfer;
  private readonly renames: ServerRename;
  /** The host's own tools for the model (./protocol/meta-tools.ts). */
  private readonly meta: MetaTools;
  /** Roots and URL elicitation hooks (./protocol/service.ts), or null. */
  private readonly protocol: HostProtocol | null;
  private startup: Promise<void> | null = null;
  private readonly admission: StartAdmission;

  constructor(store: ConfigStore, opts: HostOptions = {}) {
    this.admission = opts.concurrency === undefined ? new CpuAwareAdmission() : new FixedAdmission(opts.concurrency);
    this.rt = new ServerRuntime({
      store,
      events: opts.events ?? {},
      oauth: {
        store: opts.secrets ?? new MemorySecretStore(),
        openUrl:
          opts.openUrl ??
          (() => {
            throw new Error('No browser is available to open the sign-in page.');
          }),
      },
      elicit: opts.elicit ?? null,
      sample: opts.sample ?? null,
      processes: opts.processes ?? null,
      environment: opts.environment ?? new ServerEnvironment(),
      launchWrapper: opts.launchWrapper ?? directLaunch,
      protocol: opts.protocol ?? null,
      isKnownSecret: opts.isKnownSecret ?? (() => false),
      sandbox: opts.sandbox ?? null,
      pins: opts.pins ?? new ToolPins(new PinStore(store.stateDir)),
      hostTools: new HostToolSettings(store.stateDir),
      traffic: opts.traffic ?? null,
    });
    this.management = new ServerManagement(this.rt);
    this.protocol = opts.protocol ?? null;
    this.meta = new MetaTools({ ready: (name) => this.ready(name), names: () => this.rt.store.names() });
    this.transfer = new ServerTransfer(this.rt, this.management);
    const traffic = opts.traffic;
    const others = opts.renames ?? (() => []);
    this.renames = new ServerRename(this.rt, this.management, () => [...(traffic ? [{ record: 'traffic' as const, move: (a: string, b: string) => traffic.rename(a, b) }] : []), ...others()]);
  }

  /** One sign-in per server at a time; cancelled on shutdown. */
  get signIns(): OAuthSignIns {
    return this.rt.oauth.signIns;
  }

  /** Crash-recovery policy (tests shorten it). */
  get recoveryPolicy(): RecoveryPolicy {
    return this.rt.recovery.policy;
  }

  set recoveryPolicy(policy: RecoveryPolicy) {
    this.rt.recovery.policy = policy;
  }

  // ---- views ---------------------------------------------------------------------------------

  /** Masked views of every persisted server, in file order. */
  list(): ServerView[] {
    return this.rt.store.names().map((n) => this.rt.view(n));
  }

  /**
   * Masked view of one server.
   * @throws HostError('not_found')
   */
  view(name: string): ServerView {
    return this.rt.view(name);
  }

  /**
   * Write a log message of one of the server's MCP App views to its log (a `view` entry,
   * rate-limited with the server's own messages). @returns false when there is no such server
   */
  viewLog(name: string, text: string): boolean {
    if (!this.rt.store.has(name)) return false;
    this.rt.appendLog(name, 'view', text);
    return true;
  }

  /** Log entries of one server (stderr, lifecycle), oldest first. */
  logs(name: string): LogEntry[] {
    if (!this.rt.store.has(name)) throw noSuchServer(name);
    return this.rt.logRings.get(name)?.all() ?? [];
  }

  /**
   * The tools currently offered to the model: every ready server's tools except those the user
   * disabled (per-tool `enabled: false`). Disabled tools keep their names (see `allTools`).
   */
  tools(): RegisteredTool[] {
    return this.rt.tools.offeredTools;
  }

  /** Every registered tool, disabled ones included (views, bulk actions). */
  allTools(): RegisteredTool[] {
    return this.rt.tools.all;
  }

  /** Look up a registered tool by its namespaced name (disabled tools included). */
  tool(name: string): RegisteredTool | undefined {
    return this.rt.tools.byName(name);
  }

  /**
   * The stored per-tool setting of a server's tool (by its real name), without copying the
   * config. Undefined = defaults. Used by the permission gate on every call.
   */
  toolSetting(server: string, tool: string): Readonly<ToolSetting> | undefined {
    return this.rt.toolSetting(server, tool);
  }

  /**
   * Store a per-tool choice wherever that tool's choices live: a configured server's entry in
   * mcp_servers.json, or host_tools.json for the host's own tools (`@host`; ./protocol/meta-tool-settings.ts).
   * What the permission gate calls for "Always allow". @throws HostError('not_found' | 'invalid_input'); the fs error
   */
  async saveToolSetting(server: string, tool: string, patch: NonNullable<ToolSettingPatch>): Promise<void> {
    if (server !== META_SERVER) {
      await this.management.setToolSettings(server, tool, patch);
      return;
    }
    this.rt.assertOpen();
    await this.rt.hostTools.set(tool, patch);
    this.rt.tools.refreshOffered();
  }

  // ---- pinned tool definitions (./pins/) -----------------------------------------------------

  /**
   * A resolved tool's definition against its pin, checked on the listing of the connection it was
   * resolved on as that listing is now (the host's own tools: always `pinned`). Null when that
   * connection no longer lists the tool.
   */
  pinCheck(resolved: ResolvedTool): CheckedTool | null {
    const conn = resolved.connection;
    if (!conn) return { status: { kind: 'pinned' }, hash: '', definition: { name: resolved.tool.original_name, inputSchema: {} } };
    return this.rt.pins.check(resolved.tool.server, programIdentity(conn.config), conn.tools).get(resolved.tool.original_name) ?? null;
  }

  /**
   * Accept the definition of a resolved tool as its pin, only if it is still listed with
   * `hash` (the definition the user was shown) on that same live connection.
   * @returns whether it was accepted. @throws the fs error of writing the pins
   */
  async acceptResolved(resolved: ResolvedTool, hash: string): Promise<boolean> {
    const conn = resolved.connection;
    if (!conn) return true;
    if (!this.isLive(resolved) || this.pinCheck(resolved)?.hash !== hash) return false;
    const done = await this.rt.pins.accept(resolved.tool.server, programIdentity(conn.config), [resolved.tool.original_name], hash);
    this.rt.tools.refreshOffered();
    this.rt.emitChanged(resolved.tool.server);
    return done.length === 1;
  }

  /**
   * Accept the definitions a ready server lists now as its tools' pins: `tools` by real name, or
   * every tool that is `new` or `changed`. @throws HostError('not_found' | 'invalid_input') — the latter when the server is not ready
   */
  async acceptToolDefinitions(name: string, tools?: readonly string[]): Promise<ServerView> {
    if (!this.rt.store.has(name)) throw noSuchServer(name);
    const conn = this.rt.conns.get(name);
    if (!conn || conn.status !== 'ready') throw serverUnavailable(name, 'not_ready', 'invalid_input');
    const identity = programIdentity(conn.config);
    this.rt.pins.check(name, identity, conn.tools);
    await this.rt.pins.accept(name, identity, tools);
    this.rt.tools.refreshOffered();
    return this.rt.view(name);
  }

  /** The pins' settings (hold unaccepted tools back from the model). */
  pinSettings(): PinSettings {
    return { hold_unaccepted: this.rt.pins.holdUnaccepted() };
  }

  /** Store the pins' settings; the offered tools follow at once. @throws the fs error */
  async setPinSettings(s: PinSettings): Promise<PinSettings> {
    const saved = await this.rt.pins.files.setSettings(s);
    this.rt.tools.refreshOffered();
    for (const n of this.rt.store.names()) this.rt.emitChanged(n);
    return saved;
  }

  /** The live connection of a server, whatever its state: for tests and benchmarks only (the app uses {@link ready}). */
  connection(name: string): McpConnection | undefined {
    return this.rt.conns.get(name);
  }

  /**
   * A ready server's handle (its listings and requests), or null when the server is not ready.
   * The only way the rest of the app reaches a server (main/mcp/host/ready-server.ts).
   */
  ready(name: string): ReadyServer | null {
    const c = this.rt.conns.get(name);
    return c && c.status === 'ready' ? readyServer(c) : null;
  }

  // ---- startup -------------------------------------------------------------------------------

  /**
   * Start every enabled server in the background, begun as the start admission lets each
   * (./host/start-admission.ts: as many as the cores, more while the machine has spare CPU, or a
   * fixed `concurrency`). Returns at once;
   * `whenStarted()` resolves when the startup task is done. Every enabled server is visible as
   * `starting` immediately. At each server's turn the *current* persisted config is read: a server
   * deleted or disabled meanwhile is skipped, and a client created by add/restart meanwhile wins.
   */
  startAll(): void {
    if (this.startup || this.rt.shuttingDown) return;
    const queue = queueEnabledServers(this.rt);
    // Spawning is left to the next turn of the event loop, so whoever called startAll (the window,
    // the browser shell) is serving before the first process is forked.
    this.startup = new Promise<void>((r) => setImmediate(r)).then(() => runStartupQueue(this.rt, queue, this.admission));
  }

  /** Resolves when the background startup task has finished (immediately if none ran). */
  async whenStarted(): Promise<void> {
    await this.startup;
  }

  // ---- management actions (./host/management.ts) ----------------------------------------------

  /**
   * Add a server: validate (unique name, command resolvable), persist, then start it in the
   * background. Returns the `starting` view at once.
   * @throws HostError('conflict' | 'command_not_found')
   */
  add(name: string, input: ServerInput): Promise<ServerView> {
    return this.management.add(name, input);
  }

  /**
   * Edit a server with PATCH semantics. The edit is persisted only after the server started
   * successfully with it; on failure the previous config (and its running client) is kept.
   * @throws HostError('not_found' | 'command_not_found' | 'start_failed' | 'invalid_input')
   */
  update(name: string, patch: ServerPatch): Promise<ServerView> {
    return this.management.update(name, patch);
  }

  /**
   * Rename a server: every record kept under its name (config entry and secrets, pins, OAuth
   * state, sandbox folder, log, and the participants of `HostOptions.renames`) moves to `to`, or
   * none does; the server restarts under the new name (./host/rename.ts).
   * @throws HostError('not_found' | 'conflict' | 'write_failed'), NameCollisionError
   */
  rename(from: string, to: string): Promise<ServerView> {
    return this.renames.rename(from, to);
  }

  /**
   * Enable (start) or disable (stop) a server; persisted at once.
   * @throws HostError('not_found' | 'command_not_found')
   */
  setEnabled(name: string, enabled: boolean): Promise<ServerView> {
    return this.management.setEnabled(name, enabled);
  }

  /**
   * Change one tool's settings (PATCH); persisted at once, the server is not restarted.
   * @throws HostError('not_found' | 'invalid_input')
   */
  setToolSettings(name: string, tool: string, patch: NonNullable<ToolSettingPatch>): Promise<ServerView> {
    return this.management.setToolSettings(name, tool, patch);
  }

  /**
   * Bulk per-server action over the tools the server lists now: `enable_all`, `disable_all`, or
   * `allow_read_only`. @throws HostError('not_found' | 'invalid_input')
   */
  bulkToolSettings(name: string, action: 'enable_all' | 'disable_all' | 'allow_read_only'): Promise<ServerView> {
    return this.management.bulkToolSettings(name, action);
  }

  /**
   * Restart a server with its persisted config (a new process and session).
   * @throws HostError('not_found')
   */
  restart(name: string): Promise<ServerView> {
    return this.management.restart(name);
  }

  /** A server's roots changed: its session is told, or a sandboxed server restarts (./host/management.ts). */
  rootsChanged(name: string): Promise<void> {
    return this.management.rootsChanged(name);
  }

  /**
   * Remove a server: stop it, unregister its tools, delete it from the config file, forget its
   * pinned tool definitions. @throws HostError('not_found'); the fs error of deleting its pins file
   */
  async remove(name: string): Promise<void> {
    await this.management.remove(name);
    // A server added later under this name is another server: it starts with its own first listing.
    await this.rt.pins.drop(name);
  }

  // ---- OAuth sign-in -----------------------------------------------------------------------------

  private oauthServer(name: string): { cfg: ServerConfig & { type: 'http' | 'sse' }; provider: PersistentOAuthProvider } {
    const cfg = this.rt.store.get(name);
    if (!cfg) throw noSuchServer(name);
    const provider = this.rt.oauth.providerFor(name, cfg);
    if (!provider || cfg.type === 'local') throw noSignIn(name);
    return { cfg, provider };
  }

  /**
   * Sign in to an OAuth server: opens the authorization page (via `openUrl`), waits for the
   * loopback callback, stores the tokens, then restarts the connection with them. A second call
   * while one runs joins it. A stored refresh token that still works needs no browser.
   * @throws HostError('not_found' | 'invalid_input'); the flow's typed errors (CancelledError,
   *   CallbackTimeoutError, AuthorizationDeniedError, UnsafeUrlError, PortInUseError, OAuthFlowError).
   */
  async signIn(name: string): Promise<{ opened_browser: boolean }> {
    this.rt.assertOpen();
    const { cfg, provider } = this.oauthServer(name);
    const run = this.signIns.signIn({ provider, serverUrl: cfg.url, scope: cfg.auth.kind === 'oauth' ? cfg.auth.scope : undefined });
    this.rt.emitChanged(name); // shows signing_in
    try {
      const r = await run;
      if (this.rt.store.get(name)?.enabled) this.rt.launch(name, this.rt.store.get(name)!);
      return { opened_browser: r.openedBrowser };
    } finally {
      this.rt.emitChanged(name);
    }
  }

  /** Cancel a running sign-in (closes the loopback socket; never invents a code). */
  cancelSignIn(name: string): { cancelled: boolean } {
    if (!this.rt.store.has(name)) throw noSuchServer(name);
    const cancelled = this.signIns.cancel(name);
    this.rt.emitChanged(name);
    return { cancelled };
  }

  /** Forget the stored OAuth tokens and registration; the server then needs a sign-in again. */
  async signOut(name: string): Promise<ServerView> {
    const { cfg } = this.oauthServer(name);
    await this.rt.oauth.forget(name);
    if (cfg.enabled) this.rt.launch(name, cfg);
    return this.rt.view(name);
  }

  // ---- import / export (./host/import-export.ts) ------------------------------------------------

  /**
   * Export the server list in the config file's format. Without secrets every secret value is
   * `""` and the JSON is returned; with secrets the document is written owner-only to
   * `<state dir>/exports/` and only its path is returned, so no secret crosses IPC.
   */
  exportServers(includeSecrets: boolean): Promise<ExportResult> {
    return this.transfer.exportServers(includeSecrets);
  }

  /** What importing `json` would add (masked). @throws HostError('invalid_input') */
  importPreview(json: string): ImportPreview {
    return this.transfer.importPreview(json);
  }

  /**
   * Import servers from a `{"servers": …}` or `{"mcpServers": …}` document. Existing names are
   * skipped unless `replaceExisting`. @throws HostError('invalid_input') for an unreadable document.
   */
  importServers(json: string, replaceExisting: boolean): Promise<ImportResult> {
    return this.transfer.importServers(json, replaceExisting);
  }

  // ---- calls ---------------------------------------------------------------------------------

  /**
   * Bind an offered tool to its server as it is now (./host/resolved-tools.ts): the tool of
   * `ref.server` with real name `ref.original_name`, on that server's live, ready connection, with
   * the identity of its configuration. Null when the server no longer offers it or is not ready.
   * The permission gate approves a resolved tool; {@link callResolved} runs exactly that.
   */
  resolveTool(ref: ToolRef): ResolvedTool | null {
    return resolveTool(this.rt.tools, this.rt.conns, ref);
  }

  /** Whether a resolved tool's connection is still its server's live, ready one. */
  isLive(resolved: ResolvedTool): boolean {
    return isLive(this.rt.conns, resolved);
  }

  /**
   * Call a tool by its namespaced name, as the table names it now (tests, benchmarks; callers that
   * ask the permission gate use {@link callResolved} with the tool it approved).
   * @throws HostError('not_found') for an unknown tool or a server that is not ready; as {@link callResolved} otherwise.
   */
  async callTool(namespaced: string, args: Record<string, unknown>, opts: CallOptions = {}): Promise<CallToolResult> {
    const tool = this.rt.tools.byName(namespaced);
    if (!tool) throw new HostError('not_found', `No tool named "${namespaced}".`);
    const resolved = this.resolveTool(tool);
    if (!resolved) throw serverUnavailable(tool.server, 'not_running');
    return this.callResolved(resolved, args, opts);
  }

  /**
   * Call a resolved tool on exactly the connection it was resolved on — never on whatever holds
   * its name now. Calls to one server run concurrently. A tool the user disabled is refused here,
   * whoever asks. Arguments and result are bounded in nesting depth (`boundDepth`: deeper parts
   * become a marker, ./nesting.ts), and the result is capped at `MAX_CALL_RESULT_CHARS` in total,
   * with a notice (main/mcp/result-limits.ts).
   * @throws ServerChangedError (code `gone`) when that connection is no longer the server's live,
   *   ready one (stopped, removed, crashed, restarted); ToolDisabledError (code `forbidden`) for a
   *   disabled tool; errors of the connection otherwise.
   */
  async callResolved(resolved: ResolvedTool, rawArgs: Record<string, unknown>, opts: CallOptions = {}): Promise<CallToolResult> {
    const tool = resolved.tool;
    // Nothing deeper than the bound goes out or comes in: encoding it would overflow the stack.
    const args = boundDepth(rawArgs);
    if (this.rt.toolSetting(tool.server, tool.original_name)?.enabled === false) throw new ToolDisabledError(tool.server, tool.original_name);
    // The host's own tools (resources and prompts of ready servers; ./protocol/meta-tools.ts).
    if (tool.server === META_SERVER) return capCallResult(boundDepth(await this.meta.call(tool.original_name, args, opts.signal)));
    const conn = resolved.connection;
    if (!conn || !this.isLive(resolved)) throw new ServerChangedError(tool.server, tool.original_name);
    // Every result is capped in total size (all blocks, images included) before anyone sees it.
    try {
      return capCallResult(boundDepth(await conn.callTool(tool.original_name, args, opts)));
    } catch (err) {
      // A tool that needs a URL interaction first (-32042): the user is asked, then the error goes on.
      if (this.protocol) await askRequiredUrls(this.protocol, tool.server, err, opts.signal ?? new AbortController().signal);
      throw err;
    }
  }

  /**
   * Pick a saved task up again on server `server`'s live connection and wait until it ends (MCP
   * Tasks; docs/ARCHITECTURE.md "Tasks"); a completed result is bounded and capped as any call's.
   * @throws HostError('not_found') when the server is not ready; TaskLostError when it does not know the task.
   */
  async resumeTask(server: string, reference: TaskReference, opts: { observer?: TaskObserver; signal?: AbortSignal } = {}): Promise<TaskEnd> {
    const conn = this.ready(server);
    if (!conn) throw serverUnavailable(server, 'not_running');
    const end = await conn.resumeTask(reference, opts);
    return end.kind === 'completed' ? { kind: 'completed', result: capCallResult(boundDepth(end.result)) } : end;
  }

  // ---- shutdown ------------------------------------------------------------------------------

  /**
   * Shut down: stop the startup task from taking more servers, close every client (including
   * half-started ones), unregister all tools. Nothing is registered after this began.
   */
  async shutdown(): Promise<void> {
    await this.rt.close();
    await this.startup;
    await this.rt.pins.files.flush();
  }
}
