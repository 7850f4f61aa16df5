/**
 * Redaction covers object keys (README "Security", docs/ARCHITECTURE.md "Security"): a real
 * stdio server returns structured content whose keys are a stored secret (its own env value);
 * the real AppCore runs the tool call from a chat, and neither the chat events nor the reply nor
 * the conversation database on disk holds the secret — while the entries themselves survive.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppCore } from '../../../main/core.js';
import { createDispatcher } from '../../../main/ipc/dispatch.js';
import { REDACTED } from '../../../main/secrets/redact.js';
import { MemorySecretStore } from '../../../main/secrets/store.js';
import { startFakeModel, type FakeModel } from '../../fixtures/fake-model.js';
import { makeTempDir, removeDir, ROOT, waitFor } from '../helpers.js';

const PROTOCOL = path.join(ROOT, 'test', 'fixtures', 'protocol-server.mjs');
const SECRET = 'KEYSECRET-4f1e9d2c7b6a5038';

let dir: string;
let core: AppCore;
let model: FakeModel;
const events: Array<{ event: string; text: string }> = [];

beforeAll(async () => {
  dir = makeTempDir('op-redact-keys-');
  model = await startFakeModel();
  core = new AppCore({ stateDir: dir, shell: 'browser', secrets: new MemorySecretStore() });
  core.subscribe((event, payload) => events.push({ event, text: JSON.stringify(payload) }));
  await core.start();
});

afterAll(async () => {
  await core?.shutdown();
  await model?.close();
  await removeDir(dir);
});

describe('a secret used as an object key', () => {
  it('never reaches a chat event, a reply or the conversation database', async () => {
    const d = createDispatcher(core);
    expect((await d.invoke('settings.setModel', { provider: 'openai-compatible', base_url: model.baseUrl, model: 'fake', api_key: 'model-key-123456' })).ok).toBe(true);
    expect((await d.invoke('permissions.setMode', { mode: 'never_ask' })).ok).toBe(true);
    const added = await d.invoke('servers.add', { name: 'proto', config: { type: 'local', command: [process.execPath, PROTOCOL], env: { TOKEN: SECRET } } });
    expect(added.ok).toBe(true);
    expect(await waitFor(() => core.host.view('proto').state.kind === 'ready', 15_000)).toBe(true);
    expect((await d.invoke('chat.send', { conversation_id: 'keys', text: 'call proto__keyed {}' })).ok).toBe(true);
    const ended = () => events.some((e) => e.event === 'chat.event' && e.text.includes('"conversation_id":"keys"') && e.text.includes('"type":"run-end"'));
    expect(await waitFor(ended, 15_000)).toBe(true);

    // The tool really ran and its structured content reached the window, keys redacted.
    const toolEvents = events.filter((e) => e.event === 'chat.event' && e.text.includes('"structured_content"'));
    expect(toolEvents.length).toBeGreaterThan(0);
    expect(toolEvents.some((e) => e.text.includes(JSON.stringify(REDACTED)) && e.text.includes(`x-${REDACTED}`))).toBe(true);
    for (const e of events) expect(e.text, `${e.event}`).not.toContain(SECRET);

    const reply = await d.invoke('conversations.get', { id: 'keys' });
    expect(reply.ok).toBe(true);
    expect(JSON.stringify(reply)).not.toContain(SECRET);
    expect(JSON.stringify(reply)).toContain('nested');

    // The database files (WAL included) never held it.
    for (const f of readdirSync(dir).filter((n) => n.startsWith('conversations.db'))) {
      expect(readFileSync(path.join(dir, f), 'latin1'), f).not.toContain(SECRET);
    }
  }, 40_000);
});
