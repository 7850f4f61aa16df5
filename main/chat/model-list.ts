/**
 * Listing a provider's models and "Test connection": one GET of the documented list endpoint
 * (OpenAI-compatible `GET {base}/models` with a bearer key; Anthropic `GET {base}/models` with
 * `x-api-key` + `anthropic-version`), each model with its context window where the provider says it
 * (./model-windows.ts), with a deadline, no redirects (a key is never carried to
 * another address), and every failure classified by ./model-errors.ts. The AI SDK providers offer
 * no model listing, so this is a plain fetch of those endpoints; chat itself goes through the SDK.
 */
import { APICallError } from 'ai';
import type { ConnectionTestResult, ModelInfo, ModelProvider } from '../../preload/contract/index.js';
import { keyWouldTravelInClear } from '../../preload/contract/rules/index.js';
import { modelAcceptsImages } from './model-capabilities.js';
import { describeModelError, ModelEndpointError, ModelListShapeError } from './model-errors.js';
import { learnWindows, windowOf } from './model-windows.js';
import { trimBaseUrl } from './providers.js';

/** Where and how to list. */
export interface ListTarget {
  provider: ModelProvider;
  base_url: string;
  /** The key of THIS endpoint's profile (or typed for it); never another profile's. */
  apiKey?: string;
}

/** Options of a listing. */
export interface ListOptions {
  /** Deadline for the whole listing (ms). Default 10 s. */
  timeoutMs?: number;
  signal?: AbortSignal;
  fetch?: typeof fetch;
  /** Ask LM Studio's / Ollama's own endpoints for windows the list does not state (default true). */
  learnWindows?: boolean;
}

/** Default deadline of a listing (ms). */
export const LIST_TIMEOUT_MS = 10_000;
/** Most pages followed for Anthropic's paginated list. */
const MAX_PAGES = 10;
/** Most models kept (a huge list is cut). */
export const MAX_MODELS = 2000;
/** Most bytes of an error body kept for classification. */
const ERROR_BODY_LIMIT = 4096;

/** The documented Anthropic API version header value. */
export const ANTHROPIC_VERSION = '2023-06-01';

function headersFor(t: ListTarget): Record<string, string> {
  const h: Record<string, string> = { accept: 'application/json' };
  if (t.provider === 'anthropic') {
    h['anthropic-version'] = ANTHROPIC_VERSION;
    if (t.apiKey) h['x-api-key'] = t.apiKey;
  } else if (t.apiKey) h.authorization = `Bearer ${t.apiKey}`;
  return h;
}

async function getJson(url: string, t: ListTarget, f: typeof fetch, signal: AbortSignal): Promise<unknown> {
  const res = await f(url, { method: 'GET', headers: headersFor(t), redirect: 'manual', signal });
  const type = res.headers.get('content-type') ?? '';
  if (!res.ok) {
    const body = (await res.text().catch(() => '')).slice(0, ERROR_BODY_LIMIT);
    throw new APICallError({
      message: `HTTP ${res.status}`,
      url,
      requestBodyValues: {},
      statusCode: res.status,
      responseHeaders: Object.fromEntries(res.headers.entries()),
      responseBody: body,
      isRetryable: false,
    });
  }
  if (/text\/html/i.test(type)) {
    await res.body?.cancel().catch(() => undefined);
    throw new ModelEndpointError('html_page', 'HTML page instead of the model list.', res.status);
  }
  const text = await res.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    if (/^\s*</.test(text)) throw new ModelEndpointError('html_page', 'HTML page instead of the model list.', res.status);
    throw new ModelListShapeError('The model list is not JSON.');
  }
}

function entriesOf(doc: unknown): Array<{ id: string; window: number | null }> {
  // OpenAI / LM Studio / Ollama (/v1/models) and Anthropic: {data: [{id}]}; Ollama's native /api/tags: {models: [{name}]}.
  const d = doc as { data?: unknown; models?: unknown };
  const list = Array.isArray(d?.data) ? d.data : Array.isArray(d?.models) ? d.models : null;
  if (!list) throw new ModelListShapeError('The answer has no model list.');
  return list
    .map((m: unknown) => ({ id: m && typeof m === 'object' ? ((m as { id?: unknown; name?: unknown }).id ?? (m as { name?: unknown }).name) : null, window: windowOf(m) }))
    .filter((e): e is { id: string; window: number | null } => typeof e.id === 'string' && e.id.length > 0 && e.id.length <= 512);
}

/**
 * The provider's models, sorted, de-duplicated, at most `MAX_MODELS`.
 * @throws APICallError (HTTP status), ModelEndpointError (html_page, timeout), ModelListShapeError,
 *   or a network error — all understood by `describeModelError`.
 */
export async function listModels(t: ListTarget, opts: ListOptions = {}): Promise<ModelInfo[]> {
  const f = opts.fetch ?? fetch;
  const ctrl = new AbortController();
  const timeoutMs = opts.timeoutMs ?? LIST_TIMEOUT_MS;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    ctrl.abort();
  }, timeoutMs);
  const onAbort = (): void => ctrl.abort(opts.signal?.reason);
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const base = trimBaseUrl(t.base_url);
    const ids: Array<{ id: string; window: number | null }> = [];
    if (t.provider === 'anthropic') {
      let after: string | null = null;
      for (let page = 0; page < MAX_PAGES; page++) {
        const url = `${base}/models?limit=1000${after ? `&after_id=${encodeURIComponent(after)}` : ''}`;
        const doc = (await getJson(url, t, f, ctrl.signal)) as { has_more?: unknown; last_id?: unknown };
        ids.push(...entriesOf(doc));
        if (doc.has_more !== true || typeof doc.last_id !== 'string' || doc.last_id === after) break;
        after = doc.last_id;
      }
    } else ids.push(...entriesOf(await getJson(`${base}/models`, t, f, ctrl.signal)));
    const windows = new Map<string, number | null>();
    for (const e of ids) if (!windows.has(e.id) || windows.get(e.id) === null) windows.set(e.id, e.window);
    const models = [...windows.keys()]
      .sort((a, b) => a.localeCompare(b))
      .slice(0, MAX_MODELS)
      .map((id) => ({ id, accepts_images: modelAcceptsImages(id), context_window: windows.get(id) ?? null }));
    // Where the list does not say, LM Studio's or Ollama's own endpoints may (./model-windows.ts).
    return opts.learnWindows === false || t.provider !== 'openai-compatible' ? models : await learnWindows(t.base_url, models, { fetch: f, signal: ctrl.signal });
  } catch (err) {
    if (timedOut) throw new ModelEndpointError('timeout', `No answer within ${Math.round(timeoutMs / 1000)} s.`);
    throw err;
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
  }
}

/** The plain-language warning for a key that would travel unencrypted, or null. */
export function clearTextKeyWarning(baseUrl: string, hasKey: boolean): string | null {
  return hasKey && keyWouldTravelInClear(baseUrl)
    ? 'This base URL uses http:// to another machine: the API key would travel unencrypted. Use https:// unless you trust every network in between.'
    : null;
}

/** "Test connection": list the models, or say in plain words why that failed. Never throws. */
export async function testConnection(t: ListTarget, opts: ListOptions = {}): Promise<ConnectionTestResult> {
  try {
    const models = await listModels(t, opts);
    return { ok: true, models, warning: clearTextKeyWarning(t.base_url, Boolean(t.apiKey)) };
  } catch (err) {
    return { ok: false, ...describeModelError(err) };
  }
}
