/**
 * The server catalog's one job here: make sure the program a catalog server runs with (`npx`,
 * `uvx`, `docker`, a bundle's `node` / `python3` / `uv`) is there before anything is saved, and
 * say which one is missing when it is not (docs/ARCHITECTURE.md "Server catalog").
 */
import { resolveCommand } from '../transports/environment.js';
import { missingProgram, reasonLogText, type NotInstallableReason } from './reasons.js';

/**
 * A program a catalog server needs (`npx`, `uvx`, `docker`, a bundle's `node` / `python3` / `uv`
 * or other command) is not on PATH. `reason` is `runtime_missing` for a known runtime (the window
 * says how to install it) or `program_missing`; `message` is for logs.
 */
export class MissingRuntimeError extends Error {
  override name = 'MissingRuntimeError';
  readonly reason: NotInstallableReason;
  constructor(readonly runtime: string) {
    const why = missingProgram(runtime);
    super(`Not on PATH: ${reasonLogText(why)}`);
    this.reason = why;
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
