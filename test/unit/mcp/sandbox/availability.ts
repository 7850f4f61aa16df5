/**
 * Whether the sandbox tests can run on this machine (bubblewrap starts here), for their
 * `describe.skipIf`. Where it cannot, the reason is printed; with OPENPROGRAM_REQUIRE_SANDBOX=1
 * (.ci/run sets it on Linux, where it installs bubblewrap) that is a failure instead, so CI cannot
 * pass with the sandbox untested.
 */
import type { SandboxSupport } from '../../../../main/mcp/sandbox/support.js';

/**
 * @param support the suite's own SandboxSupport (its verdict is kept for the launchers it builds)
 * @returns true when bubblewrap runs here. @throws when it does not and OPENPROGRAM_REQUIRE_SANDBOX=1.
 */
export async function sandboxRunsHere(support: SandboxSupport): Promise<boolean> {
  const verdict = await support.verdict();
  if (verdict.ok) return true;
  const why = `bubblewrap cannot run here (${verdict.state.reason}${verdict.state.detail ? `: ${verdict.state.detail}` : ''})`;
  if (process.env.OPENPROGRAM_REQUIRE_SANDBOX === '1') throw new Error(`OPENPROGRAM_REQUIRE_SANDBOX=1 but ${why}`);
  console.warn(`sandbox tests skipped: ${why}`);
  return false;
}

/** The words every sandbox suite's name ends with: when it is skipped, and that the reason is printed. */
export const SKIPPED_WITHOUT_BWRAP = '(skipped only where bubblewrap cannot run; the reason is printed)';
