/**
 * The stdio transport for local servers (MCP spec 2025-06-18, "Transports: stdio"): the server
 * is a child process; messages are newline-delimited JSON-RPC on its stdin/stdout; stderr is a
 * log. Framing and message validation are the SDK's (`serializeMessage`, `parseJSONRPCMessage`).
 *
 * Why not the SDK's `StdioClientTransport`: a desktop host must also (a) end whole process trees
 * (servers started through `npx` have grandchildren), (b) keep non-JSON stdout lines whole for the
 * server's log, (c) accept a large result (tens of MB) without quadratic buffering and refuse an
 * unbounded one, (d) bound stderr, and (e) report the exit code/signal. Spawning uses cross-spawn,
 * which resolves Windows `.cmd` shims (npx.cmd) and quotes arguments containing spaces correctly.
 */
import type { ChildProcess } from 'node:child_process';
import { spawn as nodeSpawn } from 'node:child_process';
import spawn from 'cross-spawn';
import { parseJSONRPCMessage, serializeMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { OVERFLOW_EDGE_BYTES, oversizedReplyError, oversizedReplyId } from './stdio-overflow.js';

/**
 * Largest single stdout message accepted, in bytes (a bigger one is dropped with a log line and
 * the request it answers fails at once, ./stdio-overflow.ts). Twice the total size a tool result may have (`MAX_CALL_RESULT_CHARS`), so
 * any result that could be shown gets through, while a runaway line cannot take the memory.
 */
export const DEFAULT_MAX_MESSAGE_BYTES = 32 * 1024 * 1024;
/** Longest stderr line kept, in characters (longer lines are cut). */
export const MAX_STDERR_LINE = 8192;

/** Options of a stdio transport. */
export interface StdioOptions {
  /** Absolute path (or bare name) of the program. */
  command: string;
  args: string[];
  /** The complete environment of the child (already merged over the parent's). */
  env: Record<string, string>;
  cwd?: string;
  maxMessageBytes?: number;
  /** A stdout line that is not a JSON-RPC message (banner, stray log). */
  onNoise?: (line: string) => void;
  /** One stderr line (cut to MAX_STDERR_LINE). */
  onStderr?: (line: string) => void;
  /** Grace period after closing stdin before SIGTERM, ms (default 300). */
  closeGraceMs?: number;
  /**
   * Told when the server's process group starts (`alive` true) and when it has been ended
   * (`false`); POSIX only. The process ledger uses it to end leftovers after a crash of the app.
   */
  onGroup?: (pgid: number, alive: boolean) => void;
}

/** How the child ended. */
export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** What is kept of a line over the limit: its size and its first and last bytes. */
export interface DroppedLine {
  bytes: number;
  /** Up to `edgeBytes` bytes from the line's start. */
  head: Buffer;
  /** Up to `edgeBytes` bytes from the line's end. */
  tail: Buffer;
}

/**
 * Splits a byte stream into lines without re-scanning or re-copying earlier bytes. A line over
 * `maxLine` bytes is not kept: `onOverflow` gets its size and edges.
 */
export class LineSplitter {
  private chunks: Buffer[] = [];
  private size = 0;
  private dropping = false;
  private head: Buffer = Buffer.alloc(0);
  private tail: Buffer = Buffer.alloc(0);

  constructor(
    private readonly maxLine: number,
    private readonly onLine: (line: Buffer) => void,
    private readonly onOverflow: (dropped: DroppedLine) => void,
    private readonly edgeBytes = 0,
  ) {}

  /** Feed a chunk; calls `onLine` for every complete line (without the `\n`). */
  push(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      if (nl === -1) {
        this.append(chunk.subarray(start));
        return;
      }
      this.append(chunk.subarray(start, nl));
      this.flushLine();
      start = nl + 1;
    }
  }

  /** Emit a final unterminated line, if any. */
  end(): void {
    if (this.size > 0 && !this.dropping) this.flushLine();
    this.reset();
  }

  private append(part: Buffer): void {
    if (part.length === 0) return;
    if (this.dropping) {
      this.size += part.length;
      this.keepTail(part);
      return;
    }
    if (this.size + part.length > this.maxLine) {
      this.dropping = true;
      if (this.edgeBytes > 0) {
        const first: Buffer[] = [];
        let have = 0;
        for (const c of [...this.chunks, part]) {
          if (have >= this.edgeBytes) break;
          first.push(c.subarray(0, this.edgeBytes - have));
          have += first.at(-1)!.length;
        }
        this.head = Buffer.concat(first);
        for (const c of this.chunks.slice(-2)) this.keepTail(c);
        this.keepTail(part);
      }
      this.chunks = [];
      this.size += part.length;
      return;
    }
    this.chunks.push(part);
    this.size += part.length;
  }

  /** Keep the last `edgeBytes` bytes seen of a dropped line (copies: chunks are not held). */
  private keepTail(part: Buffer): void {
    if (this.edgeBytes === 0) return;
    const joined = part.length >= this.edgeBytes ? part.subarray(part.length - this.edgeBytes) : Buffer.concat([this.tail, part]);
    this.tail = Buffer.from(joined.subarray(Math.max(0, joined.length - this.edgeBytes)));
  }

  private flushLine(): void {
    if (this.dropping) this.onOverflow({ bytes: this.size, head: this.head, tail: this.tail });
    else {
      const line = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.size);
      this.onLine(line);
    }
    this.reset();
  }

  private reset(): void {
    this.chunks = [];
    this.size = 0;
    this.dropping = false;
    this.head = Buffer.alloc(0);
    this.tail = Buffer.alloc(0);
  }
}

/**
 * End a process and all its descendants. POSIX: the child leads its own process group, so the
 * whole group gets the signal. Windows: `taskkill /T /F` on the pid (our own number, no shell).
 */
export function killTree(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): void {
  const pid = child.pid;
  if (!pid) return;
  if (process.platform === 'win32') {
    try {
      nodeSpawn('taskkill', ['/pid', String(pid), '/T', '/F'], { windowsHide: true, stdio: 'ignore' }).on('error', () => undefined);
    } catch {
      // taskkill missing: fall back to the direct child only.
      child.kill();
    }
    return;
  }
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // Already gone.
    }
  }
}

/** Whether any process of process group `pgid` still exists (POSIX; false on Windows). */
export function groupAlive(pgid: number): boolean {
  if (process.platform === 'win32' || pgid <= 0) return false;
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * End what is left of process group `pgid` once its leader is gone or going: SIGTERM, then
 * SIGKILL after `graceMs` if any member is still there (POSIX). Resolves when the group is empty
 * or SIGKILL was sent.
 */
export async function endGroup(pgid: number, graceMs: number): Promise<void> {
  if (!groupAlive(pgid)) return;
  const signal = (s: NodeJS.Signals): void => {
    try {
      process.kill(-pgid, s);
    } catch {
      // Gone meanwhile.
    }
  };
  signal('SIGTERM');
  const end = Date.now() + graceMs;
  while (Date.now() < end && groupAlive(pgid)) await new Promise((r) => setTimeout(r, 25).unref());
  if (groupAlive(pgid)) signal('SIGKILL');
}

/** A stdio client transport that owns its server's whole process tree. */
export class ManagedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Set once the child has exited. */
  exit: ExitInfo | null = null;
  private child: ChildProcess | null = null;
  /** The server's process group (its leader's pid; POSIX), kept after the leader exited. */
  private pgid: number | null = null;
  private closed = false;
  private exited: Promise<void> = Promise.resolve();
  /** Ids of requests sent to the server and not answered yet (to fail the one an oversized reply answers). */
  private readonly awaiting = new Set<string | number>();

  /**
   * The child's environment until it is spawned; then dropped (a merged environment is a few KiB
   * per server, and a restart builds a new transport). docs/ARCHITECTURE.md "Memory per server".
   */
  private env: Record<string, string> | null;
  private readonly opts: Omit<StdioOptions, 'env'>;

  constructor(opts: StdioOptions) {
    const { env, ...rest } = opts;
    this.env = env;
    this.opts = rest;
  }

  /** The child's pid while it runs. */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /**
   * Always null: stderr is read here and handed to `onStderr` line by line. Present because the
   * SDK recognizes a stdio transport by its `pid` and `stderr` members, and on stdio a silent
   * `server/discover` probe means a legacy server (fall back to `initialize`) rather than an
   * outage (docs/ARCHITECTURE.md "Protocol eras").
   */
  get stderr(): null {
    return null;
  }

  /**
   * Spawn the server. Resolves once the process is running.
   * @throws the spawn error (ENOENT, EACCES, …).
   */
  start(): Promise<void> {
    if (this.child || !this.env) throw new Error('ManagedStdioTransport already started');
    const env = this.env;
    this.env = null;
    return new Promise((resolve, reject) => {
      const child = spawn(this.opts.command, this.opts.args, {
        env,
        cwd: this.opts.cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
        windowsHide: true,
        detached: process.platform !== 'win32',
      });
      this.child = child;
      let spawned = false;
      let exitResolve: () => void = () => undefined;
      this.exited = new Promise<void>((r) => (exitResolve = r));
      child.on('error', (err) => {
        if (!spawned) reject(err);
        else this.onerror?.(err);
        exitResolve();
      });
      child.on('spawn', () => {
        spawned = true;
        if (process.platform !== 'win32' && child.pid) {
          this.pgid = child.pid;
          this.opts.onGroup?.(child.pid, true);
        }
        resolve();
      });
      child.on('exit', (code, signal) => {
        this.exit = { code, signal };
      });
      child.on('close', () => {
        exitResolve();
        this.child = null;
        this.awaiting.clear();
        if (!this.closed) {
          this.closed = true;
          this.onclose?.();
          // The server ended by itself: end whatever it left in its process group too.
          const pgid = this.pgid;
          if (pgid !== null) {
            this.pgid = null;
            void endGroup(pgid, Math.max(this.opts.closeGraceMs ?? 300, 500)).then(() => this.opts.onGroup?.(pgid, false));
          }
        }
      });
      const max = this.opts.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
      const out = new LineSplitter(
        max,
        (line) => this.handleLine(line),
        (dropped) => this.handleOverflow(dropped, max),
        OVERFLOW_EDGE_BYTES,
      );
      child.stdout!.on('data', (c: Buffer) => out.push(c));
      child.stdout!.on('end', () => out.end());
      child.stdout!.on('error', (e) => this.onerror?.(e));
      child.stdin!.on('error', (e) => this.onerror?.(e));
      const errSplit = new LineSplitter(
        MAX_STDERR_LINE * 4,
        (line) => {
          const text = line.toString('utf8').replace(/\r$/, '');
          if (text.trim()) this.opts.onStderr?.(text.length > MAX_STDERR_LINE ? `${text.slice(0, MAX_STDERR_LINE)}…` : text);
        },
        ({ bytes }) => this.opts.onStderr?.(`[a stderr line of ${bytes} bytes was not kept]`),
      );
      child.stderr!.on('data', (c: Buffer) => errSplit.push(c));
      child.stderr!.on('end', () => errSplit.end());
      child.stderr!.on('error', () => undefined);
    });
  }

  /** A line over the limit: log it, and fail at once the request it answers, when its edges say which. */
  private handleOverflow(dropped: DroppedLine, max: number): void {
    this.onerror?.(new Error(`Dropped a stdout message of ${dropped.bytes} bytes (limit ${max} bytes).`));
    const id = oversizedReplyId(dropped.head, dropped.tail, this.awaiting);
    if (id === null) return;
    this.awaiting.delete(id);
    this.onmessage?.(oversizedReplyError(id, dropped.bytes, max));
  }

  private handleLine(raw: Buffer): void {
    const text = raw.toString('utf8').replace(/\r$/, '');
    if (!text.trim()) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      this.opts.onNoise?.(text.length > 4096 ? `${text.slice(0, 4096)}…` : text);
      return;
    }
    let msg: JSONRPCMessage;
    try {
      msg = parseJSONRPCMessage(parsed);
    } catch {
      this.opts.onNoise?.(`not a JSON-RPC message: ${text.slice(0, 512)}`);
      return;
    }
    if ('id' in msg && !('method' in msg)) this.awaiting.delete(msg.id as string | number);
    this.onmessage?.(msg);
  }

  /** Write one message. Waits for the pipe to drain when it is full. */
  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed) throw new Error('Not connected');
    if ('method' in message && 'id' in message) this.awaiting.add(message.id as string | number);
    else if ('method' in message && message.method === 'notifications/cancelled') {
      const cancelled = (message.params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof cancelled === 'string' || typeof cancelled === 'number') this.awaiting.delete(cancelled);
    }
    const ok = stdin.write(serializeMessage(message));
    if (!ok) await new Promise<void>((r) => stdin.once('drain', () => r()));
  }

  /**
   * Close: end stdin (the spec's polite shutdown), then SIGTERM the process tree after a short
   * grace period, then SIGKILL it. Resolves when the child has exited.
   */
  async close(): Promise<void> {
    const child = this.child;
    const grace = this.opts.closeGraceMs ?? 300;
    if (child) {
      const wait = (ms: number): Promise<boolean> =>
        Promise.race([this.exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms).unref())]);
      try {
        child.stdin?.end();
      } catch {
        // Already closed.
      }
      if (!(await wait(grace))) {
        killTree(child, 'SIGTERM');
        if (!(await wait(1500))) {
          killTree(child, 'SIGKILL');
          await wait(1000);
        }
      }
    } else if (!this.closed) {
      this.closed = true;
      this.onclose?.();
    }
    // The leader is gone (it exited by itself, on stdin's end, or on SIGTERM); what is left of
    // its process group gets SIGTERM, then SIGKILL after the grace period.
    const pgid = this.pgid;
    if (pgid !== null) {
      await endGroup(pgid, Math.max(grace, 500));
      this.pgid = null;
      this.opts.onGroup?.(pgid, false);
    }
  }
}
