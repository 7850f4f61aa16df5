/**
 * One local server's side of the sandbox (docs/ARCHITECTURE.md "Sandbox"): wraps each launch of
 * its process in the sandbox launcher, keeps whether it is sandboxed and under which policy, and
 * collects the denials it meets (from the egress proxy and from its log) for its card and Logs.
 */
import { fileURLToPath } from 'node:url';
import type { SandboxDenial, SandboxState } from '../../../preload/contract/index.js';
import type { LocalServerConfig } from '../config.js';
import { effectiveSandbox } from '../config/sandbox-settings.js';
import { DenialLog, denialFromLog } from '../sandbox/denials.js';
import type { SandboxedLaunch, SandboxLauncher } from '../sandbox/launcher.js';
import type { LaunchWrapper, StdioLaunch } from '../transports/kind.js';

/**
 * Dependencies: the app's launcher, the server's roots now (`file://` URIs, MCP "Roots"), the
 * server's denial log (the host keeps one per server, so denials outlive a restart until granted),
 * and where new denials are told (a log line and a view update).
 */
export interface ServerSandboxOptions {
  launcher: SandboxLauncher;
  denials: DenialLog;
  roots: () => string[];
  onDenial: (d: SandboxDenial) => void;
}

/**
 * The sandbox of one connection (one process at a time): the stdio launch seam
 * ({@link LaunchWrapper}) of its server. Call {@link ServerSandbox.prepare} before each launch.
 */
export class ServerSandbox implements LaunchWrapper {
  private launch: SandboxedLaunch | null = null;
  private readonly denialLog: DenialLog;
  private current: SandboxState | null = null;

  constructor(private readonly opts: ServerSandboxOptions) {
    this.denialLog = opts.denials;
  }

  /** Sandboxed or not, and why; null before the first launch. */
  get state(): SandboxState | null {
    return this.current;
  }

  /** Denials not yet granted (oldest first), across the server's restarts. */
  get denials(): SandboxDenial[] {
    return this.denialLog.list();
  }

  /** Before a launch: the previous process's proxy is stopped, the machine's check has finished. */
  async prepare(): Promise<void> {
    await this.dispose();
    await this.opts.launcher.prepared();
  }

  /** Wrap a resolved launch of `server` under its settings and roots (granted read-write for this process's life). */
  wrap(launch: StdioLaunch, server: { name: string; config: LocalServerConfig }): StdioLaunch {
    const paths = this.opts.roots().flatMap((u) => {
      try {
        return [fileURLToPath(u)];
      } catch {
        return [];
      }
    });
    const wrapped = this.opts.launcher.wrapNow({
      server: server.name,
      settings: effectiveSandbox(server.config.sandbox),
      roots: paths,
      launch: { command: launch.command, args: launch.args, env: launch.env, ...(launch.cwd ? { cwd: launch.cwd } : {}) },
      onDenial: (d) => this.record(d),
    });
    this.launch = wrapped;
    this.current = wrapped.state;
    // What this start's policy grants is no longer blocked; the rest stays on the card.
    if (wrapped.policy) this.denialLog.keepUnresolved(wrapped.policy);
    else this.denialLog.clear();
    return { command: wrapped.command, args: wrapped.args, env: wrapped.env, cwd: wrapped.cwd };
  }

  /** A stderr line of the server: a file denial it shows is recorded. */
  stderr(line: string): void {
    const policy = this.launch?.policy;
    if (!policy) return;
    const d = denialFromLog(line, policy);
    if (d) this.record(d);
  }

  /** The server is ready: the package registries close. */
  ready(): void {
    this.launch?.ready();
  }

  /** The process ended: stop its proxy. */
  async dispose(): Promise<void> {
    const l = this.launch;
    this.launch = null;
    await l?.dispose();
  }

  private record(d: Omit<SandboxDenial, 'at' | 'count'>): void {
    if (this.denialLog.add(d)) this.opts.onDenial(this.denialLog.list().find((x) => x.kind === d.kind && x.target === d.target)!);
  }
}

/** The server's log line for a denial. */
export function denialLine(d: SandboxDenial): string {
  return `sandbox blocked ${d.kind === 'connect' ? 'connecting to' : d.kind === 'read' ? 'reading' : 'writing'} ${d.target}`;
}

/** The server's log line for how a launch ran. */
export function sandboxLine(s: SandboxState): string {
  return s.kind === 'on' ? 'sandboxed (bubblewrap)' : s.kind === 'off' ? 'not sandboxed: turned off for this server' : `not sandboxed: ${s.reason}`;
}
