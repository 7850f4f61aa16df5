/**
 * A sandbox policy as a bubblewrap command line (Linux; docs/ARCHITECTURE.md "Sandbox"). The
 * server sees a new root built only of what the policy grants: system folders and grants
 * read-only, write grants read-write, denied paths masked, a private `/tmp`, its own `/proc` and
 * `/dev`, no network (its own empty network namespace; allowed hosts go through the proxy bridge),
 * and it dies with the app (`--die-with-parent`). Arguments only — no shell ever sees them.
 */
import { statSync } from 'node:fs';
import type { SandboxPolicy } from './policy.js';

/** Where the proxy bridge's folder appears inside the sandbox. */
export const BRIDGE_MOUNT = '/run/openprogram-bridge';

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** What the bubblewrap command line is built from. */
export interface BwrapLaunch {
  policy: SandboxPolicy;
  /** The program to run inside (absolute) and its arguments. */
  command: string;
  args: string[];
  /** The working folder inside (must be granted; default: the scratch folder). */
  cwd?: string;
  /** A host folder bound at {@link BRIDGE_MOUNT} (the proxy socket), or null without network. */
  bridgeDir: string | null;
}

/**
 * bubblewrap's arguments for `launch` (to be run as `bwrap <args>`). Order matters: later mounts
 * cover earlier ones, so denied paths are masked after the grants, and the scratch folder (inside
 * the denied state folder) is bound last.
 */
export function bwrapArgs(launch: BwrapLaunch): string[] {
  const { policy } = launch;
  const a: string[] = ['--die-with-parent', '--new-session', '--unshare-all', '--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp'];
  for (const p of policy.read) a.push('--ro-bind', p, p);
  for (const l of policy.links) a.push('--symlink', l.target, l.path);
  for (const p of policy.write) a.push('--bind', p, p);
  for (const d of policy.deny) {
    if (isDir(d)) a.push('--tmpfs', d);
    else a.push('--ro-bind', '/dev/null', d);
  }
  for (const b of policy.bundles) a.push('--ro-bind', b, b);
  a.push('--bind', policy.scratch, policy.scratch);
  if (launch.bridgeDir) a.push('--bind', launch.bridgeDir, BRIDGE_MOUNT);
  a.push('--chdir', launch.cwd ?? policy.scratch, '--', launch.command, ...launch.args);
  return a;
}
