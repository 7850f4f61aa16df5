/**
 * The typed errors every handler may return and the envelope every invoke resolves to (errors
 * are values, classified by code). docs/ARCHITECTURE.md "The IPC contract".
 */
import type { CatalogReason } from './catalog.js';
import type { ResourceReadRefusal } from './rules/index.js';
import type { ServerFailure } from './server-view.js';
import type { ImportProblem, RenameRecord, SignInFailure } from './servers.js';

/** Typed error codes. */
export type ErrorCode =
  | 'invalid_input'
  | 'unknown_channel'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'command_not_found'
  | 'not_configured'
  | 'start_failed'
  | 'sign_in_cancelled'
  | 'sign_in_timeout'
  | 'sign_in_denied'
  | 'unsafe_authorization_url'
  | 'port_in_use'
  | 'oauth_failed'
  | 'gone'
  | 'busy'
  | 'write_failed'
  | 'approval_invalid'
  | 'registry_unavailable'
  | 'missing_runtime'
  | 'not_installable'
  | 'bundle_invalid'
  | 'too_large'
  | 'internal';

/**
 * A typed error: `field` names the offending input path when known (for inline form errors).
 * `not_installable` and `missing_runtime` errors from the catalog carry `reason` (a
 * {@link NotInstallableReason}); `registry_unavailable`, `not_found` from the registry and
 * `bundle_invalid` from a bundle download carry theirs too (a {@link CatalogProblem}). The window
 * renders a reason in its language (validate it with {@link catalogReasonSchema}); `message` is
 * main's English text for logs.
 */
export interface IpcError {
  code: ErrorCode;
  message: string;
  field?: string;
  reason?: CatalogReason;
  /**
   * Why the input was refused, for the window to word: a channel's input schema (`invalid_input`
   * from validation), or a server entry's check (an added, edited or imported server's config).
   */
  issue?: ValidationIssue;
  /** What the error is about, as typed facts the window words in every language ({@link ErrorFact}). */
  fact?: ErrorFact;
}

/**
 * What an error is about, as facts the window words in the user's language (docs/ARCHITECTURE.md
 * "Languages") — main's `message` is English for logs, never shown as the sentence. Names, URIs,
 * paths and a server's or the system's own words are data, shown as sent:
 * - `server_failure`: a server did not start — the check of an added or edited server's command
 *   (`spawn_failed`, `not_on_path`), or an edit's trial start: its {@link ServerFailure}, and its
 *   last stderr lines (the server's own words, shown as sent);
 * - `name_taken`: a server name is refused: `same` (`existing` has that name, or one that differs
 *   only in case, or in "." and "_"), `namespace` (`existing`'s tools would be named alike:
 *   "." becomes "_" in tool names), `adding` (a server of that name is being added right now);
 * - `import`: the pasted text of an import cannot be read as a config at all ({@link ImportProblem});
 * - `server_unavailable`: the request needs `server`, which is not configured (`unknown`), not
 *   ready yet (`not_ready`) or not running (`not_running`);
 * - `server_refused`: `server` answered the request with an error; `said` is its message as sent;
 * - `prompt_unknown`: `server` lists no prompt named `prompt` (any more);
 * - `prompt_arguments`: the prompt needs the arguments `missing`, which were left empty;
 * - `resource_refused`: `uri` is not read from `server`: its scheme is never read through a server
 *   (`scheme`: http, https, data, javascript, …) or is not one of those the server lists
 *   (`not_listed`) — "Prompts and resources in chat";
 * - `resource_too_large`: a resource of `size_bytes` is not saved, over `limit_bytes`;
 * - `resource_empty`: the resource has no content to save;
 * - `no_sign_in`: `server` does not use OAuth sign-in (Sign in, Sign out);
 * - `no_log_levels`: `server` does not offer log levels (no `logging` capability);
 * - `rename_failed`: `server` was not renamed to `to`: its `record` could not be moved (`said`:
 *   the system's words); everything already moved was moved back;
 * - `shutting_down`: the app is shutting down, so nothing more is started;
 * - `edit_superseded`: `server` was changed or removed while the edit was starting, so the edit
 *   was not saved;
 * - `sign_in`: an OAuth sign-in did not finish ({@link SignInFailure});
 * - `profile_unknown`: the model profile does not exist (any more);
 * - `profile_name_taken`: another model profile is named `name` (case and spaces ignored);
 * - `no_model`: no model is set up yet (Settings → Model);
 * - `conversation_unknown`: the conversation does not exist (any more);
 * - `conversation_busy`: the conversation is still answering (one turn at a time);
 * - `not_editable`: only the last message sent can be edited;
 * - `write_failed`: the file `path` could not be written; `errno` is the system's code (`EACCES`, …);
 * - `catalog_input`: an answer of a catalog entry's or bundle's install form is refused
 *   ({@link CatalogInputProblem}); `label` is the field's label as the registry or bundle gives it.
 */
export type ErrorFact =
  | { kind: 'server_failure'; failure: ServerFailure; stderr: string[] }
  | { kind: 'name_taken'; name: string; existing: string; why: 'same' | 'namespace' | 'adding' }
  | { kind: 'import'; problem: ImportProblem }
  | { kind: 'server_unavailable'; server: string; why: 'unknown' | 'not_ready' | 'not_running' }
  | { kind: 'server_refused'; server: string; said: string }
  | { kind: 'prompt_unknown'; server: string; prompt: string }
  | { kind: 'prompt_arguments'; server: string; prompt: string; missing: string[] }
  | { kind: 'resource_refused'; server: string; uri: string; why: ResourceReadRefusal }
  | { kind: 'resource_too_large'; size_bytes: number; limit_bytes: number }
  | { kind: 'resource_empty' }
  | { kind: 'no_sign_in'; server: string }
  | { kind: 'no_log_levels'; server: string }
  | { kind: 'rename_failed'; server: string; to: string; record: RenameRecord; said: string }
  | { kind: 'shutting_down' }
  | { kind: 'edit_superseded'; server: string }
  | { kind: 'sign_in'; failure: SignInFailure }
  | { kind: 'profile_unknown' }
  | { kind: 'profile_name_taken'; name: string }
  | { kind: 'no_model' }
  | { kind: 'conversation_unknown' }
  | { kind: 'conversation_busy' }
  | { kind: 'not_editable' }
  | { kind: 'write_failed'; path: string; errno: string | null }
  | { kind: 'catalog_input'; problem: CatalogInputProblem; label: string | null; choices: string[]; min: number | null; max: number | null };

/**
 * Why an answer of an install form is refused: the field is `required`, takes one value
 * (`one_value`), must be one of `choices` (`choice`), a number (`number`; between `min` and `max`:
 * `range`), true or false (`boolean`), one line (`one_line`); or the remote URL, once its variables
 * are filled in, is not a URL (`url_invalid`), still has unfilled variables (`url_unfilled`),
 * carries a user name or password (`url_credentials`), is not https (or http to this computer:
 * `url_scheme`).
 */
export type CatalogInputProblem = 'required' | 'one_value' | 'choice' | 'number' | 'range' | 'boolean' | 'one_line' | 'url_invalid' | 'url_unfilled' | 'url_credentials' | 'url_scheme';

/**
 * The rule a schema's own check (a zod `custom` issue) names in its `params.rule`, so the window
 * can word it: `required` (an empty value where one is needed), `control_char` (a control
 * character, see limits.ts `controlCharIn`), `http_scheme` (an address without `http://` or
 * `https://`), `https_or_loopback` (`https:`, or `http:` to this computer only), `too_many` (more
 * entries than allowed), `reserved_name` (`__proto__`). A server entry's own checks
 * (main/mcp/config) add `secret_placeholder` (a `***` standing for a stored secret where none is
 * stored) and `not_for_type` (a field of the other kind of server: `url` on a local one); a folder
 * list adds `absolute_path` (a folder given as a relative path).
 */
export type ValidationRule = 'required' | 'control_char' | 'http_scheme' | 'https_or_loopback' | 'too_many' | 'reserved_name' | 'secret_placeholder' | 'not_for_type' | 'absolute_path';

/**
 * One refusal of a channel's input schema, by zod's issue code — never its message text
 * (main/ipc/dispatch.ts builds it from the first issue; renderer/src/i18n/validation.ts words it
 * by `code` and `path`). `path` is the offending input path (numbers as strings); `origin` is
 * what was measured (`string` length, `number` value, `array` entries) for `too_big`/`too_small`,
 * with `maximum`/`minimum`; `format` the expected format of `invalid_format` (`url`, `regex`, …);
 * `rule` a schema check's own rule for `custom`.
 */
export interface ValidationIssue {
  code: 'too_big' | 'too_small' | 'invalid_format' | 'invalid_type' | 'invalid_value' | 'unrecognized_keys' | 'custom' | 'other';
  path: string[];
  origin?: string;
  maximum?: number;
  minimum?: number;
  format?: string;
  rule?: ValidationRule;
}

/** What every invoke resolves to (errors are values, so they survive Electron's IPC intact). */
export type Envelope<T> = { ok: true; value: T } | { ok: false; error: IpcError };
