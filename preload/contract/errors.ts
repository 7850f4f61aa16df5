/**
 * The typed errors every handler may return and the envelope every invoke resolves to (errors
 * are values, classified by code). docs/ARCHITECTURE.md "The IPC contract".
 */
import type { CatalogReason } from './catalog.js';

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
}

/** What every invoke resolves to (errors are values, so they survive Electron's IPC intact). */
export type Envelope<T> = { ok: true; value: T } | { ok: false; error: IpcError };
