/**
 * The first-run folder check (main/mcp/protocol/folder-check.ts) against a real temporary folder
 * tree: each state the window words, `~` expansion and normalization.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkFolder } from '../../../../main/mcp/protocol/folder-check.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'folder-check-'));
mkdirSync(path.join(root, 'notes'));
writeFileSync(path.join(root, 'file.txt'), 'x');
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('checkFolder', () => {
  it('accepts a readable folder and normalizes its path', async () => {
    expect(await checkFolder(`${root}/notes/../notes/`, '/home/x')).toEqual({ path: path.join(root, 'notes'), state: 'folder' });
  });
  it('expands ~ to the home folder', async () => {
    expect(await checkFolder('~/notes', root)).toEqual({ path: path.join(root, 'notes'), state: 'folder' });
    expect(await checkFolder('~', root)).toEqual({ path: root, state: 'folder' });
  });
  it('says when the path is missing, a file, or relative', async () => {
    expect((await checkFolder(path.join(root, 'nope'), '/home/x')).state).toBe('missing');
    expect((await checkFolder(path.join(root, 'file.txt'), '/home/x')).state).toBe('not_folder');
    expect(await checkFolder('notes', root)).toEqual({ path: 'notes', state: 'not_absolute' });
  });
  it.skipIf(process.getuid?.() === 0)('says when the folder cannot be read (skipped when run as root: root may read every folder, so no unreadable one can be made)', async () => {
    const locked = path.join(root, 'locked');
    mkdirSync(locked);
    chmodSync(locked, 0o000);
    try {
      expect((await checkFolder(locked, '/home/x')).state).toBe('unreadable');
    } finally {
      chmodSync(locked, 0o755);
    }
  });
});
