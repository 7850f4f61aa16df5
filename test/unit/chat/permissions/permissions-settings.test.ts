/**
 * The global permission mode store (main/chat/permissions/settings-store.ts) on real files:
 * default when missing or unreadable, an unknown value falls back to the default, saved 0600.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PermissionSettingsStore } from '../../../../main/chat/permissions/settings-store.js';
import { makeTempDir, removeDir } from '../../helpers.js';

let dir: string;
beforeEach(() => {
  dir = makeTempDir('op-perm-mode-');
});
afterEach(() => removeDir(dir));

describe('permission mode store', () => {
  it('missing file → the default; setMode writes an owner-only file a new store reads back', async () => {
    const s = new PermissionSettingsStore(dir);
    expect(s.cachedMode()).toBeNull();
    expect(await s.mode()).toBe('ask_unless_read_only');
    await s.setMode('never_ask');
    expect(s.cachedMode()).toBe('never_ask');
    expect(JSON.parse(readFileSync(s.file, 'utf8'))).toEqual({ mode: 'never_ask' });
    expect(statSync(s.file).mode & 0o777).toBe(0o600);
    expect(await new PermissionSettingsStore(dir).mode()).toBe('never_ask');
  });

  it.each([['{not json'], ['{"mode": "yolo"}'], ['[]']])('an unreadable or unknown content %s → the default, and the file is left alone', async (text) => {
    writeFileSync(path.join(dir, 'permissions.json'), text);
    expect(await new PermissionSettingsStore(dir).mode()).toBe('ask_unless_read_only');
    expect(readFileSync(path.join(dir, 'permissions.json'), 'utf8')).toBe(text);
  });
});
