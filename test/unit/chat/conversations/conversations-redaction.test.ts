/**
 * A stored secret that reaches a transcript entry is never saved in clear (docs/ARCHITECTURE.md
 * "Conversations", "Secrets at rest"): the model API key and a server's env secret are planted
 * into entries through real paths — the model (the fake, over HTTP) passes them as a tool call's
 * arguments, a real MCP server (the SDK fixture's `echo`) returns them as its result, and the
 * model's streamed answer repeats them — then the database file, its WAL and its shared-memory
 * file are read as bytes while the app runs and after it stopped: no secret, in any of the
 * canary test's encodings.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { ChatEvent, Envelope, TranscriptItem } from '../../../../preload/contract/index.js';
import { DATABASE_FILE } from '../../../../main/chat/conversations/database.js';
import { AppCore } from '../../../../main/core.js';
import { createDispatcher } from '../../../../main/ipc/dispatch.js';
import { MemorySecretStore } from '../../../../main/secrets/store.js';
import { startFakeModel, textOf, type FakeModel, type WireRequest } from '../../../fixtures/fake-model.js';
import { makeTempDir, removeDir, sdkCommand, waitFor } from '../../helpers.js';

const API_KEY = 'CANARY-key-4e1f9a0b7c2d3e58';
const ENV_SECRET = 'CANARY-env-b83c6d1e0f9a2754';
const SECRETS = [API_KEY, ENV_SECRET];

/** Every encoding a leak could take (as the canary test checks: plain, base64, base64url, URL, JSON, shifted base64 windows). */
function encodings(secret: string): string[] {
  return [
    secret,
    Buffer.from(secret).toString('base64'),
    Buffer.from(secret).toString('base64url'),
    encodeURIComponent(secret),
    JSON.stringify(secret).slice(1, -1),
    Buffer.from(`x${secret}`).toString('base64').slice(4, 20),
    Buffer.from(`xy${secret}`).toString('base64').slice(4, 20),
  ];
}

/** The conversation database's files (main file, WAL, shared memory) that exist, as text. */
function databaseBytes(dir: string): Array<{ file: string; text: string }> {
  return ['', '-wal', '-shm']
    .map((suffix) => path.join(dir, DATABASE_FILE + suffix))
    .filter((f) => existsSync(f))
    .map((f) => ({ file: path.basename(f), text: readFileSync(f).toString('latin1') }));
}

function leaks(dir: string): string[] {
  const found: string[] = [];
  for (const { file, text } of databaseBytes(dir)) for (const s of SECRETS) for (const e of encodings(s)) if (text.includes(e)) found.push(`${file}: ${e}`);
  return found;
}

/** The model: `leak` → call the echo tool with both secrets; a tool result → repeat it; `say` → an answer with both. */
function script(req: WireRequest) {
  const last = req.messages[req.messages.length - 1];
  if (last?.role === 'tool') return { text: `The tool said: ${textOf(last)}` };
  const said = textOf([...req.messages].reverse().find((m) => m.role === 'user'));
  if (said === 'leak') {
    const tool = req.tools!.find((t) => t.function.name.endsWith('__echo'))!;
    return { toolCalls: [{ name: tool.function.name, arguments: { text: `key ${API_KEY} env ${ENV_SECRET}` } }] };
  }
  return { text: `Your key is ${API_KEY} and the token is ${ENV_SECRET}, split over many chunks.` };
}

let dir: string;
let core: AppCore | null;
let model: FakeModel;

beforeEach(async () => {
  dir = makeTempDir('op-conv-redact-');
  model = await startFakeModel({ script, chunkDelayMs: 2 });
});
afterEach(async () => {
  await core?.shutdown();
  await model.close();
  await removeDir(dir);
});

it('a stored secret echoed into a tool call, its result and an answer is never in the database file or its WAL', async () => {
  core = new AppCore({ stateDir: dir, shell: 'browser', secrets: new MemorySecretStore() });
  const events: ChatEvent[] = [];
  core.subscribe((event, payload) => {
    if (event === 'chat.event') events.push(payload as ChatEvent);
  });
  await core.start();
  const d = createDispatcher(core);
  const ok = async <T>(channel: string, input: unknown): Promise<T> => {
    const r = (await d.invoke(channel, input)) as Envelope<T>;
    if (!r.ok) throw new Error(`${channel}: ${r.error.code}: ${r.error.message}`);
    return r.value;
  };
  await ok('settings.setModel', { provider: 'openai-compatible', base_url: model.baseUrl, model: 'fake', api_key: API_KEY });
  await ok('servers.add', { name: 'local', config: { type: 'local', command: sdkCommand(), env: { TOKEN: ENV_SECRET } } });
  await ok('permissions.setMode', { mode: 'never_ask' });
  expect(await waitFor(() => core!.host.view('local').state.kind === 'ready', 15_000)).toBe(true);
  const ended = (runId: string): boolean => events.some((e) => e.run_id === runId && e.type === 'run-end');

  const first = await ok<{ run_id: string }>('chat.send', { conversation_id: 'c', text: 'leak' });
  expect(await waitFor(() => ended(first.run_id), 15_000)).toBe(true);
  const second = await ok<{ run_id: string }>('chat.send', { conversation_id: 'c', text: 'say' });
  expect(await waitFor(() => ended(second.run_id), 15_000)).toBe(true);

  // The secrets really travelled: the server echoed both back to the model, which repeated them.
  const toolMessage = model.requests.flatMap((r) => r.body.messages).find((m) => m.role === 'tool');
  expect(textOf(toolMessage)).toContain(ENV_SECRET);
  expect(model.requests.at(-1)!.authorization).toBe(`Bearer ${API_KEY}`);
  // The files while the app runs (the entries are in the WAL): no secret in any encoding.
  expect(databaseBytes(dir).map((f) => f.file)).toContain(`${DATABASE_FILE}-wal`);
  expect(leaks(dir)).toEqual([]);
  // What was saved has them redacted, in each kind of entry.
  const items = core.conversationStore.get('c').items;
  const tool = items.find((i): i is Extract<TranscriptItem, { kind: 'tool' }> => i.kind === 'tool')!;
  expect(tool.state).toBe('ok');
  expect(JSON.stringify(tool.args)).toContain('[redacted]');
  expect(JSON.stringify(tool.content)).toContain('[redacted]');
  const answers = items.filter((i) => i.kind === 'assistant').map((i) => (i as { text: string }).text);
  expect(answers.at(-1)).toMatch(/^Your key is \[redacted\] and the token is \[redacted\]/);

  // And after the app stopped (the WAL checkpointed into the file).
  await core.shutdown();
  core = null;
  expect(leaks(dir)).toEqual([]);
  // The check can see a secret: the file does hold the saved entries it searched.
  expect(databaseBytes(dir).some((f) => f.text.includes('The tool said: key [redacted]'))).toBe(true);
});
