/**
 * The recorder's per-server switch — this file's one job: remember which servers the user
 * switched the traffic recorder off for, across restarts (docs/ARCHITECTURE.md "Protocol
 * inspector"). Stored in `<state dir>/inspector.json` (0600, atomic write) as
 * `{"version": 1, "off": ["server", …]}`; every server not listed is recorded. Read once, at
 * construction; a missing or unreadable file means every server is recorded (the unreadable file
 * is replaced at the next change).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Mutex, writeFileAtomic } from '../../util/atomic-write.js';

/** Name of the file inside the state dir. */
export const INSPECTOR_SETTINGS_FILE = 'inspector.json';

/** Owns inspector.json. */
export class RecorderSwitches {
  readonly file: string;
  private readonly off: Set<string>;
  private readonly mutex = new Mutex();

  /** @param stateDir the profile's state folder (null: in memory only, e.g. a benchmark) */
  constructor(private readonly stateDir: string | null) {
    this.file = stateDir === null ? '' : path.join(stateDir, INSPECTOR_SETTINGS_FILE);
    this.off = new Set(stateDir === null ? [] : readOff(this.file));
  }

  /** Whether `server`'s traffic is recorded (true unless the user switched it off). */
  recording(server: string): boolean {
    return !this.off.has(server);
  }

  /**
   * Switch recording of `server` on or off; resolves once the choice is on disk.
   * @throws the fs error of the write (the choice holds in memory meanwhile)
   */
  async set(server: string, on: boolean): Promise<void> {
    if (on) this.off.delete(server);
    else this.off.add(server);
    await this.write();
  }

  /**
   * A renamed server's choice moves to its new name (docs/ARCHITECTURE.md "Renaming a server").
   * @throws the fs error of the write (memory is put back then)
   */
  async rename(from: string, to: string): Promise<void> {
    const wasOff = this.off.has(from);
    const toOff = this.off.has(to);
    if (!wasOff && !toOff) return;
    this.off.delete(from);
    if (wasOff) this.off.add(to);
    else this.off.delete(to);
    try {
      await this.write();
    } catch (err) {
      if (wasOff) this.off.add(from);
      if (toOff) this.off.add(to);
      else this.off.delete(to);
      throw err;
    }
  }

  /** A removed server's choice is forgotten (a server added later under its name is recorded). @throws the fs error */
  async forget(server: string): Promise<void> {
    if (this.off.delete(server)) await this.write();
  }

  private write(): Promise<void> {
    if (this.stateDir === null) return Promise.resolve();
    return this.mutex.run(() => writeFileAtomic(this.file, `${JSON.stringify({ version: 1, off: [...this.off].sort() }, null, 2)}\n`));
  }
}

function readOff(file: string): string[] {
  try {
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { off?: unknown };
    return Array.isArray(doc.off) ? doc.off.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}
