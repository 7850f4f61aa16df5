/**
 * Whether this machine can sandbox local servers (docs/ARCHITECTURE.md "Sandbox"): Linux with a
 * working bubblewrap. Checked once per app instance by running bubblewrap with the namespaces a
 * server gets; the answer is a typed {@link SandboxState}-style verdict, never a guess.
 */
import { execFile } from 'node:child_process';
import type { SandboxState } from '../../../preload/contract/index.js';
import { resolveCommand } from '../transports/environment.js';

/** This machine's verdict: bubblewrap at `bwrap`, or why local servers run unsandboxed. */
export type SandboxSupportVerdict = { ok: true; bwrap: string } | { ok: false; state: Extract<SandboxState, { kind: 'unavailable' }> };

/** Options: the platform and PATH to look at (tests pass others). */
export interface SandboxSupportOptions {
  platform?: NodeJS.Platform;
  pathVar?: string;
}

/** Finds out once whether bubblewrap works here; {@link SandboxSupport.verdict} caches the answer. */
export class SandboxSupport {
  private checked: Promise<SandboxSupportVerdict> | null = null;
  private settled: SandboxSupportVerdict | null = null;

  constructor(private readonly opts: SandboxSupportOptions = {}) {}

  /** The verdict (the first call runs bubblewrap once, ~10 ms). */
  verdict(): Promise<SandboxSupportVerdict> {
    this.checked ??= this.check().then((v) => (this.settled = v));
    return this.checked;
  }

  /** The verdict if the check has finished, else null. */
  known(): SandboxSupportVerdict | null {
    return this.settled;
  }

  private async check(): Promise<SandboxSupportVerdict> {
    const platform = this.opts.platform ?? process.platform;
    const unavailable = (reason: 'platform' | 'no_bubblewrap' | 'no_namespaces', detail: string | null): SandboxSupportVerdict => ({
      ok: false,
      state: { kind: 'unavailable', reason, platform, detail },
    });
    if (platform !== 'linux') return unavailable('platform', null);
    const bwrap = resolveCommand('bwrap', { PATH: this.opts.pathVar ?? process.env.PATH ?? '/usr/bin:/bin' });
    if (!bwrap) return unavailable('no_bubblewrap', null);
    const detail = await new Promise<string | null>((resolve) => {
      execFile(bwrap, ['--die-with-parent', '--unshare-all', '--ro-bind', '/', '/', '--proc', '/proc', '--dev', '/dev', '--', '/bin/sh', '-c', 'exit 0'], { timeout: 10_000 }, (err, _out, stderr) => {
        resolve(err ? (String(stderr).trim().split('\n')[0] || err.message).slice(0, 300) : null);
      });
    });
    return detail === null ? { ok: true, bwrap } : unavailable('no_namespaces', detail);
  }
}
