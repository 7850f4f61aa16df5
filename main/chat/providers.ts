/**
 * Model providers. Each entry turns a profile's connection settings + that profile's own API key
 * into an AI SDK `LanguageModel`. Adding a provider is one more entry here (and one more literal in
 * the contract's `provider` enum), not a rewrite. Every provider talks through the checked fetch
 * (./model-fetch.ts), so an HTML page, a non-stream body or a hang becomes a typed error.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import { createCheckedFetch, type CheckedFetchOptions } from './model-fetch.js';
import type { ModelSettings } from './settings.js';

/** Builds a model from connection settings. */
export type ProviderFactory = (settings: ModelSettings, apiKey: string | undefined, fetch: typeof globalThis.fetch) => LanguageModel;

/** A base URL without trailing slashes. */
export function trimBaseUrl(url: string): string {
  return url.trim().replace(/\/+$/, '');
}

/** The registry of provider kinds. */
export const providers: Record<ModelSettings['provider'], ProviderFactory> = {
  /** Any OpenAI-compatible Chat Completions endpoint: OpenAI, Ollama, LM Studio, vLLM, OpenRouter. */
  'openai-compatible': (s, apiKey, fetch) =>
    createOpenAICompatible({ name: 'openai-compatible', baseURL: trimBaseUrl(s.base_url), apiKey: apiKey || undefined, includeUsage: true, fetch })(s.model),
  /** Anthropic's Messages API (base URL normally https://api.anthropic.com/v1). */
  anthropic: (s, apiKey, fetch) => createAnthropic({ baseURL: trimBaseUrl(s.base_url) || undefined, apiKey: apiKey || undefined, fetch })(s.model),
};

/**
 * Create the model of a profile (any object with `provider`, `base_url`, `model`, e.g. a
 * `ModelProfile`) with THAT profile's key. Callers get both from `ProfileStore.get(id)`.
 * @param timeouts deadlines of the checked fetch (defaults: ./model-fetch.ts)
 * @throws Error when the provider kind is unknown.
 */
export function createModel(profile: ModelSettings, apiKey: string | undefined, timeouts: CheckedFetchOptions = {}): LanguageModel {
  const f = providers[profile.provider];
  if (!f) throw new Error(`Unknown model provider "${String(profile.provider)}"`);
  return f(profile, apiKey, createCheckedFetch(timeouts));
}
