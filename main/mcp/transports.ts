/**
 * Transport construction: stdio (command resolution, env merge), with seams for Streamable HTTP
 * and legacy SSE. All protocol framing is the SDK's (`@modelcontextprotocol/sdk`).
 */
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { LocalServerConfig, RemoteServerConfig } from './config.js';
import { ManagedStdioTransport } from './stdio.js';

/**
 * The environment a stdio server gets: the app's own environment with the server's `env` merged
 * over it (source design: "inherit, then override/append"). Never replaces the inherited env, so
 * PATH, HOME, proxies and locale keep working.
 */
export function mergedEnv(serverEnv: Record<string, string>, base: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) if (v !== undefined) out[k] = v;
  for (const [k, v] of Object.entries(serverEnv)) out[k] = v;
  return out;
}

function isExecutableFile(p: string): boolean {
  try {
    if (!statSync(p).isFile()) return false;
    if (process.platform === 'win32') return true;
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Resolve a command the way the OS will when spawning it: a name containing a path separator is
 * taken relative to `cwd`; a bare name is searched on `env.PATH` (with `PATHEXT` on Windows).
 *
 * @returns the absolute path of an executable file, or null when none is found.
 */
export function resolveCommand(command: string, env: Record<string, string | undefined>, cwd = process.cwd(), platform = process.platform): string | null {
  const sep = platform === 'win32' ? /[\\/]/ : /\//;
  const exts = platform === 'win32' ? ['', ...(env.PATHEXT ?? env.Pathext ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean)] : [''];
  if (sep.test(command)) {
    const abs = path.resolve(cwd, command);
    for (const e of exts) if (isExecutableFile(abs + e)) return abs + e;
    return null;
  }
  const pathVar = env.PATH ?? env.Path ?? '';
  for (const dir of pathVar.split(platform === 'win32' ? ';' : path.delimiter)) {
    if (!dir) continue;
    for (const e of exts) {
      const candidate = path.join(dir, command + e);
      if (isExecutableFile(candidate)) return candidate;
    }
  }
  return null;
}

/** A stdio transport plus what we learned while preparing it. */
export interface PreparedStdio {
  transport: ManagedStdioTransport;
  resolvedCommand: string;
}

/** Where a stdio server's non-protocol output goes. */
export interface StdioSinks {
  onStderr?: (line: string) => void;
  onNoise?: (line: string) => void;
}

/** Thrown when the command of a local server cannot be found. */
export class CommandNotFoundError extends Error {
  override name = 'CommandNotFoundError';
  constructor(readonly command: string) {
    super(`Command "${command}" was not found${command.includes('/') ? '' : ' on PATH'}. Install it or give its full path.`);
  }
}

/**
 * Create (not start) a stdio transport for a local server.
 * @throws CommandNotFoundError when `command[0]` does not resolve to an executable.
 */
export function createStdioTransport(cfg: LocalServerConfig, sinks: StdioSinks = {}, cwd?: string): PreparedStdio {
  const env = mergedEnv(cfg.env);
  const resolved = resolveCommand(cfg.command[0]!, env, cwd);
  if (!resolved) throw new CommandNotFoundError(cfg.command[0]!);
  const transport = new ManagedStdioTransport({ command: resolved, args: cfg.command.slice(1), env, cwd, ...sinks });
  return { transport, resolvedCommand: resolved };
}

/**
 * Create (not start) a remote transport: Streamable HTTP (MCP spec 2025-03-26+) or legacy
 * HTTP+SSE (2024-11-05). Headers are sent on every request.
 */
export function createRemoteTransport(cfg: RemoteServerConfig): Transport {
  const url = new URL(cfg.url);
  const requestInit: RequestInit = { headers: { ...cfg.headers } };
  if (cfg.type === 'sse') return new SSEClientTransport(url, { requestInit });
  return new StreamableHTTPClientTransport(url, { requestInit });
}
