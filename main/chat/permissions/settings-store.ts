/**
 * The global permission mode, stored in `<state dir>/permissions.json` (0600, atomic write):
 * `{"mode": "ask_unless_read_only"}`. Missing or unreadable file → the default mode; an
 * unreadable file is left as it is until the user picks a mode.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { PermissionMode } from '../../../preload/contract/index.js';
import { isPermissionMode } from '../../../preload/contract/rules/index.js';
import { Mutex, writeFileAtomic } from '../../util/atomic-write.js';
import { DEFAULT_PERMISSION_MODE } from './policy.js';

/** Name of the file inside the state dir. */
export const PERMISSIONS_FILE = 'permissions.json';

/** Owns permissions.json. */
export class PermissionSettingsStore {
  readonly file: string;
  private cached: PermissionMode | null = null;
  private loading: Promise<PermissionMode> | null = null;
  private readonly mutex = new Mutex();

  constructor(stateDir: string) {
    this.file = path.join(stateDir, PERMISSIONS_FILE);
  }

  /** The current mode (read once, then cached). */
  mode(): Promise<PermissionMode> {
    if (this.cached) return Promise.resolve(this.cached);
    this.loading ??= this.read().then((m) => (this.cached ??= m));
    return this.loading;
  }

  /** The cached mode, or null before the first `mode()` resolved (lets callers skip an await). */
  cachedMode(): PermissionMode | null {
    return this.cached;
  }

  /** Store a new mode; resolves once it is on disk. */
  setMode(mode: PermissionMode): Promise<PermissionMode> {
    return this.mutex.run(async () => {
      await writeFileAtomic(this.file, JSON.stringify({ mode }, null, 2) + '\n');
      this.cached = mode;
      return mode;
    });
  }

  private async read(): Promise<PermissionMode> {
    try {
      const doc = JSON.parse(await fs.readFile(this.file, 'utf8')) as { mode?: unknown };
      return isPermissionMode(doc.mode) ? doc.mode : DEFAULT_PERMISSION_MODE;
    } catch {
      return DEFAULT_PERMISSION_MODE;
    }
  }
}
