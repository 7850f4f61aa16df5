/**
 * The single-model view of earlier versions, kept only for the `settings.getModel` /
 * `settings.setModel` channels: it is the DEFAULT model profile (./profiles.ts). Nothing else in
 * main reads it — sampling (./sampling.ts) and the chat loop (./agent.ts) ask the ProfileStore
 * directly (`getDefault()`, `get(profileId)`), which returns a profile and its own key together.
 */
import type { ModelProvider, ModelSettingsInput, ModelSettingsView } from '../../preload/contract/index.js';
import type { SecretStore } from '../secrets/store.js';
import { ProfileStore, type ProfileWithKey } from './profiles.js';

/** The connection part of a profile: enough to build a model (./providers.ts). */
export interface ModelSettings {
  provider: ModelProvider;
  base_url: string;
  model: string;
}

const EMPTY: ModelSettings = { provider: 'openai-compatible', base_url: '', model: '' };

/** Name of the single-model settings file of earlier versions (migrated into model profiles). */
export const SETTINGS_FILE = 'settings.json';

/** The default profile seen as the one model of earlier versions. */
export class SettingsStore {
  /** The profile last returned by `get()`, so `apiKey()` answers for that same profile. */
  private lastServed: ProfileWithKey | null = null;

  private readonly profiles: ProfileStore;

  /** Over a profile store, or (as before) over a state dir + secret store, which makes one. */
  constructor(profiles: ProfileStore | string, secrets?: SecretStore) {
    if (typeof profiles === 'string') {
      if (!secrets) throw new TypeError('SettingsStore(stateDir, secrets) needs a secret store.');
      this.profiles = new ProfileStore(profiles, secrets);
    } else this.profiles = profiles;
  }

  /**
   * The default profile's connection settings (empty fields when there is none). Remembers the
   * profile, so a following `apiKey()` returns ITS key even if the default changes in between.
   */
  async get(): Promise<ModelSettings> {
    const d = await this.profiles.getDefault();
    this.lastServed = d;
    return d ? { provider: d.profile.provider, base_url: d.profile.base_url, model: d.profile.model } : { ...EMPTY };
  }

  /** The API key of the profile last returned by `get()`, else of the default profile (main only). */
  async apiKey(): Promise<string | undefined> {
    if (this.lastServed) return this.lastServed.apiKey;
    return (await this.profiles.getDefault())?.apiKey;
  }

  /** Masked view of the default profile. */
  async view(): Promise<ModelSettingsView> {
    const list = await this.profiles.list();
    const d = list.find((p) => p.is_default);
    if (!d) return { ...EMPTY, api_key: { has_value: false, masked: '' }, configured: false };
    return { provider: d.provider, base_url: d.base_url, model: d.model, api_key: d.api_key, configured: d.configured };
  }

  /** Save into the default profile (created when there is none); the key follows PATCH rules. */
  async set(input: ModelSettingsInput): Promise<ModelSettingsView> {
    const d = (await this.profiles.list()).find((p) => p.is_default);
    await this.profiles.save({
      ...(d ? { id: d.id, name: d.name } : { name: input.model }),
      provider: input.provider,
      base_url: input.base_url,
      model: input.model,
      ...(input.api_key !== undefined ? { api_key: input.api_key } : {}),
    });
    return this.view();
  }
}
