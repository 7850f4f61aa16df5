/** Facts about processes of this machine (plain Node). */

/**
 * Whether a process with this pid exists now (signal 0; EPERM means it exists but belongs to
 * someone else). A pid can be reused after its process ended, so callers that must be sure check
 * more (see main/mcp/process-ledger.ts).
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
