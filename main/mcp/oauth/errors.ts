/**
 * Error types of the OAuth layer, what each says as facts for the window ({@link signInFailure}),
 * and redaction of secrets from error text. No message produced here ever contains a token, an
 * authorization code, a PKCE verifier or a client secret.
 */
import type { SignInFailure } from '../../../preload/contract/index.js';

/** The operation was cancelled by the caller (a `cancel()` call or an aborted signal). */
export class CancelledError extends Error {
  override name = 'CancelledError';
  constructor(message = 'The sign-in was cancelled.') {
    super(message);
  }
}

/** Waiting for the browser to come back to the loopback callback took too long. */
export class CallbackTimeoutError extends Error {
  override name = 'CallbackTimeoutError';
  constructor(readonly timeoutMs: number) {
    super(`The sign-in did not finish within ${Math.round(timeoutMs / 1000)} s.`);
  }
}

/** The loopback port the stored registration was made for is taken by another program. */
export class PortInUseError extends Error {
  override name = 'PortInUseError';
  constructor(readonly port: number) {
    super(`Port ${port} on 127.0.0.1 is in use, so the sign-in callback cannot listen there.`);
  }
}

/**
 * The authorization server sent the browser back with an error (RFC 6749 §4.1.2.1), e.g. the
 * user denied access. `code` is the OAuth error code only (a short token of `[A-Za-z0-9_.-]`).
 */
export class AuthorizationDeniedError extends Error {
  override name = 'AuthorizationDeniedError';
  /**
   * @param code the OAuth `error` code
   * @param description the `error_description` (printable ASCII, bounded), when the server sent one
   * @param iss the callback's `iss` (RFC 9207), checked by the flow before this is shown
   */
  constructor(
    readonly code: string,
    readonly description?: string,
    readonly iss?: string,
  ) {
    super(`The authorization server refused the sign-in: ${description ? `${description} (${code})` : code}.`);
  }
}

/**
 * The authorization server refused a request of the sign-in (token, registration) with an OAuth
 * error (RFC 6749 §5.2, RFC 7591 §3.2.2). The message always names the error: its description
 * when the server gave one, else the `error` code.
 */
export class OAuthServerRefusedError extends Error {
  override name = 'OAuthServerRefusedError';
  /**
   * @param code the OAuth `error` code, e.g. `invalid_grant` (or `HTTP 400` for a registration refused without one)
   * @param step what was refused: `request` (a request of the sign-in: the token exchange, …) or `registration`
   * @param description the server's `error_description`, if any (already scrubbed of secrets)
   */
  constructor(
    readonly code: string,
    readonly step: 'request' | 'registration',
    readonly description?: string,
  ) {
    super(`The authorization server refused ${step === 'registration' ? 'the client registration' : 'a request of the sign-in'}: ${description && description !== code ? `${description} (${code})` : code}.`);
  }
}

/**
 * Authorization-server mix-up (RFC 9207, RFC 8414 §3.3): the callback's `iss`, or the issuer in
 * the metadata, is not the authorization server this sign-in started with. Nothing was exchanged;
 * the received values (attacker-controlled) are not in the message.
 */
export class IssuerMismatchSignInError extends Error {
  override name = 'IssuerMismatchSignInError';
  constructor(readonly kind: 'metadata' | 'authorization_response') {
    super(
      kind === 'metadata'
        ? "The authorization server's metadata names a different issuer than the server it was fetched from; sign-in refused."
        : 'The sign-in came back from a different authorization server than the one it started at (issuer mismatch); sign-in refused.',
    );
  }
}

/** Which URL of a sign-in was refused (the contract's `SignInFailure` `unsafe_url`). */
export type UnsafeUrlWhat = Extract<SignInFailure, { code: 'unsafe_url' }>['what'];

/** A URL from server metadata or a redirect failed our safety rules; nothing was opened or fetched. */
export class UnsafeUrlError extends Error {
  override name = 'UnsafeUrlError';
  /**
   * @param what which URL: the metadata's `issuer`, its `authorization_endpoint`, another endpoint
   *   (`field`), the sign-in page's address (`authorization_url`), a non-TLS `token_endpoint`
   * @param url its scheme and host only, when known
   */
  constructor(
    message: string,
    readonly what: UnsafeUrlWhat,
    readonly field: string | null = null,
    readonly url: string | null = null,
  ) {
    super(message);
  }
}

/** Why the guarded fetch refused a request or answer (the contract's `SignInFailure` `fetch_refused`). */
export type FetchRefusal = Extract<SignInFailure, { code: 'fetch_refused' }>['why'];

/** A discovery/token response was refused by the guarded fetch (too large, private redirect, …). */
export class OAuthFetchRefusedError extends Error {
  override name = 'OAuthFetchRefusedError';
  /** @param url scheme and host only; @param maxBytes the limit an answer went over (`too_large`) */
  constructor(
    message: string,
    readonly why: FetchRefusal,
    readonly url: string,
    readonly maxBytes: number | null = null,
  ) {
    super(message);
  }
}

/**
 * Signing in needs the browser, but the provider is in background (non-interactive) mode.
 * `kind` says whether this server was never signed in (`needs_auth`) or its stored sign-in was
 * rejected (`needs_reauth`).
 */
export class InteractionRequiredError extends Error {
  override name = 'InteractionRequiredError';
  constructor(readonly kind: 'needs_auth' | 'needs_reauth') {
    super(kind === 'needs_reauth' ? 'The stored sign-in was rejected; sign in again.' : 'This server needs you to sign in.');
  }
}

/**
 * What else stopped a sign-in (the contract's `SignInFailure` codes): the pre-registered redirect
 * URI is not a loopback one, the page could not be opened, no tokens were issued, the server moved
 * to another authorization server, a refresh could not be made (`refresh`), or anything else (`failed`).
 */
export type FlowProblem = 'redirect_uri' | 'browser_not_opened' | 'no_tokens' | 'moved' | 'refresh' | 'failed';

/** Any other failure of a sign-in, with a message already scrubbed of secrets. */
export class OAuthFlowError extends Error {
  override name = 'OAuthFlowError';
  /** @param said for `failed` and `refresh`: what went wrong, in the words it came in (scrubbed) */
  constructor(
    readonly problem: FlowProblem,
    message: string,
    readonly causeName?: string,
    readonly said?: string,
  ) {
    super(message);
  }
}

/**
 * The facts of a sign-in error for the window (the contract's `SignInFailure`), or null for an
 * error that is not one of the OAuth layer's. Classified by class, never by message text.
 */
export function signInFailure(err: unknown): SignInFailure | null {
  if (err instanceof CancelledError) return { code: 'cancelled' };
  if (err instanceof CallbackTimeoutError) return { code: 'timeout', seconds: Math.round(err.timeoutMs / 1000) };
  if (err instanceof PortInUseError) return { code: 'port_in_use', port: err.port };
  if (err instanceof AuthorizationDeniedError) return { code: 'denied', oauth_error: err.code, said: err.description ?? null };
  if (err instanceof OAuthServerRefusedError) return { code: 'refused', step: err.step, oauth_error: err.code, said: err.description && err.description !== err.code ? err.description : null };
  if (err instanceof IssuerMismatchSignInError) return { code: 'issuer_mismatch', where: err.kind };
  if (err instanceof UnsafeUrlError) return { code: 'unsafe_url', what: err.what, field: err.field, url: err.url };
  if (err instanceof OAuthFetchRefusedError) return { code: 'fetch_refused', why: err.why, url: err.url, max_bytes: err.maxBytes };
  if (err instanceof InteractionRequiredError) return { code: 'needs_browser', reason: err.kind };
  if (err instanceof OAuthFlowError) {
    if (err.problem === 'refresh') return { code: 'refresh_failed', said: err.said ?? null };
    if (err.problem === 'failed') return { code: 'failed', said: err.said ?? err.message };
    return { code: err.problem };
  }
  return null;
}

/**
 * Replace every occurrence of any of `secrets` (values shorter than 6 characters are ignored, as
 * they cannot be told apart from ordinary words) in `text` by `[redacted]`, and cut the result
 * to `max` characters.
 */
export function redact(text: string, secrets: Iterable<string | undefined | null>, max = 2000): string {
  let out = text;
  for (const s of secrets) {
    if (!s || s.length < 6) continue;
    out = out.split(s).join('[redacted]');
    const enc = encodeURIComponent(s);
    if (enc !== s) out = out.split(enc).join('[redacted]');
  }
  // Belt and braces: anything that looks like a bearer credential in free text.
  out = out.replace(/(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi, '$1[redacted]');
  out = out.replace(/((?:access_token|refresh_token|id_token|code|code_verifier|client_secret)["']?\s*[:=]\s*["']?)[A-Za-z0-9._~+/=-]{6,}/gi, '$1[redacted]');
  return out.length > max ? `${out.slice(0, max)}…` : out;
}
