/**
 * The app core: everything main does, independent of Electron. The Electron shell
 * (main/index.ts) and the browser shell (main/shell/browser-shell.ts) both create one and carry
 * the contract to it.
 */
import path from 'node:path';
import { SandboxLauncher } from './mcp/sandbox/launcher.js';
import { SandboxSupport } from './mcp/sandbox/support.js';
import os from 'node:os';
import type { AppWarning, EventName, EventPayloads } from '../preload/contract/index.js';
import { ChatService } from './chat/agent.js';
import { openConversationDatabase, type ConversationDatabase } from './chat/conversations/database.js';
import { ConversationService, type ChooseSavePath } from './chat/conversations/service.js';
import { ConversationStore } from './chat/conversations/store.js';
import { ViewContextStore } from './chat/conversations/view-contexts.js';
import { ClosedViewStore } from './chat/conversations/closed-views.js';
import { TaskStore } from './chat/conversations/tasks.js';
import { taskEntryWriter } from './chat/task-entries.js';
import { TaskService } from './mcp/tasks/service.js';
import { ContextService } from './chat/context/service.js';
import { AppsService, type ViewOrigins } from './mcp/apps/service.js';
import { SettingsStore } from './chat/settings.js';
import { ProfileStore } from './chat/profiles.js';
import { detectLocalModels, type LocalProbe } from './chat/local-models.js';
import { ConfigStore } from './mcp/config.js';
import { McpHost } from './mcp/host.js';
import { ServerStartGate } from './mcp/host/start-gate.js';
import { CatalogService } from './mcp/catalog/service.js';
import { UserRequestBroker } from './mcp/elicitation.js';
import type { ElicitationAnswer } from './mcp/connection.js';
import { SamplingService } from './chat/sampling.js';
import { ProtocolService } from './mcp/protocol/service.js';
import { Permissions } from './chat/permissions/index.js';
import { ServerEnvironment } from './mcp/transports/environment.js';
import { FALLBACK_FILE, LazySecretStore, openSecretStore } from './secrets/index.js';
import { removeStaleTemps } from './util/atomic-write.js';
import { CONFIG_FILE } from './mcp/config.js';
import { LEDGER_FILE, ProcessLedger } from './mcp/process-ledger.js';
import { SETTINGS_FILE } from './chat/settings.js';
import type { SecretStore, SecretStoreInfo } from './secrets/store.js';
import { observeSecrets, SecretRedactor } from './secrets/redact.js';
import { TrafficRecorder } from './mcp/inspector/recorder.js';
import { RecorderSwitches } from './mcp/inspector/switches.js';
import { InspectorService } from './mcp/inspector/service.js';

/** A function that delivers an event to the renderer(s). */
export type EventSink = <E extends EventName>(event: E, payload: EventPayloads[E]) => void;

/** Options to build a core. */
export interface CoreOptions {
  /** Where mcp_servers.json, settings.json and secrets live. */
  stateDir: string;
  shell: 'electron' | 'browser';
  /**
   * Secret store. Default: `openSecretStore(stateDir)` — the keychain-backed vault, or the
   * owner-only file store with a visible notice when no keychain is usable — opened lazily (on
   * first use or by `start()`).
   */
  secrets?: SecretStore;
  /** Server start concurrency. */
  concurrency?: number;
  /**
   * When enabled servers start: `now` — as soon as `start()` has loaded the config (default);
   * `after-ui` — once the window's first call was answered ({@link AppCore.uiReady}), or after
   * `serverStartFallbackMs` when no window calls, so server start-up does not compete with
   * serving the first page (docs/ARCHITECTURE.md "Start-up and shutdown").
   */
  startServers?: 'now' | 'after-ui';
  /** With `startServers: 'after-ui'`: how long to wait for a window, in ms (default 2000). */
  serverStartFallbackMs?: number;
  /**
   * Opens an OAuth authorization URL for the user. Electron: the system browser. Default: the
   * `auth.openUrl` event, so the renderer opens it (the browser shell).
   */
  openUrl?: (url: URL, server: string) => void | Promise<void>;
  /**
   * Asks the user where to save an export (Electron: the system save dialog). Without it, exports
   * are returned to the window to download (the browser shell).
   */
  chooseSavePath?: ChooseSavePath;
  /**
   * Local model servers probed on first launch (default: Ollama on 127.0.0.1:11434 and LM Studio
   * on 127.0.0.1:1234, or `OPENPROGRAM_LOCAL_MODEL_PROBES`; see ./chat/local-models.ts).
   */
  localModelProbes?: LocalProbe[];
  /** Asks the user for a folder (Electron: the system folder picker), for root folders. */
  chooseFolder?: () => Promise<string | null>;
  /**
   * The shell's MCP App view origins, one per shown view (docs/ARCHITECTURE.md "MCP Apps:
   * isolation"); without them no view is shown (`no_sandbox`).
   */
  viewOrigins?: ViewOrigins;
}

/** The state dir: `OPENPROGRAM_STATE_DIR`, else the given default, else `~/.openprogram`. */
export function resolveStateDir(fallback?: string): string {
  return process.env.OPENPROGRAM_STATE_DIR || fallback || path.join(os.homedir(), '.openprogram');
}

/** The running app core. */
export class AppCore {
  readonly config: ConfigStore;
  /** What the start found about the default root folders' file (null when it was fine or missing). */
  private rootsWarning: AppWarning | null = null;
  readonly host: McpHost;
  /** The server catalog: the MCP Registry, install from an entry, catalog diff. */
  readonly catalog: CatalogService;
  /** The default model profile as the single model of earlier versions (the `settings.getModel`/`setModel` channels only). */
  readonly settings: SettingsStore;
  /** Saved model profiles, each with its own API key. */
  readonly profiles: ProfileStore;
  readonly chat: ChatService;
  /** Saved conversations (SQLite in the state dir). */
  readonly conversationStore: ConversationStore;
  readonly conversations: ConversationService;
  /** The conversation database file, checked at open and healed when found damaged; `warning` is its latest warning. */
  readonly conversationsDb: ConversationDatabase;
  /** Pending server requests for user input (elicitation). */
  readonly elicitation: UserRequestBroker<Omit<EventPayloads['elicitation.request'], 'id'>, ElicitationAnswer>;
  /** Roots, URL elicitation, server log levels (main/mcp/protocol). */
  readonly protocol: ProtocolService;
  /** Sampling requests: user approval, then the configured model. */
  readonly sampling: SamplingService;
  /** Tool permissions: mode, approval broker, grants, and the gate the agent calls. */
  readonly permissions: Permissions;
  /** Prompts and resources for the composer and the resource viewer (main/chat/context/). */
  readonly context: ContextService;
  /** MCP Apps: tools' interactive views (main/mcp/apps/). */
  readonly apps: AppsService;
  /** MCP Tasks: the tasks tool calls started, their list, cancel, and picking them up after a restart (main/mcp/tasks/). */
  readonly tasks: TaskService;
  /** Each server's recorded MCP traffic, redacted and bounded, in memory (main/mcp/inspector/). */
  readonly traffic: TrafficRecorder;
  /** The protocol inspector: recordings, saving them, replays (main/mcp/inspector/). */
  readonly inspector: InspectorService;
  /**
   * The secret store every part of main uses (may still be opening; see `secretsInfo()`). Every
   * value read or written through it is learnt by {@link redactor}.
   */
  readonly secrets: SecretStore;
  /** Removes every stored secret value from outgoing text (events, replies, log lines). */
  readonly redactor = new SecretRedactor();
  private readonly rawSecrets: SecretStore;
  /** This run's stdio server process groups; ends those a killed earlier run left (at start). */
  readonly processes: ProcessLedger;
  /** The environment stdio servers inherit (the login shell's PATH on macOS). */
  private readonly environment = new ServerEnvironment();
  private readonly sinks = new Set<EventSink>();
  /** Starts the servers once the config is loaded and (with `after-ui`) the UI is up. */
  private readonly serverStart: ServerStartGate;

  constructor(readonly opts: CoreOptions) {
    this.rawSecrets = opts.secrets ?? new LazySecretStore(() => openSecretStore(opts.stateDir));
    this.secrets = observeSecrets(this.rawSecrets, this.redactor);
    this.processes = new ProcessLedger(opts.stateDir);
    this.config = new ConfigStore(opts.stateDir, this.secrets);
    this.profiles = new ProfileStore(opts.stateDir, this.secrets);
    this.settings = new SettingsStore(this.profiles);
    this.elicitation = new UserRequestBroker<Omit<EventPayloads['elicitation.request'], 'id'>, ElicitationAnswer>(
      (e) => this.emit('elicitation.request', e),
      (id) => this.emit('elicitation.closed', { id }),
      { action: 'cancel' },
    );
    this.sampling = new SamplingService(
      this.profiles,
      (e) => this.emit('sampling.request', e),
      (id) => this.emit('sampling.closed', { id }),
    );
    const openUrl = opts.openUrl ?? ((url: URL, server: string) => this.emit('auth.openUrl', { server, url: url.href }));
    // Every recorded message passes the same redactor as events and replies (docs/ARCHITECTURE.md "Protocol inspector").
    this.traffic = new TrafficRecorder(
      this.redactor,
      (server, messages, dropped) => this.emit('inspector.messages', { server, messages, dropped }),
      undefined,
      new RecorderSwitches(opts.stateDir),
    );
    this.protocol = new ProtocolService({
      stateDir: opts.stateDir,
      config: this.config,
      emit: (event, payload) => this.emit(event, payload),
      openUrl,
      ...(opts.chooseFolder ? { chooseFolder: opts.chooseFolder } : {}),
      servers: { ready: (name) => this.host.ready(name), view: (name) => this.host.view(name), rootsChanged: (name) => this.host.rootsChanged(name) },
    });
    this.host = new McpHost(this.config, {
      elicit: (server, form, signal) => this.elicitation.ask({ server, message: form.message, requested_schema: form.requestedSchema }, signal),
      sample: (server, req, signal) => this.sampling.sample(server, req, signal),
      concurrency: opts.concurrency,
      secrets: this.secrets,
      processes: this.processes,
      environment: this.environment,
      openUrl,
      protocol: this.protocol.hooks(),
      isKnownSecret: (v) => this.redactor.knows(v),
      sandbox: new SandboxLauncher({ stateDir: opts.stateDir, support: new SandboxSupport() }),
      traffic: this.traffic,
      // What the rest of the app keeps under a server's name moves with a rename (docs/ARCHITECTURE.md "Renaming a server").
      renames: () => [
        { record: 'grants', move: (a, b) => this.permissions.grants.rename(a, b) },
        { record: 'tool_choices', move: (a, b) => this.conversations.renameToolServer(a, b) },
        { record: 'install_record', move: (a, b) => this.catalog.store.renameInstall(a, b) },
        { record: 'log_level', move: (a, b) => this.protocol.onServerRenamed(a, b) },
      ],
      events: {
        changed: (view) => {
          this.emit('servers.changed', view);
          this.protocol.onServerChanged(view);
          // Saved tasks of this server that were still running are picked up once it is ready.
          this.tasks?.serverChanged(view.name);
        },
        removed: (name, config) => {
          this.emit('servers.removed', { name });
          this.traffic.forget(name);
          this.protocol.onServerRemoved(name);
          // A removed server no longer came from the catalog (a new one of that name did not).
          void this.catalog.store.setInstall(name, null).catch(() => undefined);
          void this.catalog.bundles.forget(name, config.type === 'local' ? config.command : []).catch(() => undefined);
        },
        renamed: (from, view) => this.emit('servers.renamed', { from, view }),
        log: (name, entries) => this.emit('servers.log', { name, entries }),
      },
    });
    this.serverStart = new ServerStartGate(() => this.host.startAll(), opts.serverStartFallbackMs);
    if (opts.startServers !== 'after-ui') this.serverStart.uiReady();
    this.context = new ContextService(
      { ready: (name) => this.host.ready(name), names: () => this.config.names() },
      (server, uri) => this.emit('context.resourceUpdated', { server, uri }),
      opts.chooseSavePath ?? null,
    );
    this.catalog = new CatalogService({ stateDir: opts.stateDir, host: this.host, config: this.config });
    this.permissions = new Permissions(opts.stateDir, this.host, {
      opened: (view) => this.emit('approvals.request', view),
      closed: (id, outcome) => this.emit('approvals.closed', { id, outcome }),
    });
    this.inspector = new InspectorService({
      recorder: this.traffic,
      host: { has: (name) => this.config.has(name), allTools: () => this.host.allTools(), callResolved: (r, args, o) => this.host.callResolved(r, args, o) },
      gate: this.permissions.gate,
      grants: this.permissions.grants,
      stateDir: opts.stateDir,
    });
    this.conversationsDb = openConversationDatabase(opts.stateDir);
    // A heal while the app runs (docs/ARCHITECTURE.md "Conversations") is told to the window at once.
    this.conversationsDb.onWarning((w) => this.emit('conversations.warning', w));
    this.conversationStore = new ConversationStore(this.conversationsDb, Date.now, (item) => this.redactor.redactDeep(item));
    this.apps = new AppsService(
      this.host,
      this.permissions.gate,
      new ViewContextStore(this.conversationsDb, Date.now, (text) => this.redactor.redactText(text)),
      new ClosedViewStore(this.conversationsDb),
      // A view is issued only for a real call: a saved tool entry, or one the model is writing now.
      {
        isToolCall: (v, server, tool) =>
          this.conversationStore.hasToolCall(v.conversation_id, v.run_id, v.call_id, server, tool) || this.chat.isPreparing(v.conversation_id, v.run_id, v.call_id, server, tool),
      },
      opts.viewOrigins ?? null,
    );
    // Entries left streaming or running by a run that never ended (the app was killed).
    this.conversationStore.markInterrupted();
    this.tasks = new TaskService(
      new TaskStore(this.conversationsDb),
      { ready: (name) => this.host.ready(name) !== null, resumeTask: (server, reference, o) => this.host.resumeTask(server, reference, o) },
      taskEntryWriter(this.conversationStore, {
        chat: (e) => this.emit('chat.event', e),
        changed: (s) => this.emit('conversations.changed', { ...s, running: this.chat.isRunning(s.id) }),
      }),
      (view) => this.emit('tasks.changed', view),
    );
    // Tasks still running when the app stopped: picked up again as their servers become ready.
    this.tasks.loadSaved();
    this.chat = new ChatService(
      this.host,
      this.profiles,
      this.conversationStore,
      this.permissions.gate,
      { chat: (e) => this.emit('chat.event', e), changed: (s) => this.emit('conversations.changed', s) },
      // What the conversation's MCP App views told the model (ui/update-model-context).
      (id) => this.apps.modelContext(id),
      undefined,
      this.tasks,
    );
    this.conversations = new ConversationService(
      this.conversationStore,
      this.chat,
      (id) => {
        this.permissions.grants.clear(id);
        // The views' model context and closed views went with the conversation's rows (cascade).
        this.emit('conversations.removed', { id });
      },
      (s) => this.emit('conversations.changed', s),
      opts.chooseSavePath ?? null,
      async (id) => (await this.profiles.get(id)) !== null,
    );
  }

  /**
   * How secrets are stored (kind + plain-language notice for the UI). Waits for the default store
   * to finish opening; never rejects for the default store (failures become a `file` notice).
   */
  async secretsInfo(): Promise<SecretStoreInfo> {
    const s = this.rawSecrets instanceof LazySecretStore ? await this.rawSecrets.ready() : this.rawSecrets;
    return s.info();
  }

  /** Local model servers (Ollama, LM Studio) answering on this machine, with their models. */
  detectLocalModels(): ReturnType<typeof detectLocalModels> {
    return detectLocalModels(this.opts.localModelProbes);
  }

  /** What the last start found that the user should know: the server list's problems, an unreadable default root folders file. */
  startWarnings(): AppWarning[] {
    return [...this.config.warnings, ...(this.rootsWarning ? [this.rootsWarning] : [])];
  }

  /** Subscribe to every event; returns an unsubscribe function. */
  subscribe(sink: EventSink): () => void {
    this.sinks.add(sink);
    return () => this.sinks.delete(sink);
  }

  /**
   * Deliver an event to every subscriber, with every stored secret value redacted from it and a
   * tool result's content capped for the UI.
   */
  emit<E extends EventName>(event: E, payload: EventPayloads[E]): void {
    if (this.sinks.size === 0) return;
    const safe = this.redactor.redactDeep(payload);
    for (const s of this.sinks) {
      try {
        s(event, safe);
      } catch {
        // A broken sink (closed socket, destroyed window) must not stop the others.
      }
    }
  }

  /**
   * Load the config and start servers in the background (at once, or with `startServers:
   * 'after-ui'` once the UI is up). Resolves as soon as the UI can be served (never waits for a
   * server to connect).
   */
  async start(): Promise<void> {
    // Temp files a crashed write left behind may hold plaintext secrets: remove them first.
    const inState = (f: string): string => path.join(this.opts.stateDir, f);
    await removeStaleTemps(inState(CONFIG_FILE), inState(SETTINGS_FILE), inState(FALLBACK_FILE), inState(LEDGER_FILE));
    // Open the secret store in the background (keychain probe); nothing here waits for it.
    if (this.rawSecrets instanceof LazySecretStore) this.rawSecrets.ready().catch(() => undefined);
    const [, , , rootsWarning] = await Promise.all([this.config.load(), this.environment.adoptLoginShellPath(), this.processes.reapLeftovers(), this.protocol.start()]);
    // Kept for app.info too: a window that connects later (the browser shell's) still learns of it.
    this.rootsWarning = rootsWarning;
    if (rootsWarning) this.emit('app.warning', rootsWarning);
    for (const w of this.config.warnings) this.emit('app.warning', w);
    if (this.conversationsDb.warning) this.emit('conversations.warning', this.conversationsDb.warning);
    this.serverStart.configLoaded();
  }

  /**
   * The window's first call was answered: the UI is up, so servers may start now (with
   * `startServers: 'after-ui'`; idempotent, and a no-op otherwise). Called by the dispatcher.
   */
  uiReady(): void {
    this.serverStart.uiReady();
  }

  /** Stop chats, close every server, leave no child process. */
  async shutdown(): Promise<void> {
    this.serverStart.cancel();
    const stopped = this.chat.stopAll();
    this.permissions.broker.cancelAll();
    this.elicitation.cancelAll();
    this.protocol.urls.cancelAll();
    this.sampling.broker.cancelAll();
    await Promise.all([this.host.shutdown(), stopped]);
    await this.processes.flush();
    this.conversationStore.close();
  }
}
