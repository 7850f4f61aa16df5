/**
 * Model-endpoint failures as facts: `describeModelError(err)` turns whatever a model call threw
 * (AI SDK errors, our own endpoint checks, network errors) into a stable `code` and its `detail`
 * (HTTP status, network code, a redirect, the provider's own words), which the window words in the
 * user's language (docs/ARCHITECTURE.md "Languages"), plus an English message for logs and
 * exports. Pure; classifies by error class, HTTP status and structured fields of the provider's
 * error body — never by the wording of a thrown message (the one exception is documented at
 * `isContextLengthBody`).
 */
import { APICallError, JSONParseError, RetryError, TypeValidationError, InvalidResponseDataError, EmptyResponseBodyError } from 'ai';
import type { ModelErrorCode, ModelErrorDetail } from '../../preload/contract/index.js';

/** A classified model-endpoint failure: its code and facts, and an English message for logs and exports. */
export interface ModelErrorDescription {
  code: ModelErrorCode;
  message: string;
  detail: ModelErrorDetail;
}

/**
 * Raised by our checked fetch (./model-fetch.ts) when an endpoint answers with something that is
 * not the API (an HTML page, a plain body where a stream was asked for) or does not answer in time.
 */
export class ModelEndpointError extends Error {
  override name = 'ModelEndpointError';
  constructor(
    readonly code: 'html_page' | 'not_streaming' | 'timeout',
    message: string,
    /** HTTP status, when a response arrived. */
    readonly status: number | null = null,
  ) {
    super(message);
  }
}

/** Raised when listing models gets a body that is not the documented list shape. */
export class ModelListShapeError extends Error {
  override name = 'ModelListShapeError';
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_SOCKET', 'CERT_HAS_EXPIRED', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'ERR_TLS_CERT_ALTNAME_INVALID', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'SELF_SIGNED_CERT_IN_CHAIN']);

/** A Node network error code anywhere in the cause chain (bounded). */
function networkCode(err: unknown): string | null {
  let e: unknown = err;
  for (let i = 0; i < 6 && e && typeof e === 'object'; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

function headerOf(headers: Record<string, string> | undefined, name: string): string {
  if (!headers) return '';
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return String(v);
  return '';
}

/** Structured error fields providers send: OpenAI `{error:{code,type}}`, Anthropic `{type:'error',error:{type}}`. */
function errorFields(data: unknown, body: string | undefined): { code: string; type: string; message: string } {
  let d = data;
  if ((d === undefined || d === null) && body) {
    try {
      d = JSON.parse(body);
    } catch {
      d = undefined;
    }
  }
  const e = (d && typeof d === 'object' && 'error' in d ? (d as { error: unknown }).error : d) as Record<string, unknown> | undefined;
  const str = (v: unknown): string => (typeof v === 'string' ? v : '');
  return { code: str(e?.code), type: str(e?.type), message: str(e?.message) };
}

/**
 * Whether a 400/413 answer says the request is longer than the model's context window, by its
 * fields only: OpenAI and compatible servers send `code: "context_length_exceeded"`, Anthropic
 * 413 `request_too_large`. Anthropic's 400 `invalid_request_error` for a prompt over the window
 * has no field of its own; it stays a `bad_request` that shows the provider's message (which
 * says so), since the message text is never classified.
 */
function isContextLengthBody(status: number | undefined, f: { code: string; type: string }): boolean {
  return f.code === 'context_length_exceeded' || f.type === 'request_too_large' || status === 413;
}

const MESSAGES: Record<ModelErrorCode, string> = {
  unreachable: 'Nothing answers at the model’s base URL. Check the address and port, and that the server is running.',
  timeout: 'The model endpoint did not answer in time. Check that the server is running and not overloaded, then try again.',
  unauthorized: 'The model endpoint refused the API key (wrong, expired or missing key). Enter the right key for this profile in Settings → Model.',
  not_found: 'The model endpoint says “not found”: check the base URL (OpenAI-compatible servers usually end in /v1) and the model name (Test connection lists the models).',
  html_page: 'The base URL answered with a web page, not the model API. Check the base URL (it usually ends in /v1).',
  not_streaming: 'The model endpoint answered with a plain body where a stream was asked for. Check that the base URL points to an OpenAI-compatible or Anthropic API.',
  malformed_response: 'The model endpoint sent a response the app could not read. Check that the base URL points to an OpenAI-compatible or Anthropic API.',
  context_length_exceeded: 'The conversation is longer than this model’s context window. Start a new chat, or lower “Context window” in the profile to match the model, or pick a model with a larger window.',
  rate_limited: 'The model provider is rate-limiting requests (too many requests or no quota left). Wait a moment and try again, or check your plan.',
  server_error: 'The model provider had an internal error. Try again in a moment.',
  bad_request: 'The model endpoint rejected the request.',
  unknown: 'The model call failed.',
};

/** The provider's own words, cut to 200 characters (data, shown as sent). */
function said(message: string): string | null {
  const m = message.trim();
  return m ? (m.length > 200 ? `${m.slice(0, 200)}…` : m) : null;
}

function describe(code: ModelErrorCode, facts: Partial<ModelErrorDetail> = {}): ModelErrorDescription {
  const detail: ModelErrorDetail = { http_status: null, system_code: null, redirected: false, provider_message: null, ...facts };
  const d = [detail.redirected ? 'the base URL redirects elsewhere; enter the final address' : null, detail.provider_message, detail.system_code, detail.http_status !== null ? `HTTP ${detail.http_status}` : null].filter(Boolean).join('; ');
  return { code, message: d ? `${MESSAGES[code]} (${d})` : MESSAGES[code], detail };
}

/**
 * Classify a model-call failure.
 * @param err anything thrown by `streamText`/`generateText`, a stream `error` part, or a model-list fetch
 * @returns a stable code and a plain message (at most ~500 characters; never includes request headers or keys)
 */
export function describeModelError(err: unknown): ModelErrorDescription {
  if (RetryError.isInstance(err)) return describeModelError(err.lastError);
  if (err instanceof ModelEndpointError) return describe(err.code);
  if (err instanceof ModelListShapeError) return describe('malformed_response');
  if (APICallError.isInstance(err)) {
    const status = err.statusCode;
    // A 2xx whose body could not be processed: the cause says why (our endpoint checks, bad JSON).
    if (status !== undefined && status >= 200 && status < 300) {
      const cause = err.cause;
      if (cause instanceof ModelEndpointError) return describe(cause.code);
      return describe('malformed_response');
    }
    if (status === undefined) return describe('unreachable', { system_code: networkCode(err) });
    const f = errorFields(err.data, err.responseBody);
    const http_status = status;
    if (/text\/html/i.test(headerOf(err.responseHeaders, 'content-type')) || /^\s*<(!doctype|html)/i.test(err.responseBody ?? '')) return describe('html_page', { http_status });
    if (status >= 300 && status < 400) return describe('not_found', { http_status, redirected: true });
    if (status === 401 || status === 403) return describe('unauthorized', { http_status });
    if (status === 404) return describe('not_found', { http_status, provider_message: said(f.message) });
    if ((status === 400 || status === 413) && isContextLengthBody(status, f)) return describe('context_length_exceeded');
    if (status === 408 || status === 504) return describe('timeout', { http_status });
    if (status === 429) return describe('rate_limited');
    if (status >= 500) return describe('server_error', { http_status });
    return describe('bad_request', { http_status, provider_message: said(f.message) });
  }
  if (JSONParseError.isInstance(err) || TypeValidationError.isInstance(err) || InvalidResponseDataError.isInstance(err) || EmptyResponseBodyError.isInstance(err)) return describe('malformed_response');
  if (err instanceof SyntaxError) return describe('malformed_response');
  if (err instanceof Error && err.name === 'TimeoutError') return describe('timeout');
  const net = networkCode(err);
  if (net) return describe('unreachable', { system_code: net });
  if (err instanceof TypeError && err.cause !== undefined) return describe('unreachable');
  return describe('unknown');
}
