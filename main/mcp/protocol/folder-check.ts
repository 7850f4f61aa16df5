/**
 * Whether a folder the user typed exists and can be read, before a server is set up to work in
 * it (the first-run "Let the model read a folder" step; docs/ARCHITECTURE.md "First run").
 * Pure Node: no shell, no server-supplied string; the path is the user's own.
 */
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import path from 'node:path';

/** What a typed folder turned out to be (the window words each kind). */
export type FolderState = 'folder' | 'missing' | 'not_folder' | 'unreadable' | 'not_absolute';

/** A checked folder: its absolute path (`~` expanded, normalized) and what it is. */
export interface FolderCheck {
  path: string;
  state: FolderState;
}

/**
 * Check a folder path: `~` or `~/…` is the home folder; anything else must be absolute.
 * @param input the path as typed (already bounded by the contract).
 * @param home the home folder `~` stands for.
 * @returns the normalized path and its state; never throws for a bad path.
 */
export async function checkFolder(input: string, home: string): Promise<FolderCheck> {
  const typed = input.trim();
  const expanded = typed === '~' ? home : typed.startsWith('~/') ? path.join(home, typed.slice(2)) : typed;
  if (!path.isAbsolute(expanded)) return { path: typed, state: 'not_absolute' };
  const abs = path.normalize(expanded);
  const normalized = abs.length > 1 && abs.endsWith(path.sep) ? abs.slice(0, -1) : abs;
  try {
    const s = await stat(normalized);
    if (!s.isDirectory()) return { path: normalized, state: 'not_folder' };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { path: normalized, state: code === 'EACCES' || code === 'EPERM' ? 'unreadable' : 'missing' };
  }
  try {
    await access(normalized, constants.R_OK | constants.X_OK);
  } catch {
    return { path: normalized, state: 'unreadable' };
  }
  return { path: normalized, state: 'folder' };
}
