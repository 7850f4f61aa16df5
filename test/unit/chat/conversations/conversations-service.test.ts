/**
 * Conversations through the contract (dispatcher + a real AppCore + the fake model): a second send
 * while a run streams is refused with `busy`; deleting a conversation stops its run first; a
 * corrupt database at start gives a visible warning and a fresh one; export through a save dialog
 * writes the file, says when the path cannot be written, and honours a cancel.
 */
import { readFileSync, writeFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { AppInfo, ConversationSummary, Envelope } from '../../../../preload/contract/index.js';
import { AppCore } from '../../../../main/core.js';
import { createDispatcher } from '../../../../main/ipc/dispatch.js';
import { MemorySecretStore } from '../../../../main/secrets/store.js';
import { startFakeModel, type FakeModel } from '../../../fixtures/fake-model.js';
import { makeTempDir, removeDir, waitFor } from '../../helpers.js';

let dir: string;
let core: AppCore | null;
let model: FakeModel;
let choose: string | null = null;

beforeEach(async () => {
  dir = makeTempDir('op-convsvc-');
  model = await startFakeModel({ chunkDelayMs: 30, script: () => ({ text: Array.from({ length: 40 }, (_, i) => `t${i}`).join(' ') }) });
  core = null;
});
afterEach(async () => {
  await core?.shutdown();
  await model.close();
  await removeDir(dir);
});

async function start(): Promise<ReturnType<typeof createDispatcher>> {
  core = new AppCore({ stateDir: dir, shell: 'browser', secrets: new MemorySecretStore(), chooseSavePath: async () => choose });
  await core.start();
  const d = createDispatcher(core);
  await d.invoke('settings.setModel', { provider: 'openai-compatible', base_url: model.baseUrl, model: 'fake' });
  return d;
}

const value = <T>(e: Envelope<unknown>): T => {
  if (!e.ok) throw new Error(`${e.error.code}: ${e.error.message}`);
  return e.value as T;
};

it('one run at a time per conversation: a second send is refused with busy; another conversation runs at once', async () => {
  const d = await start();
  value(await d.invoke('chat.send', { conversation_id: 'a', text: 'first' }));
  const again = await d.invoke('chat.send', { conversation_id: 'a', text: 'second' });
  expect(again).toMatchObject({ ok: false, error: { code: 'busy', message: expect.stringMatching(/still answering/) } });
  value(await d.invoke('chat.send', { conversation_id: 'b', text: 'other' }));
  const list = value<{ conversations: ConversationSummary[] }>(await d.invoke('conversations.list', {}));
  expect(list.conversations.filter((c) => c.running).map((c) => c.id).sort()).toEqual(['a', 'b']);
  // The refused message was not saved.
  const a = core!.conversationStore.get('a').items;
  expect(a.filter((i) => i.kind === 'user').map((i) => (i as { text: string }).text)).toEqual(['first']);
  expect(await waitFor(() => !core!.chat.isRunning('a') && !core!.chat.isRunning('b'), 15_000)).toBe(true);
});

it('deleting a conversation stops its run first and announces the removal', async () => {
  const d = await start();
  const removed: string[] = [];
  core!.subscribe((e, p) => {
    if (e === 'conversations.removed') removed.push((p as { id: string }).id);
  });
  value(await d.invoke('chat.send', { conversation_id: 'gone', text: 'long answer please' }));
  expect(await waitFor(() => core!.conversationStore.get('gone').items.length > 1, 5000)).toBe(true);
  value(await d.invoke('conversations.remove', { id: 'gone' }));
  expect(core!.chat.isRunning('gone')).toBe(false);
  expect(core!.conversationStore.has('gone')).toBe(false);
  expect(removed).toEqual(['gone']);
  expect(await d.invoke('conversations.get', { id: 'gone' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
});

it('a corrupt database at start: moved aside, a typed warning in app.info, a fresh one that works', async () => {
  writeFileSync(path.join(dir, 'conversations.db'), 'garbage that is not sqlite');
  const d = await start();
  const info = value<AppInfo>(await d.invoke('app.info', {}));
  expect(info.conversations_warning).toMatchObject({ code: 'set_aside', problem: 'damaged', dir, recovered: null });
  expect(readdirSync(dir).some((f) => f.startsWith('conversations.db.unusable-'))).toBe(true);
  value(await d.invoke('chat.send', { conversation_id: 'fresh', text: 'hello' }));
  expect(core!.conversationStore.has('fresh')).toBe(true);
});

it('export through the save dialog: writes the file, reports an unwritable path, honours a cancel', async () => {
  const d = await start();
  value(await d.invoke('chat.send', { conversation_id: 'e', text: 'export me' }));
  expect(await waitFor(() => !core!.chat.isRunning('e'), 15_000)).toBe(true);
  choose = path.join(dir, 'out.md');
  expect(value(await d.invoke('conversations.export', { id: 'e', format: 'markdown' }))).toEqual({ kind: 'saved', saved_to: choose });
  expect(readFileSync(choose, 'utf8')).toContain('## You\n\nexport me');
  choose = path.join(dir, 'no-such-folder', 'out.json');
  expect(await d.invoke('conversations.export', { id: 'e', format: 'json' })).toEqual({
    ok: false,
    // Where and the system's code, for the window to word (the message is English, for logs).
    error: { code: 'write_failed', message: `Could not write ${choose}: the folder does not exist.`, fact: { kind: 'write_failed', path: choose, errno: 'ENOENT' } },
  });
  choose = null;
  expect(value(await d.invoke('conversations.export', { id: 'e', format: 'json' }))).toEqual({ kind: 'cancelled' });
});
