/**
 * The app core: everything main does, independent of Electron. The Electron shell
 * (main/index.ts) and the browser shell (main/shell/browser-shell.ts) both create one and carry
 * the contract to it.
 */
import path from 'node:path';
import os from 'node:os';
import type { EventName, EventPayloads } from '../preload/contract/index.js';
import { ChatService } from './chat/agent.js';
import { SettingsStore } from './chat/settings.js';
import { ConfigStore } from './mcp/config.js';
import { McpHost } from './mcp/host.js';
import { UserRequestBroker } from './mcp/elicitation.js';
import type { ElicitationAnswer } from './mcp/connection.js';
import { SamplingService } from './chat/sampling.js';
import { Permissions } from './chat/permissions/index.js';
import { adoptLoginShellPath } from './mcp/transports.js';
import { LazySecretStore, openSecretStore } from './secrets/index.js';
import type { SecretStore, SecretStoreInfo } from './secrets/store.js';

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
   * Opens an OAuth authorization URL for the user. Electron: the system browser. Default: the
   * `auth.openUrl` event, so the renderer opens it (the browser shell).
   */
  openUrl?: (url: URL, server: string) => void | Promise<void>;
}

/** The state dir: `OPENPROGRAM_STATE_DIR`, else the given default, else `~/.openprogram`. */
export function resolveStateDir(fallback?: string): string {
  return process.env.OPENPROGRAM_STATE_DIR || fallback || path.join(os.homedir(), '.openprogram');
}

/** The running app core. */
export class AppCore {
  readonly config: ConfigStore;
  readonly host: McpHost;
  readonly settings: SettingsStore;
  readonly chat: ChatService;
  /** Pending server requests for user input (elicitation). */
  readonly elicitation: UserRequestBroker<Omit<EventPayloads['elicitation.request'], 'id'>, ElicitationAnswer>;
  /** Sampling requests: user approval, then the configured model. */
  readonly sampling: SamplingService;
  /** Tool permissions: mode, approval broker, grants, and the gate the agent calls. */
  readonly permissions: Permissions;
  /** The secret store every part of main uses (may still be opening; see `secretsInfo()`). */
  readonly secrets: SecretStore;
  private readonly sinks = new Set<EventSink>();

  constructor(readonly opts: CoreOptions) {
    this.secrets = opts.secrets ?? new LazySecretStore(() => openSecretStore(opts.stateDir));
    this.config = new ConfigStore(opts.stateDir, this.secrets);
    this.settings = new SettingsStore(opts.stateDir, this.secrets);
    this.elicitation = new UserRequestBroker<Omit<EventPayloads['elicitation.request'], 'id'>, ElicitationAnswer>(
      (e) => this.emit('elicitation.request', e),
      (id) => this.emit('elicitation.closed', { id }),
      { action: 'cancel' },
    );
    this.sampling = new SamplingService(
      this.settings,
      (e) => this.emit('sampling.request', e),
      (id) => this.emit('sampling.closed', { id }),
    );
    this.host = new McpHost(this.config, {
      elicit: (server, form, signal) => this.elicitation.ask({ server, message: form.message, requested_schema: form.requestedSchema }, signal),
      sample: (server, req, signal) => this.sampling.sample(server, req, signal),
      concurrency: opts.concurrency,
      secrets: this.secrets,
      openUrl: opts.openUrl ?? ((url, server) => this.emit('auth.openUrl', { server, url: url.href })),
      events: {
        changed: (view) => this.emit('servers.changed', view),
        removed: (name) => this.emit('servers.removed', { name }),
      },
    });
    this.permissions = new Permissions(opts.stateDir, this.host, {
      opened: (view) => this.emit('approvals.request', view),
      closed: (id, outcome) => this.emit('approvals.closed', { id, outcome }),
    });
    this.chat = new ChatService(this.host, this.settings, (e) => this.emit('chat.event', e));
  }

  /**
   * How secrets are stored (kind + plain-language notice for the UI). Waits for the default store
   * to finish opening; never rejects for the default store (failures become a `file` notice).
   */
  async secretsInfo(): Promise<SecretStoreInfo> {
    const s = this.secrets instanceof LazySecretStore ? await this.secrets.ready() : this.secrets;
    return s.info();
  }

  /** Subscribe to every event; returns an unsubscribe function. */
  subscribe(sink: EventSink): () => void {
    this.sinks.add(sink);
    return () => this.sinks.delete(sink);
  }

  /** Deliver an event to every subscriber. */
  emit<E extends EventName>(event: E, payload: EventPayloads[E]): void {
    for (const s of this.sinks) {
      try {
        s(event, payload);
      } catch {
        // A broken sink (closed socket, destroyed window) must not stop the others.
      }
    }
  }

  /**
   * Load the config and start servers in the background. Resolves as soon as the UI can be served
   * (never waits for a server to connect).
   */
  async start(): Promise<void> {
    // Open the secret store in the background (keychain probe); nothing here waits for it.
    if (this.secrets instanceof LazySecretStore) this.secrets.ready().catch(() => undefined);
    await Promise.all([this.config.load(), adoptLoginShellPath()]);
    if (this.config.warning) this.emit('app.warning', { message: this.config.warning });
    this.host.startAll();
  }

  /** Stop chats, close every server, leave no child process. */
  async shutdown(): Promise<void> {
    this.chat.stopAll();
    this.permissions.broker.cancelAll();
    this.elicitation.cancelAll();
    this.sampling.broker.cancelAll();
    await this.host.shutdown();
  }
}
