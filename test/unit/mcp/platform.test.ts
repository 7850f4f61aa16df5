/**
 * Platform launch details, exercised on Linux through their code paths: Windows `.cmd` shims
 * found via PATHEXT without splitting arguments, and the macOS login-shell PATH (read from a real
 * shell, with banners ignored and a hard timeout).
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readLoginShellPath, resolveCommand, ServerEnvironment } from '../../../main/mcp/transports/environment.js';
import { ManagedStdioTransport } from '../../../main/mcp/stdio.js';
import { makeTempDir, removeDir } from '../helpers.js';

let dir: string;
beforeEach(() => {
  dir = makeTempDir('op-platform-');
});
afterEach(async () => {
  await removeDir(dir);
});

describe('Windows command resolution (code path)', () => {
  it('finds npx.cmd through PATHEXT on a ;-separated Path, like cross-spawn does', () => {
    const bin = path.join(dir, 'nodejs');
    mkdirSync(bin);
    writeFileSync(path.join(bin, 'npx.cmd'), '@echo off\n');
    const found = resolveCommand('npx', { Path: `C:\\nowhere;${bin}`, PATHEXT: '.COM;.EXE;.BAT;.CMD' }, dir, 'win32');
    expect(found).toBe(path.join(bin, 'npx.cmd'));
  });
  it('returns null when nothing matches', () => {
    expect(resolveCommand('npx', { Path: dir, PATHEXT: '.EXE' }, dir, 'win32')).toBeNull();
  });
});

describe('arguments with spaces are never split', () => {
  it('an argument containing spaces and quotes arrives as one argv entry', async () => {
    const out = path.join(dir, 'argv.json');
    const t = new ManagedStdioTransport({
      command: process.execPath,
      args: ['-e', `require('fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(process.argv.slice(1)))`, 'a b c', 'it\'s "quoted"', '$HOME;rm -rf /'],
      env: { ...(process.env as Record<string, string>) },
    });
    let closed = false;
    t.onclose = () => (closed = true);
    await t.start();
    for (let i = 0; i < 100 && !closed; i++) await new Promise((r) => setTimeout(r, 30));
    const { readFileSync } = await import('node:fs');
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(['a b c', 'it\'s "quoted"', '$HOME;rm -rf /']);
  });
});

describe('login-shell PATH (macOS code path)', () => {
  it('reads PATH from a real login shell, ignoring banner output of start-up files', async () => {
    // A login bash reads ~/.bash_profile: it prints a banner and prepends a directory, the way a
    // Homebrew user's ~/.zprofile does on macOS.
    writeFileSync(path.join(dir, '.bash_profile'), 'echo "Welcome banner from .bash_profile"\nexport PATH="/opt/fakebrew/bin:$PATH"\n');
    const p = await readLoginShellPath('/bin/bash', 5000, { ...process.env, HOME: dir });
    expect(p).toMatch(/^\/opt\/fakebrew\/bin:/);
    expect(p).not.toContain('Welcome');
  });
  it('a shell that hangs is abandoned after the timeout', async () => {
    const fake = path.join(dir, 'hang-shell');
    writeFileSync(fake, '#!/bin/bash\nsleep 30\n');
    chmodSync(fake, 0o755);
    const started = Date.now();
    expect(await readLoginShellPath(fake, 300)).toBeNull();
    expect(Date.now() - started).toBeLessThan(2000);
  });
  it('an adopted login PATH belongs to its ServerEnvironment: its servers get it, another instance does not', async () => {
    writeFileSync(path.join(dir, '.bash_profile'), 'export PATH="/opt/fakebrew/bin:$PATH"\n');
    const base = { ...process.env, HOME: dir, SHELL: '/bin/bash', TERM_PROGRAM: '', OPENPROGRAM_NO_LOGIN_PATH: '' };
    const adopted = new ServerEnvironment(base);
    const other = new ServerEnvironment(base);
    expect(await adopted.adoptLoginShellPath('darwin')).toMatch(/^\/opt\/fakebrew\/bin:/);
    expect(adopted.merged({}).PATH).toMatch(/^\/opt\/fakebrew\/bin:/);
    expect(other.merged({}).PATH).toBe(process.env.PATH);
    expect(adopted.merged({ PATH: '/explicit' }).PATH).toBe('/explicit');
  });
  it('a missing shell gives null, and adoption only happens on macOS outside a terminal', async () => {
    expect(await readLoginShellPath(path.join(dir, 'nope'), 1000)).toBeNull();
    expect(await new ServerEnvironment({}).adoptLoginShellPath('linux')).toBeNull();
    expect(await new ServerEnvironment({ TERM_PROGRAM: 'Apple_Terminal' }).adoptLoginShellPath('darwin')).toBeNull();
  });
});
