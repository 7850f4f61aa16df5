/**
 * Management actions on configured servers (CRUD): add, edit (PATCH), enable/disable, per-tool
 * settings, restart, remove. Each persists through the config store and then acts on the running
 * servers (./runtime.ts); a later action on the same server wins over an edit still starting
 * (docs/ARCHITECTURE.md "Update semantics (PATCH)", "Readiness").
 */
import type { ServerFailure, ServerInput, ServerPatch, ServerView, ToolSettingPatch } from '../../../preload/contract/index.js';
import { applyPatch, assertLoadable, assertNoPlaceholders, ConfigError, configFromInput, toolNamespace, withToolSettings, type ServerConfig } from '../config.js';
import { applyToolSettingsPatch, ToolSettingsError } from '../tool-settings.js';
import { describeFailure } from '../failure-log.js';
import { appShuttingDown, editSuperseded, HostError, NameCollisionError, nameTaken, noSuchServer, refusedConfig, serverUnavailable } from './errors.js';
import type { ServerRuntime } from './runtime.js';
import { transportFor } from '../transports/registry.js';
import { ownIssue } from '../../util/validation-issue.js';

/**
 * Refuse a config the next start would not load as given (add/edit accept exactly what loading
 * accepts). @throws HostError('invalid_input') naming the field.
 */
function loadable(cfg: ServerConfig): void {
  try {
    assertLoadable(cfg);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    throw refusedConfig(err);
  }
}

/** The management actions of one host. */
export class ServerManagement {
  /**
   * Per server, a number bumped by every management action (add, update, enable/disable, remove,
   * import). An edit whose candidate is still starting checks it before it saves or publishes
   * anything, so a removal or a disable that came meanwhile sticks.
   */
  private readonly generations = new Map<string, number>();
  /**
   * Names being added right now, by their tool namespace (../config/identity.ts `toolNamespace`):
   * a second add of one name, or of a name whose tools would be named alike, is a conflict.
   */
  private readonly addingByNamespace = new Map<string, string>();

  constructor(private readonly rt: ServerRuntime) {}

  /** Mark a management action on `name`; returns the new generation. */
  bump(name: string): number {
    const g = (this.generations.get(name) ?? 0) + 1;
    this.generations.set(name, g);
    return g;
  }

  /**
   * The server that `name` may not be added next to, if any: one of the same name ignoring case
   * (`same`), or another whose tools would be offered under the same namespace (`my_fs` for
   * `my.fs`: `namespace`) — in the file (loaded or skipped) or being added right now (`adding`).
   */
  nameTakenBy(name: string): { kind: 'same' | 'namespace'; existing: string; adding: boolean } | null {
    const taken = this.rt.store.entryNamed(name);
    if (taken !== undefined) return { kind: 'same', existing: taken, adding: false };
    const mate = this.rt.store.entryInNamespace(name);
    if (mate !== undefined) return { kind: 'namespace', existing: mate, adding: false };
    const busy = this.addingByNamespace.get(toolNamespace(name));
    if (busy !== undefined) return { kind: busy.toLowerCase() === name.toLowerCase() ? 'same' : 'namespace', existing: busy, adding: true };
    return null;
  }

  /**
   * Refuse a name that is taken: by a server in the file (loaded or skipped) or one being added,
   * ignoring case (names that differ only in case are duplicates) — or whose tools would share a
   * server's namespace (docs/ARCHITECTURE.md "Tool names and result content").
   * @throws HostError('conflict'), NameCollisionError (code `conflict`), both with field `name`
   */
  private assertNameFree(name: string): void {
    const t = this.nameTakenBy(name);
    if (!t) return;
    if (t.kind === 'namespace') throw new NameCollisionError(name, t.existing);
    throw nameTaken(name, t.existing, t.adding ? 'adding' : 'same');
  }

  /** Run `fn` with `name` marked as being added (see {@link nameTakenBy}). */
  async whileAdding<T>(name: string, fn: () => Promise<T>): Promise<T> {
    const ns = toolNamespace(name);
    this.addingByNamespace.set(ns, name);
    try {
      return await fn();
    } finally {
      if (this.addingByNamespace.get(ns) === name) this.addingByNamespace.delete(ns);
    }
  }

  /**
   * Add a server: validate (unique name, in a tool namespace of its own, command resolvable),
   * persist, then start it in the background. Returns the `starting` view at once.
   * @throws HostError('conflict' | 'command_not_found'), NameCollisionError
   */
  async add(name: string, input: ServerInput): Promise<ServerView> {
    this.rt.assertOpen();
    this.assertNameFree(name);
    let cfg: ServerConfig;
    try {
      cfg = configFromInput(input);
      assertNoPlaceholders(cfg);
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      throw refusedConfig(err);
    }
    // An argument equal to a stored secret (another server's token, the model key) is one too.
    cfg = transportFor(cfg).markKnownSecrets(cfg, (v) => this.rt.isKnownSecret(v));
    loadable(cfg);
    if (cfg.enabled) this.rt.checkCommand(cfg);
    await this.whileAdding(name, async () => {
      this.bump(name);
      await this.rt.store.put(name, cfg);
    });
    if (cfg.enabled) this.rt.launch(name, cfg);
    return this.rt.view(name);
  }

  /**
   * Edit a server with PATCH semantics. The edit is persisted only after the server started
   * successfully with it; on failure the previous config (and its running client) is kept.
   * @throws HostError('not_found' | 'command_not_found' | 'start_failed' | 'invalid_input')
   */
  async update(name: string, patch: ServerPatch): Promise<ServerView> {
    this.rt.assertOpen();
    const old = this.rt.store.get(name);
    if (!old) throw noSuchServer(name);
    let next: ServerConfig;
    try {
      next = applyPatch(old, patch, (v) => this.rt.isKnownSecret(v));
    } catch (err) {
      if (err instanceof ConfigError) throw refusedConfig(err);
      throw new HostError('invalid_input', (err as Error).message);
    }
    if (patch.tools !== undefined && Object.keys(patch).every((k) => k === 'tools')) {
      // Per-tool settings only: nothing about the connection changes, so no restart.
      return this.patchToolSettings(name, patch.tools ?? {});
    }
    if (patch.roots !== undefined && Object.keys(patch).every((k) => k === 'roots')) {
      // Root folders only (main/mcp/protocol/roots.ts): the session is told, not restarted.
      this.bump(name);
      const saved = await this.rt.store.modify(name, (cfg) => {
        const out = { ...cfg };
        if (next.roots) out.roots = [...next.roots];
        else delete out.roots;
        return out;
      });
      if (!saved) throw noSuchServer(name);
      await this.rootsChanged(name);
      this.rt.emitChanged(name);
      return this.rt.view(name);
    }
    loadable(next);
    const generation = this.bump(name);
    if (!next.enabled) {
      await this.rt.store.put(name, next);
      await this.rt.stop(name);
      return this.rt.view(name);
    }
    this.rt.checkCommand(next);
    if (transportFor(old).auth(old).kind === 'oauth' && transportFor(next).auth(next).kind !== 'oauth') await this.rt.oauth.forget(name);
    const candidate = this.rt.makeCandidate(name, next);
    this.rt.pendingCandidates.add(candidate);
    await candidate.start();
    this.rt.pendingCandidates.delete(candidate);
    // Another action on this server while the candidate started (remove, disable, another edit)
    // wins: this edit is dropped, and says so.
    const superseded = async (): Promise<boolean> => {
      if (this.generations.get(name) === generation && this.rt.store.has(name)) return false;
      await candidate.close();
      return true;
    };
    const conflict = (): HostError => editSuperseded(name);
    if (await superseded()) throw conflict();
    if (candidate.status === 'needs_auth' && !this.rt.shuttingDown) {
      // The new settings are valid but need a sign-in: save them; the card shows Sign in.
      await this.rt.store.put(name, next);
      if (await superseded()) throw conflict();
      await this.rt.adopt(name, candidate);
      return this.rt.view(name);
    }
    if (candidate.status !== 'ready') {
      const tail = candidate.stderrTail().slice(-12);
      const failure: ServerFailure = candidate.state.kind === 'error' ? candidate.state.failure : { kind: 'unknown', server_message: null };
      const why = `${describeFailure(failure)}${tail.length ? `\nLast stderr lines:\n${tail.join('\n')}` : ''}`;
      await candidate.close();
      // The window words the failure and shows the stderr lines as the server's (the message is for logs).
      throw new HostError('start_failed', `The server did not start with the new settings, so they were not saved: ${why}`, undefined, { fact: { kind: 'server_failure', failure, stderr: tail } });
    }
    if (this.rt.shuttingDown) {
      await candidate.close();
      throw appShuttingDown();
    }
    await this.rt.store.put(name, next);
    if (await superseded()) throw conflict();
    // Adopt the started candidate: its future changes go through the host.
    await this.rt.adopt(name, candidate);
    return this.rt.view(name);
  }

  /**
   * Enable (start) or disable (stop) a server; persisted at once.
   * @throws HostError('not_found' | 'command_not_found')
   */
  async setEnabled(name: string, enabled: boolean): Promise<ServerView> {
    this.rt.assertOpen();
    const cfg = this.rt.store.get(name);
    if (!cfg) throw noSuchServer(name);
    const next = { ...cfg, enabled };
    if (enabled) this.rt.checkCommand(next);
    this.bump(name);
    await this.rt.store.put(name, next);
    if (enabled) this.rt.launch(name, next);
    else await this.rt.stop(name);
    return this.rt.view(name);
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
    const cfg = this.rt.store.get(name);
    if (!cfg) throw noSuchServer(name);
    const listed = this.rt.tools.ofServer(name);
    if (action === 'enable_all') {
      const names = new Set([...listed.map((t) => t.original_name), ...Object.keys(cfg.tools ?? {})]);
      return this.patchToolSettings(name, Object.fromEntries([...names].map((n) => [n, { enabled: true }])));
    }
    if (this.rt.conns.get(name)?.status !== 'ready') throw serverUnavailable(name, 'not_ready', 'invalid_input');
    if (action === 'disable_all') return this.patchToolSettings(name, Object.fromEntries(listed.map((t) => [t.original_name, { enabled: false }])));
    return this.patchToolSettings(name, Object.fromEntries(listed.filter((t) => t.annotations.readOnlyHint === true).map((t) => [t.original_name, { approval: 'always_allow' as const }])));
  }

  private async patchToolSettings(name: string, patch: Record<string, ToolSettingPatch | null>): Promise<ServerView> {
    this.rt.assertOpen();
    let saved: ServerConfig | undefined;
    try {
      // Under the store's lock: concurrent changes to one server's tools all land.
      saved = await this.rt.store.modify(name, (cfg) => withToolSettings(cfg, applyToolSettingsPatch(cfg.tools, patch)));
    } catch (err) {
      if (err instanceof ToolSettingsError) throw new HostError('invalid_input', err.message, 'tools', { issue: ownIssue('other', ['tools']) });
      throw err;
    }
    if (!saved) throw noSuchServer(name);
    this.rt.tools.refreshOffered();
    this.rt.emitChanged(name);
    return this.rt.view(name);
  }

  /**
   * A server's roots changed: tell its session (`notifications/roots/list_changed`) — or, when it
   * runs sandboxed, restart it, since the sandbox grants root folders when the process starts
   * (docs/ARCHITECTURE.md "Sandbox").
   */
  async rootsChanged(name: string): Promise<void> {
    const conn = this.rt.conns.get(name);
    if (!conn) return;
    if (conn.sandbox?.state?.kind === 'on') {
      this.rt.appendLog(name, 'lifecycle', 'restarting: its roots changed, and the sandbox grants root folders when the server starts');
      await this.restart(name);
      return;
    }
    await conn.notifyRootsChanged();
  }

  /**
   * Restart a server with its persisted config (a new process and session).
   * @throws HostError('not_found')
   */
  async restart(name: string): Promise<ServerView> {
    this.rt.assertOpen();
    const cfg = this.rt.store.get(name);
    if (!cfg) throw noSuchServer(name);
    if (!cfg.enabled) return this.rt.view(name);
    this.rt.launch(name, cfg);
    return this.rt.view(name);
  }

  /**
   * Remove a server: stop it, unregister its tools, delete it from the config file.
   * @throws HostError('not_found')
   */
  async remove(name: string): Promise<void> {
    const cfg = this.rt.store.get(name);
    if (!cfg) throw noSuchServer(name);
    this.bump(name);
    const conn = this.rt.conns.get(name);
    this.rt.conns.delete(name);
    this.rt.recovery.clear(name);
    this.rt.logRings.delete(name);
    this.rt.denialLogs.delete(name);
    await this.rt.store.delete(name);
    await this.rt.oauth.forget(name);
    this.rt.rebuildTools();
    this.rt.events.removed?.(name, cfg);
    await conn?.close();
  }
}
