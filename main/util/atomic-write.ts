import { promises as fs } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { isAlive } from './process.js';

/**
 * Write `data` to `file` atomically and owner-only.
 *
 * A temp file beside the target is created with mode 0600 in the same `open` call (flag `wx`),
 * written, fsynced, then renamed over the target; the directory is fsynced afterwards so the
 * rename survives a crash. A reader sees the old or the new content, never a torn file. Because
 * the temp file carries the mode, an older 0644 target is replaced by a 0600 one.
 *
 * @param file absolute path of the target
 * @param data the full new content (UTF-8 string or bytes)
 * @throws the underlying fs error (ENOSPC, EACCES, …); the temp file is removed on failure.
 */
export async function writeFileAtomic(file: string, data: string | Uint8Array): Promise<void> {
  const dir = path.dirname(file);
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await fs.open(tmp, 'wx', 0o600);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (err) {
    await handle.close().catch(() => undefined);
    await fs.rm(tmp, { force: true });
    throw err;
  }
  await handle.close();
  try {
    await fs.rename(tmp, file);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
  // Ensure the mode even if umask or an odd filesystem widened it.
  await fs.chmod(file, 0o600).catch(() => undefined);
  try {
    const dh = await fs.open(dir, 'r');
    await dh.sync().catch(() => undefined);
    await dh.close();
  } catch {
    // Directory fsync is not supported everywhere (e.g. Windows); the rename is still atomic.
  }
}

/**
 * Serializes async operations: each `run(fn)` starts after the previous one settled.
 * Used so that concurrent saves of one file cannot interleave.
 */
export class Mutex {
  private tail: Promise<unknown> = Promise.resolve();

  /** Run `fn` after every earlier `run` has settled; resolves/rejects with `fn`'s result. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.tail.then(fn, fn);
    this.tail = next.catch(() => undefined);
    return next;
  }
}


/**
 * Remove temp files that {@link writeFileAtomic} left beside `file` (and beside each of `more` in
 * the same folder) when a writer died mid-write (`.<name>.<pid>.<hex>.tmp`). They may hold plaintext secrets, so they must not outlive the crash.
 * A temp file is stale when its pid is not running, or is this process's pid but the file is
 * older than this process (the pid was reused after the crash). Temp files of other live
 * processes are left alone. Never throws.
 * @returns how many were removed
 */
export async function removeStaleTemps(file: string, ...more: string[]): Promise<number> {
  const dir = path.dirname(file);
  const bases = new Set([file, ...more].filter((f) => path.dirname(f) === dir).map((f) => path.basename(f)));
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return 0;
  }
  const startedAt = Date.now() - process.uptime() * 1000;
  let removed = 0;
  for (const name of names) {
    if (!name.startsWith('.') || !name.endsWith('.tmp')) continue;
    const m = /^\.(.+)\.(\d+)\.[0-9a-f]+\.tmp$/.exec(name);
    if (!m || !bases.has(m[1]!)) continue;
    const pid = Number(m[2]);
    const full = path.join(dir, name);
    if (pid === process.pid) {
      const st = await fs.stat(full).catch(() => null);
      if (!st || st.mtimeMs >= startedAt - 1000) continue;
    } else if (isAlive(pid)) continue;
    try {
      await fs.rm(full, { force: true });
      removed++;
    } catch {
      // best effort
    }
  }
  return removed;
}
