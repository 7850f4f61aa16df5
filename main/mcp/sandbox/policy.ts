/**
 * The sandbox policy of one local (stdio) server: which folders it may read, which it may write,
 * which it may never see, and which hosts it may reach (docs/ARCHITECTURE.md "Sandbox"). Pure
 * computation from the server's resolved command line, its roots, its per-server settings and the
 * machine's layout; the launcher (./launcher.ts) turns it into a bubblewrap command line.
 */
import { closeSync, existsSync, lstatSync, openSync, readlinkSync, readSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { SandboxSettings } from '../../../preload/contract/index.js';

/** System folders every sandboxed server may read (libraries, runtimes, certificates, locale). */
export const SYSTEM_READ = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc', '/opt', '/nix/store', '/snap'];

/**
 * Paths under the home folder a server never sees, whatever else is allowed: keys, cloud and
 * package-registry credentials, keychains, browser profiles (Linux and macOS locations).
 */
export const HOME_DENY = [
  '.ssh',
  '.gnupg',
  '.aws',
  '.azure',
  '.kube',
  '.docker',
  '.netrc',
  '.npmrc',
  '.pypirc',
  '.git-credentials',
  '.password-store',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.config/gcloud',
  '.config/gh',
  '.config/git/credentials',
  '.config/google-chrome',
  '.config/chromium',
  '.config/BraveSoftware',
  '.config/microsoft-edge',
  '.config/Code',
  '.mozilla',
  '.thunderbird',
  '.local/share/keyrings',
  'snap/firefox',
  'snap/chromium',
  'Library/Keychains',
  'Library/Cookies',
  'Library/Application Support/Google/Chrome',
  'Library/Application Support/Firefox',
  'Library/Safari',
];

/** System files a server never sees even though `/etc` is readable. */
export const SYSTEM_DENY = ['/etc/shadow', '/etc/gshadow', '/etc/shadow-', '/etc/gshadow-', '/etc/sudoers', '/etc/sudoers.d', '/etc/ssh'];

/**
 * Package registries a package runner needs while it fetches the server, by runner command name.
 * They are reachable only until the server is ready (docs/ARCHITECTURE.md "Sandbox").
 */
export const FETCH_HOSTS: Record<string, string[]> = {
  npx: ['registry.npmjs.org'],
  pnpx: ['registry.npmjs.org'],
  bunx: ['registry.npmjs.org'],
  uvx: ['pypi.org', 'files.pythonhosted.org', 'github.com', 'objects.githubusercontent.com', 'release-assets.githubusercontent.com'],
  uv: ['pypi.org', 'files.pythonhosted.org', 'github.com', 'objects.githubusercontent.com', 'release-assets.githubusercontent.com'],
  pipx: ['pypi.org', 'files.pythonhosted.org'],
};

/** What the policy is computed from. All paths absolute. */
export interface PolicyInput {
  /** The absolute path the command resolved to. */
  command: string;
  /** The arguments (secret ones included: folders they name are granted, never shown). */
  args: string[];
  /** The server's root folders (MCP "Roots"). */
  roots: string[];
  /** The server's own scratch folder (kept across restarts); its HOME inside the sandbox. */
  scratch: string;
  /** The app's state folder (config, secrets, conversations, OAuth state): never visible. */
  stateDir: string;
  /** The user's home folder. */
  home: string;
  /** The PATH the server gets. */
  pathVar: string;
  /** Extra folders and hosts the user allowed for this server. */
  settings: SandboxSettings;
  /** Programs the launcher itself runs inside the sandbox (the network bridge's runtime). */
  helpers?: string[];
}

/**
 * A computed policy: every list is of absolute, existing paths (hosts excepted), deduplicated.
 * - `read`: bound read-only; `write`: bound read-write (both minus `deny`);
 * - `deny`: masked (an empty folder or file) wherever a read or write grant would expose them;
 * - `refused`: grants dropped because they lie inside a denied path (the state folder, `~/.ssh`);
 * - `hosts`: reachable through the host-side proxy for the server's whole life;
 * - `fetchHosts`: reachable only until the server is ready (package registries for `npx`/`uvx`);
 * - `links`: system paths that are symbolic links (`/bin` → `usr/bin` on merged-/usr systems),
 *   recreated as the same links inside.
 */
export interface SandboxPolicy {
  /** Installed bundles' folders (inside the state folder, under `bundles/`): read-only, bound after the masks. */
  bundles: string[];
  links: { path: string; target: string }[];
  read: string[];
  write: string[];
  deny: string[];
  /** Every path the sandbox never shows that exists here (what the card lists as "never visible"); `deny` is the part that needs masking. */
  protected: string[];
  refused: string[];
  scratch: string;
  hosts: string[];
  fetchHosts: string[];
}

/** Whether path `p` is `dir` or lies inside it (both absolute, normalized). */
export function inside(p: string, dir: string): boolean {
  return p === dir || p.startsWith(dir.endsWith(path.sep) ? dir : dir + path.sep);
}

function real(p: string): string | null {
  try {
    return realpathSync(p);
  } catch {
    return null;
  }
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** The nearest folder at or above `dir` that holds a `package.json` or `pyproject.toml`, else `dir`. */
function packageRoot(dir: string): string {
  for (let d = dir; ; d = path.dirname(d)) {
    if (existsSync(path.join(d, 'package.json')) || existsSync(path.join(d, 'pyproject.toml'))) return d;
    if (path.dirname(d) === d) return dir;
  }
}

/**
 * The folders a script file needs: its package root, and — inside `node_modules` — the topmost
 * `node_modules` folder above it, where Node finds the package's hoisted dependencies.
 */
function scriptFolders(file: string): string[] {
  const root = packageRoot(path.dirname(file));
  const at = file.indexOf(`${path.sep}node_modules${path.sep}`);
  return at >= 0 ? [root, file.slice(0, at + '/node_modules'.length)] : [root];
}

/** The install prefix of a program at `<prefix>/bin/<name>` (realpath), else its folder. */
function programPrefix(file: string): string {
  const dir = path.dirname(file);
  return path.basename(dir) === 'bin' ? path.dirname(dir) : packageRoot(dir);
}

/** The interpreter a script names on its `#!` line (`#!/usr/bin/env node` → `node` on PATH). */
function shebangProgram(file: string, pathVar: string): string | null {
  let head: string;
  try {
    // The first 256 bytes only: the program may be a 100 MB binary.
    const fd = openSync(file, 'r');
    try {
      const buf = Buffer.alloc(256);
      head = buf.subarray(0, readSync(fd, buf, 0, 256, 0)).toString('latin1');
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
  const m = /^#!\s*(\S+)(?:\s+(?:-S\s+)?(\S+))?/.exec(head);
  if (!m) return null;
  const interp = m[1]!;
  if (path.basename(interp) !== 'env' || !m[2]) return interp;
  for (const dir of pathVar.split(path.delimiter)) {
    if (!dir) continue;
    const p = path.join(dir, m[2]);
    if (existsSync(p)) return p;
  }
  return null;
}

/** A path an argument names: absolute, `~/…`, or the value of `--flag=/…`. */
function argPath(arg: string, home: string): string | null {
  const v = /^-{1,2}[\w-]+=(.+)$/.exec(arg)?.[1] ?? arg;
  if (v === '~') return home;
  if (v.startsWith('~/')) return path.join(home, v.slice(2));
  return path.isAbsolute(v) ? path.normalize(v) : null;
}

/** The denied paths for a home folder and a state folder. */
export function deniedPaths(home: string, stateDir: string): string[] {
  return [stateDir, ...HOME_DENY.map((p) => path.join(home, p)), ...SYSTEM_DENY];
}

/**
 * Compute the policy of one server (docs/ARCHITECTURE.md "Sandbox"): read the system, the
 * program's install prefix and its interpreter's, the PATH folders, the package folders of file
 * arguments and the user's extra read folders; write the scratch folder, folders named in the
 * arguments (for a path that does not exist yet, its folder), the roots and the user's extra write folders; never the denied paths.
 */
export function computePolicy(input: PolicyInput): SandboxPolicy {
  const deny = deniedPaths(input.home, input.stateDir).map((p) => real(p) ?? p);
  const denied = (p: string) => deny.some((d) => inside(p, d));
  // A server installed from a .mcpb bundle runs from <state dir>/bundles/<its folder>: that folder
  // (never the rest of the state folder) is readable.
  const bundleRoot = path.join(real(input.stateDir) ?? input.stateDir, 'bundles');
  const bundles = new Set<string>();
  const read = new Set<string>();
  const write = new Set<string>();
  const refused = new Set<string>();
  /** Grant `p` (if it exists and is not denied); `asked`: the user or the server's config named it, so a refusal is reported. */
  const grant = (set: Set<string>, p: string | null, asked = false) => {
    if (!p) return;
    const r = real(p);
    if (!r) return;
    if (set === read && r !== bundleRoot && inside(r, bundleRoot)) bundles.add(path.join(bundleRoot, path.relative(bundleRoot, r).split(path.sep)[0]!));
    else if (!denied(r)) set.add(r);
    else if (asked) refused.add(p);
  };
  const links: { path: string; target: string }[] = [];
  for (const p of SYSTEM_READ) {
    if (!existsSync(p)) continue;
    if (lstatSync(p).isSymbolicLink()) links.push({ path: p, target: readlinkSync(p) });
    grant(read, p);
  }
  for (const program of [input.command, ...(input.helpers ?? [])]) {
    const r = real(program);
    if (!r) continue;
    grant(read, programPrefix(r));
    if (r.includes(`${path.sep}node_modules${path.sep}`)) for (const f of scriptFolders(r)) grant(read, f);
    const interp = shebangProgram(r, input.pathVar);
    const ri = interp ? real(interp) : null;
    if (ri) grant(read, programPrefix(ri));
  }
  for (const dir of input.pathVar.split(path.delimiter)) if (dir && path.isAbsolute(dir) && isDir(dir)) grant(read, dir);
  for (const arg of input.args) {
    const p = argPath(arg, input.home);
    if (!p) continue;
    if (!existsSync(p)) {
      // A file the server is to create (`--db=/data/new.db`): its folder, when that exists.
      if (isDir(path.dirname(p))) grant(write, path.dirname(p), true);
      continue;
    }
    if (isDir(p)) grant(write, p, true);
    else for (const f of scriptFolders(real(p) ?? p)) grant(read, f);
  }
  for (const r of input.roots) grant(write, r, true);
  for (const r of input.settings.read) grant(read, r, true);
  for (const w of input.settings.write) grant(write, w, true);
  const covered = (p: string, sets: Set<string>[]) => sets.some((set) => [...set].some((g) => g !== p && inside(p, g)));
  const reads = [...read].filter((r) => !write.has(r) && !covered(r, [read, write]));
  const writes = [...write].filter((w) => !covered(w, [write]));
  const runner = path.basename(input.command).replace(/\.(cmd|exe)$/i, '');
  return {
    bundles: [...bundles],
    links,
    read: reads.sort(),
    write: writes.sort(),
    deny: deny.filter((d) => existsSync(d) && [...reads, ...writes].some((g) => inside(d, g))),
    protected: deny.filter((d) => existsSync(d)),
    refused: [...refused],
    scratch: input.scratch,
    hosts: [...new Set<string>(input.settings.hosts)],
    fetchHosts: FETCH_HOSTS[runner] ?? [],
  };
}
