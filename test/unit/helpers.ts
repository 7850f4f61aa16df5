/**
 * Shared helpers for the unit tests: fixture paths, temp dirs, process checks, polling.
 * Everything here uses real files and real processes (no mocks).
 */
import { mkdtempSync, promises as fs, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type { LocalServerConfig } from '../../main/mcp/config.js';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Absolute path of the repository root. */
export const ROOT = path.resolve(here, '..', '..');
/** The hand-written bash+jq stdio server. */
export const BASH_SERVER = path.join(ROOT, 'test', 'fixtures', 'bash-server.sh');
/** The SDK-based configurable stdio server. */
export const SDK_SERVER = path.join(ROOT, 'test', 'fixtures', 'sdk-server.mjs');

/** Command (program + args) that runs the SDK fixture with the given flags. */
export function sdkCommand(...flags: string[]): string[] {
  return [process.execPath, SDK_SERVER, ...flags];
}

/** Command that runs the bash fixture. */
export function bashCommand(): string[] {
  return ['bash', BASH_SERVER];
}

/** A fresh temp dir under os.tmpdir(); remove it with `removeDir`. */
export function makeTempDir(prefix = 'op-unit-'): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Remove a temp dir recursively (ignores a missing dir). */
export async function removeDir(dir: string | undefined): Promise<void> {
  if (dir) await fs.rm(dir, { recursive: true, force: true });
}

/** Whether a process with this pid exists (signal 0 probe). A reaped process throws ESRCH. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function parentOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 2 (comm) may contain spaces and parentheses; fields after the last ')' are fixed.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const state = rest[0];
    if (state === 'Z' || state === 'X') return null; // a zombie is no longer running
    return Number(rest[1]);
  } catch {
    return null;
  }
}

/** Pids of every live (non-zombie) descendant of this process (Linux /proc). */
export function descendantPids(root = process.pid): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const ppid = parentOf(Number(entry));
    if (ppid !== null) parents.set(Number(entry), ppid);
  }
  const out: number[] = [];
  const frontier = [root];
  while (frontier.length) {
    const p = frontier.pop()!;
    for (const [child, ppid] of parents) {
      if (ppid === p) {
        out.push(child);
        frontier.push(child);
      }
    }
  }
  return out;
}

/** Poll `pred` every 20 ms until it is true or `timeoutMs` passes; returns the last value. */
export async function waitFor(pred: () => boolean, timeoutMs = 5000): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (pred()) return true;
    if (Date.now() > end) return false;
    await sleep(20);
  }
}

/** Resolve after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * Wait (briefly) until the process is gone. A stdio server is sent SIGKILL as a last resort and
 * the SDK does not wait for it to be reaped, so allow a short grace period.
 */
export function waitGone(pid: number, timeoutMs = 3000): Promise<boolean> {
  return waitFor(() => !isAlive(pid), timeoutMs);
}

/** Wait until no child process of this test worker remains. */
export function waitNoChildren(timeoutMs = 5000): Promise<boolean> {
  return waitFor(() => descendantPids().length === 0, timeoutMs);
}

/** A stdio server config for `command` (enabled, 20 s timeout), with overrides. */
export function localServer(command: string[], over: Partial<LocalServerConfig> = {}): LocalServerConfig {
  return { type: 'local', command, env: {}, enabled: true, timeout_seconds: 20, ...over };
}

/** SHA-256 of a string, hex (for the fixture's env_check tool, which never echoes values). */
export function sha256(s: string): string {
  return createHash('sha256').update(s).digest('hex');
}
