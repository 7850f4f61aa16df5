/**
 * The server catalog's one job here: make sure the program a catalog server runs with (`npx`,
 * `uvx`, `docker`, a bundle's `node` / `python3` / `uv`) is there before anything is saved, and
 * say how to install it when it is not (docs/ARCHITECTURE.md "Server catalog").
 */
import { resolveCommand } from '../transports.js';

/** A runtime an entry needs (`npx`, `uvx`, `docker`) is not on PATH; `message` says how to get it. */
export class MissingRuntimeError extends Error {
  override name = 'MissingRuntimeError';
  constructor(readonly runtime: string) {
    super(MissingRuntimeError.advice(runtime));
  }

  private static advice(runtime: string): string {
    if (runtime === 'npx') return 'This server runs with npx, which was not found on PATH. Install Node.js (https://nodejs.org), which includes npx, then try again.';
    if (runtime === 'uvx') return 'This server runs with uvx, which was not found on PATH. Install uv (https://docs.astral.sh/uv/getting-started/installation/), which provides uvx, then try again.';
    if (runtime === 'docker') return 'This server runs in a Docker container, and docker was not found on PATH. Install Docker (https://docs.docker.com/get-docker/), start it, then try again.';
    if (runtime === 'node') return 'This server runs with Node.js, which was not found on PATH. Install Node.js (https://nodejs.org), then try again.';
    if (runtime === 'python3' || runtime === 'python') return 'This server runs with Python, which was not found on PATH. Install Python 3 (https://www.python.org/downloads/), then try again.';
    if (runtime === 'uv') return 'This server runs with uv, which was not found on PATH. Install uv (https://docs.astral.sh/uv/getting-started/installation/), then try again.';
    return `This server needs ${runtime}, which was not found on PATH.`;
  }
}

/**
 * Throw {@link MissingRuntimeError} unless `runtime` is found (a bare name on PATH, or a path).
 * @param resolve the lookup (default: the host's own, on this process's PATH)
 */
export function checkRuntime(runtime: string, resolve?: (command: string) => string | null): void {
  const found = resolve ? resolve(runtime) : resolveCommand(runtime, process.env);
  if (!found) throw new MissingRuntimeError(runtime);
}
