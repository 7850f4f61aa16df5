/**
 * Learning a model's context window from the provider (main/chat/model-windows.ts, through
 * `listModels`), against the fake model server over real loopback HTTP: a list entry's
 * `context_length`, LM Studio's `/api/v0/models`, Ollama's `/api/show`; and the profile keeps
 * where its window came from (a guess says so).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { listModels } from '../../../main/chat/model-list.js';
import { ollamaWindow } from '../../../main/chat/model-windows.js';
import { ProfileStore } from '../../../main/chat/profiles.js';
import { MemorySecretStore } from '../../../main/secrets/store.js';
import { startFakeModel, type FakeModel } from '../../fixtures/fake-model.js';
import { makeTempDir, removeDir } from '../helpers.js';

let model: FakeModel | null = null;
let dir: string | null = null;
afterEach(async () => {
  await model?.close();
  model = null;
  if (dir) await removeDir(dir);
  dir = null;
});

describe('context windows from the provider', () => {
  it('an OpenAI-compatible list entry that states `context_length`', async () => {
    model = await startFakeModel({ models: ['a', 'b'], contextLength: 131_072 });
    expect(await listModels({ provider: 'openai-compatible', base_url: model.baseUrl })).toEqual([
      { id: 'a', accepts_images: false, context_window: 131_072 },
      { id: 'b', accepts_images: false, context_window: 131_072 },
    ]);
  });

  it('LM Studio: /api/v0/models `max_context_length`', async () => {
    model = await startFakeModel({ models: ['qwen2.5-7b-instruct'], contextLength: 32_768, native: 'lmstudio' });
    expect((await listModels({ provider: 'openai-compatible', base_url: model.baseUrl }))[0]).toMatchObject({ id: 'qwen2.5-7b-instruct', context_window: 32_768 });
  });

  it('Ollama: /api/show model_info `<arch>.context_length`, or `num_ctx` when the model sets one', async () => {
    model = await startFakeModel({ models: ['llama3.2:3b', 'qwen3:8b'], contextLength: 131_072, native: 'ollama' });
    expect((await listModels({ provider: 'openai-compatible', base_url: model.baseUrl })).map((m) => m.context_window)).toEqual([131_072, 131_072]);
    expect(ollamaWindow({ parameters: 'stop "<|eot|>"\nnum_ctx 8192', model_info: { 'general.architecture': 'llama', 'llama.context_length': 131072 } })).toBe(8192);
    expect(ollamaWindow({ model_info: { 'general.architecture': 'qwen3', 'qwen3.context_length': 40960 } })).toBe(40960);
    expect(ollamaWindow({ model_info: {} })).toBeNull();
  });

  it('a provider that says nothing: unknown (null), no error', async () => {
    model = await startFakeModel({ models: ['m'] });
    expect((await listModels({ provider: 'openai-compatible', base_url: model.baseUrl }))[0]!.context_window).toBeNull();
  });
});

describe('the profile says where its window comes from', () => {
  it('a guess (default), the provider’s, or the user’s; a guess follows a model change', async () => {
    dir = makeTempDir('op-windows-');
    const store = new ProfileStore(dir, new MemorySecretStore());
    const guessed = await store.save({ name: 'Local', provider: 'openai-compatible', base_url: 'http://127.0.0.1:11434/v1', model: 'llama3.2' });
    expect(guessed).toMatchObject({ context_window: 8192, context_window_source: 'default' });
    const learned = await store.save({ id: guessed.id, name: 'Local', provider: 'openai-compatible', base_url: 'http://127.0.0.1:11434/v1', model: 'llama3.2', context_window: 131_072, context_window_source: 'provider' });
    expect(learned).toMatchObject({ context_window: 131_072, context_window_source: 'provider' });
    const typed = await store.save({ id: guessed.id, name: 'Local', provider: 'openai-compatible', base_url: 'http://127.0.0.1:11434/v1', model: 'llama3.2', context_window: 16_384 });
    expect(typed).toMatchObject({ context_window: 16_384, context_window_source: 'user' });
    // Read back from the file by a new store.
    expect((await new ProfileStore(dir, new MemorySecretStore()).view(guessed.id)).context_window_source).toBe('user');
  });
});
