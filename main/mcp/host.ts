/**
 * The MCP host's registry of servers: background startup (parallel, bounded), management actions
 * (add/update/enable/restart/remove), status events, the tool table offered to the model, and
 * shutdown. Implements docs/ARCHITECTURE.md "Readiness" and "Start-up and shutdown".
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { AuthView, ExportResult, ImportPreview, ImportResult, LogEntry, ServerInput, ServerPatch, ServerView, ToolSettingPatch } from '../../preload/contract/index.js';
import { buildToolTable, type RegisteredTool, type ToolTable } from './adapter.js';
import { applyPatch, assertLoadable, ConfigError, configFromInput, maskMap, maskSecret, parseConfigDocument, withToolSettings, type ConfigStore, type ServerConfig } from './config.js';
import { applyToolSettingsPatch, mapForeignToolKeys, ToolSettingsError, type ToolSetting, type ToolSettingsMap } from './tool-settings.js';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { writeFileAtomic } from '../util/atomic-write.js';
import { LogRing, McpConnection, type CallOptions, type ElicitHandler, type SampleHandler } from './connection.js';
import { OAuthSignIns } from './oauth/flow.js';
import { PersistentOAuthProvider, type OpenUrl } from './oauth/provider.js';
import { MemorySecretStore, type SecretStore } from '../secrets/store.js';
import { CommandNotFoundError, resolveCommand, ServerEnvironment } from './transports.js';
import type { ProcessLedger } from './process-ledger.js';
import { EraMemory } from './negotiation.js';
import { capCallResult } from './result-limits.js';

/** A typed failure of a management action; `code` maps to the contract's `ErrorCode`. */
export class HostError extends Error {
  override name = 'HostError';
  constructor(
    readonly code: 'not_found' | 'conflict' | 'command_not_found' | 'start_failed' | 'invalid_input' | 'forbidden',
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/**
 * A call to a tool the user disabled (per-tool setting). Raised by `callTool` even when the model
 * names the tool directly, so no caller can get around the setting. Code `forbidden`.
 */
export class ToolDisabledError extends HostError {
  override name = 'ToolDisabledError';
  constructor(
    readonly server: string,
    readonly tool: string,
  ) {
    super('forbidden', `The tool "${tool}" of server "${server}" is disabled by the user.`);
  }
}

/** Whether a tool is enabled under a server's per-tool settings (absent = enabled). */
export function isToolEnabled(settings: ToolSettingsMap | undefined, tool: string): boolean {
  return !(settings && Object.prototype.hasOwnProperty.call(settings, tool) && settings[tool]!.enabled === false);
}

/** Events the host emits (wired to the contract's event channels). */
export interface HostEvents {
  changed(view: ServerView): void;
  removed(name: string): void;
  toolsChanged(tools: RegisteredTool[]): void;
}

/** Host options. */
export interface HostOptions {
  /** How many servers start at once. Default {@link defaultStartConcurrency}. */
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
}

/**
 * How many servers start at once by default: twice the CPU count, at least 4 and at most 20.
 * Starting a server is mostly waiting (process start, npm, network), but each start also costs
 * CPU, so on a small machine a lower bound keeps the window responsive while servers start.
 */
export function defaultStartConcurrency(cpus = os.availableParallelism?.() ?? os.cpus().length): number {
  return Math.min(20, Math.max(4, 2 * cpus));
}

/** Auth status a view needs, gathered by the host. */
export interface AuthStatus {
  state: AuthView['state'];
  expiresAt: number | null;
}

function authView(cfg: ServerConfig, status: AuthStatus | null): AuthView {
  const none: AuthView = { kind: 'none', has_token: false, masked_token: '', has_client_secret: false, masked_client_secret: '', client_id: null, scope: null, state: null, expires_at: null };
  if (cfg.type === 'local' || cfg.auth.kind === 'none') return none;
  if (cfg.auth.kind === 'bearer') {
    const m = maskSecret(cfg.auth.token);
    return { ...none, kind: 'bearer', has_token: m.has_value, masked_token: m.masked };
  }
  const cs = maskSecret(cfg.auth.client_secret);
  return {
    ...none,
    kind: 'oauth',
    has_token: status?.state === 'authorized',
    has_client_secret: cs.has_value,
    masked_client_secret: cs.masked,
    client_id: cfg.auth.client_id ?? null,
    scope: cfg.auth.scope ?? null,
    state: status?.state ?? 'unknown',
    expires_at: status?.expiresAt ?? null,
  };
}

/**
 * Produce the masked view of one server: config with every env/header value masked, plus live
 * status. The only producer of server objects that leave main (docs/ARCHITECTURE.md "Masked views only").
 */
export function toView(
  name: string,
  cfg: ServerConfig,
  conn: McpConnection | undefined,
  tools: RegisteredTool[],
  warnings: string[],
  recovery: ServerView['recovery'] = { attempts: 0, next_retry_at: null, gave_up: false },
  auth: AuthStatus | null = null,
): ServerView {
  const status = !cfg.enabled ? 'disabled' : conn ? conn.status : 'starting';
  return {
    name,
    type: cfg.type,
    command: cfg.type === 'local' ? [...cfg.command] : [],
    url: cfg.type === 'local' ? null : cfg.url,
    env: cfg.type === 'local' ? maskMap(cfg.env) : {},
    headers: cfg.type === 'local' ? {} : maskMap(cfg.headers),
    auth: authView(cfg, auth),
    enabled: cfg.enabled,
    timeout_seconds: cfg.timeout_seconds,
    status,
    error: status === 'error' || status === 'needs_auth' ? conn?.error ?? null : null,
    error_kind: status === 'error' || status === 'needs_auth' ? conn?.errorKind ?? null : null,
    resolved_command: conn?.resolvedCommand ?? null,
    tools:
      status === 'ready'
        ? tools.map((t) => {
            const s: ToolSetting | undefined = cfg.tools && Object.prototype.hasOwnProperty.call(cfg.tools, t.original_name) ? cfg.tools[t.original_name] : undefined;
            return {
              name: t.name,
              original_name: t.original_name,
              title: t.title,
              description: t.description,
              input_schema: t.input_schema,
              annotations: { ...t.annotations },
              enabled: s?.enabled !== false,
              approval: s?.approval ?? null,
            };
          })
        : [],
    tool_count: status === 'ready' ? tools.filter((t) => isToolEnabled(cfg.tools, t.original_name)).length : 0,
    resources:
      status === 'ready' && conn
        ? conn.resources.slice(0, 500).map((r) => ({ uri: r.uri, name: r.name, description: r.description ?? '', mime_type: r.mimeType ?? null }))
        : [],
    prompts:
      status === 'ready' && conn
        ? conn.prompts.slice(0, 500).map((p) => ({
            name: p.name,
            description: p.description ?? '',
            arguments: (p.arguments ?? []).map((a) => ({ name: a.name, description: a.description ?? '', required: a.required === true })),
          }))
        : [],
    warnings,
    issues: status === 'ready' && conn ? conn.issues : [],
    stderr_tail: conn?.stderrTail() ?? [],
    server_info: conn?.serverInfo ? { ...conn.serverInfo, protocol_version: conn.protocol?.version ?? null } : null,
    recovery,
  };
}

/**
 * Whether stored secrets may follow an imported entry: only to the same destination — the same
 * command line for a stdio server (program and arguments), the same URL origin (scheme, host,
 * port) for a remote one. Anything else would hand the stored values to a program or host the
 * pasted text chose.
 */
export function sameSecretDestination(next: ServerConfig, stored: ServerConfig): boolean {
  if (next.type === 'local' || stored.type === 'local') {
    return next.type === 'local' && stored.type === 'local' && JSON.stringify(next.command) === JSON.stringify(stored.command);
  }
  try {
    return new URL(next.url).origin === new URL(stored.url).origin;
  } catch {
    return false;
  }
}

/**
 * The stored values an imported entry keeps: for every secret the entry leaves empty, the stored
 * value of the same name — but only when {@link sameSecretDestination}. Returns the description
 * of each kept value (`env API_TOKEN`, `header Authorization`, `bearer token`, `OAuth client
 * secret`) and fills them into `next` when `apply` is true.
 */
export function storedSecretsKept(next: ServerConfig, stored: ServerConfig | undefined, apply: boolean): string[] {
  const kept: string[] = [];
  if (!stored || !sameSecretDestination(next, stored)) return kept;
  if (next.type === 'local' && stored.type === 'local') {
    for (const [k, v] of Object.entries(next.env)) {
      if (v !== '' || !stored.env[k]) continue;
      kept.push(`env ${k}`);
      if (apply) next.env[k] = stored.env[k]!;
    }
  } else if (next.type !== 'local' && stored.type !== 'local') {
    for (const [k, v] of Object.entries(next.headers)) {
      if (v !== '' || !stored.headers[k]) continue;
      kept.push(`header ${k}`);
      if (apply) next.headers[k] = stored.headers[k]!;
    }
    if (next.auth.kind === 'bearer' && !next.auth.token && stored.auth.kind === 'bearer' && stored.auth.token) {
      kept.push('bearer token');
      if (apply) next.auth.token = stored.auth.token;
    }
    if (next.auth.kind === 'oauth' && !next.auth.client_secret && stored.auth.kind === 'oauth' && stored.auth.client_secret) {
      kept.push('OAuth client secret');
      if (apply) next.auth.client_secret = stored.auth.client_secret;
    }
  }
  return kept;
}

/**
 * Refuse a config the next start would not load as given (add/edit accept exactly what loading
 * accepts). @throws HostError('invalid_input') naming the field.
 */
function loadable(cfg: ServerConfig): void {
  try {
    assertLoadable(cfg);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    throw new HostError('invalid_input', err.message, err.field);
  }
}

/**
 * Crash recovery: a server that exits (or whose connection drops) after it was ready is restarted
 * with capped exponential backoff and jitter. After `maxAttempts` failed restarts in a row it is
 * left in `error` and says so; a server that stayed up `stableMs` starts counting afresh.
 */
export const RECOVERY = { maxAttempts: 5, baseDelayMs: 1000, maxDelayMs: 30_000, stableMs: 60_000 };

/** Backoff before restart attempt `n` (1-based), in ms: base·2^(n−1) capped, then jittered to 50–100 %. */
export function backoffDelay(n: number, random = Math.random, policy = RECOVERY): number {
  const d = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (n - 1));
  return Math.round(d / 2 + (random() * d) / 2);
}

interface RecoveryState {
  attempts: number;
  timer: NodeJS.Timeout | null;
  nextAt: number | null;
  gaveUp: boolean;
}

/** The registry of all servers of one profile. */
export class McpHost {
  private readonly conns = new Map<string, McpConnection>();
  /** One log per server, kept across its restarts. */
  private readonly logRings = new Map<string, LogRing>();
  private readonly recovery = new Map<string, RecoveryState>();
  /** Connections being tried by `update()`; closed by shutdown too. */
  private readonly pendingCandidates = new Set<McpConnection>();
  /** OAuth providers by server name (shared by the connection and sign-in). */
  private readonly providers = new Map<string, { provider: PersistentOAuthProvider; identity: string }>();
  /** One sign-in per server at a time; cancelled on shutdown. */
  readonly signIns = new OAuthSignIns();
  private readonly secrets: SecretStore;
  private readonly elicitHandler: ElicitHandler | null;
  private readonly sampleHandler: SampleHandler | null;
  private readonly processes: ProcessLedger | null;
  /** Era verdicts per server configuration for this session (main/mcp/negotiation.ts). */
  private readonly eras = new EraMemory();
  private readonly environment: ServerEnvironment;
  private readonly openUrl: (url: URL, server: string) => void | Promise<void>;
  /** Crash-recovery policy (tests shorten it). */
  recoveryPolicy = { ...RECOVERY };
  /**
   * Per server, a number bumped by every management action (add, update, enable/disable, remove,
   * import). An edit whose candidate is still starting checks it before it saves or publishes
   * anything, so a removal or a disable that came meanwhile sticks.
   */
  private readonly generations = new Map<string, number>();
  /** Names (lower case) being added right now: a second add of one name is a conflict. */
  private readonly adding = new Set<string>();
  private table: ToolTable = buildToolTable([]);
  /** The table's tools minus the ones the user disabled: what the model is offered. */
  private offered: RegisteredTool[] = [];
  private shuttingDown = false;
  private startup: Promise<void> | null = null;
  private readonly concurrency: number;
  private readonly events: Partial<HostEvents>;

  constructor(
    private readonly store: ConfigStore,
    opts: HostOptions = {},
  ) {
    this.concurrency = Math.max(1, opts.concurrency ?? defaultStartConcurrency());
    this.events = opts.events ?? {};
    this.secrets = opts.secrets ?? new MemorySecretStore();
    this.elicitHandler = opts.elicit ?? null;
    this.sampleHandler = opts.sample ?? null;
    this.processes = opts.processes ?? null;
    this.environment = opts.environment ?? new ServerEnvironment();
    this.openUrl = opts.openUrl ?? (() => {
      throw new Error('No browser is available to open the sign-in page.');
    });
  }

  // ---- views ---------------------------------------------------------------------------------

  /** Masked views of every persisted server, in file order. */
  list(): ServerView[] {
    return this.store.names().map((n) => this.view(n));
  }

  /**
   * Masked view of one server.
   * @throws HostError('not_found')
   */
  view(name: string): ServerView {
    const cfg = this.store.get(name);
    if (!cfg) throw new HostError('not_found', `No server named "${name}".`);
    const tools = this.table.tools.filter((t) => t.server === name);
    const r = this.recovery.get(name);
    const conn = this.conns.get(name);
    const p = this.providers.get(name)?.provider;
    const auth: AuthStatus | null = p
      ? { state: this.signIns.inProgress(name) ? 'signing_in' : p.authState, expiresAt: conn?.oauthExpiresAt ?? null }
      : null;
    return toView(
      name,
      cfg,
      conn,
      tools,
      this.table.warnings.get(name) ?? [],
      { attempts: r?.attempts ?? 0, next_retry_at: r?.nextAt ?? null, gave_up: r?.gaveUp ?? false },
      auth,
    );
  }

  /** Log entries of one server (stderr, lifecycle), oldest first. */
  logs(name: string): LogEntry[] {
    if (!this.store.has(name)) throw new HostError('not_found', `No server named "${name}".`);
    return this.logRings.get(name)?.all() ?? [];
  }

  /**
   * The tools currently offered to the model: every ready server's tools except those the user
   * disabled (per-tool `enabled: false`). Disabled tools keep their names (see `allTools`).
   */
  tools(): RegisteredTool[] {
    return this.offered;
  }

  /** Every registered tool, disabled ones included (views, bulk actions). */
  allTools(): RegisteredTool[] {
    return this.table.tools;
  }

  /** Look up a registered tool by its namespaced name (disabled tools included). */
  tool(name: string): RegisteredTool | undefined {
    return this.table.byName.get(name);
  }

  /**
   * The stored per-tool setting of a server's tool (by its real name), without copying the
   * config. Undefined = defaults. Used by the permission gate on every call.
   */
  toolSetting(server: string, tool: string): Readonly<ToolSetting> | undefined {
    return this.store.toolSetting(server, tool);
  }

  /** The live connection of a server (tests and benchmarks). */
  connection(name: string): McpConnection | undefined {
    return this.conns.get(name);
  }

  // ---- startup -------------------------------------------------------------------------------

  /**
   * Start every enabled server in the background, at most `concurrency` at once. Returns at once;
   * `whenStarted()` resolves when the startup task is done. Every enabled server is visible as
   * `starting` immediately. At each server's turn the *current* persisted config is read: a server
   * deleted or disabled meanwhile is skipped, and a client created by add/restart meanwhile wins.
   */
  startAll(): void {
    if (this.startup || this.shuttingDown) return;
    const queue: { name: string; conn: McpConnection }[] = [];
    for (const name of this.store.names()) {
      const cfg = this.store.get(name)!;
      if (!cfg.enabled || this.conns.has(name)) continue;
      const conn = this.makeConnection(name, cfg);
      this.conns.set(name, conn);
      queue.push({ name, conn });
      this.emitChanged(name);
    }
    const worker = async (): Promise<void> => {
      for (let item = queue.shift(); item; item = queue.shift()) {
        if (this.shuttingDown) return;
        const { name, conn } = item;
        if (this.conns.get(name) !== conn) continue; // a management action replaced it
        const current = this.store.get(name);
        if (!current || !current.enabled) {
          this.conns.delete(name);
          void conn.close();
          if (current) this.emitChanged(name);
          continue;
        }
        if (JSON.stringify(current) !== JSON.stringify(conn.config)) {
          // The persisted config changed since the snapshot: start with the current one.
          const fresh = this.makeConnection(name, current);
          this.conns.set(name, fresh);
          void conn.close();
          await fresh.start();
        } else {
          await conn.start();
        }
      }
    };
    // Spawning is left to the next turn of the event loop, so whoever called startAll (the window,
    // the browser shell) is serving before the first process is forked.
    this.startup = new Promise<void>((r) => setImmediate(r)).then(() =>
      Promise.all(Array.from({ length: Math.min(this.concurrency, queue.length) }, worker)).then(() => undefined),
    );
  }

  /** Resolves when the background startup task has finished (immediately if none ran). */
  async whenStarted(): Promise<void> {
    await this.startup;
  }

  private logRing(name: string): LogRing {
    let ring = this.logRings.get(name);
    if (!ring) this.logRings.set(name, (ring = new LogRing()));
    return ring;
  }

  private makeConnection(name: string, cfg: ServerConfig): McpConnection {
    return this.withCapabilities(new McpConnection(name, cfg, (c) => this.onConnectionChange(c), this.logRing(name), this.providerFor(name, cfg)));
  }

  private withCapabilities(conn: McpConnection): McpConnection {
    conn.elicit = this.elicitHandler;
    conn.sample = this.sampleHandler;
    conn.processes = this.processes;
    conn.eras = this.eras;
    conn.environment = this.environment;
    return conn;
  }

  /**
   * The OAuth provider of a server whose auth kind is `oauth` (null otherwise). One per server;
   * replaced (and its stored state forgotten) when the URL or the pre-registered client changes,
   * since tokens and registrations belong to one resource and one client.
   */
  private providerFor(name: string, cfg: ServerConfig): PersistentOAuthProvider | null {
    if (cfg.type === 'local' || cfg.auth.kind !== 'oauth') return null;
    const identity = JSON.stringify([cfg.url, cfg.auth.client_id ?? null, cfg.auth.client_secret ?? null]);
    const existing = this.providers.get(name);
    if (existing?.identity === identity) return existing.provider;
    const provider = new PersistentOAuthProvider({
      serverName: name,
      store: this.secrets,
      openUrl: ((url: URL) => this.openUrl(url, name)) satisfies OpenUrl,
      scope: cfg.auth.scope,
      preRegistered: cfg.auth.client_id ? { client_id: cfg.auth.client_id, ...(cfg.auth.client_secret ? { client_secret: cfg.auth.client_secret } : {}) } : undefined,
      onStateChange: () => this.emitChanged(name),
    });
    if (existing) void existing.provider.forget().catch(() => undefined);
    this.providers.set(name, { provider, identity });
    return provider;
  }

  /** Drop a server's OAuth provider and its stored tokens/registration. */
  private async forgetOAuth(name: string): Promise<void> {
    const p = this.providers.get(name)?.provider;
    this.providers.delete(name);
    this.signIns.cancel(name);
    await p?.forget().catch(() => undefined);
  }

  private onConnectionChange(conn: McpConnection): void {
    if (this.conns.get(conn.name) !== conn) return; // a stale connection cannot publish anything
    if (conn.status === 'error' && !this.shuttingDown) {
      const r = this.recovery.get(conn.name);
      const crashed = conn.errorKind === 'exited' && conn.readyAt !== null;
      const retryFailed = r !== undefined && r.attempts > 0 && !r.gaveUp && r.timer === null;
      if (crashed || retryFailed) this.scheduleRecovery(conn);
    }
    this.rebuildTools();
    this.emitChanged(conn.name);
  }

  private scheduleRecovery(conn: McpConnection): void {
    const name = conn.name;
    const policy = this.recoveryPolicy;
    const r = this.recovery.get(name) ?? { attempts: 0, timer: null, nextAt: null, gaveUp: false };
    this.recovery.set(name, r);
    if (conn.readyAt !== null && Date.now() - conn.readyAt >= policy.stableMs) r.attempts = 0;
    if (r.attempts >= policy.maxAttempts) {
      r.gaveUp = true;
      r.nextAt = null;
      conn.log.push('lifecycle', `not restarting automatically after ${r.attempts} failed restarts in a row; use Restart`);
      conn.error = `${conn.error ?? 'The server failed.'}\nIt crashed ${r.attempts + 1} times in a row, so it is no longer restarted automatically. Fix the cause, then press Restart.`;
      return;
    }
    r.attempts += 1;
    const delay = backoffDelay(r.attempts, Math.random, policy);
    r.nextAt = Date.now() + delay;
    conn.log.push('lifecycle', `restart attempt ${r.attempts} of ${policy.maxAttempts} in ${delay} ms`);
    r.timer = setTimeout(() => {
      r.timer = null;
      r.nextAt = null;
      if (this.shuttingDown || this.conns.get(name) !== conn) return;
      const cfg = this.store.get(name);
      if (!cfg || !cfg.enabled) return;
      this.launch(name, cfg, true);
    }, delay);
    r.timer.unref?.();
  }

  private clearRecovery(name: string): void {
    const r = this.recovery.get(name);
    if (r?.timer) clearTimeout(r.timer);
    this.recovery.delete(name);
  }

  private rebuildTools(): void {
    const before = this.table.tools.map((t) => t.name).join('\n');
    const all = [];
    if (!this.shuttingDown) {
      for (const name of this.store.names()) {
        const c = this.conns.get(name);
        if (!c || c.status !== 'ready') continue;
        for (const t of c.tools) all.push({ server: name, name: t.name, description: t.description, inputSchema: t.inputSchema as Record<string, unknown>, title: t.title, annotations: t.annotations });
      }
    }
    this.table = buildToolTable(all);
    this.refreshOffered();
    if (this.table.tools.map((t) => t.name).join('\n') !== before) this.events.toolsChanged?.(this.table.tools);
  }

  /** Recompute the offered tools after the table or a server's per-tool settings changed. */
  private refreshOffered(): void {
    this.offered = this.table.tools.filter((t) => this.store.toolSetting(t.server, t.original_name)?.enabled !== false);
  }

  private emitChanged(name: string): void {
    if (!this.store.has(name)) return;
    this.events.changed?.(this.view(name));
  }

  // ---- management actions ---------------------------------------------------------------------

  /** Mark a management action on `name`; returns the new generation. */
  private bump(name: string): number {
    const g = (this.generations.get(name) ?? 0) + 1;
    this.generations.set(name, g);
    return g;
  }

  /**
   * Refuse a name that is taken: by a server in the file (loaded or skipped) or one being added,
   * ignoring case (names that differ only in case are duplicates).
   * @throws HostError('conflict')
   */
  private assertNameFree(name: string): void {
    const taken = this.store.entryNamed(name);
    if (taken !== undefined) throw new HostError('conflict', taken === name ? `A server named "${name}" already exists.` : `A server named "${taken}" already exists (names that differ only in case are the same).`, 'name');
    if (this.adding.has(name.toLowerCase())) throw new HostError('conflict', `A server named "${name}" is being added right now.`, 'name');
  }

  private assertOpen(): void {
    if (this.shuttingDown) throw new HostError('start_failed', 'The app is shutting down.');
  }

  private checkCommand(cfg: ServerConfig): void {
    if (cfg.type !== 'local') return;
    if (!resolveCommand(cfg.command[0]!, this.environment.merged(cfg.env))) {
      throw new HostError('command_not_found', new CommandNotFoundError(cfg.command[0]!).message, 'command');
    }
  }

  /**
   * Add a server: validate (unique name, command resolvable), persist, then start it in the
   * background. Returns the `starting` view at once.
   * @throws HostError('conflict' | 'command_not_found')
   */
  async add(name: string, input: ServerInput): Promise<ServerView> {
    this.assertOpen();
    this.assertNameFree(name);
    const cfg = configFromInput(input);
    loadable(cfg);
    if (cfg.enabled) this.checkCommand(cfg);
    const key = name.toLowerCase();
    this.adding.add(key);
    try {
      this.bump(name);
      await this.store.put(name, cfg);
    } finally {
      this.adding.delete(key);
    }
    if (cfg.enabled) this.launch(name, cfg);
    return this.view(name);
  }

  /** Start a fresh connection for `name` (replacing any). `recovering`: keep the crash-recovery count. */
  private launch(name: string, cfg: ServerConfig, recovering = false): void {
    if (this.shuttingDown) return; // nothing starts after shutdown began
    if (!recovering) this.clearRecovery(name);
    const old = this.conns.get(name);
    const conn = this.makeConnection(name, cfg);
    this.conns.set(name, conn);
    if (old) void old.close();
    this.rebuildTools();
    this.emitChanged(name);
    void conn.start();
  }

  /**
   * Edit a server with PATCH semantics. The edit is persisted only after the server started
   * successfully with it; on failure the previous config (and its running client) is kept.
   * @throws HostError('not_found' | 'command_not_found' | 'start_failed' | 'invalid_input')
   */
  async update(name: string, patch: ServerPatch): Promise<ServerView> {
    this.assertOpen();
    const old = this.store.get(name);
    if (!old) throw new HostError('not_found', `No server named "${name}".`);
    let next: ServerConfig;
    try {
      next = applyPatch(old, patch);
    } catch (err) {
      throw new HostError('invalid_input', (err as Error).message);
    }
    if (patch.tools !== undefined && Object.keys(patch).every((k) => k === 'tools')) {
      // Per-tool settings only: nothing about the connection changes, so no restart.
      return this.patchToolSettings(name, patch.tools ?? {});
    }
    loadable(next);
    const generation = this.bump(name);
    if (!next.enabled) {
      await this.store.put(name, next);
      await this.stopServer(name);
      return this.view(name);
    }
    this.checkCommand(next);
    if (old.type !== 'local' && old.auth.kind === 'oauth' && (next.type === 'local' || next.auth.kind !== 'oauth')) await this.forgetOAuth(name);
    const candidate = this.withCapabilities(new McpConnection(name, next, undefined, this.logRing(name), this.providerFor(name, next)));
    this.pendingCandidates.add(candidate);
    await candidate.start();
    this.pendingCandidates.delete(candidate);
    // Another action on this server while the candidate started (remove, disable, another edit)
    // wins: this edit is dropped, and says so.
    const superseded = async (): Promise<boolean> => {
      if (this.generations.get(name) === generation && this.store.has(name)) return false;
      await candidate.close();
      return true;
    };
    const conflict = (): HostError => new HostError('conflict', `Server "${name}" was changed or removed while the edit was starting, so the edit was not saved.`);
    if (await superseded()) throw conflict();
    if (candidate.status === 'needs_auth' && !this.shuttingDown) {
      // The new settings are valid but need a sign-in: save them; the card shows Sign in.
      await this.store.put(name, next);
      if (await superseded()) throw conflict();
      this.clearRecovery(name);
      const replacedConn = this.conns.get(name);
      this.conns.set(name, this.adopt(candidate));
      await replacedConn?.close();
      this.rebuildTools();
      this.emitChanged(name);
      return this.view(name);
    }
    if (candidate.status !== 'ready') {
      const why = candidate.error ?? 'unknown error';
      await candidate.close();
      throw new HostError('start_failed', `The server did not start with the new settings, so they were not saved: ${why}`);
    }
    if (this.shuttingDown) {
      await candidate.close();
      throw new HostError('start_failed', 'The app is shutting down.');
    }
    await this.store.put(name, next);
    if (await superseded()) throw conflict();
    this.clearRecovery(name);
    const replaced = this.conns.get(name);
    // Adopt the started candidate: route its future changes through the host.
    const adopted = this.adopt(candidate);
    this.conns.set(name, adopted);
    await replaced?.close();
    this.rebuildTools();
    this.emitChanged(name);
    return this.view(name);
  }

  private adopt(conn: McpConnection): McpConnection {
    (conn as unknown as { onChange: (c: McpConnection) => void }).onChange = (c) => this.onConnectionChange(c);
    return conn;
  }

  /**
   * Enable (start) or disable (stop) a server; persisted at once.
   * @throws HostError('not_found' | 'command_not_found')
   */
  async setEnabled(name: string, enabled: boolean): Promise<ServerView> {
    this.assertOpen();
    const cfg = this.store.get(name);
    if (!cfg) throw new HostError('not_found', `No server named "${name}".`);
    const next = { ...cfg, enabled };
    if (enabled) this.checkCommand(next);
    this.bump(name);
    await this.store.put(name, next);
    if (enabled) this.launch(name, next);
    else await this.stopServer(name);
    return this.view(name);
  }

  /**
   * Change one tool's settings (PATCH: a field absent → keep, a value → replace, `approval: null`
   * → follow the mode). Persisted at once; the server is not restarted. The tool need not be
   * listed right now (settings may be made before the server starts).
   * @throws HostError('not_found' | 'invalid_input')
   */
  async setToolSettings(name: string, tool: string, patch: NonNullable<ToolSettingPatch>): Promise<ServerView> {
    return this.patchToolSettings(name, { [tool]: patch });
  }

  /**
   * Bulk per-server action over the tools the server lists now: `enable_all` (also clears
   * `enabled: false` of tools not listed now), `disable_all`, or `allow_read_only` (always allow
   * the tools whose annotations declare `readOnlyHint: true` — a hint the server gives itself).
   * @throws HostError('not_found' | 'invalid_input') — the latter when the server is not ready.
   */
  async bulkToolSettings(name: string, action: 'enable_all' | 'disable_all' | 'allow_read_only'): Promise<ServerView> {
    const cfg = this.store.get(name);
    if (!cfg) throw new HostError('not_found', `No server named "${name}".`);
    const listed = this.table.tools.filter((t) => t.server === name);
    if (action === 'enable_all') {
      const names = new Set([...listed.map((t) => t.original_name), ...Object.keys(cfg.tools ?? {})]);
      return this.patchToolSettings(name, Object.fromEntries([...names].map((n) => [n, { enabled: true }])));
    }
    if (this.conns.get(name)?.status !== 'ready') throw new HostError('invalid_input', `Server "${name}" is not ready, so its tools are not known yet.`);
    if (action === 'disable_all') return this.patchToolSettings(name, Object.fromEntries(listed.map((t) => [t.original_name, { enabled: false }])));
    return this.patchToolSettings(name, Object.fromEntries(listed.filter((t) => t.annotations.readOnlyHint === true).map((t) => [t.original_name, { approval: 'always_allow' as const }])));
  }

  private async patchToolSettings(name: string, patch: Record<string, ToolSettingPatch | null>): Promise<ServerView> {
    this.assertOpen();
    let saved: ServerConfig | undefined;
    try {
      // Under the store's lock: concurrent changes to one server's tools all land.
      saved = await this.store.modify(name, (cfg) => withToolSettings(cfg, applyToolSettingsPatch(cfg.tools, patch)));
    } catch (err) {
      if (err instanceof ToolSettingsError) throw new HostError('invalid_input', err.message);
      throw err;
    }
    if (!saved) throw new HostError('not_found', `No server named "${name}".`);
    this.refreshOffered();
    this.emitChanged(name);
    return this.view(name);
  }

  /** Stop a server's connection (disable): no restart pending, tools unregistered, view updated. */
  private async stopServer(name: string): Promise<void> {
    this.clearRecovery(name);
    const conn = this.conns.get(name);
    this.conns.delete(name);
    await conn?.close();
    this.rebuildTools();
    this.emitChanged(name);
  }

  /**
   * Restart a server with its persisted config (a new process and session).
   * @throws HostError('not_found')
   */
  async restart(name: string): Promise<ServerView> {
    this.assertOpen();
    const cfg = this.store.get(name);
    if (!cfg) throw new HostError('not_found', `No server named "${name}".`);
    if (!cfg.enabled) return this.view(name);
    this.launch(name, cfg);
    return this.view(name);
  }

  /**
   * Remove a server: stop it, unregister its tools, delete it from the config file.
   * @throws HostError('not_found')
   */
  async remove(name: string): Promise<void> {
    if (!this.store.has(name)) throw new HostError('not_found', `No server named "${name}".`);
    this.bump(name);
    const conn = this.conns.get(name);
    this.conns.delete(name);
    this.clearRecovery(name);
    this.logRings.delete(name);
    await this.store.delete(name);
    await this.forgetOAuth(name);
    this.rebuildTools();
    this.events.removed?.(name);
    await conn?.close();
  }

  // ---- OAuth sign-in -----------------------------------------------------------------------------

  private oauthServer(name: string): { cfg: ServerConfig & { type: 'http' | 'sse' }; provider: PersistentOAuthProvider } {
    const cfg = this.store.get(name);
    if (!cfg) throw new HostError('not_found', `No server named "${name}".`);
    const provider = this.providerFor(name, cfg);
    if (!provider || cfg.type === 'local') throw new HostError('invalid_input', `Server "${name}" does not use OAuth sign-in.`);
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
    this.assertOpen();
    const { cfg, provider } = this.oauthServer(name);
    const run = this.signIns.signIn({ provider, serverUrl: cfg.url, scope: cfg.auth.kind === 'oauth' ? cfg.auth.scope : undefined });
    this.emitChanged(name); // shows signing_in
    try {
      const r = await run;
      if (this.store.get(name)?.enabled) this.launch(name, this.store.get(name)!);
      return { opened_browser: r.openedBrowser };
    } finally {
      this.emitChanged(name);
    }
  }

  /** Cancel a running sign-in (closes the loopback socket; never invents a code). */
  cancelSignIn(name: string): { cancelled: boolean } {
    if (!this.store.has(name)) throw new HostError('not_found', `No server named "${name}".`);
    const cancelled = this.signIns.cancel(name);
    this.emitChanged(name);
    return { cancelled };
  }

  /** Forget the stored OAuth tokens and registration; the server then needs a sign-in again. */
  async signOut(name: string): Promise<ServerView> {
    const { cfg } = this.oauthServer(name);
    await this.forgetOAuth(name);
    if (cfg.enabled) this.launch(name, cfg);
    return this.view(name);
  }

  // ---- import / export -------------------------------------------------------------------------

  /**
   * Export the server list in the source design's format. Without secrets every env/header value
   * is `""` and the JSON is returned. With secrets the document is written owner-only to
   * `<state dir>/exports/` and only its path is returned, so no secret crosses IPC.
   */
  async exportServers(includeSecrets: boolean): Promise<ExportResult> {
    const doc = this.store.exportDocument(includeSecrets);
    const json = JSON.stringify(doc, null, 2) + '\n';
    if (!includeSecrets) return { json, path: null, warning: null };
    const dir = path.join(this.store.stateDir, 'exports');
    await fs.mkdir(dir, { recursive: true, mode: 0o700 });
    const file = path.join(dir, `mcp_servers-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    await writeFileAtomic(file, json);
    return {
      json: null,
      path: file,
      warning: 'This file contains your secrets (environment variables and headers) in plain text. It is readable only by you; delete it when you no longer need it and do not share it.',
    };
  }

  private parseImport(json: string): { servers: Map<string, ServerConfig>; warning: string | null } {
    let doc: unknown;
    try {
      doc = JSON.parse(json);
    } catch {
      throw new HostError('invalid_input', 'The text is not valid JSON.', 'json');
    }
    try {
      const parsed = parseConfigDocument(doc, { allowRefs: false });
      if (parsed.servers.size === 0 && !parsed.warning) throw new ConfigError('it contains no servers ({"servers": …} or {"mcpServers": …})');
      return parsed;
    } catch (err) {
      if (err instanceof HostError) throw err;
      throw new HostError('invalid_input', `Cannot import: ${(err as Error).message}`, 'json');
    }
  }

  /** What importing `json` would add (masked). @throws HostError('invalid_input') */
  importPreview(json: string): ImportPreview {
    const { servers, warning } = this.parseImport(json);
    const doc = JSON.parse(json) as Record<string, unknown>;
    const table = (typeof doc.servers === 'object' && doc.servers !== null ? doc.servers : doc.mcpServers) as Record<string, Record<string, unknown>>;
    return {
      servers: [...servers].map(([name, cfg]) => {
        const tools = Object.entries(cfg.tools ?? {});
        return {
          name,
          type: cfg.type,
          command: cfg.type === 'local' ? cfg.command : [],
          url: cfg.type === 'local' ? null : cfg.url,
          env: cfg.type === 'local' ? maskMap(cfg.env) : {},
          headers: cfg.type === 'local' ? {} : maskMap(cfg.headers),
          enabled: cfg.enabled,
          exists: this.store.entryNamed(name) !== undefined,
          kept_secrets: storedSecretsKept(structuredClone(cfg), this.store.get(name), false),
          disabled_tools: tools.filter(([, s]) => s.enabled === false).map(([n]) => n),
          always_allow_tools: tools.filter(([, s]) => s.approval === 'always_allow').map(([n]) => n),
          // The entry parsed above, so its lists are valid; only the unmapped key names are read here.
          unmapped_keys: mapForeignToolKeys(table[name] ?? {}).unmapped,
        };
      }),
      warning,
    };
  }

  /**
   * Import servers from a `{"servers": …}` or `{"mcpServers": …}` document (plaintext secrets are
   * moved into the secret store on save). Existing names are skipped unless `replaceExisting`.
   * @throws HostError('invalid_input') for a document that cannot be read.
   */
  async importServers(json: string, replaceExisting: boolean): Promise<ImportResult> {
    const { servers } = this.parseImport(json);
    const result: ImportResult = { added: [], replaced: [], skipped: [] };
    for (const [name, cfg] of servers) {
      const taken = this.store.entryNamed(name);
      if ((taken !== undefined && taken !== name) || (taken === undefined && this.adding.has(name.toLowerCase()))) {
        result.skipped.push({ name, reason: `a server named "${taken ?? name}" exists (names that differ only in case are the same)` });
        continue;
      }
      const exists = taken !== undefined; // loaded, or skipped at load (kept in the file)
      if (exists && !replaceExisting) {
        result.skipped.push({ name, reason: 'a server of that name exists' });
        continue;
      }
      try {
        // An export leaves secret values empty: importing it over the same server keeps the stored
        // values rather than wiping them (empty means "unchanged", as in the Edit form) — but
        // only when the entry still points at the same command or URL origin.
        if (exists) storedSecretsKept(cfg, this.store.get(name), true);
        if (cfg.enabled) this.checkCommand(cfg);
        if (this.store.has(name)) await this.remove(name);
        this.bump(name);
        await this.store.put(name, cfg);
        if (cfg.enabled) this.launch(name, cfg);
        else this.emitChanged(name);
        (exists ? result.replaced : result.added).push(name);
      } catch (err) {
        result.skipped.push({ name, reason: (err as Error).message });
      }
    }
    return result;
  }

  // ---- calls ---------------------------------------------------------------------------------

  /**
   * Call a tool by its namespaced name. Calls to one server run concurrently. A tool the user
   * disabled is refused here, whoever asks (the model may name it even though it is not offered).
   * The result is capped at `MAX_CALL_RESULT_CHARS` in total, with a notice
   * (main/mcp/result-limits.ts).
   * @throws HostError('not_found') for an unknown tool; ToolDisabledError (code `forbidden`) for
   *   a disabled one; errors of the connection otherwise.
   */
  async callTool(namespaced: string, args: Record<string, unknown>, opts: CallOptions = {}): Promise<CallToolResult> {
    const tool = this.table.byName.get(namespaced);
    if (!tool) throw new HostError('not_found', `No tool named "${namespaced}".`);
    if (this.store.toolSetting(tool.server, tool.original_name)?.enabled === false) throw new ToolDisabledError(tool.server, tool.original_name);
    const conn = this.conns.get(tool.server);
    if (!conn) throw new HostError('not_found', `Server "${tool.server}" is not running.`);
    // Every result is capped in total size (all blocks, images included) before anyone sees it.
    return capCallResult(await conn.callTool(tool.original_name, args, opts));
  }

  // ---- shutdown ------------------------------------------------------------------------------

  /**
   * Shut down: stop the startup task from taking more servers, close every client (including
   * half-started ones), unregister all tools. Nothing is registered after this began.
   */
  async shutdown(): Promise<void> {
    this.shuttingDown = true;
    for (const name of [...this.recovery.keys()]) this.clearRecovery(name);
    const signIns = this.signIns.cancelAll();
    const all = [...this.conns.values(), ...this.pendingCandidates];
    this.pendingCandidates.clear();
    this.conns.clear();
    this.rebuildTools();
    await Promise.all([...all.map((c) => c.close()), signIns]);
    await this.startup;
  }
}
