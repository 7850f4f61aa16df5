/**
 * Learning a model's context window from its provider (docs/ARCHITECTURE.md "Context budget"):
 * - a model list's own fields, where an entry carries one (OpenRouter-style `context_length`,
 *   `context_window`, LM Studio's `max_context_length`, vLLM's `max_model_len`, Anthropic's
 *   `max_input_tokens` where present) — `windowOf`;
 * - LM Studio's native list, `GET {origin}/api/v0/models` (`max_context_length` per model);
 * - Ollama's model info, `POST {origin}/api/show {"model"}`: `num_ctx` among its `parameters`
 *   when the model is set up with one (what Ollama serves), else
 *   `model_info["<general.architecture>.context_length"]`.
 * The native endpoints are asked without a key, on the same origin as the base URL, with the
 * caller's deadline; any failure just leaves the window unknown (null), never an error.
 */
import type { ModelInfo } from '../../preload/contract/index.js';
import { MAX_CONTEXT_WINDOW } from '../../preload/contract/index.js';

/** Most Ollama models asked for their info in one go. */
export const MAX_OLLAMA_SHOWS = 32;

/** A plausible window (an integer within the bounds a profile accepts), else null. */
function tokens(v: unknown): number | null {
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isInteger(n) && n >= 1024 && n <= MAX_CONTEXT_WINDOW ? n : null;
}

/** The context window a model-list entry states, or null. */
export function windowOf(entry: unknown): number | null {
  if (!entry || typeof entry !== 'object') return null;
  const e = entry as Record<string, unknown>;
  for (const k of ['context_length', 'context_window', 'max_context_length', 'max_model_len', 'max_input_tokens']) {
    const n = tokens(e[k]);
    if (n !== null) return n;
  }
  return null;
}

function originOf(baseUrl: string): string | null {
  try {
    return new URL(baseUrl).origin;
  } catch {
    return null;
  }
}

async function json(f: typeof fetch, url: string, init: RequestInit): Promise<unknown> {
  const res = await f(url, { ...init, redirect: 'manual' });
  if (!res.ok || !/json/i.test(res.headers.get('content-type') ?? '')) {
    await res.body?.cancel().catch(() => undefined);
    return null;
  }
  return (await res.json()) as unknown;
}

/** The window Ollama's `/api/show` answer states: `num_ctx` in `parameters`, else the architecture's `context_length`. */
export function ollamaWindow(doc: unknown): number | null {
  if (!doc || typeof doc !== 'object') return null;
  const d = doc as { parameters?: unknown; model_info?: Record<string, unknown> };
  if (typeof d.parameters === 'string') {
    const m = /(?:^|\n)\s*num_ctx\s+(\d+)/.exec(d.parameters);
    const n = m ? tokens(m[1]) : null;
    if (n !== null) return n;
  }
  const info = d.model_info;
  if (!info || typeof info !== 'object') return null;
  const arch = info['general.architecture'];
  if (typeof arch === 'string') {
    const n = tokens(info[`${arch}.context_length`]);
    if (n !== null) return n;
  }
  for (const [k, v] of Object.entries(info)) if (k.endsWith('.context_length') && tokens(v) !== null) return tokens(v);
  return null;
}

/**
 * Fill in the windows an OpenAI-compatible list left unknown, from LM Studio's or Ollama's native
 * endpoints on the base URL's origin. Returns new entries (inputs untouched); never throws.
 */
export async function learnWindows(baseUrl: string, models: ModelInfo[], opts: { fetch?: typeof fetch; signal?: AbortSignal } = {}): Promise<ModelInfo[]> {
  const origin = originOf(baseUrl);
  if (!origin || models.length === 0 || models.every((m) => m.context_window !== null)) return models;
  const f = opts.fetch ?? fetch;
  const init: RequestInit = { headers: { accept: 'application/json' }, ...(opts.signal ? { signal: opts.signal } : {}) };
  const known = new Map<string, number>();
  try {
    // LM Studio: one list with every model's window.
    const doc = (await json(f, `${origin}/api/v0/models`, { ...init, method: 'GET' }).catch(() => null)) as { data?: unknown } | null;
    if (doc && Array.isArray(doc.data))
      for (const e of doc.data as Array<Record<string, unknown>>) {
        const n = windowOf(e);
        if (typeof e?.id === 'string' && n !== null) known.set(e.id, n);
      }
    if (known.size === 0) {
      // Ollama: one request per model; stop at the first that is not answered (not Ollama).
      const unknown = models.filter((m) => m.context_window === null).slice(0, MAX_OLLAMA_SHOWS);
      const show = (id: string) => json(f, `${origin}/api/show`, { ...init, method: 'POST', headers: { ...(init.headers as Record<string, string>), 'content-type': 'application/json' }, body: JSON.stringify({ model: id }) }).catch(() => null);
      const first = unknown[0] ? ollamaWindow(await show(unknown[0].id)) : null;
      if (first !== null) {
        known.set(unknown[0]!.id, first);
        const rest = await Promise.all(unknown.slice(1).map(async (m) => [m.id, ollamaWindow(await show(m.id))] as const));
        for (const [id, n] of rest) if (n !== null) known.set(id, n);
      }
    }
  } catch {
    // Unknown stays unknown.
  }
  return models.map((m) => (m.context_window === null && known.has(m.id) ? { ...m, context_window: known.get(m.id)! } : m));
}
