/**
 * Model providers. Each entry turns stored settings + API key into an AI SDK `LanguageModel`.
 * Adding Anthropic or another provider is one more entry here (and one more literal in the
 * contract's `provider` enum), not a rewrite.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import type { ModelSettings } from './settings.js';

/** Builds a model from settings. */
export type ProviderFactory = (settings: ModelSettings, apiKey: string | undefined) => LanguageModel;

/** The registry of provider kinds. */
export const providers: Record<ModelSettings['provider'], ProviderFactory> = {
  /** Any OpenAI-compatible Chat Completions endpoint: OpenAI, Ollama, LM Studio, vLLM, OpenRouter. */
  'openai-compatible': (s, apiKey) =>
    createOpenAICompatible({ name: 'openai-compatible', baseURL: s.base_url.replace(/\/+$/, ''), apiKey: apiKey || undefined, includeUsage: true })(s.model),
  /** Anthropic's Messages API (base URL normally https://api.anthropic.com/v1). */
  anthropic: (s, apiKey) => createAnthropic({ baseURL: s.base_url.replace(/\/+$/, '') || undefined, apiKey: apiKey || undefined })(s.model),
};

/**
 * Create the model for the given settings.
 * @throws Error when the provider kind is unknown.
 */
export function createModel(settings: ModelSettings, apiKey: string | undefined): LanguageModel {
  const f = providers[settings.provider];
  if (!f) throw new Error(`Unknown model provider "${String(settings.provider)}"`);
  return f(settings, apiKey);
}
