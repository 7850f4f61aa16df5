/**
 * The sandbox launch wrapper (docs/ARCHITECTURE.md "Sandbox"): turns a local server's resolved
 * launch (program, arguments, environment) into the same server run inside bubblewrap under its
 * policy, with its scratch folder as HOME, and — when it may reach any host — the egress proxy
 * and the in-sandbox bridge. Owns the proxy's life: {@link SandboxedLaunch.ready} closes the
 * package registries once the server is ready, {@link SandboxedLaunch.dispose} ends the proxy.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { SandboxDenial, SandboxPolicyView, SandboxSettings, SandboxState } from '../../../preload/contract/index.js';
import { bwrapArgs, BRIDGE_MOUNT } from './bwrap.js';
import { BRIDGE_PORT, BRIDGE_SOCKET, BRIDGE_SOURCE } from './bridge.js';
import { computePolicy, type SandboxPolicy } from './policy.js';
import { EgressProxy } from './proxy.js';
import type { SandboxSupport } from './support.js';

/** A resolved launch of a local server: absolute program, arguments, full environment, folder. */
export interface Launch {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
}

/** What the wrapper made of a launch. */
export interface SandboxedLaunch extends Launch {
  /** Sandboxed or not, and why (shown on the server's card). */
  state: SandboxState;
  /** The policy it runs under (null when not sandboxed). */
  policy: SandboxPolicy | null;
  /** The server is ready: end the package-registry window. */
  ready(): void;
  /** The server has ended: stop its proxy and remove the bridge folder. */
  dispose(): Promise<void>;
}

/** Dependencies of the wrapper. */
export interface SandboxLauncherOptions {
  /** The app's state folder: never visible to a server; scratch folders live under it. */
  stateDir: string;
  support: SandboxSupport;
  /** The user's home folder (default: os.homedir()). */
  home?: string;
  /** The Node runtime that runs the bridge (default: this process's; Electron runs it as Node). */
  nodeRuntime?: string;
}

/** One server's launch request. */
export interface SandboxRequest {
  server: string;
  settings: SandboxSettings;
  roots: string[];
  launch: Launch;
  /** Told of each denial the proxy sees (connections). */
  onDenial?: (d: Omit<SandboxDenial, 'count' | 'at'>) => void;
}

/** The scratch folder of server `name`: `<state dir>/sandbox/<name>` (names are path-safe). */
export function scratchFolder(stateDir: string, name: string): string {
  return path.join(stateDir, 'sandbox', name);
}

/** The policy as shown to the user: the home folder written `~`. */
export function policyView(p: SandboxPolicy, home: string): SandboxPolicyView {
  const tilde = (x: string) => (x === home ? '~' : x.startsWith(home + path.sep) ? `~${x.slice(home.length)}` : x);
  return {
    read: [...p.read, ...p.bundles].map(tilde),
    write: p.write.map(tilde),
    deny: p.protected.map(tilde),
    refused: p.refused.map(tilde),
    scratch: tilde(p.scratch),
    hosts: p.hosts,
    fetch_hosts: p.fetchHosts,
  };
}

/** Wraps local-server launches in the sandbox. One per app instance. */
export class SandboxLauncher {
  private readonly home: string;
  private readonly nodeRuntime: string;

  constructor(private readonly opts: SandboxLauncherOptions) {
    this.home = opts.home ?? os.homedir();
    this.nodeRuntime = opts.nodeRuntime ?? process.execPath;
    // Find out early whether this machine can sandbox, so server cards can say so before a start.
    void opts.support.verdict();
  }

  /** Resolves once the machine's check has finished, so {@link SandboxLauncher.wrapNow} may run. */
  async prepared(): Promise<void> {
    await this.opts.support.verdict();
  }

  /** The scratch folder of a server (see {@link scratchFolder}). */
  scratch(name: string): string {
    return scratchFolder(this.opts.stateDir, name);
  }

  /**
   * A server was renamed: its scratch folder (its HOME inside the sandbox, with what it installed
   * or cached there) moves to the new name (docs/ARCHITECTURE.md "Renaming a server"). Nothing to
   * move when it never ran sandboxed. A folder already under the new name is one a removed server
   * left: it is deleted first, so the renamed server never gets another server's HOME.
   * @throws the fs error (nothing moved then)
   */
  async moveScratch(from: string, to: string): Promise<void> {
    if (from === to) return;
    // A case-only rename is the same folder on a case-insensitive disk: nothing may be deleted then.
    if (from.toLowerCase() !== to.toLowerCase()) rmSync(this.scratch(to), { recursive: true, force: true });
    await rename(this.scratch(from), this.scratch(to)).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
  }

  /**
   * What a server with `settings` gets, before it has started: `off`, `unavailable`, `on` without
   * a policy yet — or null while the machine's check has not finished.
   */
  expected(settings: SandboxSettings): SandboxState | null {
    if (!settings.enabled) return { kind: 'off' };
    const v = this.opts.support.known();
    if (!v) return null;
    return v.ok ? { kind: 'on', engine: 'bubblewrap', policy: null } : v.state;
  }

  /**
   * Wrap one launch. Unsandboxed (as given) when the user turned the sandbox off or the machine
   * cannot sandbox; the returned `state` says which.
   */
  async wrap(req: SandboxRequest): Promise<SandboxedLaunch> {
    await this.opts.support.verdict();
    return this.wrapNow(req);
  }

  /**
   * {@link SandboxLauncher.wrap} without waiting: for callers that awaited
   * {@link SandboxLauncher.prepared} (the transports' synchronous launch seam).
   * @throws Error when the machine's check has not finished.
   */
  wrapNow(req: SandboxRequest): SandboxedLaunch {
    const plain = (state: SandboxState): SandboxedLaunch => ({ ...req.launch, state, policy: null, ready: () => undefined, dispose: async () => undefined });
    if (!req.settings.enabled) return plain({ kind: 'off' });
    const verdict = this.opts.support.known();
    if (!verdict) throw new Error('SandboxLauncher.wrapNow before the sandbox check finished (await prepared())');
    if (!verdict.ok) return plain(verdict.state);
    const scratch = this.scratch(req.server);
    const home = path.join(scratch, 'home');
    mkdirSync(home, { recursive: true, mode: 0o700 });
    const expand = (p: string) => (p === '~' ? this.home : p.startsWith('~/') ? path.join(this.home, p.slice(2)) : p);
    const policy = computePolicy({
      command: req.launch.command,
      args: req.launch.args,
      roots: req.roots,
      scratch,
      stateDir: this.opts.stateDir,
      home: this.home,
      pathVar: req.launch.env.PATH ?? '',
      settings: { ...req.settings, read: req.settings.read.map(expand), write: req.settings.write.map(expand) },
      helpers: [this.nodeRuntime],
    });
    const env: Record<string, string> = { ...req.launch.env, HOME: home, TMPDIR: '/tmp' };
    for (const k of Object.keys(env)) if (/^(https?_proxy|all_proxy|no_proxy)$/i.test(k)) delete env[k];
    let command = req.launch.command;
    let args = req.launch.args;
    let proxy: EgressProxy | null = null;
    let bridgeDir: string | null = null;
    if (policy.hosts.length || policy.fetchHosts.length) {
      bridgeDir = mkdtempSync(path.join(os.tmpdir(), 'op-sbx-'));
      proxy = new EgressProxy(policy.hosts, policy.fetchHosts, (d) => req.onDenial?.({ kind: 'connect', target: `${d.host}:${d.port}`, grantable: true }));
      proxy.listenNow(path.join(bridgeDir, BRIDGE_SOCKET));
      const url = `http://127.0.0.1:${BRIDGE_PORT}`;
      Object.assign(env, { HTTPS_PROXY: url, HTTP_PROXY: url, https_proxy: url, http_proxy: url, ELECTRON_RUN_AS_NODE: '1' });
      args = ['-e', BRIDGE_SOURCE, String(BRIDGE_PORT), `${BRIDGE_MOUNT}/${BRIDGE_SOCKET}`, command, ...args];
      command = this.nodeRuntime;
    }
    const wrapped = bwrapArgs({ policy, command, args, bridgeDir });
    const dir = bridgeDir;
    return {
      command: verdict.bwrap,
      args: wrapped,
      env,
      cwd: scratch,
      state: { kind: 'on', engine: 'bubblewrap', policy: policyView(policy, this.home) },
      policy,
      ready: () => proxy?.endFetch(),
      dispose: async () => {
        await proxy?.close();
        if (dir) rmSync(dir, { recursive: true, force: true });
      },
    };
  }
}
