/**
 * The host's typed failures: `HostError` (its `code` maps to the contract's `ErrorCode`) and the
 * refusal of a tool the user disabled. Errors are classified by class and code, never by text
 * (docs/ARCHITECTURE.md "The IPC contract").
 */
import type { ErrorFact, RenameRecord, ValidationIssue } from '../../../preload/contract/index.js';
import type { ConfigError } from '../config.js';

/** What a {@link HostError} says in facts, for the window to word (the contract's `IpcError.issue` and `fact`). */
export interface HostErrorFacts {
  issue?: ValidationIssue;
  fact?: ErrorFact;
}

/**
 * A typed failure of a management action; `code` maps to the contract's `ErrorCode`. `facts`
 * carry what the window words (a refused field's issue, a failed start, a taken name); the
 * message is English for logs.
 */
export class HostError extends Error {
  override name = 'HostError';
  readonly issue: ValidationIssue | undefined;
  readonly fact: ErrorFact | undefined;
  constructor(
    readonly code: 'not_found' | 'conflict' | 'command_not_found' | 'start_failed' | 'invalid_input' | 'forbidden' | 'gone' | 'write_failed',
    message: string,
    readonly field?: string,
    facts: HostErrorFacts = {},
  ) {
    super(message);
    this.issue = facts.issue;
    this.fact = facts.fact;
  }
}

/** `HostError('invalid_input')` for a config the app cannot take, with its issue and field. */
export function refusedConfig(err: ConfigError, field: string | undefined = err.field): HostError {
  return new HostError('invalid_input', err.message, field, { issue: err.issue });
}

/**
 * `HostError('conflict')` on the field `name` for a server name that is taken: `existing` has it
 * (or one that differs only in case), or a server of that name is being added right now.
 * (A name whose tools would be named like another server's is a {@link NameCollisionError}.)
 */
export function nameTaken(name: string, existing: string, why: 'same' | 'adding'): HostError {
  const message = why === 'adding' ? `A server named "${name}" is being added right now.` : existing === name ? `A server named "${name}" already exists.` : `A server named "${existing}" already exists (names that differ only in case are the same).`;
  return new HostError('conflict', message, 'name', { fact: { kind: 'name_taken', name, existing, why } });
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
    super('conflict', `The name "${server}" would give its tools the same names as those of the server "${existing}" (tool names turn "." into "_"); choose another name.`, 'name', {
      fact: { kind: 'name_taken', name: server, existing, why: 'namespace' },
    });
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

/** A rename's record in words, for the message (English, for logs). */
const RECORD_WORDS: Record<RenameRecord, string> = {
  settings: 'settings and secrets',
  pins: 'pinned tool definitions',
  oauth: 'OAuth sign-in',
  sandbox: 'sandbox folder',
  log: 'log',
  grants: 'conversation permission grants',
  tool_choices: 'conversations’ tool choices',
  install_record: 'catalog install record',
  log_level: 'log level',
  traffic: 'recorded traffic and recording choice',
};

/** A rename's record in English words ("pinned tool definitions"), for messages and log lines. */
export function recordWords(record: RenameRecord): string {
  return RECORD_WORDS[record];
}

/**
 * A rename that could not move one of the server's records (a file or the secret store failed):
 * every record already moved was moved back, so the server keeps its old name with everything
 * it had (docs/ARCHITECTURE.md "Renaming a server"). Code `write_failed`; `record` names the
 * record, the fact `rename_failed` carries it with the system's words (the cause's message).
 */
export class RenameFailedError extends HostError {
  override name = 'RenameFailedError';
  constructor(
    readonly server: string,
    readonly to: string,
    readonly record: RenameRecord,
    cause: unknown,
  ) {
    const said = (cause instanceof Error ? cause.message : String(cause)).slice(0, 500);
    super('write_failed', `Server "${server}" was not renamed: its ${RECORD_WORDS[record]} could not be moved (${said}). Nothing was changed.`, undefined, {
      fact: { kind: 'rename_failed', server, to, record, said },
    });
  }
}

/** `HostError('start_failed')` once the app is shutting down: nothing more is started or changed. */
export function appShuttingDown(): HostError {
  return new HostError('start_failed', 'The app is shutting down.', undefined, { fact: { kind: 'shutting_down' } });
}

/** `HostError('conflict')` for an edit of `server` that another action overtook while it started (a remove, a disable, another edit). */
export function editSuperseded(server: string): HostError {
  return new HostError('conflict', `Server "${server}" was changed or removed while the edit was starting, so the edit was not saved.`, undefined, { fact: { kind: 'edit_superseded', server } });
}

/** `HostError('invalid_input')` for Sign in or Sign out on `server`, which does not use OAuth sign-in. */
export function noSignIn(server: string): HostError {
  return new HostError('invalid_input', `Server "${server}" does not use OAuth sign-in.`, undefined, { fact: { kind: 'no_sign_in', server } });
}

/** `HostError('not_found')` for a server name that is not configured. */
export function noSuchServer(name: string): HostError {
  return new HostError('not_found', `No server named "${name}".`, undefined, { fact: { kind: 'server_unavailable', server: name, why: 'unknown' } });
}

/**
 * A request that needs `server`, which is not ready yet (`HostError('conflict')`, or `code` when
 * the caller's contract names another) or not running (`not_found`).
 */
export function serverUnavailable(server: string, why: 'not_ready' | 'not_running', code: HostError['code'] = why === 'not_ready' ? 'conflict' : 'not_found'): HostError {
  return new HostError(code, why === 'not_ready' ? `Server "${server}" is not ready.` : `Server "${server}" is not running.`, undefined, { fact: { kind: 'server_unavailable', server, why } });
}

/** `HostError('invalid_input')` for a request `server` answered with an error: its message (`said`, the server's words) as the fact. */
export function serverRefused(server: string, said: string): HostError {
  return new HostError('invalid_input', `Server "${server}" refused the request: ${said}`, undefined, { fact: { kind: 'server_refused', server, said } });
}
