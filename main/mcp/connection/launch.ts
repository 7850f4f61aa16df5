/**
 * How one connection launches and releases its transports (docs/ARCHITECTURE.md "Processes and
 * rooms", "Transports"): the descriptor's launch with a fresh stderr tag per process, the process
 * ledger, the inherited environment and the stdio launch seam (the sandbox, or another wrapper),
 * then the inspector's tap and the Tasks raw request lane over the transport; and what is known of
 * the launched process — its resolved command, its stderr tail, how it exited. McpConnection owns
 * one of these for all its sessions.
 */
import type { Client, Transport } from '@modelcontextprotocol/client';
import type { LogEntry } from '../../../preload/contract/index.js';
import type { ServerConfig } from '../config.js';
import type { TrafficRing } from '../inspector/ring.js';
import { tapTransport } from '../inspector/tap.js';
import type { PersistentOAuthProvider } from '../oauth/provider.js';
import type { ProcessLedger } from '../process-ledger.js';
import { RawRequestLane } from '../tasks/raw-lane.js';
import type { ServerEnvironment } from '../transports/environment.js';
import type { LaunchWrapper, TransportKind as TransportDescriptor } from '../transports/kind.js';
import type { LogRing } from './log-ring.js';
import { sandboxLine, type ServerSandbox } from './sandbox.js';

/** How a launched process ended (null fields: not known). */
export type ProcessExit = { code: number | null; signal: string | null };

/** Lines of stderr kept for a card: the newest of the latest process. */
const STDERR_TAIL = 20;

/** What a connection's launches are made with (absent: not used). */
export interface LaunchDeps {
  name: string;
  config: ServerConfig;
  /** The server's log, shared across its processes. */
  log: LogRing;
  /** Write a line to the log under the connection's own tag. */
  note: (source: LogEntry['source'], text: string) => void;
  oauth: PersistentOAuthProvider | null;
  processes: ProcessLedger | null;
  environment: ServerEnvironment | null;
  sandbox: ServerSandbox | null;
  /** The stdio launch seam (the sandbox when there is one). */
  wrapper: LaunchWrapper;
  /** The server's traffic ring (the inspector); null = not recorded. */
  traffic: TrafficRing | null;
}

/** A launched transport as the connection uses it, and its raw request lane. */
export interface Launched {
  transport: Transport;
  lane: RawRequestLane;
}

/** One connection's launches (see the file header). */
export class ConnectionLaunch {
  /** The command a stdio server's program resolved to on the PATH, once launched. */
  resolvedCommand: string | null = null;
  /** The log tag of the latest process's stderr lines (a fresh one per launch). */
  private processOrigin = -1;
  /** How the last released process ended, when known. */
  private lastExit: ProcessExit | null = null;
  /** This connection's tag in the traffic ring. */
  private readonly trafficConnection: number;

  constructor(private readonly d: LaunchDeps) {
    this.trafficConnection = d.traffic?.nextConnection() ?? 0;
  }

  /**
   * Launch a transport of `descriptor` (not yet connected): a stdio server's process starts here.
   * @throws the descriptor's launch errors (a sandbox that cannot be prepared, a bad command)
   */
  async open(descriptor: TransportDescriptor): Promise<Launched> {
    const { name, config, log, note, sandbox, processes: ledger, environment, traffic } = this.d;
    await sandbox?.prepare();
    // Each process's stderr gets its own tag, so the card's tail shows only the latest process.
    const stderrOrigin = log.nextOrigin();
    this.processOrigin = stderrOrigin;
    const launched = descriptor.launch(config, {
      name,
      onStderr: (line) => {
        log.push('stderr', line, stderrOrigin);
        sandbox?.stderr(line);
      },
      onNoise: (line) => note('stdout', line),
      wrapper: this.d.wrapper,
      oauth: this.d.oauth,
      ...(environment ? { environment } : {}),
      ...(ledger ? { extraEnv: ledger.markerEnv(), onGroup: (pgid: number, alive: boolean) => ledger.record(pgid, alive) } : {}),
    });
    if (launched.resolvedCommand !== null) {
      this.resolvedCommand = launched.resolvedCommand;
      note('lifecycle', `command resolved to ${launched.resolvedCommand}`);
    }
    if (sandbox?.state) note('lifecycle', sandboxLine(sandbox.state));
    // The inspector records at the transport boundary: every message both ways, as the SDK framed it.
    const origin = this.trafficConnection;
    const tapped = traffic ? tapTransport(launched.transport, (dir, message) => traffic.record(dir, message, origin)) : launched.transport;
    // Over the tap, so the inspector sees the lane's requests and answers too.
    const lane = new RawRequestLane();
    return { transport: lane.wrap(tapped), lane };
  }

  /**
   * Close `client` (when there is one), then `transport` — during the `server/discover` probe the
   * SDK has not attached the transport to the client yet, so closing the client alone would leave
   * the process running — remember how the process ended, and dispose of the sandbox's run. Never throws.
   */
  async release(transport: Transport | null, client: Client | null): Promise<void> {
    this.lastExit = exitOf(transport) ?? this.lastExit;
    try {
      if (client) await client.close().catch(() => undefined);
      if (transport) await transport.close();
    } catch {
      // Closing a dead transport may fail; the process is gone either way.
    }
    // A process that closed its output may not have been reaped yet above; it has been now.
    this.lastExit = exitOf(transport) ?? this.lastExit;
    await this.d.sandbox?.dispose().catch(() => undefined);
  }

  /** How the process of `transport` (else the last released one) ended, when that is known. */
  exit(transport: Transport | null): ProcessExit | null {
    return exitOf(transport) ?? this.lastExit;
  }

  /**
   * Last stderr lines of the latest process — not of an earlier process of the server, nor of
   * the first process of an era retry (a crashing server prints the same lines on each attempt;
   * the card shows them once).
   */
  stderrTail(): string[] {
    return this.d.log.tail('stderr', STDERR_TAIL, this.processOrigin);
  }
}

/** The child pid of a stdio transport, when running. */
export function pidOf(transport: Transport | null): number | null {
  return (transport as { pid?: number | null } | null)?.pid ?? null;
}

function exitOf(transport: Transport | null): ProcessExit | null {
  return (transport as { exit?: ProcessExit | null } | null)?.exit ?? null;
}
