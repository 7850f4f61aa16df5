/**
 * Roots (MCP spec 2025-11-25 client feature "Roots"; deprecated by 2026-07-28 but still used by
 * 2025-era servers such as server-filesystem): the folders a server may work in. Each server may
 * have its own list (`roots` in its entry of mcp_servers.json); a server without one gets the
 * default list, kept in `<state dir>/roots.json` (docs/ARCHITECTURE.md "Protocol features").
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AppWarning, ValidationIssue } from '../../../preload/contract/index.js';
import { ownIssue } from '../../util/validation-issue.js';
import { writeFileAtomic } from '../../util/atomic-write.js';
import type { RootEntry } from './hooks.js';

/** The file of the default roots, in the state dir. */
export const ROOTS_FILE = 'roots.json';

/** Most folders in one list. */
export const MAX_ROOTS = 64;

/**
 * Thrown for a folder list that cannot be used (a relative path, an empty one, a control
 * character, too many); `issue` says why for the window, on the field `roots`.
 */
export class RootsInputError extends Error {
  override name = 'RootsInputError';
  readonly field = 'roots';
  constructor(
    message: string,
    readonly issue: ValidationIssue,
  ) {
    super(message);
  }
}

/**
 * Check and normalize a folder list: absolute paths only, resolved (`..` removed), no
 * duplicates, at most {@link MAX_ROOTS}. The folders need not exist yet.
 * @throws RootsInputError naming the first bad entry.
 */
export function normalizeRoots(paths: readonly string[]): string[] {
  if (paths.length > MAX_ROOTS) throw new RootsInputError(`At most ${MAX_ROOTS} folders.`, ownIssue('too_big', ['roots'], { origin: 'array', maximum: MAX_ROOTS }));
  const out: string[] = [];
  for (const p of paths) {
    if (typeof p !== 'string' || !p.trim()) throw new RootsInputError('A folder path is empty.', ownIssue('custom', ['roots'], { rule: 'required' }));
    // eslint-disable-next-line no-control-regex -- control characters are refused
    if (/[\u0000-\u001f]/.test(p)) throw new RootsInputError('A folder path contains control characters.', ownIssue('custom', ['roots'], { rule: 'control_char' }));
    if (!path.isAbsolute(p)) throw new RootsInputError(`"${p.slice(0, 200)}" is not an absolute path.`, ownIssue('custom', ['roots'], { rule: 'absolute_path' }));
    const resolved = path.resolve(p);
    if (!out.includes(resolved)) out.push(resolved);
  }
  return out;
}

/** The `roots/list` entries of a folder list: `file://` URIs named by the folder's last part. */
export function toRootEntries(paths: readonly string[]): RootEntry[] {
  return paths.map((p) => ({ uri: pathToFileURL(p).href, name: path.basename(p) || p }));
}

/** The default roots, persisted in {@link ROOTS_FILE}. */
export class DefaultRootsStore {
  private roots: string[] = [];
  private readonly file: string;

  constructor(stateDir: string) {
    this.file = path.join(stateDir, ROOTS_FILE);
  }

  /**
   * Read the file; a missing or unreadable one gives an empty list (an unreadable one is kept
   * and a warning returned, `roots_unreadable`).
   */
  async load(): Promise<AppWarning | null> {
    let text: string;
    try {
      text = await fs.readFile(this.file, 'utf8');
    } catch {
      this.roots = [];
      return null;
    }
    try {
      const doc = JSON.parse(text) as { default?: unknown };
      this.roots = normalizeRoots(Array.isArray(doc.default) ? (doc.default as string[]) : []);
      return null;
    } catch (err) {
      this.roots = [];
      return { code: 'roots_unreadable', file: this.file, said: (err as Error).message.slice(0, 500) };
    }
  }

  /** The default folders now. */
  get(): string[] {
    return [...this.roots];
  }

  /** Replace the default folders (normalized) and save them. @throws RootsInputError */
  async set(paths: readonly string[]): Promise<string[]> {
    const next = normalizeRoots(paths);
    await writeFileAtomic(this.file, `${JSON.stringify({ default: next }, null, 2)}\n`);
    this.roots = next;
    return this.get();
  }
}
