/**
 * The environment and program of a stdio server (docs/ARCHITECTURE.md "Config file",
 * "Transports"): the app's own variables left out, the server's `env` merged over the inherited
 * one, the login shell's PATH on macOS, and command resolution the way the OS spawns.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { spawn as spawnChild } from 'node:child_process';
import path from 'node:path';

/**
 * Variables that belong to the app itself, not to the user's environment: npm's (`npm_*`, set
 * when started by `npm run`), ours (`OPENPROGRAM_*`) and Electron's (`ELECTRON_*`, among them
 * `ELECTRON_RUN_AS_NODE`). Servers do not inherit them (names compared ignoring case, as Windows
 * does).
 */
export function isAppVariable(name: string): boolean {
  return /^(npm_|openprogram_|electron_)/i.test(name);
}

/**
 * The environment a stdio server gets: `base` (the app's own environment), without the app's own
 * variables ({@link isAppVariable}), with the server's `env` merged over it (inherit, then
 * override/append; docs/ARCHITECTURE.md "Config file"). Never replaces the inherited env, so PATH, HOME, proxies and
 * locale keep working; a server's `env` may still set any name explicitly. `path`, when given,
 * replaces the inherited PATH (see {@link ServerEnvironment}).
 */
export function mergedEnv(serverEnv: Record<string, string>, base: NodeJS.ProcessEnv = process.env, path: string | null = null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) if (v !== undefined && !isAppVariable(k)) out[k] = v;
  if (path) out.PATH = path;
  for (const [k, v] of Object.entries(serverEnv)) out[k] = v;
  return out;
}

/**
 * The environment stdio servers inherit, for one app instance: the process environment, with
 * the login shell's PATH once {@link ServerEnvironment.adoptLoginShellPath} found one.
 */
export class ServerEnvironment {
  private loginShellPath: string | null = null;

  constructor(private readonly base: NodeJS.ProcessEnv = process.env) {}

  /**
   * On macOS, when the app was not started from a terminal, adopt the login shell's PATH for
   * servers (so `npx`, `uvx`, Homebrew tools resolve as they do in Terminal). Call once at start.
   * @returns the PATH now used for servers, or null when unchanged.
   */
  async adoptLoginShellPath(platform = process.platform): Promise<string | null> {
    if (platform !== 'darwin' || this.base.TERM_PROGRAM || this.base.OPENPROGRAM_NO_LOGIN_PATH) return null;
    const p = await readLoginShellPath(this.base.SHELL || '/bin/zsh', 3000, this.base);
    if (p) this.loginShellPath = p;
    return this.loginShellPath;
  }

  /** {@link mergedEnv} over this environment. */
  merged(serverEnv: Record<string, string>): Record<string, string> {
    return mergedEnv(serverEnv, this.base, this.loginShellPath);
  }
}

/**
 * Read PATH from the user's login shell: `$SHELL -ilc` with a fixed command (no user or server
 * input reaches the shell), bounded by `timeoutMs`. The value is printed between markers so
 * banners from shell start-up files are ignored.
 *
 * @returns the PATH, or null when the shell fails, times out, or prints nothing usable.
 */
export function readLoginShellPath(shell = process.env.SHELL || '/bin/zsh', timeoutMs = 3000, env: NodeJS.ProcessEnv = process.env): Promise<string | null> {
  return new Promise((resolve) => {
    const marker = '__OPENPROGRAM_PATH__';
    let out = '';
    let child: ReturnType<typeof spawnChild>;
    try {
      child = spawnChild(shell, ['-ilc', `printf '%s%s%s' ${marker} "$PATH" ${marker}`], { stdio: ['ignore', 'pipe', 'ignore'], env });
    } catch {
      resolve(null);
      return;
    }
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve(null);
    }, timeoutMs);
    child.stdout?.on('data', (c: Buffer) => {
      if (out.length < 1 << 20) out += c.toString('utf8');
    });
    child.on('error', () => {
      clearTimeout(timer);
      resolve(null);
    });
    child.on('close', () => {
      clearTimeout(timer);
      const m = new RegExp(`${marker}(.*?)${marker}`, 's').exec(out);
      resolve(m && m[1]!.trim() ? m[1]!.trim() : null);
    });
  });
}

function isExecutableFile(p: string, platform: NodeJS.Platform = process.platform): boolean {
  try {
    if (!statSync(p).isFile()) return false;
    if (platform === 'win32') return true;
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
  // Windows file names are case-insensitive: try each PATHEXT entry as given and in lower case.
  const exts =
    platform === 'win32'
      ? ['', ...(env.PATHEXT ?? env.Pathext ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean).flatMap((e) => [e, e.toLowerCase()])]
      : [''];
  if (sep.test(command)) {
    const abs = path.resolve(cwd, command);
    for (const e of exts) if (isExecutableFile(abs + e, platform)) return abs + e;
    return null;
  }
  const pathVar = env.PATH ?? env.Path ?? '';
  for (const dir of pathVar.split(platform === 'win32' ? ';' : path.delimiter)) {
    if (!dir) continue;
    for (const e of exts) {
      const candidate = path.join(dir, command + e);
      if (isExecutableFile(candidate, platform)) return candidate;
    }
  }
  return null;
}

/** Thrown when the command of a local server cannot be found. */
export class CommandNotFoundError extends Error {
  override name = 'CommandNotFoundError';
  constructor(readonly command: string) {
    super(`Command "${command}" was not found${command.includes('/') ? '' : ' on PATH'}. Install it or give its full path.`);
  }
}
