/**
 * Model-provider settings: non-secret fields in `<state dir>/settings.json` (0600, atomic), the API
 * key in the `SecretStore`. Views are masked.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { ModelProvider, ModelSettingsInput, ModelSettingsView } from '../../preload/contract/index.js';
import { maskSecret } from '../mcp/config.js';
import type { SecretStore } from '../secrets/store.js';
import { Mutex, writeFileAtomic } from '../util/atomic-write.js';

/** Stored model settings (no secret). */
export interface ModelSettings {
  provider: ModelProvider;
  base_url: string;
  model: string;
}

/** The secret-store key of the model API key. */
export const MODEL_KEY_SECRET = 'model:api_key';

/** Name of the settings file inside the state dir. */
export const SETTINGS_FILE = 'settings.json';

const DEFAULTS: ModelSettings = { provider: 'openai-compatible', base_url: '', model: '' };

/** Owns the model settings file and the API key entry. */
export class SettingsStore {
  readonly file: string;
  private cache: ModelSettings | null = null;
  private readonly mutex = new Mutex();

  constructor(
    stateDir: string,
    private readonly secrets: SecretStore,
  ) {
    this.file = path.join(stateDir, SETTINGS_FILE);
  }

  /** Current settings (defaults when the file is missing or unreadable). */
  async get(): Promise<ModelSettings> {
    if (this.cache) return this.cache;
    try {
      const doc = JSON.parse(await fs.readFile(this.file, 'utf8')) as { model?: Partial<ModelSettings> };
      const m = doc.model ?? {};
      this.cache = {
        provider: m.provider === 'anthropic' ? 'anthropic' : 'openai-compatible',
        base_url: typeof m.base_url === 'string' ? m.base_url : '',
        model: typeof m.model === 'string' ? m.model : '',
      };
    } catch {
      this.cache = { ...DEFAULTS };
    }
    return this.cache;
  }

  /** The API key (main only). */
  apiKey(): Promise<string | undefined> {
    return this.secrets.get(MODEL_KEY_SECRET);
  }

  /** Masked view for the renderer. */
  async view(): Promise<ModelSettingsView> {
    const s = await this.get();
    return { ...s, api_key: maskSecret(await this.apiKey()), configured: Boolean(s.base_url && s.model) };
  }

  /** Save settings; `api_key` follows PATCH rules (absent → keep, `""` → delete, value → replace). */
  set(input: ModelSettingsInput): Promise<ModelSettingsView> {
    return this.mutex.run(async () => {
      const next: ModelSettings = { provider: input.provider, base_url: input.base_url, model: input.model };
      await writeFileAtomic(this.file, JSON.stringify({ model: next }, null, 2) + '\n');
      this.cache = next;
      if (input.api_key === '') await this.secrets.delete(MODEL_KEY_SECRET);
      else if (input.api_key !== undefined) await this.secrets.set(MODEL_KEY_SECRET, input.api_key);
      return this.view();
    });
  }
}
