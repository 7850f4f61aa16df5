/**
 * Model profiles (main/chat/profiles.ts) with real files and a real file-backed secret store:
 * migration of the single-model settings of earlier versions, one key per profile, PATCH rules
 * for the key, a key dropped when the base URL moves to another origin, default handling, an
 * unreadable file kept, and the single-model facade (settings.ts) answering for the default.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DuplicateProfileNameError, LEGACY_MODEL_KEY_SECRET, ProfileNotFoundError, ProfileStore, profileKeySecret } from '../../../main/chat/profiles.js';
import { SettingsStore } from '../../../main/chat/settings.js';
import { FileSecretStore, MemorySecretStore, type SecretStore } from '../../../main/secrets/store.js';
import { makeTempDir, removeDir } from '../helpers.js';

let dir: string;
let secrets: SecretStore;
beforeEach(() => {
  dir = makeTempDir('op-profiles-');
  secrets = new MemorySecretStore();
});
afterEach(async () => {
  await removeDir(dir);
});

const base = { provider: 'openai-compatible' as const, base_url: 'https://api.example.com/v1', model: 'gpt-4o-mini' };

describe('migration from the single-model settings', () => {
  it('turns settings.json + the old key into the first, default profile, losing nothing', async () => {
    await fs.writeFile(path.join(dir, 'settings.json'), JSON.stringify({ model: { provider: 'anthropic', base_url: 'https://api.anthropic.com/v1', model: 'claude-sonnet-4-5' } }));
    await secrets.set(LEGACY_MODEL_KEY_SECRET, 'sk-ant-legacy-000000000000');
    const store = new ProfileStore(dir, secrets);
    const list = await store.list();
    expect(list).toHaveLength(1);
    const p = list[0]!;
    expect(p).toMatchObject({ provider: 'anthropic', base_url: 'https://api.anthropic.com/v1', model: 'claude-sonnet-4-5', is_default: true, configured: true, accepts_images: true, context_window: 200_000 });
    expect(p.api_key).toEqual({ has_value: true, masked: '••••••••0000' });
    expect((await store.get(p.id))!.apiKey).toBe('sk-ant-legacy-000000000000');
    // The key moved under the profile's own name; the old file is left in place.
    expect(await secrets.get(LEGACY_MODEL_KEY_SECRET)).toBeUndefined();
    expect(await secrets.get(profileKeySecret(p.id))).toBe('sk-ant-legacy-000000000000');
    expect(JSON.parse(await fs.readFile(path.join(dir, 'settings.json'), 'utf8')).model.model).toBe('claude-sonnet-4-5');
    // A new store (next launch) reads the migrated file, not the old one again.
    const again = await new ProfileStore(dir, secrets).list();
    expect(again.map((x) => x.id)).toEqual([p.id]);
  });

  it('migrates from a real owner-only secrets file too, and nothing when nothing was configured', async () => {
    const fileSecrets = new FileSecretStore(dir);
    await fs.writeFile(path.join(dir, 'settings.json'), JSON.stringify({ model: base }));
    await fileSecrets.set(LEGACY_MODEL_KEY_SECRET, 'sk-legacy-file-1234567890');
    const [p] = await new ProfileStore(dir, fileSecrets).list();
    expect((await new ProfileStore(dir, new FileSecretStore(dir)).get(p!.id))!.apiKey).toBe('sk-legacy-file-1234567890');

    const empty = makeTempDir('op-profiles-empty-');
    try {
      expect(await new ProfileStore(empty, new MemorySecretStore()).list()).toEqual([]);
    } finally {
      await removeDir(empty);
    }
  });
});

describe('profiles and their own keys', () => {
  it('each profile keeps its own key; get(id) returns exactly that profile and key', async () => {
    const store = new ProfileStore(dir, secrets);
    const a = await store.save({ name: 'A', ...base, api_key: 'sk-aaaaaaaaaaaaaaaaaaaa' });
    const b = await store.save({ name: 'B', provider: 'anthropic', base_url: 'https://api.anthropic.com/v1', model: 'claude-3-5-haiku', api_key: 'sk-bbbbbbbbbbbbbbbbbbbb' });
    expect(a.is_default).toBe(true);
    expect(b.is_default).toBe(false);
    expect((await store.get(a.id))!).toMatchObject({ profile: { name: 'A', base_url: base.base_url }, apiKey: 'sk-aaaaaaaaaaaaaaaaaaaa' });
    expect((await store.get(b.id))!).toMatchObject({ profile: { name: 'B', provider: 'anthropic' }, apiKey: 'sk-bbbbbbbbbbbbbbbbbbbb' });
    expect(await store.get('nope')).toBeNull();
    // No view carries a key.
    expect(JSON.stringify(await store.list())).not.toMatch(/sk-aaaa|sk-bbbb/);
    // Removing a profile removes its key only.
    await store.remove(a.id);
    expect(await secrets.get(profileKeySecret(a.id))).toBeUndefined();
    expect(await secrets.get(profileKeySecret(b.id))).toBe('sk-bbbbbbbbbbbbbbbbbbbb');
    expect((await store.list()).map((p) => [p.name, p.is_default])).toEqual([['B', true]]);
  });

  it('the key follows PATCH rules: absent keeps, "" deletes, a value replaces', async () => {
    const store = new ProfileStore(dir, secrets);
    const p = await store.save({ name: 'A', ...base, api_key: 'sk-first-000000000000' });
    await store.save({ id: p.id, name: 'A2', ...base });
    expect((await store.get(p.id))!.apiKey).toBe('sk-first-000000000000');
    await store.save({ id: p.id, name: 'A2', ...base, api_key: 'sk-second-00000000000' });
    expect((await store.get(p.id))!.apiKey).toBe('sk-second-00000000000');
    const v = await store.save({ id: p.id, name: 'A2', ...base, api_key: '' });
    expect(v.api_key.has_value).toBe(false);
    expect(await store.get(p.id)).toMatchObject({ apiKey: undefined, profile: { name: 'A2' } });
  });

  it('moving a profile to another origin drops its key unless a new key comes with it', async () => {
    const store = new ProfileStore(dir, secrets);
    const p = await store.save({ name: 'A', ...base, api_key: 'sk-origin-a-000000000' });
    // Same origin, another path: the key stays.
    await store.save({ id: p.id, name: 'A', ...base, base_url: 'https://api.example.com/v2' });
    expect((await store.get(p.id))!.apiKey).toBe('sk-origin-a-000000000');
    // Another origin: the key is dropped.
    const moved = await store.save({ id: p.id, name: 'A', ...base, base_url: 'https://evil.example.net/v1' });
    expect(moved.api_key.has_value).toBe(false);
    expect((await store.get(p.id))!.apiKey).toBeUndefined();
    // Another origin with a new key: that key is stored.
    await store.save({ id: p.id, name: 'A', ...base, base_url: 'https://other.example.org/v1', api_key: 'sk-origin-c-000000000' });
    expect((await store.get(p.id))!.apiKey).toBe('sk-origin-c-000000000');
  });

  it('Test connection borrows a stored key only for the same origin', async () => {
    const store = new ProfileStore(dir, secrets);
    const p = await store.save({ name: 'A', ...base, api_key: 'sk-borrow-00000000000' });
    expect(await store.testTarget({ id: p.id })).toEqual({ provider: base.provider, base_url: base.base_url, apiKey: 'sk-borrow-00000000000' });
    expect(await store.testTarget({ id: p.id, provider: base.provider, base_url: 'https://api.example.com/other' })).toMatchObject({ apiKey: 'sk-borrow-00000000000' });
    expect(await store.testTarget({ id: p.id, provider: base.provider, base_url: 'http://127.0.0.1:9/v1' })).toEqual({ provider: base.provider, base_url: 'http://127.0.0.1:9/v1' });
    expect(await store.testTarget({ id: p.id, api_key: 'sk-typed-000000000000' })).toMatchObject({ apiKey: 'sk-typed-000000000000' });
    await expect(store.testTarget({ id: 'nope' })).rejects.toBeInstanceOf(ProfileNotFoundError);
  });

  it('prefills image input and context window from the model name, and keeps user overrides', async () => {
    const store = new ProfileStore(dir, secrets);
    const local = await store.save({ name: 'L', provider: 'openai-compatible', base_url: 'http://127.0.0.1:11434/v1', model: 'llama3.1:8b' });
    expect(local).toMatchObject({ accepts_images: false, context_window: 8192, key_in_clear: false });
    const vision = await store.save({ name: 'V', provider: 'openai-compatible', base_url: 'http://127.0.0.1:11434/v1', model: 'llava:13b' });
    expect(vision.accepts_images).toBe(true);
    const o = await store.save({ id: vision.id, name: 'V', provider: 'openai-compatible', base_url: 'http://127.0.0.1:11434/v1', model: 'llava:13b', accepts_images: false, context_window: 4096, system_prompt: 'Be brief.' });
    expect(o).toMatchObject({ accepts_images: false, context_window: 4096, system_prompt: 'Be brief.' });
    // Saving again without those fields keeps them (same model).
    expect(await store.save({ id: vision.id, name: 'V2', provider: 'openai-compatible', base_url: 'http://127.0.0.1:11434/v1', model: 'llava:13b' })).toMatchObject({ accepts_images: false, context_window: 4096, system_prompt: 'Be brief.' });
    // A key for http:// to another machine is flagged.
    expect(await store.save({ name: 'C', provider: 'openai-compatible', base_url: 'http://10.0.0.5:8000/v1', model: 'm', api_key: 'sk-clear-000000000000' })).toMatchObject({ key_in_clear: true });
  });

  it('a window left empty stays a guess: not written to the file, guessed again for a new address, and null clears a given one', async () => {
    const store = new ProfileStore(dir, secrets);
    const p = await store.save({ name: 'L', provider: 'openai-compatible', base_url: 'http://127.0.0.1:11434/v1', model: 'fake-model' });
    expect(p).toMatchObject({ context_window: 8192, context_window_source: 'default' });
    const stored = () => fs.readFile(path.join(dir, 'model_profiles.json'), 'utf8').then((t) => (JSON.parse(t) as { profiles: Array<Record<string, unknown>> }).profiles[0]!);
    // The file holds that it is a guess, not a number that would later read as the model's window.
    expect(await stored()).not.toHaveProperty('context_window');
    expect((await stored()).context_window_source).toBe('default');
    // Read back (next launch): still the guess.
    expect((await new ProfileStore(dir, secrets).view(p.id))).toMatchObject({ context_window: 8192, context_window_source: 'default' });
    // Saved again at a remote address, same model: guessed again for that address.
    expect(await store.save({ id: p.id, name: 'L', provider: 'openai-compatible', base_url: 'https://api.example.com/v1', model: 'fake-model' })).toMatchObject({ context_window: 32_768, context_window_source: 'default' });
    // A window given by the user is kept while the field is not sent; null (the field emptied) makes it a guess again.
    await store.save({ id: p.id, name: 'L', provider: 'openai-compatible', base_url: 'https://api.example.com/v1', model: 'fake-model', context_window: 50_000 });
    expect(await store.save({ id: p.id, name: 'L', provider: 'openai-compatible', base_url: 'https://api.example.com/v1', model: 'fake-model' })).toMatchObject({ context_window: 50_000, context_window_source: 'user' });
    expect((await stored()).context_window).toBe(50_000);
    expect(await store.save({ id: p.id, name: 'L', provider: 'openai-compatible', base_url: 'https://api.example.com/v1', model: 'fake-model', context_window: null })).toMatchObject({ context_window: 32_768, context_window_source: 'default' });
    expect(await stored()).not.toHaveProperty('context_window');
  });

  it('a name another profile has is refused (case and spaces ignored); a profile keeps its own name', async () => {
    const store = new ProfileStore(dir, secrets);
    const a = await store.save({ name: 'Work', ...base });
    await expect(store.save({ name: ' work ', ...base })).rejects.toBeInstanceOf(DuplicateProfileNameError);
    const b = await store.save({ name: 'Home', ...base });
    await expect(store.save({ id: b.id, name: 'WORK', ...base })).rejects.toBeInstanceOf(DuplicateProfileNameError);
    expect((await store.save({ id: a.id, name: 'Work', ...base, model: 'other' })).name).toBe('Work');
    expect((await store.list()).map((p) => p.name)).toEqual(['Work', 'Home']);
  });

  it('setDefault, unknown ids, and an unreadable file that is kept', async () => {
    const store = new ProfileStore(dir, secrets);
    const a = await store.save({ name: 'A', ...base });
    const b = await store.save({ name: 'B', ...base });
    expect((await store.setDefault(b.id)).find((p) => p.is_default)!.id).toBe(b.id);
    expect((await store.getDefault())!.profile.id).toBe(b.id);
    await expect(store.setDefault('nope')).rejects.toBeInstanceOf(ProfileNotFoundError);
    await expect(store.remove('nope')).rejects.toBeInstanceOf(ProfileNotFoundError);
    await expect(store.save({ id: 'nope', name: 'X', ...base })).rejects.toBeInstanceOf(ProfileNotFoundError);
    expect((await store.save({ id: a.id, name: 'A', ...base, make_default: true })).is_default).toBe(true);

    await fs.writeFile(path.join(dir, 'model_profiles.json'), '{broken');
    const broken = new ProfileStore(dir, secrets);
    expect(await broken.list()).toEqual([]);
    expect(broken.warning).toMatch(/could not be read/);
    expect(await fs.readFile(path.join(dir, 'model_profiles.json'), 'utf8')).toBe('{broken');
    await broken.save({ name: 'N', ...base });
    const kept = (await fs.readdir(dir)).filter((f) => f.startsWith('model_profiles.json.unreadable-'));
    expect(kept).toHaveLength(1);
    expect(await fs.readFile(path.join(dir, kept[0]!), 'utf8')).toBe('{broken');
  });
});

describe('the single-model facade (settings.getModel / setModel, sampling, the current chat loop)', () => {
  it('answers for the default profile, with that profile’s key even if the default changes in between', async () => {
    const profiles = new ProfileStore(dir, secrets);
    const settings = new SettingsStore(profiles);
    expect(await settings.view()).toMatchObject({ configured: false, base_url: '' });
    await settings.set({ ...base, api_key: 'sk-facade-a-00000000' });
    const [a] = await profiles.list();
    expect(a).toMatchObject({ name: 'gpt-4o-mini', is_default: true });
    const b = await profiles.save({ name: 'B', provider: 'openai-compatible', base_url: 'https://b.example.com/v1', model: 'mb', api_key: 'sk-facade-b-00000000' });
    const s = await settings.get();
    await profiles.setDefault(b.id);
    expect(s.base_url).toBe(base.base_url);
    expect(await settings.apiKey()).toBe('sk-facade-a-00000000');
    expect(await settings.get()).toMatchObject({ base_url: 'https://b.example.com/v1' });
    expect(await settings.apiKey()).toBe('sk-facade-b-00000000');
    // setModel edits the default profile (B now), not A.
    await settings.set({ provider: 'openai-compatible', base_url: 'https://b.example.com/v1', model: 'mb2' });
    expect((await profiles.get(b.id))!.profile.model).toBe('mb2');
    expect((await profiles.get(a!.id))!.profile.model).toBe('gpt-4o-mini');
  });
});
