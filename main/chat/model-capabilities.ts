/**
 * What we know about a model from its name alone: whether it accepts images and a sane default
 * context window. Used to prefill a profile; the user can always override both. Pure.
 */
import type { ModelProvider } from '../../preload/contract/index.js';
import { isLoopbackHost } from '../../preload/contract/rules/index.js';

/**
 * Families whose models take image input (OpenAI GPT-4o/4.1/5 and o-series with vision, Claude 3+,
 * Gemini, and the common open vision models served by Ollama / LM Studio). Matched against the
 * lower-cased model id, anywhere in it (ids carry vendor prefixes and tags, e.g. `openai/gpt-4o`,
 * `llava:13b`).
 */
const IMAGE_MODEL_PATTERNS: RegExp[] = [
  /gpt-4o/, /gpt-4\.1/, /gpt-4-turbo/, /gpt-4-vision/, /gpt-5/, /(^|[/:-])o[34](-|$)/, /chatgpt-4o/,
  /claude-3/, /claude-(sonnet|opus|haiku)-4/, /claude-[4-9]/,
  /gemini/, /gemma-?3/,
  /llava/, /bakllava/, /vision/, /-vl\b/, /vl-/, /qwen2\.5vl/, /pixtral/, /minicpm-v/, /moondream/, /llama-?4/, /mistral-small-?3\.[12]/,
];

/**
 * Whether a model id names a model known to accept images.
 * @param model the provider's model id, e.g. `gpt-4o-mini`, `claude-sonnet-4-5`, `llava:7b`
 */
export function modelAcceptsImages(model: string): boolean {
  const m = model.trim().toLowerCase();
  return IMAGE_MODEL_PATTERNS.some((p) => p.test(m));
}

/** Context window when nothing better is known: remote APIs (tokens). */
export const DEFAULT_CONTEXT_WINDOW = 32_768;
/** Context window for a model served on this machine (Ollama / LM Studio defaults are small). */
export const LOCAL_CONTEXT_WINDOW = 8_192;

/**
 * A default context window (tokens) for a model, from its provider and name; for an endpoint on
 * this machine the small local default applies.
 */
export function defaultContextWindow(provider: ModelProvider, model: string, baseUrl: string): number {
  const m = model.trim().toLowerCase();
  if (provider === 'anthropic' || /claude/.test(m)) return 200_000;
  if (/gpt-4\.1|gemini/.test(m)) return 1_000_000;
  if (/gpt-5/.test(m)) return 400_000;
  if (/gpt-4o|gpt-4-turbo|(^|[/:-])o[134](-|$)/.test(m)) return 128_000;
  let local = false;
  try {
    local = isLoopbackHost(new URL(baseUrl).hostname);
  } catch {
    local = false;
  }
  return local ? LOCAL_CONTEXT_WINDOW : DEFAULT_CONTEXT_WINDOW;
}
