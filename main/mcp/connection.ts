/**
 * One MCP server: its transport, one persistent SDK `Client` session, and a small state machine
 * (`starting → ready | error`, `→ closed`). Calls are not serialized: JSON-RPC ids multiplex them.
 * Its other jobs live in main/mcp/connection/ (docs/ARCHITECTURE.md "Processes and rooms"):
 * launching and releasing its transports (launch.ts), the era and transport fallbacks of a start
 * (fallbacks.ts), what a server may ask of the client (client-handlers.ts), the lists it holds and
 * listing them (held-lists.ts, listing.ts, list-changes.ts), requests beyond tools (requests.ts), the OAuth background refresh
 * (oauth-refresh.ts), MCP Tasks (tasks.ts).
 */
import { APPS_CLIENT_CAPABILITIES } from './apps/tool-ui.js';
import { Client } from '@modelcontextprotocol/client';
import type { CallToolResult, ClientCapabilities, ClientOptions, Prompt, Resource, Tool, Transport } from '@modelcontextprotocol/client';
import type { LogEntry, LoggingLevel, ServerFailure, ServerIssue, TransportKind } from '../../preload/contract/index.js';
import type { ProtocolHooks } from './protocol/hooks.js';
import type { ServerConfig } from './config.js';
import type { ServerEnvironment } from './transports/environment.js';
import { directLaunch, type LaunchWrapper, type TransportKind as TransportDescriptor } from './transports/kind.js';
import { transportFor, transportOf } from './transports/registry.js';
import { denialLine, ServerSandbox } from './connection/sandbox.js';
import type { SandboxLauncher } from './sandbox/launcher.js';
import { DenialLog } from './sandbox/denials.js';
import { classifyAuthFailure } from './oauth/flow.js';
import type { PersistentOAuthProvider } from './oauth/provider.js';
import type { ProcessLedger } from './process-ledger.js';
import { describeFailure, needsRawDetail } from './failure-log.js';
import { classifyStartFailure, isSessionExpired, TimeoutError } from './failures.js';
import { openWithFallbacks } from './connection/fallbacks.js';
import { versionNegotiation, type EraMemory, type EraMode, type NegotiatedProtocol } from './negotiation.js';
import { LogRing } from './connection/log-ring.js';
import { CLIENT_INFO, NotConnectedError, progressListener, type CallOptions, type ElicitHandler, type SampleHandler } from './connection/types.js';
import { handlerCapabilities, installClientHandlers, sendRootsChanged, type ClientHandlers } from './connection/client-handlers.js';
import { SessionLists, type ListsOwner } from './connection/list-changes.js';
import { HeldLists } from './connection/held-lists.js';
import { OAuthRefresher } from './connection/oauth-refresh.js';
import { ServerRequests } from './connection/requests.js';
import type { TrafficRing } from './inspector/ring.js';
import { ConnectionTasks, resultOfTask } from './connection/tasks.js';
import type { TaskEnd, TaskObserver, TaskReference } from './tasks/session.js';
import type { RawRequestLane } from './tasks/raw-lane.js';
import { ConnectionLaunch, pidOf, type ProcessExit } from './connection/launch.js';

export { LogRing } from './connection/log-ring.js';
export { CLIENT_INFO, NotConnectedError, type CallOptions, type ElicitationAnswer, type ElicitationForm, type ElicitHandler, type SampleHandler, type SamplingRequest, type SamplingResult, type ToolProgress } from './connection/types.js';
export { collectPages, type ListStop } from './lists.js';

/**
 * A connection's own state (docs/ARCHITECTURE.md "Status"): the host's `ServerState` without
 * `disabled` and restarts, which the host adds.
 */
export type ConnectionState =
  | { kind: 'starting' }
  | { kind: 'ready' }
  | { kind: 'needs_auth'; reason: 'needs_auth' | 'needs_reauth' }
  | { kind: 'error'; failure: ServerFailure };

/**
 * What a connection is built with besides its config (all optional; absent = not declared / not
 * used): the client handlers (elicitation, sampling, roots and URL elicitation hooks), the process
 * ledger, the inherited environment, shared era verdicts, extra SDK client options, the stdio
 * launch seam — the sandbox launcher (main/mcp/sandbox/), or another wrapper (tests) — and the
 * server's traffic ring (main/mcp/inspector/; absent = not recorded).
 */
export interface ConnectionDeps {
  elicit?: ElicitHandler | null;
  sample?: SampleHandler | null;
  processes?: ProcessLedger | null;
  environment?: ServerEnvironment | null;
  eras?: EraMemory | null;
  protocolHooks?: ProtocolHooks | null;
  clientOptions?: Omit<ClientOptions, 'capabilities'>;
  sandbox?: SandboxLauncher | null;
  /** The server's sandbox denials, kept by the host across its connections (a fresh log when absent). */
  denials?: DenialLog;
  launchWrapper?: LaunchWrapper;
  traffic?: TrafficRing | null;
}

/**
 * A live connection to one configured server. Create, then `start()` (never throws: failures land
 * in `state`); `close()` is idempotent and safe while starting.
 */
export class McpConnection {
  private current: ConnectionState = { kind: 'starting' };

  /** The connection's state (read-only from outside; see {@link ConnectionState}). */
  get state(): ConnectionState {
    return this.current;
  }

  /** The kind of {@link state}. */
  get status(): ConnectionState['kind'] {
    return this.current.kind;
  }

  /** The tools, resources and prompts as last listed, and their issues (./connection/held-lists.ts). */
  readonly lists: HeldLists;

  /** The tools as last listed and checked; empty when not ready. */
  get tools(): Tool[] {
    return this.lists.tools;
  }

  /** The resources as last listed. */
  get resources(): Resource[] {
    return this.lists.resources;
  }

  /** The prompts as last listed. */
  get prompts(): Prompt[] {
    return this.lists.prompts;
  }

  serverInfo: { name: string; version: string } | null = null;
  /** When the server became ready (ms epoch), or null if it never did. */
  readyAt: number | null = null;
  readonly log: LogRing;
  private client: Client | null = null;
  private transport: Transport | null = null;
  /** The raw request lane of {@link transport} (2026-07-28 Tasks requests; main/mcp/tasks/raw-lane.ts). */
  private lane: RawRequestLane | null = null;
  private closing = false;
  private startPromise: Promise<void> | null = null;

  /**
   * @param name the server's configured name
   * @param config the full stored config (secrets included; never leaves main)
   * @param onChange called after every observable change of state
   */
  constructor(
    readonly name: string,
    readonly config: ServerConfig,
    private readonly onChange: (conn: McpConnection) => void = () => undefined,
    log?: LogRing,
    /** The server's OAuth provider when its auth kind is `oauth` (shared with sign-in). */
    readonly oauth: PersistentOAuthProvider | null = null,
    deps: ConnectionDeps = {},
  ) {
    this.elicit = deps.elicit ?? null;
    this.sample = deps.sample ?? null;
    this.processes = deps.processes ?? null;
    this.environment = deps.environment ?? null;
    this.eras = deps.eras ?? null;
    this.protocolHooks = deps.protocolHooks ?? null;
    this.handlers = { server: name, elicit: this.elicit, sample: this.sample, protocolHooks: () => this.protocolHooks, note: (source, text) => this.note(source, text) };
    // MCP Apps (main/mcp/apps/): this host renders `ui://` views.
    this.capabilities = { ...handlerCapabilities(this.handlers), ...APPS_CLIENT_CAPABILITIES };
    this.tasks = new ConnectionTasks(name, config, this.handlers, this.capabilities);
    this.clientOptions = deps.clientOptions ?? {};
    this.traffic = deps.traffic ?? null;
    this.sandbox =
      deps.sandbox && config.type === 'local'
        ? new ServerSandbox({
            launcher: deps.sandbox,
            denials: deps.denials ?? new DenialLog(),
            roots: () => (this.protocolHooks?.roots(this.name) ?? []).map((r) => r.uri),
            onDenial: (d) => {
              this.note('lifecycle', denialLine(d));
              this.onChange(this);
            },
          })
        : null;
    // A restarted server keeps one log across its processes, so the Logs view shows the history.
    this.log = log ?? new LogRing();
    this.id = this.log.nextOrigin();
    this.lists = new HeldLists({
      server: name,
      client: () => this.client,
      modernHttp: () => this.descriptor.remote && this.client?.getProtocolEra() === 'modern',
      note: (text) => this.note('lifecycle', text),
    });
    this.launches = new ConnectionLaunch({
      name,
      config,
      log: this.log,
      note: (source, text) => this.note(source, text),
      oauth,
      processes: this.processes,
      environment: this.environment,
      sandbox: this.sandbox,
      wrapper: this.sandbox ?? deps.launchWrapper ?? directLaunch,
      traffic: this.traffic,
    });
    const url = this.descriptor.url(config);
    this.refresher =
      oauth && url !== null
        ? new OAuthRefresher(oauth, url, {
            closed: () => this.closing,
            note: (text) => this.note('lifecycle', text),
            authLost: async (kind) => {
              this.lists.tools = [];
              this.setState({ kind: 'needs_auth', reason: kind });
              await this.closeTransport();
            },
            changed: () => this.onChange(this),
          })
        : null;
  }

  /** Asks the user on behalf of the server (elicitation); null = the capability is not declared. */
  readonly elicit: ElicitHandler | null;
  /** Answers the server's sampling requests; null = the capability is not declared. */
  readonly sample: SampleHandler | null;
  /** What the server may ask of this client (./connection/client-handlers.ts), for every session. */
  private readonly handlers: ClientHandlers;
  /** The client capabilities every session declares. */
  private readonly capabilities: ClientCapabilities;
  /** Records a stdio server's process group, so a crash of the app cannot orphan it. */
  readonly processes: ProcessLedger | null;
  /** The environment a stdio server inherits; null = this process's (main/mcp/transports/environment.ts). */
  readonly environment: ServerEnvironment | null;
  /** Launching and releasing this server's transports, and what is known of its processes (./connection/launch.ts). */
  private readonly launches: ConnectionLaunch;
  /** This server's sandbox side (main/mcp/sandbox/); null when unsandboxed by construction (remote, or no launcher). */
  readonly sandbox: ServerSandbox | null;
  /** Era verdicts shared across connections (main/mcp/negotiation.ts); null = always probe. */
  readonly eras: EraMemory | null;
  /** The negotiated protocol era and revision, once connected. */
  protocol: NegotiatedProtocol | null = null;
  /** Extra SDK `ClientOptions` (e.g. `versionNegotiation`); capabilities are always this class's own. */
  readonly clientOptions: Omit<ClientOptions, 'capabilities'>;

  /** The server's traffic ring (docs/ARCHITECTURE.md "Protocol inspector"); null = not recorded. */
  private readonly traffic: TrafficRing | null;

  /** OAuth: the background refresh of a remote server's access token; null without OAuth. */
  private readonly refresher: OAuthRefresher | null;

  /** OAuth: when the current access token expires (ms epoch), when known. */
  get oauthExpiresAt(): number | null {
    return this.refresher?.expiresAt ?? null;
  }

  /** Last stderr lines of this connection's latest process (./connection/launch.ts). */
  stderrTail(): string[] {
    return this.launches.stderrTail();
  }

  /** The command a stdio server's program resolved to, once launched. */
  get resolvedCommand(): string | null {
    return this.launches.resolvedCommand;
  }

  /** Identifies this connection's lines in a log shared across restarts. */
  readonly id: number;

  private note(source: LogEntry['source'], text: string): void {
    this.log.push(source, text, this.id);
  }

  /** Whether `close()` was called. */
  get closed(): boolean {
    return this.closing;
  }

  /** The child pid of a stdio server, when running. */
  get pid(): number | null {
    return pidOf(this.transport);
  }

  /** How the process ended, when it did and that is known. */
  private exitInfo(): ProcessExit | null {
    return this.launches.exit(this.transport);
  }

  /** Start once: spawn/connect, `initialize`, list every tool page. Resolves when settled. */
  start(): Promise<void> {
    this.startPromise ??= this.doStart();
    return this.startPromise;
  }

  private setState(state: ConnectionState): void {
    if (this.closing) return;
    this.current = state;
    this.onChange(this);
  }

  private failure(failure: ServerFailure): void {
    this.note('lifecycle', `error (${failure.kind}): ${describeFailure(failure)}`);
    this.setState({ kind: 'error', failure });
  }

  private async doStart(): Promise<void> {
    if (this.closing) return;
    const timeoutMs = this.config.timeout_seconds * 1000;
    this.note('lifecycle', 'starting');
    // Each attempt at a session gets the whole start timeout (an era re-check starts anew).
    const timers = new Set<NodeJS.Timeout>();
    const attempt = (mode: EraMode): Promise<void> =>
      Promise.race([
        this.openSession(timeoutMs, mode),
        new Promise<never>((_, reject) => {
          timers.add(setTimeout(() => reject(new TimeoutError(`The server did not finish starting within ${this.config.timeout_seconds} s.`)), timeoutMs));
        }),
      ]);
    // OAuth: when the stored access token had expired, the SDK refreshes it while connecting;
    // the server's log says so (a changed `saved_at` after the handshake).
    const savedBefore = this.oauth && this.descriptor.remote ? ((await this.oauth.storedTokens().catch(() => undefined))?.saved_at ?? null) : null;
    try {
      await openWithFallbacks({
        config: this.config,
        eras: this.eras,
        remote: this.descriptor.remote,
        legacyFallback: this.descriptor.legacyFallback,
        attempt,
        reset: () => this.closeTransport(),
        exit: () => this.exitInfo(),
        isAuthFailure: (err) => !!(this.oauth && classifyAuthFailure(err, this.oauth)),
        useLegacySse: () => {
          this.useLegacySse = true;
        },
        closing: () => this.closing,
        note: (text) => this.note('lifecycle', text),
      });
      if (this.closing) return;
      const v = this.client?.getServerVersion();
      this.serverInfo = v ? { name: v.name, version: v.version } : null;
      this.note('lifecycle', `ready with ${this.tools.length} tools`);
      this.readyAt = Date.now();
      if (savedBefore !== null) {
        const savedAfter = (await this.oauth?.storedTokens().catch(() => undefined))?.saved_at ?? null;
        if (savedAfter !== null && savedAfter !== savedBefore) this.note('lifecycle', 'access token refreshed while connecting');
      }
      await this.refresher?.schedule();
      this.sandbox?.ready();
      this.setState({ kind: 'ready' });
    } catch (err) {
      if (this.closing) return;
      await this.closeTransport();
      const authKind = this.oauth ? classifyAuthFailure(err, this.oauth) : null;
      if (authKind) {
        this.note('lifecycle', authKind.replace('_', ' '));
        this.setState({ kind: 'needs_auth', reason: authKind });
        return;
      }
      const f = classifyStartFailure(err, {
        type: this.config.type,
        ...this.descriptor.failureTarget(this.config, this.resolvedCommand),
        phase: this.phase,
        exit: this.exitInfo(),
        seconds: this.config.timeout_seconds,
      });
      // The error's own words (the SDK's "Connection closed") go to the log only where the
      // failure's line does not say what happened; else the last line is that (e.g. the exit code).
      if (needsRawDetail(f)) this.note('lifecycle', `start failed: ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`.slice(0, 2000));
      this.failure(f);
    } finally {
      for (const t of timers) clearTimeout(t);
    }
  }

  /** What the start was doing, for classifying its failure (main/mcp/failures.ts). */
  private phase: 'handshake' | 'listing' = 'handshake';

  /** Whether the legacy HTTP+SSE transport is used (type `sse`, or a fallback from `http`). */
  useLegacySse = false;
  private reopening: Promise<void> | null = null;

  /** This server's transport (main/mcp/transports/registry.ts). */
  private get descriptor(): TransportDescriptor {
    return transportFor(this.config);
  }

  /** The transport a session is opened with: the configured one, or legacy SSE after the fallback. */
  private launching(): TransportDescriptor {
    return this.useLegacySse ? transportOf('sse') : this.descriptor;
  }

  /**
   * Create the transport and client, negotiate the era (`server/discover` probe or `initialize`;
   * see {@link EraMode}), and list. @throws on any failure.
   */
  private async openSession(timeoutMs: number, mode: EraMode): Promise<void> {
    const { transport, lane } = await this.launches.open(this.launching());
    if (this.closing) return;
    this.transport = transport;
    this.lane = lane;
    const client = new Client(CLIENT_INFO, {
      versionNegotiation: versionNegotiation(this.config.type, timeoutMs, mode === 'probe' || (this.eras?.knownModern(this.config) ?? false)),
      ...this.clientOptions,
      capabilities: this.capabilities,
    });
    installClientHandlers(client, this.handlers);
    client.onerror = (err) => {
      // Protocol-level oddities (unknown response ids, dropped oversized messages, an optional GET
      // stream the server does not offer) are logged, not fatal.
      this.note('protocol', err instanceof Error ? err.message : String(err));
    };
    client.onclose = () => {
      if (this.closing || this.client !== client || this.reopening) return;
      if (this.status === 'ready') {
        this.lists.tools = [];
        this.failure({ kind: 'exited', running: true, exit: this.exitInfo(), server_message: null });
      }
    };
    this.client = client;
    await this.connectAndList(client, transport, timeoutMs, mode);
  }

  /**
   * A Streamable HTTP server forgot our session (404 on the session id, MCP spec "Session
   * Management"): start a new session once, transparently. Concurrent callers share it.
   */
  private reopenSession(): Promise<void> {
    this.reopening ??= (async () => {
      this.note('lifecycle', 'the server expired the session; starting a new one');
      const old = this.client;
      this.client = null;
      await old?.close().catch(() => undefined);
      await this.openSession(this.config.timeout_seconds * 1000, this.protocol?.era === 'legacy' ? 'legacy' : 'probe');
    })().finally(() => {
      this.reopening = null;
    });
    return this.reopening;
  }

  private async connectAndList(client: Client, transport: Transport, timeoutMs: number, mode: EraMode): Promise<void> {
    const prior = mode === 'legacy' ? ({ kind: 'legacy' } as const) : mode === 'probe' ? undefined : this.eras?.prior(this.config);
    this.phase = 'handshake';
    await client.connect(transport, { timeout: timeoutMs, ...(prior ? { prior } : {}) });
    this.phase = 'listing';
    const era = client.getProtocolEra() ?? 'legacy';
    this.protocol = { era, version: client.getNegotiatedProtocolVersion() ?? null };
    this.eras?.remember(this.config, era);
    this.note('lifecycle', `protocol ${this.protocol.version ?? 'unknown'} (${era === 'modern' ? 'negotiated with server/discover' : 'initialize handshake'})`);
    const lists = new SessionLists(client, this.listsOwner);
    lists.install();
    await lists.initial('tools', timeoutMs);
    // Resources and prompts are extras: a server that fails to list them still serves its tools.
    await Promise.all([
      lists.initial('resources', timeoutMs).catch((err: Error) => this.note('lifecycle', `listing resources failed: ${err.message}`)),
      lists.initial('prompts', timeoutMs).catch((err: Error) => this.note('lifecycle', `listing prompts failed: ${err.message}`)),
    ]);
    // 2026-07-28: the list-change stream opens once the server is ready (off the start's path).
    if (era === 'modern') void lists.listen(timeoutMs);
  }

  /** What every session's lists (main/mcp/connection/list-changes.ts) need of this connection; one per connection. */
  private readonly listsOwner: ListsOwner = {
    isCurrent: (session) => !this.closing && this.client === session,
    relist: (what, timeoutMs) => this.lists.refresh(what, timeoutMs ?? this.config.timeout_seconds * 1000),
    changed: () => this.onChange(this),
    note: (text) => this.note('lifecycle', text),
  };

  /** Problems with parts of what the server lists (left-out tools, stopped listings), for the view. */
  get issues(): ServerIssue[] {
    return this.lists.issues;
  }

  /**
   * Call a tool by its real name on this server. Concurrent calls are sent at once.
   * Aborting `signal` cancels the request (the SDK sends `notifications/cancelled`).
   * @throws NotConnectedError when the server is not ready; the SDK's McpError on protocol errors.
   */
  async callTool(name: string, args: Record<string, unknown>, opts: CallOptions = {}): Promise<CallToolResult> {
    const client = this.client;
    if (!client || this.status !== 'ready') throw new NotConnectedError(`Server "${this.name}" is not ready (${this.status}).`);
    const timeout = opts.timeoutMs ?? this.config.timeout_seconds * 1000;
    const definition = this.tools.find((t) => t.name === name);
    const call = (c: Client) => {
      if (opts.trace) this.traffic?.expectCall(name, args, opts.trace);
      return c.callTool({ name, arguments: args }, {
        // The listed definition: the SDK validates structured output against its outputSchema
        // (and mirrors Mcp-Param headers on 2026-07-28) without a cached aggregate of its own.
        ...(definition ? { toolDefinition: definition } : {}),
        signal: opts.signal,
        timeout,
        resetTimeoutOnProgress: true,
        maxTotalTimeout: Math.max(timeout, 10 * 60 * 1000),
        // A handler must be present for the SDK to send a progress token; progress also extends the deadline.
        onprogress: progressListener(opts.onProgress),
      });
    };
    // A call that may run as a task (MCP Tasks, either generation): it waits for the task's end.
    const tasks = await this.tasks.forCall(client, this.lane, definition);
    if (tasks && definition) {
      if (opts.trace) this.traffic?.expectCall(name, args, opts.trace);
      return resultOfTask(
        await tasks.call(definition, args, {
          timeoutMs: timeout,
          ...(opts.signal ? { signal: opts.signal } : {}),
          ...(opts.task ? { observer: opts.task } : {}),
          ...(opts.onProgress ? { onProgress: progressListener(opts.onProgress) } : {}),
        }),
      );
    }
    try {
      return (await call(client)) as CallToolResult;
    } catch (err) {
      if (!this.descriptor.remote || this.closing) throw err;
      // OAuth: the grant was revoked (refresh rejected, nothing to retry with): the server needs
      // a sign-in, and its tools leave the model's list until then (docs/ARCHITECTURE.md "OAuth").
      if (this.oauth && this.client === client && this.noteAuthLost(err)) throw err;
      // Retry once on a fresh session: when this call hit the expired session itself, or when it
      // was cut off by another caller replacing the expired session.
      if (isSessionExpired(err)) await this.reopenSession();
      else if (this.reopening) await this.reopening;
      if (!this.client || this.client === client) throw err;
      return (await call(this.client)) as CallToolResult;
    }
  }

  /** The Tasks side of the live client (./connection/tasks.ts). */
  private readonly tasks: ConnectionTasks;

  /**
   * Pick a saved task up again on this server and wait until it ends (MCP Tasks; docs/ARCHITECTURE.md "Tasks").
   * @throws NotConnectedError when not ready or the server offers no tasks on this session;
   *   TaskLostError when the server does not know the task any more.
   */
  async resumeTask(reference: TaskReference, opts: { signal?: AbortSignal; observer?: TaskObserver } = {}): Promise<TaskEnd> {
    const client = this.client;
    if (!client || this.status !== 'ready') throw new NotConnectedError(`Server "${this.name}" is not ready (${this.status}).`);
    const tasks = await this.tasks.of(client, this.lane);
    if (!tasks) throw new NotConnectedError(`Server "${this.name}" does not offer tasks on this session.`);
    return tasks.resume(reference, { timeoutMs: this.config.timeout_seconds * 1000, ...opts });
  }

  /**
   * OAuth: when `err` says the stored sign-in is gone (`classifyAuthFailure`), turn this ready
   * server to `needs_auth` (reason `needs_auth` / `needs_reauth`) with no tools, and close
   * its session. @returns whether it did.
   */
  private noteAuthLost(err: unknown): boolean {
    const kind = this.oauth ? classifyAuthFailure(err, this.oauth) : null;
    if (!kind || this.status !== 'ready') return false;
    this.note('lifecycle', `a request was refused: ${kind.replace('_', ' ')}`);
    this.lists.tools = [];
    this.setState({ kind: 'needs_auth', reason: kind });
    void this.closeTransport();
    return true;
  }

  private async closeTransport(): Promise<void> {
    const client = this.client;
    await this.tasks.close();
    const transport = this.transport;
    this.client = null;
    this.transport = null;
    this.lane = null;
    await this.launches.release(transport, client);
  }

  /**
   * Close the session and end the server process. Idempotent; safe during `start()`.
   * @param why what the log's `closing` line adds (e.g. that a new connection replaced this one)
   */
  async close(why?: string): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    this.refresher?.stop();
    this.lists.clear();
    this.note('lifecycle', why ? `closing: ${why}` : 'closing');
    await this.closeTransport();
    await this.startPromise?.catch(() => undefined);
  }

  // --- roots, logging level, URL elicitation (protocol) ---
  // The client features of main/mcp/protocol (docs/ARCHITECTURE.md "Protocol features").

  /** Roots and URL elicitation hooks (main/mcp/protocol/hooks.ts); null = not declared. */
  readonly protocolHooks: ProtocolHooks | null;
  /** The level last set with `logging/setLevel` on this session; null = the server's own. */
  loggingLevel: LoggingLevel | null = null;

  /** The transport of the live session, or null when not connected. */
  get transportKind(): TransportKind | null {
    if (!this.client || this.status !== 'ready') return null;
    return this.launching().live;
  }

  /** The `icons` the server declares in its `serverInfo` (MCP spec 2025-11-25 "Icons"), unchecked. */
  get serverIcons(): unknown {
    return (this.client?.getServerVersion() as { icons?: unknown } | undefined)?.icons;
  }

  /** Whether the ready server declares the `logging` capability. */
  get supportsLogging(): boolean {
    return this.status === 'ready' && !!this.client?.getServerCapabilities()?.logging;
  }

  /**
   * Send `logging/setLevel` (MCP spec "Utilities: Logging").
   * @throws NotConnectedError when not ready; the SDK's error when the server lacks `logging`.
   */
  async setLoggingLevel(level: LoggingLevel): Promise<void> {
    await this.requests().setLoggingLevel(level);
    this.loggingLevel = level;
    this.note('lifecycle', `log level set to ${level}`);
  }

  /** Tell the server its roots changed (`notifications/roots/list_changed`); nothing when not connected. */
  async notifyRootsChanged(): Promise<void> {
    const client = this.client;
    if (!client || !this.protocolHooks || this.status !== 'ready') return;
    await sendRootsChanged(client, (source, text) => this.note(source, text));
  }

  // --- prompts, completion and resource reads (composer; docs/ARCHITECTURE.md "Prompts and resources in chat") ---

  /**
   * Requests beyond tools on the live session (./connection/requests.ts: prompts, completion,
   * resource reads and subscriptions, the log level). @throws NotConnectedError when not ready.
   */
  requests(): ServerRequests {
    if (!this.client || this.status !== 'ready') throw new NotConnectedError(`Server "${this.name}" is not ready (${this.status}).`);
    return new ServerRequests(this.client, this.config.timeout_seconds * 1000);
  }

  /** Whether the server declared a capability (`prompts`, `resources`, `completions`) or `resources.subscribe`. */
  supports(capability: 'prompts' | 'resources' | 'completions' | 'subscribe'): boolean {
    const caps = this.client?.getServerCapabilities();
    if (capability === 'subscribe') return caps?.resources?.subscribe === true;
    return Boolean(caps?.[capability]);
  }
}

