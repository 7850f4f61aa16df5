/**
 * The protocol features of one app core, in one place: the default roots and the roots each
 * server gets (answering `roots/list`, announcing changes), URL elicitation requests, server log
 * levels, and the folder picker. The host's connections reach it through {@link ProtocolHooks};
 * the IPC handlers through its methods (docs/ARCHITECTURE.md "Protocol features").
 */
import type { AppWarning, EventName, EventPayloads, LoggingLevel, ServerView } from '../../../preload/contract/index.js';
import type { ConfigStore } from '../config.js';
import { HostError, noSuchServer, serverUnavailable } from '../host/errors.js';
import type { ReadyServer } from '../host/ready-server.js';
import type { ProtocolHooks } from './hooks.js';
import { DefaultRootsStore, RootsInputError, toRootEntries } from './roots.js';
import { UrlElicitations } from './url-elicitation.js';

/** The hooks connections use, plus the default roots the views show. */
export interface HostProtocol extends ProtocolHooks {
  defaultRoots(): string[];
}

/** What the protocol features are built from. */
export interface ProtocolServiceOptions {
  stateDir: string;
  /** Where each server's own roots are read. */
  config: ConfigStore;
  /** Delivers an event to the window(s). */
  emit<E extends EventName>(event: E, payload: EventPayloads[E]): void;
  /** Opens a checked URL in the system browser (the OAuth sign-in hook). */
  openUrl(url: URL, server: string): void | Promise<void>;
  /** Asks the user for a folder (Electron's picker); absent in the browser shell. */
  chooseFolder?: () => Promise<string | null>;
  /**
   * The host's servers: a ready one's handle and any one's view. Called only after construction
   * (the host is built with this service's {@link ProtocolService.hooks}), so a closure over the
   * host that is built next is fine.
   */
  servers: ProtocolServers;
}

/** What the service needs of the host. */
export interface ProtocolServers {
  /** A ready server's handle, or null (main/mcp/host/ready-server.ts). */
  ready(name: string): ReadyServer | null;
  /** A configured server's masked view. @throws HostError('not_found') */
  view(name: string): ServerView;
  /** Its roots changed: tell the session, or restart a sandboxed server. */
  rootsChanged(name: string): Promise<void>;
}

/** Roots, URL elicitation, log levels and the folder picker of one app core. */
export class ProtocolService {
  readonly defaults: DefaultRootsStore;
  readonly urls: UrlElicitations;
  private readonly host: ProtocolServers;
  /** The log level the user chose per server, re-sent when the server starts again. */
  private readonly levels = new Map<string, LoggingLevel>();
  /** Servers whose chosen level is being re-sent now. */
  private readonly reapplying = new Set<string>();

  constructor(private readonly opts: ProtocolServiceOptions) {
    this.host = opts.servers;
    this.defaults = new DefaultRootsStore(opts.stateDir);
    this.urls = new UrlElicitations({
      emitRequest: (e) => opts.emit('elicitation.urlRequest', e),
      emitClosed: (id) => opts.emit('elicitation.urlClosed', { id }),
      openUrl: (url, server) => opts.openUrl(url, server),
      warn: (warning) => opts.emit('app.warning', warning),
    });
  }

  /** Load the default roots. @returns a warning for the window (`roots_unreadable`), or null. */
  start(): Promise<AppWarning | null> {
    return this.defaults.load();
  }

  /** The hooks every connection of the host gets. */
  hooks(): HostProtocol {
    return {
      roots: (server) => toRootEntries(this.opts.config.get(server)?.roots ?? this.defaults.get()),
      urlElicit: (server, params, signal) => this.urls.ask(server, params, signal),
      elicitationComplete: (server, id) => this.opts.emit('elicitation.urlComplete', { server, elicitation_id: String(id).slice(0, 256) }),
      defaultRoots: () => this.defaults.get(),
    };
  }

  /** The default roots and whether a folder picker exists. */
  defaultRoots(): { roots: string[]; can_pick: boolean } {
    return { roots: this.defaults.get(), can_pick: !!this.opts.chooseFolder };
  }

  /**
   * Replace the default roots; every ready server that follows them is sent
   * `notifications/roots/list_changed` and its view is announced.
   * @throws HostError('invalid_input', field `roots`) for a relative path, a duplicate list over the limit.
   */
  async setDefaultRoots(paths: string[]): Promise<{ roots: string[] }> {
    let roots: string[];
    try {
      roots = await this.defaults.set(paths);
    } catch (err) {
      if (err instanceof RootsInputError) throw new HostError('invalid_input', err.message, 'roots', { issue: err.issue });
      throw err;
    }
    for (const name of this.opts.config.names()) {
      if (this.opts.config.get(name)?.roots) continue;
      await this.host.rootsChanged(name);
      this.opts.emit('servers.changed', this.host.view(name));
    }
    return { roots };
  }

  /**
   * Set a ready server's log level (`logging/setLevel`).
   * @throws HostError('not_found' | 'invalid_input') when unknown, not ready, or without `logging`.
   */
  async setLogLevel(name: string, level: LoggingLevel): Promise<ServerView> {
    const host = this.host;
    if (!this.opts.config.has(name)) throw noSuchServer(name);
    const conn = host.ready(name);
    if (!conn) throw serverUnavailable(name, 'not_ready', 'invalid_input');
    if (!conn.supportsLogging) throw new HostError('invalid_input', `Server "${name}" does not support setting a log level.`, undefined, { fact: { kind: 'no_log_levels', server: name } });
    await conn.setLoggingLevel(level);
    this.levels.set(name, level);
    const view = host.view(name);
    this.opts.emit('servers.changed', view);
    return view;
  }

  /**
   * Follow a server's view: a server that became ready again (a restart, a crash recovery, an
   * edit) gets the log level the user chose for it; a removed server's choice is forgotten.
   * Failures are written to the server's log by the connection and otherwise ignored.
   */
  onServerChanged(view: ServerView): void {
    const level = this.levels.get(view.name);
    const host = this.host;
    if (!level || view.state.kind !== 'ready' || !view.protocol.logging.supported || view.protocol.logging.level !== null || this.reapplying.has(view.name)) return;
    const conn = host.ready(view.name);
    if (!conn) return;
    this.reapplying.add(view.name);
    void conn
      .setLoggingLevel(level)
      .then(() => {
        if (this.opts.config.has(view.name)) this.opts.emit('servers.changed', host.view(view.name));
      })
      .catch(() => undefined)
      .finally(() => this.reapplying.delete(view.name));
  }

  /** Forget what was chosen for a removed server. */
  onServerRemoved(name: string): void {
    this.levels.delete(name);
  }

  /** A server was renamed: the log level the user chose for it holds under its new name. */
  onServerRenamed(from: string, to: string): void {
    const level = this.levels.get(from);
    this.levels.delete(from);
    this.levels.delete(to);
    if (level) this.levels.set(to, level);
  }

  /** Ask the user for a folder. @returns its path, or null (cancelled, or no picker here). */
  async pickFolder(): Promise<{ path: string | null }> {
    if (!this.opts.chooseFolder) return { path: null };
    return { path: await this.opts.chooseFolder() };
  }
}
