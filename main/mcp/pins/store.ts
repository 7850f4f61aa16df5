/**
 * PinStore: the pins on disk (docs/ARCHITECTURE.md "Pinned tool definitions"). One file per
 * server under `<state dir>/tool-pins/` (named by a hash of the server's name, so names that
 * differ only in case never share a file on a case-insensitive disk), holding per tool the
 * accepted definition, its hash, the identity of the server configuration it was accepted for,
 * and when; plus `settings.json` (hold unaccepted tools back). Files are written 0600 and
 * atomically, one write at a time per file. A server's file is read once, on first use, and kept
 * in memory. An unreadable file is kept beside as `<file>.unreadable` and its server starts over
 * with no accepted pins (every tool `new`), never silently trusted.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { Mutex, writeFileAtomic } from '../../util/atomic-write.js';
import type { ToolDefinition } from './definition.js';

/** The folder inside the state dir. */
export const PINS_DIR = 'tool-pins';
/** Version of the per-server file. */
const FILE_VERSION = 1;

/** One tool's pin. */
export interface ToolPin {
  /** {@link definitionHash} of `definition`. */
  hash: string;
  /** The definition as it was seen (accepted, or first seen when `accepted` is false). */
  definition: ToolDefinition;
  /** `programIdentity` of the configuration it was seen with (../config/identity.ts). */
  identity: string;
  /** Whether the user accepted it (explicitly, by allowing a call, or as the server's first listing). */
  accepted: boolean;
  /** When it was pinned (ms epoch). */
  pinned_at: number;
}

/** A server's pins: whether any were ever recorded, and the pins by real tool name. */
export interface ServerPins {
  /** False until the server's first listing was recorded (then its tools are accepted as seen). */
  known: boolean;
  tools: Map<string, ToolPin>;
}

/** Settings of the pins (`settings.json`). */
export interface PinStoreSettings {
  hold_unaccepted: boolean;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function parsePin(v: unknown): ToolPin | null {
  if (!isRecord(v)) return null;
  const { hash, definition, identity, accepted, pinned_at } = v;
  if (typeof hash !== 'string' || typeof identity !== 'string' || typeof accepted !== 'boolean' || typeof pinned_at !== 'number') return null;
  if (!isRecord(definition) || typeof definition.name !== 'string') return null;
  return { hash, definition: definition as unknown as ToolDefinition, identity, accepted, pinned_at };
}

/** Owns `<state dir>/tool-pins/`. */
export class PinStore {
  readonly dir: string;
  private readonly servers = new Map<string, ServerPins>();
  private readonly mutexes = new Map<string, Mutex>();
  private readonly writes = new Set<Promise<void>>();
  private settingsCache: PinStoreSettings | null = null;

  /**
   * @param stateDir the profile's state folder
   * @param onWriteError told when writing a file failed (the pins stay in memory; the next change writes again)
   */
  constructor(
    stateDir: string,
    private readonly onWriteError: (err: Error) => void = () => undefined,
  ) {
    this.dir = path.join(stateDir, PINS_DIR);
  }

  /** The file of one server's pins. */
  fileOf(server: string): string {
    return path.join(this.dir, `${createHash('sha256').update(server).digest('hex').slice(0, 24)}.json`);
  }

  /** One server's pins (read from disk on first use; the same object afterwards). */
  get(server: string): ServerPins {
    let pins = this.servers.get(server);
    if (!pins) this.servers.set(server, (pins = this.read(server)));
    return pins;
  }

  private read(server: string): ServerPins {
    const file = this.fileOf(server);
    if (!existsSync(file)) return { known: false, tools: new Map() };
    try {
      const doc = JSON.parse(readFileSync(file, 'utf8')) as unknown;
      if (!isRecord(doc) || doc.version !== FILE_VERSION || doc.server !== server || !isRecord(doc.tools)) throw new Error('not a pins file');
      const tools = new Map<string, ToolPin>();
      for (const [name, v] of Object.entries(doc.tools)) {
        const pin = parsePin(v);
        if (pin) tools.set(name, pin);
      }
      return { known: true, tools };
    } catch {
      // Kept for the user to look at; the server's tools must be accepted again.
      try {
        copyFileSync(file, `${file}.unreadable`);
      } catch {
        // Nothing more to do: the file is overwritten at the next change either way.
      }
      return { known: true, tools: new Map() };
    }
  }

  /**
   * Write one server's pins as they are in memory now (atomic, one write at a time per server).
   * A failure is told to `onWriteError` too. @throws the fs error
   */
  save(server: string): Promise<void> {
    const pins = this.get(server);
    let mutex = this.mutexes.get(server);
    if (!mutex) this.mutexes.set(server, (mutex = new Mutex()));
    const write = mutex.run(async () => {
      const tools: Record<string, ToolPin> = {};
      for (const [name, pin] of pins.tools) Object.defineProperty(tools, name, { value: pin, enumerable: true });
      await writeFileAtomic(this.fileOf(server), JSON.stringify({ version: FILE_VERSION, server, tools }) + '\n');
    });
    const settled = write.catch((err: unknown) => this.onWriteError(err as Error));
    this.writes.add(settled);
    void settled.finally(() => this.writes.delete(settled));
    return write;
  }

  /**
   * Forget one server's pins, in memory and on disk (the server was removed: a server added later
   * under its name starts with its own first listing). @throws the fs error, other than a missing file
   */
  async remove(server: string): Promise<void> {
    this.servers.set(server, { known: false, tools: new Map() });
    await this.flush();
    let mutex = this.mutexes.get(server);
    if (!mutex) this.mutexes.set(server, (mutex = new Mutex()));
    await mutex.run(() => rm(this.fileOf(server), { force: true }));
    this.servers.delete(server);
  }

  /**
   * Move one server's pins to a new name (the server was renamed, docs/ARCHITECTURE.md "Renaming
   * a server"): the file of `to` is written first, then the file of `from` removed, so a failure
   * leaves the pins under `from` (or under both names: never under neither).
   * @throws the fs error of writing the new file (nothing moved then)
   */
  async rename(from: string, to: string): Promise<void> {
    if (from === to) return;
    await this.flush();
    const pins = this.get(from);
    if (pins.known) {
      this.servers.set(to, pins);
      try {
        await this.save(to);
      } catch (err) {
        this.servers.delete(to);
        throw err;
      }
    } else this.servers.delete(to);
    await this.remove(from);
  }

  /** Resolves when every write started so far has finished. */
  async flush(): Promise<void> {
    while (this.writes.size) await Promise.all([...this.writes]);
  }

  /** The settings (read once, then cached). Missing or unreadable → defaults (nothing held back). */
  settings(): PinStoreSettings {
    if (this.settingsCache) return this.settingsCache;
    let hold = false;
    try {
      const doc = JSON.parse(readFileSync(path.join(this.dir, 'settings.json'), 'utf8')) as unknown;
      hold = isRecord(doc) && doc.hold_unaccepted === true;
    } catch {
      hold = false;
    }
    return (this.settingsCache = { hold_unaccepted: hold });
  }

  /** Store the settings; resolves once they are on disk. @throws the fs error */
  async setSettings(s: PinStoreSettings): Promise<PinStoreSettings> {
    let mutex = this.mutexes.get('\u0000settings');
    if (!mutex) this.mutexes.set('\u0000settings', (mutex = new Mutex()));
    return mutex.run(async () => {
      await writeFileAtomic(path.join(this.dir, 'settings.json'), JSON.stringify({ hold_unaccepted: s.hold_unaccepted }, null, 2) + '\n');
      return (this.settingsCache = { hold_unaccepted: s.hold_unaccepted });
    });
  }
}
