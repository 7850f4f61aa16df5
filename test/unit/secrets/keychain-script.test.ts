/**
 * scripts/with-keyring.sh (docs/ARCHITECTURE.md "Secrets at rest"): when the keychain suite cannot
 * run — the tools are missing, or the command never used the keychain — the script says so loudly,
 * and with OPENPROGRAM_REQUIRE_KEYCHAIN=1 (set by .ci/run on Linux) it fails instead of passing
 * quietly.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTempDir, ROOT } from '../helpers.js';

const SCRIPT = path.join(ROOT, 'scripts', 'with-keyring.sh');
const BASH = ['/bin/bash', '/usr/bin/bash'].find((p) => existsSync(p)) ?? 'bash';

function run(args: string[], env: Record<string, string | undefined>): { code: number | null; stderr: string } {
  // Output goes to a file, not a pipe: the keyring daemon may keep its inherited stderr open
  // after the script ended, and a pipe would then never reach end-of-file.
  const log = path.join(makeTempDir('op-keyring-log-'), 'stderr');
  const fd = openSync(log, 'w');
  try {
    const r = spawnSync(BASH, [SCRIPT, ...args], { env: { HOME: process.env.HOME, TMPDIR: process.env.TMPDIR, ...env } as NodeJS.ProcessEnv, stdio: ['ignore', 'ignore', fd], timeout: 60_000 });
    return { code: r.status, stderr: readFileSync(log, 'utf8') };
  } finally {
    closeSync(fd);
  }
}

describe('without the keyring tools', () => {
  const empty = makeTempDir('op-nopath-'); // a PATH with nothing on it

  it('says loudly that the keychain tests did not run, and passes by default', () => {
    const r = run(['true'], { PATH: empty });
    expect(r.stderr).toContain('KEYCHAIN TESTS DID NOT RUN');
    expect(r.code).toBe(0);
  });

  it('fails when the keychain suite is required (CI on Linux)', () => {
    const r = run(['true'], { PATH: empty, OPENPROGRAM_REQUIRE_KEYCHAIN: '1' });
    expect(r.stderr).toContain('KEYCHAIN TESTS DID NOT RUN');
    expect(r.code).toBe(1);
  });
});

const hasTools = ['dbus-run-session', 'gnome-keyring-daemon'].every((t) => spawnSync('sh', ['-c', `command -v ${t}`]).status === 0);

describe.runIf(hasTools)('with the keyring tools', () => {
  it('a command that never used the keychain counts as not run', () => {
    const r = run(['true'], { PATH: process.env.PATH, OPENPROGRAM_REQUIRE_KEYCHAIN: '1' });
    expect(r.stderr).toContain('KEYCHAIN TESTS DID NOT RUN');
    expect(r.code).toBe(1);
  });

  it('a command that used it (created the marker) passes quietly', () => {
    const r = run(['bash', '-c', 'touch "$OPENPROGRAM_KEYCHAIN_MARKER"'], { PATH: process.env.PATH, OPENPROGRAM_REQUIRE_KEYCHAIN: '1' });
    expect(r.stderr).not.toContain('DID NOT RUN');
    expect(r.code).toBe(0);
  });
});

describe('.ci/run', () => {
  it('requires the keychain suite on Linux', () => {
    const ci = readFileSync(path.join(ROOT, '.ci', 'run'), 'utf8');
    expect(ci).toMatch(/if \[ "\$\(uname -s\)" = "Linux" \]; then\s+export OPENPROGRAM_REQUIRE_KEYCHAIN=1\s+fi\s+npm test/);
  });
});
