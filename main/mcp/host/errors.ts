/**
 * The host's typed failures: `HostError` (its `code` maps to the contract's `ErrorCode`) and the
 * refusal of a tool the user disabled. Errors are classified by class and code, never by text
 * (docs/ARCHITECTURE.md "The IPC contract").
 */

/** A typed failure of a management action; `code` maps to the contract's `ErrorCode`. */
export class HostError extends Error {
  override name = 'HostError';
  constructor(
    readonly code: 'not_found' | 'conflict' | 'command_not_found' | 'start_failed' | 'invalid_input' | 'forbidden',
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/**
 * A call to a tool the user disabled (per-tool setting). Raised by `callTool` even when the model
 * names the tool directly, so no caller can get around the setting. Code `forbidden`.
 */
export class ToolDisabledError extends HostError {
  override name = 'ToolDisabledError';
  constructor(
    readonly server: string,
    readonly tool: string,
  ) {
    super('forbidden', `The tool "${tool}" of server "${server}" is disabled by the user.`);
  }
}

/** `HostError('not_found')` for a server name that is not configured. */
export function noSuchServer(name: string): HostError {
  return new HostError('not_found', `No server named "${name}".`);
}
