/**
 * The live side of the host: one `McpConnection` per running server and its lifecycle — launch,
 * stop, adopt a started candidate, restart after a crash — with the tool table, the OAuth
 * providers and the change events that follow from it. The management actions
 * (./management.ts), the startup queue (./startup.ts) and the façade (../host.ts) act through it.
 */
import type { LogEntry, ServerView } from '../../../preload/contract/index.js';
import type { SandboxLauncher } from '../sandbox/launcher.js';
import { LiveLogRing } from '../protocol/log-feed.js';
import type { HostProtocol } from '../protocol/service.js';
import type { RegisteredTool } from '../adapter.js';
import type { ConfigStore, ServerConfig } from '../config.js';
import { LogRing, McpConnection, type ElicitHandler, type SampleHandler } from '../connection.js';
import type { ProcessLedger } from '../process-ledger.js';
import { CommandNotFoundError, type ServerEnvironment } from '../transports/environment.js';
import { commandNotFound } from '../failures.js';
import type { LaunchWrapper } from '../transports/kind.js';
import { transportFor } from '../transports/registry.js';
import { EraMemory } from '../negotiation.js';
import type { TrafficRecorder } from '../inspector/recorder.js';
import type { OAuthProviderDeps } from '../oauth/provider-factory.js';
import { appShuttingDown, HostError, noSuchServer } from './errors.js';
import { OAuthProviderRegistry } from './oauth-providers.js';
import { CrashRecovery } from './recovery.js';
import { ToolRegistry } from './tool-table.js';
import type { ToolPins } from '../pins/index.js';
import { META_SERVER } from '../protocol/meta-tools.js';
import type { HostToolSettings } from '../protocol/meta-tool-settings.js';
import type { ToolSetting } from '../tool-settings.js';
import { toView } from './views.js';
import { DenialLog } from '../sandbox/denials.js';

/** Events the host emits (wired to the contract's event channels). */
export interface HostEvents {
  changed(view: ServerView): void;
  /** Server `name` was removed; `config` is what it was (a bundle's folder is found from its command). */
  removed(name: string, config: ServerConfig): void;
  /** Server `from` is now called `view.name`: every record moved (./rename.ts). */
  renamed(from: string, view: ServerView): void;
  toolsChanged(tools: RegisteredTool[]): void;
  /** New entries in a server's log, oldest first (main/mcp/protocol/log-feed.ts). */
  log(name: string, entries: LogEntry[]): void;
}

/** What the runtime is built from. */
export interface RuntimeDeps {
  store: ConfigStore;
  events: Partial<HostEvents>;
  /** Where OAuth state lives and how the user is sent to an authorization page. */
  oauth: Pick<OAuthProviderDeps, 'store' | 'openUrl'>;
  elicit: ElicitHandler | null;
  sample: SampleHandler | null;
  processes: ProcessLedger | null;
  /** The environment stdio servers inherit (the login shell's PATH on macOS). */
  environment: ServerEnvironment;
  /** The stdio launch seam every connection gets (main/mcp/transports/kind.ts). */
  launchWrapper: LaunchWrapper;
  /** Roots and URL elicitation (main/mcp/protocol); null = not declared. */
  protocol: HostProtocol | null;
  /** Whether a value is a stored secret (masks command arguments equal to one). */
  isKnownSecret: (value: string) => boolean;
  /** Runs stdio servers in the sandbox (main/mcp/sandbox/); null = unsandboxed. */
  sandbox: SandboxLauncher | null;
  /** The pinned tool definitions every listing is checked against (main/mcp/pins/). */
  pins: ToolPins;
  /** The user's choices for the host's own tools (`@host`). */
  hostTools: HostToolSettings;
  /** Records each server's MCP traffic (main/mcp/inspector/); null = not recorded. */
  traffic: TrafficRecorder | null;
}

/** The running servers of one host. */
export class ServerRuntime {
  readonly store: ConfigStore;
  readonly events: Partial<HostEvents>;
  readonly conns = new Map<string, McpConnection>();
  /** One log per server, kept across its restarts. */
  readonly logRings = new Map<string, LogRing>();
  /** Each server's sandbox denials, by name (dropped with the server). */
  readonly denialLogs = new Map<string, DenialLog>();
  /** The name each log's live entries go out under (a rename changes it; the log stays). */
  private readonly logNames = new WeakMap<LogRing, { name: string }>();
  /** Connections being tried by an edit; closed by shutdown too. */
  readonly pendingCandidates = new Set<McpConnection>();
  readonly recovery: CrashRecovery;
  readonly tools: ToolRegistry;
  readonly oauth: OAuthProviderRegistry;
  readonly pins: ToolPins;
  readonly hostTools: HostToolSettings;
  shuttingDown = false;
  /** Era verdicts per server configuration for this session (main/mcp/negotiation.ts). */
  private readonly eras = new EraMemory();

  constructor(private readonly deps: RuntimeDeps) {
    this.store = deps.store;
    this.events = deps.events;
    this.pins = deps.pins;
    this.hostTools = deps.hostTools;
    this.tools = new ToolRegistry(deps.store, (server, tool) => this.toolSetting(server, tool), deps.pins, (tools) => this.events.toolsChanged?.(tools));
    this.oauth = new OAuthProviderRegistry({ ...deps.oauth, onStateChange: (name) => this.emitChanged(name) });
    this.recovery = new CrashRecovery((conn) => {
      const name = conn.name;
      if (this.shuttingDown || this.conns.get(name) !== conn) return;
      const cfg = this.store.get(name);
      if (!cfg || !cfg.enabled) return;
      this.launch(name, cfg, true);
    });
  }

  /**
   * Masked view of one server (see ./views.ts).
   * @throws HostError('not_found')
   */
  view(name: string): ServerView {
    const cfg = this.store.get(name);
    if (!cfg) throw noSuchServer(name);
    const conn = this.conns.get(name);
    const view = toView(name, cfg, conn, this.tools.ofServer(name), this.tools.renames(name), this.recovery.view(name), this.oauth.authStatus(name, conn), this.deps.protocol?.defaultRoots() ?? [], this.store.namespaceMates(name), this.deps.isKnownSecret, this.deps.sandbox, (tool) =>
      this.tools.pinOf(name, tool),
      (tool) => this.pins.holdUnaccepted() && this.tools.pinOf(name, tool).kind !== 'pinned',
    );
    return { ...view, seq: ++this.viewSeq };
  }

  /** The `seq` of the last view produced (ServerView.seq: newer views have higher ones). */
  private viewSeq = 0;

  /** A tool's stored per-tool setting: a configured server's (mcp_servers.json) or a host tool's (`@host`, host_tools.json). */
  toolSetting(server: string, tool: string): Readonly<ToolSetting> | undefined {
    return server === META_SERVER ? this.hostTools.get(tool) : this.store.toolSetting(server, tool);
  }

  /** Whether a value is a stored secret (see `HostOptions.isKnownSecret`). */
  isKnownSecret(value: string): boolean {
    return this.deps.isKnownSecret(value);
  }

  /** Announce a server's current view (nothing for a server no longer configured). */
  emitChanged(name: string): void {
    if (!this.store.has(name)) return;
    this.events.changed?.(this.view(name));
  }

  /** Rebuild the tool table from the ready connections. */
  rebuildTools(): void {
    this.tools.rebuild(this.conns, this.shuttingDown);
  }

  /** @throws HostError('start_failed') once shutdown began. */
  assertOpen(): void {
    if (this.shuttingDown) throw appShuttingDown();
  }

  /** @throws HostError('command_not_found') when a stdio server's program is not on the PATH. */
  checkCommand(cfg: ServerConfig): void {
    try {
      transportFor(cfg).preflight(cfg, this.deps.environment);
    } catch (err) {
      if (err instanceof CommandNotFoundError) throw new HostError('command_not_found', err.message, 'command', { fact: { kind: 'server_failure', failure: commandNotFound(err), stderr: [] } });
      throw err;
    }
  }

  /** Write one entry to a server's log (created if the server has none yet). */
  appendLog(name: string, source: LogEntry['source'], text: string): void {
    this.logRing(name).push(source, text);
  }

  /** Server `name`'s sandbox denials (kept across its connections until granted). */
  private denialLog(name: string): DenialLog {
    let log = this.denialLogs.get(name);
    if (!log) this.denialLogs.set(name, (log = new DenialLog()));
    return log;
  }

  private logRing(name: string): LogRing {
    let ring = this.logRings.get(name);
    if (!ring) {
      const named = { name };
      this.logRings.set(name, (ring = new LiveLogRing((entries) => this.events.log?.(named.name, entries))));
      this.logNames.set(ring, named);
    }
    return ring;
  }

  /**
   * A server was renamed (./rename.ts): its log and its sandbox denials move to the new name,
   * in memory. Its connection must be stopped already.
   */
  moveRecords(from: string, to: string): void {
    if (from === to) return;
    this.recovery.clear(from);
    const ring = this.logRings.get(from);
    this.logRings.delete(from);
    this.logRings.delete(to);
    if (ring) {
      this.logRings.set(to, ring);
      const named = this.logNames.get(ring);
      if (named) named.name = to;
    }
    const denials = this.denialLogs.get(from);
    this.denialLogs.delete(from);
    this.denialLogs.delete(to);
    if (denials) this.denialLogs.set(to, denials);
  }

  /** The sandbox launcher (null: unsandboxed), for moving a renamed server's scratch folder. */
  get sandbox(): SandboxLauncher | null {
    return this.deps.sandbox;
  }

  /** A connection whose changes the host publishes (not started). */
  makeConnection(name: string, cfg: ServerConfig): McpConnection {
    return new McpConnection(name, cfg, (c) => this.onConnectionChange(c), this.logRing(name), this.oauth.providerFor(name, cfg), {
      elicit: this.deps.elicit,
      sample: this.deps.sample,
      processes: this.deps.processes,
      eras: this.eras,
      environment: this.deps.environment,
      launchWrapper: this.deps.launchWrapper,
      protocolHooks: this.deps.protocol,
      sandbox: this.deps.sandbox,
      // Denials exist only where there is a sandbox (a local server with a launcher); none kept otherwise.
      ...(this.deps.sandbox && cfg.type === 'local' ? { denials: this.denialLog(name) } : {}),
      traffic: this.deps.traffic?.ring(name) ?? null,
    });
  }

  /**
   * A connection that publishes nothing until {@link adopt}ed: an edit's trial start. It gets the
   * same change handler as any connection; that handler ignores a connection that is not the
   * server's current one, which a candidate is not until adopted.
   */
  makeCandidate(name: string, cfg: ServerConfig): McpConnection {
    return this.makeConnection(name, cfg);
  }

  /** Adopt a started candidate as the server's connection, replacing (and closing) the old one. */
  async adopt(name: string, candidate: McpConnection): Promise<void> {
    this.recovery.clear(name);
    const replaced = this.conns.get(name);
    // From here the candidate is the current connection, so its changes are published.
    this.conns.set(name, candidate);
    await replaced?.close('the previous connection; the new settings are running');
    this.rebuildTools();
    this.emitChanged(name);
  }

  /** Start a fresh connection for `name` (replacing any). `recovering`: keep the crash-recovery count. */
  launch(name: string, cfg: ServerConfig, recovering = false): void {
    if (this.shuttingDown) return; // nothing starts after shutdown began
    if (!recovering) this.recovery.clear(name);
    const old = this.conns.get(name);
    const conn = this.makeConnection(name, cfg);
    this.conns.set(name, conn);
    if (old) void old.close('the previous connection; a new one is starting');
    this.rebuildTools();
    this.emitChanged(name);
    void conn.start();
  }

  /** Stop a server's connection (disable): no restart pending, tools unregistered, view updated. */
  async stop(name: string): Promise<void> {
    this.recovery.clear(name);
    const conn = this.conns.get(name);
    this.conns.delete(name);
    await conn?.close();
    this.rebuildTools();
    this.emitChanged(name);
  }

  private onConnectionChange(conn: McpConnection): void {
    if (this.conns.get(conn.name) !== conn) return; // a stale connection cannot publish anything
    if (conn.status === 'error' && !this.shuttingDown) this.recovery.onError(conn);
    this.rebuildTools();
    this.emitChanged(conn.name);
  }

  /**
   * Begin shutdown: nothing starts or registers from now on; every connection (half-started
   * ones and edit candidates too) and sign-in is closed. Resolves when they are.
   */
  async close(): Promise<void> {
    this.shuttingDown = true;
    this.recovery.clearAll();
    const signIns = this.oauth.signIns.cancelAll();
    const all = [...this.conns.values(), ...this.pendingCandidates];
    this.pendingCandidates.clear();
    this.conns.clear();
    this.rebuildTools();
    await Promise.all([...all.map((c) => c.close()), signIns]);
  }
}
