/**
 * The host's typed failures: `HostError` (its `code` maps to the contract's `ErrorCode`) and the
 * refusal of a tool the user disabled. Errors are classified by class and code, never by text
 * (docs/ARCHITECTURE.md "The IPC contract").
 */

/** A typed failure of a management action; `code` maps to the contract's `ErrorCode`. */
export class HostError extends Error {
  override name = 'HostError';
  constructor(
    readonly code: 'not_found' | 'conflict' | 'command_not_found' | 'start_failed' | 'invalid_input' | 'forbidden' | 'gone' | 'write_failed',
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

/**
 * A new server name whose tools would be offered under the namespace of an existing server's
 * (`my.fs` next to `my_fs`: "." becomes "_" in tool names), so one could be taken for the other.
 * Code `conflict`, field `name`; `existing` is the server already there.
 */
export class NameCollisionError extends HostError {
  override name = 'NameCollisionError';
  constructor(
    readonly server: string,
    readonly existing: string,
  ) {
    super('conflict', `The name "${server}" would give its tools the same names as those of the server "${existing}" (tool names turn "." into "_"); choose another name.`, 'name');
  }
}

/**
 * An approved tool call whose server is no longer the connection it was approved on: stopped,
 * removed, crashed or restarted (perhaps with another command) in between. The call is not made
 * anywhere (docs/ARCHITECTURE.md "Permissions"). Code `gone`.
 */
export class ServerChangedError extends HostError {
  override name = 'ServerChangedError';
  constructor(
    readonly server: string,
    readonly tool: string,
  ) {
    super('gone', `Server "${server}" stopped or restarted after the call to "${tool}" was approved, so the call was not run.`);
  }
}

/**
 * A rename that could not move one of the server's records (a file or the secret store failed):
 * every record already moved was moved back, so the server keeps its old name with everything
 * it had (docs/ARCHITECTURE.md "Renaming a server"). Code `write_failed`; `what` names the record.
 */
export class RenameFailedError extends HostError {
  override name = 'RenameFailedError';
  constructor(
    readonly server: string,
    readonly what: string,
    cause: unknown,
  ) {
    super('write_failed', `Server "${server}" was not renamed: its ${what} could not be moved (${cause instanceof Error ? cause.message : String(cause)}). Nothing was changed.`);
  }
}

/** `HostError('not_found')` for a server name that is not configured. */
export function noSuchServer(name: string): HostError {
  return new HostError('not_found', `No server named "${name}".`);
}
