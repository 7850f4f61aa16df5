/**
 * Error types of the OAuth layer, and redaction of secrets from error text. No message produced
 * here ever contains a token, an authorization code, a PKCE verifier or a client secret.
 */

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
   * @param code the OAuth `error` code, e.g. `invalid_grant`
   * @param step what was refused, e.g. "the token request"
   * @param description the server's `error_description`, if any (already scrubbed of secrets)
   */
  constructor(
    readonly code: string,
    step: string,
    readonly description?: string,
  ) {
    super(`The authorization server refused ${step}: ${description && description !== code ? `${description} (${code})` : code}.`);
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

/** A URL from server metadata or a redirect failed our safety rules; nothing was opened or fetched. */
export class UnsafeUrlError extends Error {
  override name = 'UnsafeUrlError';
}

/** A discovery/token response was refused by the guarded fetch (too large, private redirect, …). */
export class OAuthFetchRefusedError extends Error {
  override name = 'OAuthFetchRefusedError';
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

/** Any other failure of a sign-in, with a message already scrubbed of secrets. */
export class OAuthFlowError extends Error {
  override name = 'OAuthFlowError';
  constructor(message: string, readonly causeName?: string) {
    super(message);
  }
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
