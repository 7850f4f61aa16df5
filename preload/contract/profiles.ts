/**
 * The contract of model profiles and the model settings: the masked profile view, the profile
 * input and connection-test schemas, the test's outcome, and their channels. docs/ARCHITECTURE.md "The IPC contract".
 */
import { z } from 'zod';
import { LIMITS } from './limits.js';
import type { MaskedValue } from './server-view.js';

/** Model provider kinds: any OpenAI-compatible Chat Completions endpoint, or Anthropic's Messages API. */
export type ModelProvider = 'openai-compatible' | 'anthropic';

/** The masked model-provider settings. */
export interface ModelSettingsView {
  provider: ModelProvider;
  base_url: string;
  model: string;
  api_key: MaskedValue;
  configured: boolean;
}

export const modelSettingsInputSchema = z.strictObject({
  provider: z.enum(['openai-compatible', 'anthropic']),
  base_url: z.string().min(1, 'Base URL is required').url().max(LIMITS.shortText),
  model: z.string().min(1).max(LIMITS.shortText),
  /** Absent → keep the stored key; `""` → delete it; a value → replace it. */
  api_key: z.string().max(LIMITS.secretValue).optional(),
});
export type ModelSettingsInput = z.infer<typeof modelSettingsInputSchema>;

/**
 * A saved model profile (masked: the API key is never sent, only whether one is stored). Each
 * profile has its own key in the secret store; a key is only ever sent to its own profile's
 * endpoint.
 */
export interface ModelProfileView {
  id: string;
  name: string;
  provider: ModelProvider;
  base_url: string;
  model: string;
  /** Extra instructions sent as the system prompt, or null. */
  system_prompt: string | null;
  /** The model's context window in tokens (the request is fitted to it). */
  context_window: number;
  /**
   * Where `context_window` comes from: the provider's model information (`provider`), the user
   * (`user`), or a guess from the model's name and address (`default`: the form says so).
   */
  context_window_source: ContextWindowSource;
  /** Whether tool images are sent to this model as image parts (else a short text note). */
  accepts_images: boolean;
  api_key: MaskedValue;
  /** The profile new conversations (and sampling) use. */
  is_default: boolean;
  /** Base URL and model are set. */
  configured: boolean;
  /** A key is stored for an `http:` endpoint that is not this machine: it travels unencrypted. */
  key_in_clear: boolean;
}

/** Where a profile's context window comes from (see {@link ModelProfileView}). */
export type ContextWindowSource = 'provider' | 'user' | 'default';

/** Upper bound of a context window the user may enter (tokens). */
export const MAX_CONTEXT_WINDOW = 10_000_000;

/**
 * Create (`id` absent) or update a model profile. Non-secret fields are replaced as given (on
 * update, an absent optional field keeps its stored value). `api_key` follows PATCH rules: absent
 * → keep, `""` → delete, a value → replace. Changing the base URL's origin without a new key drops
 * the stored key, so a key never follows a profile to another server.
 */
export const profileInputSchema = z.strictObject({
  id: z.string().min(1).max(128).optional(),
  name: z.string().trim().min(1, 'Name is required').max(LIMITS.name),
  provider: z.enum(['openai-compatible', 'anthropic']),
  base_url: z.string().min(1, 'Base URL is required').url().max(LIMITS.shortText),
  model: z.string().trim().min(1, 'Model is required').max(LIMITS.shortText),
  system_prompt: z.string().max(LIMITS.chatText).nullable().optional(),
  /**
   * The model's context window; null = none given (the form's field left empty): the window is
   * guessed from the model's name and address wherever it is used, and the profile says so.
   */
  context_window: z.number().int().min(1024).max(MAX_CONTEXT_WINDOW).nullable().optional(),
  /** With `context_window`: whether the provider said it (`provider`) or the user typed it (`user`, the default). */
  context_window_source: z.enum(['provider', 'user']).optional(),
  accepts_images: z.boolean().optional(),
  api_key: z.string().max(LIMITS.secretValue).optional(),
  /** Make this the default profile. The first profile saved always becomes the default. */
  make_default: z.boolean().optional(),
});
export type ProfileInput = z.infer<typeof profileInputSchema>;

/**
 * What "Test connection" tries: a saved profile by `id` (its own stored key), or a draft from the
 * form (`provider` + `base_url`, with a typed `api_key`, or — when `id` names a saved profile with
 * the same origin — that profile's stored key).
 */
export const profileTestSchema = z.strictObject({
  id: z.string().min(1).max(128).optional(),
  provider: z.enum(['openai-compatible', 'anthropic']).optional(),
  base_url: z.string().min(1, 'Base URL is required').url().max(LIMITS.shortText).optional(),
  api_key: z.string().max(LIMITS.secretValue).optional(),
});
export type ProfileTestInput = z.infer<typeof profileTestSchema>;

/**
 * Why a model endpoint failed, for a plain message (main/chat/model-errors.ts):
 * `unreachable` (nothing answers / DNS), `timeout` (no answer in time), `unauthorized` (401/403),
 * `not_found` (404: wrong base URL or model), `html_page` (an HTML page instead of the API),
 * `not_streaming` (a plain body where a stream was asked for), `malformed_response` (bad JSON or
 * SSE), `context_length_exceeded`, `rate_limited` (429), `server_error` (5xx), `bad_request`
 * (other 4xx), `unknown`.
 */
export type ModelErrorCode =
  | 'unreachable'
  | 'timeout'
  | 'unauthorized'
  | 'not_found'
  | 'html_page'
  | 'not_streaming'
  | 'malformed_response'
  | 'context_length_exceeded'
  | 'rate_limited'
  | 'server_error'
  | 'bad_request'
  | 'unknown';

/** One model a provider lists. */
export interface ModelInfo {
  id: string;
  /** Whether the name is of a model known to accept images. */
  accepts_images: boolean;
  /**
   * The context window in tokens where the provider says it (a model list's `context_length` /
   * `context_window` / `max_context_length` field, LM Studio's `/api/v0/models`, Ollama's
   * `/api/show`), else null. main/chat/model-windows.ts.
   */
  context_window: number | null;
}

/**
 * What a model endpoint failure adds to its code, as facts the window words
 * (docs/ARCHITECTURE.md "Languages"): `http_status` when an answer came; `system_code`, a
 * network error's Node code (`ECONNREFUSED`, …); `redirected`, the base URL answered with a
 * redirect; `provider_message`, the provider's own words from its error body (at most 200
 * characters; shown as sent, marked as the provider's).
 */
export interface ModelErrorDetail {
  http_status: number | null;
  system_code: string | null;
  redirected: boolean;
  provider_message: string | null;
}

/**
 * The outcome of "Test connection": the provider's models, or why it failed — by `code` and
 * `detail` (the window words them); `message` is main's English for logs. `warning` is main's
 * English note that the key would travel unencrypted (the window says it in its own words).
 */
export type ConnectionTestResult =
  | { ok: true; models: ModelInfo[]; warning: string | null }
  | { ok: false; code: ModelErrorCode; message: string; detail: ModelErrorDetail };

/** A local model server that answered on this machine (first launch: offered as a ready profile). */
export interface LocalModelOffer {
  kind: 'ollama' | 'lmstudio';
  /** Display name, e.g. "Ollama". */
  label: string;
  /** The OpenAI-compatible base URL, e.g. `http://127.0.0.1:11434/v1`. */
  base_url: string;
  models: ModelInfo[];
}

const empty = z.strictObject({});

/** The model-profile and model-settings channels (spread into `channels`, channels.ts). */
export const profileChannels = {
  'settings.getModel': { input: empty },
  'settings.setModel': { input: modelSettingsInputSchema },
  'profiles.list': { input: empty },
  'profiles.save': { input: profileInputSchema },
  'profiles.remove': { input: z.strictObject({ id: z.string().min(1).max(128) }) },
  'profiles.setDefault': { input: z.strictObject({ id: z.string().min(1).max(128) }) },
  'profiles.test': { input: profileTestSchema },
  'profiles.detectLocal': { input: empty },
} as const;

/** What each of {@link profileChannels} returns (part of `ChannelOutputs`, channels.ts). */
export interface ProfileChannelOutputs {
  'settings.getModel': ModelSettingsView;
  'settings.setModel': ModelSettingsView;
  'profiles.list': ModelProfileView[];
  'profiles.save': ModelProfileView;
  'profiles.remove': { removed: true };
  'profiles.setDefault': ModelProfileView[];
  'profiles.test': ConnectionTestResult;
  'profiles.detectLocal': LocalModelOffer[];
}
