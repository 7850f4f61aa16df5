/**
 * Model profiles: the user's saved models (provider, base URL, model, system prompt, context
 * window, image input), each with its OWN API key in the secret store under
 * `model:profile:<id>:api_key`. Non-secret fields live in `<state dir>/model_profiles.json`
 * (0600, atomic write). Views are masked. A key is only ever handed out together with its own
 * profile (`get(id)`), so it cannot reach another profile's endpoint; and a key does not follow a
 * profile whose base URL moves to another origin (see `save`).
 *
 * Migration: the single-model `settings.json` (+ the `model:api_key` secret) of earlier versions
 * becomes the first, default profile the first time the store loads; nothing is lost and the old
 * file is left in place.
 */
import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { ModelProfileView, ModelProvider, ProfileInput, ProfileTestInput, ValidationIssue } from '../../preload/contract/index.js';
import { maskSecret } from '../secrets/mask.js';
import type { SecretStore } from '../secrets/store.js';
import { Mutex, writeFileAtomic } from '../util/atomic-write.js';
import { ownIssue } from '../util/validation-issue.js';
import { keyWouldTravelInClear } from '../../preload/contract/rules/index.js';
import { defaultContextWindow, modelAcceptsImages } from './model-capabilities.js';

/** A stored profile (no secret): the view's fields that are kept in `model_profiles.json`. */
export type ModelProfile = Omit<ModelProfileView, 'api_key' | 'is_default' | 'configured' | 'key_in_clear'>;

/** A profile together with its own API key (main only; never crosses IPC). */
export interface ProfileWithKey {
  profile: ModelProfile;
  apiKey: string | undefined;
}

/**
 * A profile request that is incomplete (reported as `invalid_input` on `field`, with the issue the
 * window words: `field` is required).
 */
export class ProfileInputError extends Error {
  override name = 'ProfileInputError';
  readonly issue: ValidationIssue;
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
    this.issue = ownIssue('custom', [field], { rule: 'required' });
  }
}

/**
 * Another profile already has this name (reported as `conflict` on `name`, with the fact
 * `profile_name_taken`): names pick a profile, so each is used once.
 */
export class DuplicateProfileNameError extends Error {
  override name = 'DuplicateProfileNameError';
  readonly field = 'name';
  constructor(readonly profileName: string) {
    super(`A model profile named "${profileName}" exists already.`);
  }
}

/** The secret-store key of the single API key of earlier versions (migrated into the first profile). */
export const LEGACY_MODEL_KEY_SECRET = 'model:api_key';

/** The secret-store key of one profile's API key. */
export function profileKeySecret(id: string): string {
  return `model:profile:${id}:api_key`;
}

/** Thrown for an unknown profile id. */
export class ProfileNotFoundError extends Error {
  override name = 'ProfileNotFoundError';
}

interface ProfilesDoc {
  default_profile: string | null;
  profiles: ModelProfile[];
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** Read one stored profile leniently (a hand-edited file must not lose the other profiles). */
function parseProfile(raw: unknown): ModelProfile | null {
  if (!raw || typeof raw !== 'object') return null;
  const r = raw as Record<string, unknown>;
  if (typeof r.id !== 'string' || !r.id || typeof r.base_url !== 'string' || typeof r.model !== 'string') return null;
  const provider: ModelProvider = r.provider === 'anthropic' ? 'anthropic' : 'openai-compatible';
  return {
    id: r.id,
    name: typeof r.name === 'string' && r.name ? r.name : r.model || 'Model',
    provider,
    base_url: r.base_url,
    model: r.model,
    system_prompt: typeof r.system_prompt === 'string' && r.system_prompt ? r.system_prompt : null,
    ...storedWindow(r, provider),
    accepts_images: typeof r.accepts_images === 'boolean' ? r.accepts_images : modelAcceptsImages(r.model),
  };
}

/**
 * A stored profile's context window and its source. A guess (`default`, or no window) is guessed
 * afresh. Files written before the source was kept: a window equal to the name-based default
 * reads as that guess, another as the user's.
 */
function storedWindow(r: Record<string, unknown>, provider: ModelProvider): Pick<ModelProfile, 'context_window' | 'context_window_source'> {
  const guess = defaultContextWindow(provider, String(r.model), String(r.base_url));
  if (typeof r.context_window !== 'number' || !(r.context_window > 0) || r.context_window_source === 'default') return { context_window: guess, context_window_source: 'default' };
  const context_window = Math.floor(r.context_window);
  const source = r.context_window_source === 'provider' || r.context_window_source === 'user' || r.context_window_source === 'default' ? r.context_window_source : context_window === guess ? 'default' : 'user';
  return { context_window, context_window_source: source };
}

/**
 * A profile as written to the file: a guessed window is not stored (only its source), so it is
 * guessed again when read — from the model and address it then has, by the rules then in force.
 */
function storedForm(p: ModelProfile): Omit<ModelProfile, 'context_window'> & { context_window?: number } {
  if (p.context_window_source !== 'default') return p;
  const { context_window: _guess, ...rest } = p;
  return rest;
}

/** Owns `model_profiles.json` and the profiles' API keys. One instance per app core. */
export class ProfileStore {
  readonly file: string;
  private readonly legacyFile: string;
  private doc: ProfilesDoc | null = null;
  /** A visible warning when the profiles file could not be read (it is kept, never overwritten unseen). */
  warning: string | null = null;
  private readonly mutex = new Mutex();

  constructor(
    stateDir: string,
    private readonly secrets: SecretStore,
  ) {
    this.file = path.join(stateDir, 'model_profiles.json');
    this.legacyFile = path.join(stateDir, 'settings.json');
  }

  /** Every profile, masked, default first then by name. */
  list(): Promise<ModelProfileView[]> {
    return this.mutex.run(async () => {
      const doc = await this.load();
      const views = await Promise.all(doc.profiles.map((p) => this.viewOf(p, doc)));
      return views.sort((a, b) => Number(b.is_default) - Number(a.is_default) || a.name.localeCompare(b.name));
    });
  }

  /** One profile with its own key, or null when unknown. The only way main gets a profile's key. */
  get(id: string): Promise<ProfileWithKey | null> {
    return this.mutex.run(async () => {
      const doc = await this.load();
      const profile = doc.profiles.find((p) => p.id === id);
      if (!profile) return null;
      return { profile: { ...profile }, apiKey: await this.secrets.get(profileKeySecret(id)) };
    });
  }

  /** The default profile with its own key, or null when there is none. */
  getDefault(): Promise<ProfileWithKey | null> {
    return this.mutex.run(async () => {
      const doc = await this.load();
      const profile = doc.profiles.find((p) => p.id === doc.default_profile);
      if (!profile) return null;
      return { profile: { ...profile }, apiKey: await this.secrets.get(profileKeySecret(profile.id)) };
    });
  }

  /**
   * What "Test connection" may use: a saved profile with its own key, or a draft from the form.
   * A draft uses the typed key; without one, it may borrow the stored key of the profile named by
   * `id` only when the draft's origin is that profile's origin (an edited URL never gets the key).
   * @throws ProfileNotFoundError for an unknown id; TypeError when a draft lacks provider/base_url.
   */
  async testTarget(input: ProfileTestInput): Promise<{ provider: ModelProvider; base_url: string; apiKey?: string }> {
    const saved = input.id ? await this.get(input.id) : null;
    if (input.id && !saved) throw new ProfileNotFoundError('No such model profile.');
    const provider = input.provider ?? saved?.profile.provider;
    const base_url = input.base_url ?? saved?.profile.base_url;
    if (!provider || !base_url) throw new ProfileInputError('Enter a provider and a base URL first.', provider ? 'base_url' : 'provider');
    let apiKey: string | undefined = input.api_key || undefined;
    if (input.api_key === undefined && saved && originOf(saved.profile.base_url) === originOf(base_url)) apiKey = saved.apiKey;
    return { provider, base_url, ...(apiKey ? { apiKey } : {}) };
  }

  /** The masked view of one profile. @throws ProfileNotFoundError */
  view(id: string): Promise<ModelProfileView> {
    return this.mutex.run(async () => {
      const doc = await this.load();
      const p = doc.profiles.find((x) => x.id === id);
      if (!p) throw new ProfileNotFoundError('No such model profile.');
      return this.viewOf(p, doc);
    });
  }

  /**
   * Create (`input.id` absent) or update a profile. The key follows PATCH rules (absent → keep,
   * `""` → delete, value → replace). When an update moves the base URL to another origin and no
   * new key is given, the stored key is deleted: a key typed for one server is never sent to
   * another. The first profile becomes the default; `make_default` makes any profile the default.
   * @throws ProfileNotFoundError for an unknown id; DuplicateProfileNameError when another profile
   * has the name (case and surrounding spaces ignored).
   */
  save(input: ProfileInput): Promise<ModelProfileView> {
    return this.mutex.run(async () => {
      const doc = await this.load();
      const prev = input.id ? doc.profiles.find((p) => p.id === input.id) : undefined;
      if (input.id && !prev) throw new ProfileNotFoundError('No such model profile.');
      const id = prev?.id ?? randomUUID();
      const wanted = input.name.trim().toLowerCase();
      if (doc.profiles.some((p) => p.id !== id && p.name.trim().toLowerCase() === wanted)) throw new DuplicateProfileNameError(input.name.trim());
      const model = input.model.trim();
      const modelChanged = !prev || prev.model !== model;
      const next: ModelProfile = {
        id,
        name: input.name.trim(),
        provider: input.provider,
        base_url: input.base_url.trim(),
        model,
        system_prompt: input.system_prompt === undefined ? (prev?.system_prompt ?? null) : input.system_prompt?.trim() || null,
        // A window given is kept with its source; none (null, or a guess before) is guessed again
        // for this model and address (docs/ARCHITECTURE.md "Model profiles").
        ...(typeof input.context_window === 'number'
          ? { context_window: input.context_window, context_window_source: input.context_window_source ?? 'user' }
          : input.context_window === undefined && prev && !modelChanged && prev.context_window_source !== 'default'
            ? { context_window: prev.context_window, context_window_source: prev.context_window_source }
            : { context_window: defaultContextWindow(input.provider, model, input.base_url), context_window_source: 'default' as const }),
        accepts_images: input.accepts_images ?? (prev && !modelChanged ? prev.accepts_images : modelAcceptsImages(model)),
      };
      const movedOrigin = prev !== undefined && originOf(prev.base_url) !== originOf(next.base_url);
      const profiles = prev ? doc.profiles.map((p) => (p.id === id ? next : p)) : [...doc.profiles, next];
      const default_profile = input.make_default || !doc.default_profile || !profiles.some((p) => p.id === doc.default_profile) ? id : doc.default_profile;
      // Secrets first (the key must exist before a profile that relies on it is visible), then the file.
      const secret = profileKeySecret(id);
      if (input.api_key) await this.secrets.set(secret, input.api_key);
      else if (input.api_key === '' || movedOrigin) await this.secrets.delete(secret);
      await this.write({ default_profile, profiles });
      return this.viewOf(next, this.doc!);
    });
  }

  /** Delete a profile and its key. Another profile becomes the default if it was. @throws ProfileNotFoundError */
  remove(id: string): Promise<void> {
    return this.mutex.run(async () => {
      const doc = await this.load();
      if (!doc.profiles.some((p) => p.id === id)) throw new ProfileNotFoundError('No such model profile.');
      const profiles = doc.profiles.filter((p) => p.id !== id);
      const default_profile = doc.default_profile === id ? (profiles[0]?.id ?? null) : doc.default_profile;
      await this.write({ default_profile, profiles });
      await this.secrets.delete(profileKeySecret(id));
    });
  }

  /** Make a profile the default. @throws ProfileNotFoundError */
  async setDefault(id: string): Promise<ModelProfileView[]> {
    await this.mutex.run(async () => {
      const doc = await this.load();
      if (!doc.profiles.some((p) => p.id === id)) throw new ProfileNotFoundError('No such model profile.');
      await this.write({ ...doc, default_profile: id });
    });
    return this.list();
  }

  // ---- internals -------------------------------------------------------------------------------

  private async viewOf(p: ModelProfile, doc: ProfilesDoc): Promise<ModelProfileView> {
    const key = await this.secrets.get(profileKeySecret(p.id));
    return {
      ...p,
      api_key: maskSecret(key),
      is_default: doc.default_profile === p.id,
      configured: Boolean(p.base_url && p.model),
      key_in_clear: Boolean(key) && keyWouldTravelInClear(p.base_url),
    };
  }

  private async write(doc: ProfilesDoc): Promise<void> {
    if (this.warning) {
      // The unreadable file was shown to the user; keep it aside before the first save replaces it.
      await fs.rename(this.file, `${this.file}.unreadable-${Date.now()}`).catch(() => undefined);
      this.warning = null;
    }
    await writeFileAtomic(this.file, JSON.stringify({ ...doc, profiles: doc.profiles.map(storedForm) }, null, 2) + '\n');
    this.doc = doc;
  }

  /** Load the profiles file once; migrate the single-model settings of earlier versions. */
  private async load(): Promise<ProfilesDoc> {
    if (this.doc) return this.doc;
    let text: string | null = null;
    try {
      text = await fs.readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    if (text !== null) {
      try {
        const raw = JSON.parse(text) as { default_profile?: unknown; profiles?: unknown };
        const profiles = (Array.isArray(raw.profiles) ? raw.profiles : []).map(parseProfile).filter((p): p is ModelProfile => p !== null);
        const def = typeof raw.default_profile === 'string' && profiles.some((p) => p.id === raw.default_profile) ? raw.default_profile : (profiles[0]?.id ?? null);
        this.doc = { default_profile: def, profiles };
      } catch {
        this.warning = `The model profiles file (${this.file}) could not be read; it was kept and will be set aside on the next save.`;
        this.doc = { default_profile: null, profiles: [] };
      }
      return this.doc;
    }
    this.doc = await this.migrateLegacy();
    return this.doc;
  }

  private async migrateLegacy(): Promise<ProfilesDoc> {
    let legacy: { provider?: unknown; base_url?: unknown; model?: unknown } | undefined;
    try {
      legacy = (JSON.parse(await fs.readFile(this.legacyFile, 'utf8')) as { model?: typeof legacy }).model;
    } catch {
      legacy = undefined;
    }
    const key = await this.secrets.get(LEGACY_MODEL_KEY_SECRET);
    const baseUrl = typeof legacy?.base_url === 'string' ? legacy.base_url : '';
    const model = typeof legacy?.model === 'string' ? legacy.model : '';
    if (!baseUrl && !model && !key) return { default_profile: null, profiles: [] };
    const provider: ModelProvider = legacy?.provider === 'anthropic' ? 'anthropic' : 'openai-compatible';
    const profile: ModelProfile = {
      id: randomUUID(),
      name: model || 'My model',
      provider,
      base_url: baseUrl,
      model,
      system_prompt: null,
      context_window: defaultContextWindow(provider, model, baseUrl),
      context_window_source: 'default',
      accepts_images: modelAcceptsImages(model),
    };
    const doc: ProfilesDoc = { default_profile: profile.id, profiles: [profile] };
    // Copy the key first, then write the profiles file, then drop the old key: a crash at any
    // point loses nothing (at worst the old key stays behind).
    if (key) await this.secrets.set(profileKeySecret(profile.id), key);
    await writeFileAtomic(this.file, JSON.stringify({ ...doc, profiles: doc.profiles.map(storedForm) }, null, 2) + '\n');
    if (key) await this.secrets.delete(LEGACY_MODEL_KEY_SECRET);
    return doc;
  }
}
