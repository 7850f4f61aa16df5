/**
 * The process ledger: which stdio servers' process groups this run of the app started, kept in
 * `<state dir>/server-processes.json`, so that when the app itself was killed (`kill -9`, a crash)
 * the next start finds the servers left from that run and ends them (README, "Security").
 *
 * Each server gets the variable {@link RUN_MARKER_ENV} = this run's random id, which its whole tree
 * inherits. At the next start a recorded group is ended only if one of its processes still
 * carries that marker (read from `/proc/<pid>/environ` on Linux, `ps -E` on macOS), so a process
 * group id the system has since given to an unrelated program is never signalled. POSIX only:
 * on Windows nothing is recorded.
 */
import { execFileSync } from 'node:child_process';
import { promises as fs, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { writeFileAtomic } from '../util/atomic-write.js';
import { isAlive } from '../util/process.js';

/** The ledger's file inside the state dir. */
export const LEDGER_FILE = 'server-processes.json';

/** The variable that marks every process of a server with the run that started it. */
export const RUN_MARKER_ENV = 'OPENPROGRAM_SERVER_RUN';

/** What the file holds: the run that wrote it, its pid, and its live process groups. */
interface LedgerDocument {
  run: string;
  app_pid: number;
  groups: number[];
}


/**
 * Whether some process of group `pgid` carries `marker` (`NAME=value`) in its environment.
 * Linux: /proc; macOS: `ps -E` (fixed arguments, no shell). Elsewhere: false (never signal).
 */
export function groupCarriesMarker(pgid: number, marker: string, platform = process.platform): boolean {
  if (platform === 'linux') {
    let entries: string[];
    try {
      entries = readdirSync('/proc');
    } catch {
      return false;
    }
    for (const e of entries) {
      if (!/^\d+$/.test(e)) continue;
      try {
        const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
        const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        if (Number(rest[2]) !== pgid || rest[0] === 'Z') continue;
        if (readFileSync(`/proc/${e}/environ`, 'utf8').split('\0').includes(marker)) return true;
      } catch {
        // Gone meanwhile, or not ours to read.
      }
    }
    return false;
  }
  if (platform === 'darwin') {
    try {
      const out = execFileSync('ps', ['-E', '-ww', '-o', 'pgid=,command=', '-A'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 });
      return out.split('\n').some((line) => Number(line.trim().split(/\s+/, 1)[0]) === pgid && line.includes(marker));
    } catch {
      return false;
    }
  }
  return false;
}

/** Records this run's server process groups and ends those a killed earlier run left behind. */
export class ProcessLedger {
  /** This run's random id (the marker's value). */
  readonly run = randomBytes(8).toString('hex');
  readonly file: string;
  private readonly live = new Set<number>();
  private dirty = false;
  private writing: Promise<void> | null = null;

  /** @param stateDir the app's state dir (one ledger per profile) */
  constructor(readonly stateDir: string) {
    this.file = path.join(stateDir, LEDGER_FILE);
  }

  /** The variables every server gets so its processes can be recognised later. */
  markerEnv(): Record<string, string> {
    return { [RUN_MARKER_ENV]: this.run };
  }

  /** Note that process group `pgid` started (`alive`) or was ended; written soon after. */
  record(pgid: number, alive: boolean): void {
    if (process.platform === 'win32') return;
    if (alive) this.live.add(pgid);
    else if (!this.live.delete(pgid)) return;
    this.dirty = true;
    this.writing ??= this.drain();
  }

  /** Resolves when every recorded change is on disk. */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private async drain(): Promise<void> {
    // One write per burst (many servers start at once).
    await new Promise((r) => setImmediate(r));
    try {
      while (this.dirty) {
        this.dirty = false;
        const doc: LedgerDocument = { run: this.run, app_pid: process.pid, groups: [...this.live] };
        await writeFileAtomic(this.file, JSON.stringify(doc) + '\n').catch(() => undefined);
      }
    } finally {
      this.writing = null;
    }
  }

  /**
   * At start, before any server: end the process groups a previous run recorded and did not end
   * (it was killed), when they still carry that run's marker. A ledger of a run that is still
   * alive (another instance) is left alone. Never throws.
   * @returns the process groups that were ended
   */
  async reapLeftovers(): Promise<number[]> {
    let doc: Partial<LedgerDocument>;
    try {
      doc = JSON.parse(await fs.readFile(this.file, 'utf8')) as Partial<LedgerDocument>;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      doc = {};
    }
    const ended: number[] = [];
    const valid = typeof doc.run === 'string' && /^[0-9a-f]{16}$/.test(doc.run) && Array.isArray(doc.groups);
    const otherInstance = typeof doc.app_pid === 'number' && doc.app_pid !== process.pid && isAlive(doc.app_pid);
    if (valid && !otherInstance && doc.run !== this.run) {
      const marker = `${RUN_MARKER_ENV}=${doc.run}`;
      for (const pgid of doc.groups!) {
        if (!Number.isInteger(pgid) || pgid <= 1 || !groupCarriesMarker(pgid, marker)) continue;
        try {
          process.kill(-pgid, 'SIGKILL');
          ended.push(pgid);
        } catch {
          // Gone meanwhile.
        }
      }
    }
    if (!otherInstance) {
      this.dirty = true;
      this.writing ??= this.drain();
      await this.flush();
    }
    return ended;
  }
}
