/**
 * Hundreds of tools and a context window learned from the provider (docs/ARCHITECTURE.md "Tool
 * discovery", "Context budget"), in Chromium against the real main core:
 * - 150 tools over two servers against a fake provider that refuses more than 128 tools the way
 *   OpenAI does: the first message is answered — the run offers what fits plus the host's tool
 *   search, the model finds the tool it needs and calls it after the user's approval — and the run
 *   shows what was offered and found; the tool picker shows each server's cost in tokens;
 * - "Test connection" against a fake Ollama fills in the model's context window and says it came
 *   from the provider; without one the form says the window is a guess;
 * - the run note counts tools as the chat's header and "Tools: N" do, says the app's own host__
 *   tools apart, and stands only above a run whose offer changed;
 * - a window field left empty stays empty when saved: the form says which guess the app uses, the
 *   profiles file holds no number, and a window the provider states is offered, not filled in.
 */
import { startFakeModel, textOf, type Turn, type WireRequest } from '../fixtures/fake-model.js';
import { readFileSync, realpathSync } from 'node:fs';
import { ROOT, addLocalServer, commandLine, configureModel, expect, expectStatus, openApp, openChat, openSettings, saveProfile, SCREENSHOTS, sendMessage, test } from './helpers.js';
import path from 'node:path';

const MANY = path.join(ROOT, 'test/fixtures/many-tools-stdio.mjs');
// Its real path: where node_modules is a link (a second worktree), the sandbox then shows the folder it is in.
const EVERYTHING = realpathSync(path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'));

/** Search when the search tool is offered; call the found `…weather_forecast`; then answer. */
function discoveringScript(req: WireRequest): Turn {
  const last = req.messages[req.messages.length - 1]!;
  if (last.role === 'tool') {
    const text = textOf(last);
    if (text.includes('"found"')) {
      const doc = JSON.parse(text) as { found: Array<{ name: string }>; already_offered?: string[] };
      const target = [...doc.found.map((f) => f.name), ...(doc.already_offered ?? [])].find((n) => n.endsWith('weather_forecast'));
      if (target && req.tools?.some((t) => t.function.name === target)) return { toolCalls: [{ name: target, arguments: { city: 'Paris' } }] };
      return { text: 'nothing found' };
    }
    return { text: `Tool result: ${text}` };
  }
  if (req.tools?.some((t) => t.function.name === 'host__search_tools')) return { toolCalls: [{ name: 'host__search_tools', arguments: { query: 'weather forecast' } }] };
  return { text: 'no search tool was offered' };
}

test('150 tools against a provider capped at 128: the first message is answered, and the run shows what was offered and found', async ({ page, shell }) => {
  test.setTimeout(120_000);
  const model = await startFakeModel({ maxTools: 128, script: discoveringScript, chunkDelayMs: 2 });
  try {
    await openApp(page, shell.current);
    // A model name with a large window: the provider's 128-tool cap is the limit that applies.
    await configureModel(page, { baseUrl: model.baseUrl, model: 'gpt-4o' });
    await expectStatus(await addLocalServer(page, { name: 'alpha', command: commandLine(['node', MANY, '--tools=100']) }), 'ready');
    await expectStatus(await addLocalServer(page, { name: 'beta', command: commandLine(['node', MANY, '--tools=49', '--offset=7', '--weather']) }), 'ready');
    await openChat(page);

    // The picker: 150 tools, each server's definitions in tokens.
    const picker = page.getByRole('button', { name: 'Tools for this conversation' });
    await expect(picker).toHaveText('Tools: 150');
    await picker.click();
    await expect(page.getByTestId('tool-picker-tokens')).toHaveText([/· ~[\d,]+ tokens/, /· ~[\d,]+ tokens/]);
    await expect(page.getByTestId('tool-picker-total-tokens')).toHaveText(/~[\d,]+ tokens of tool definitions/);
    await page.keyboard.press('Escape');

    await sendMessage(page, 'How should I dress in Paris tomorrow?');
    // The found tool passes the permission gate like any tool: the user is asked.
    const weather = page.getByTestId('tool-card').filter({ hasText: 'beta__weather_forecast' });
    await weather.getByTestId('approval-card').getByRole('button', { name: 'Allow once' }).click();
    await expect(page.getByTestId('msg-assistant').last()).toHaveText('Tool result: weather_forecast: {"city":"Paris"}', { timeout: 30_000 });

    // The run's tool cards: the search (its result lists what it found), then the found tool.
    await expect(page.getByTestId('tool-name')).toHaveText(['host__search_tools', 'beta__weather_forecast']);
    await expect(page.getByTestId('tool-card').first().getByTestId('tool-result')).toContainText('beta__weather_forecast');
    // The run notes: what was offered at first, and what was found.
    await expect(page.locator('[data-testid="run-tools-note"][data-stage="offered"]')).toContainText('127 of 150 tools were offered at first (the provider accepts at most 128 tools)');
    await expect(page.locator('[data-testid="run-tools-note"][data-stage="found"]')).toContainText('beta__weather_forecast');

    // Nothing was refused by the provider; no request carried more than 128 tools.
    expect(model.refused).toEqual([]);
    expect(model.requests.length).toBe(3);
    for (const r of model.requests) expect(r.body.tools!.length).toBeLessThanOrEqual(128);
    expect(model.requests[0]!.body.tools!.map((t) => t.function.name)).not.toContain('beta__weather_forecast');
    expect(model.requests[1]!.body.tools!.map((t) => t.function.name)).toContain('beta__weather_forecast');
  } finally {
    await model.close();
  }
});

test('the run note counts the tools the chat shows, says the app’s own tools apart, and is not repeated above every answer', async ({ page, shell }) => {
  test.setTimeout(120_000);
  const model = await startFakeModel({ chunkDelayMs: 1 });
  try {
    await openApp(page, shell.current);
    // A small window: server-everything's definitions do not all fit in its tool share.
    await saveProfile(page, { name: 'Small', baseUrl: model.baseUrl, model: 'fake-model', contextWindow: 4096 });
    await expectStatus(await addLocalServer(page, { name: 'every', command: commandLine(['node', EVERYTHING, 'stdio']) }), 'ready');
    await openChat(page);
    const picker = page.getByRole('button', { name: 'Tools for this conversation' });
    const count = Number((await picker.textContent())!.replace(/\D/g, ''));
    expect(count).toBeGreaterThan(5);
    await expect(page.locator('.chat-toolbar')).toContainText(`${count} tools available`);

    await sendMessage(page, 'Which tools can you use?');
    await expect(page.getByTestId('msg-assistant').last()).toHaveText('echo: Which tools can you use?', { timeout: 30_000 });
    const notes = page.locator('[data-testid="run-tools-note"][data-stage="offered"]');
    await expect(notes).toHaveCount(1);
    // The same total as the header and the picker; the app's own tools (resources and prompts) said apart.
    await expect(notes).toContainText(new RegExp(`^\\d+ of ${count} tools were offered at first \\(tool definitions may take about [\\d,]+ tokens of the context window\\)`));
    await expect(notes).toContainText(/The app’s own 4 tools for the servers’ resources and prompts \(host__…\) are counted apart: \d of them offered at first\./);

    // The next answers offer the same: no note above them.
    await sendMessage(page, 'Which tools can you use?');
    await expect(page.getByTestId('msg-assistant')).toHaveCount(2, { timeout: 30_000 });
    await sendMessage(page, 'Which tools can you use?');
    await expect(page.getByTestId('msg-assistant')).toHaveCount(3, { timeout: 30_000 });
    await expect(notes).toHaveCount(1);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'run-note-once.png') });
  } finally {
    await model.close();
  }
});

test('Test connection learns the context window from Ollama; without it the form says the window is a guess', async ({ page, shell }) => {
  const ollama = await startFakeModel({ models: ['llama3.2:3b'], native: 'ollama', contextLength: 32_768 });
  try {
    await openApp(page, shell.current);
    await openSettings(page, 'Model');
    await page.getByLabel('Base URL').fill(ollama.baseUrl);
    await page.getByLabel('Model name').fill('llama3.2:3b');
    await expect(page.getByTestId('context-window-source')).toHaveText('Empty: the app uses a guess from the model’s name. Test connection learns it where the provider says it.');
    await page.getByRole('button', { name: 'Test connection' }).click();
    await expect(page.getByTestId('connection-result')).toHaveText(/Connected/);
    await expect(page.getByLabel('Context window (tokens)')).toHaveValue('32768');
    await expect(page.getByTestId('context-window-source')).toHaveText('The provider says this model’s context window is 32,768 tokens.');
    await page.getByRole('button', { name: 'Save model' }).click();
    await expect(page.getByRole('status')).toHaveText('Saved.');
    await page.reload();
    await openSettings(page, 'Model');
    await expect(page.getByLabel('Context window (tokens)')).toHaveValue('32768');
    await expect(page.getByTestId('context-window-source')).toHaveAttribute('data-source', 'provider');
  } finally {
    await ollama.close();
  }
});

test('an empty context window stays empty on save: the form names the guess, and a window the provider states is offered', async ({ page, shell }) => {
  const plain = await startFakeModel({ models: ['fake-model'] });
  const ollama = await startFakeModel({ models: ['llama3.2:3b'], native: 'ollama', contextLength: 32_768 });
  try {
    await openApp(page, shell.current);
    await openSettings(page, 'Model');
    const field = page.getByLabel('Context window (tokens)');
    const source = page.getByTestId('context-window-source');
    await page.getByLabel('Profile name').fill('Plain');
    await page.getByLabel('Base URL').fill(plain.baseUrl);
    await page.getByLabel('Model name').fill('fake-model');
    await page.getByRole('button', { name: 'Save model' }).click();
    await expect(page.getByRole('status')).toHaveText('Saved.');
    // The saved form: still empty, and it says what the app assumes (a model on this computer: 8,192).
    await expect(field).toHaveValue('');
    await expect(source).toHaveAttribute('data-source', 'default');
    await expect(source).toHaveText('Empty: the app assumes 8,192 tokens, a guess from the model’s name. The provider does not say how large this model’s context window is: enter it if you know it.');
    const profiles = () => (JSON.parse(readFileSync(path.join(shell.stateDir, 'model_profiles.json'), 'utf8')) as { profiles: Array<Record<string, unknown>> }).profiles;
    expect(profiles()[0]).not.toHaveProperty('context_window');
    expect(profiles()[0]!.context_window_source).toBe('default');
    // Saved again unchanged, and after a reload: still empty.
    await page.getByRole('button', { name: 'Save model' }).click();
    await expect(page.getByRole('status')).toHaveText('Saved.');
    await page.reload();
    await openSettings(page, 'Model');
    await expect(field).toHaveValue('');
    expect(profiles()[0]).not.toHaveProperty('context_window');

    // A provider that states the window: the check after saving offers it; the field is left as it was.
    await page.getByRole('button', { name: '+ New profile' }).click();
    await page.getByLabel('Profile name').fill('Olla');
    await page.getByLabel('Base URL').fill(ollama.baseUrl);
    await page.getByLabel('Model name').fill('llama3.2:3b');
    await page.getByRole('button', { name: 'Save model' }).click();
    await expect(page.getByRole('status')).toHaveText('Saved.');
    await expect(page.getByTestId('connection-result')).toHaveText(/Connected/);
    await expect(field).toHaveValue('');
    await expect(source).toContainText('Empty: the app assumes 8,192 tokens');
    await source.getByRole('button', { name: 'Use 32,768' }).click();
    await expect(field).toHaveValue('32768');
    await expect(source).toHaveText('The provider says this model’s context window is 32,768 tokens.');
    await page.getByRole('button', { name: 'Save model' }).click();
    await expect(page.getByRole('status')).toHaveText('Saved.');
    expect(profiles().find((p) => p.name === 'Olla')).toMatchObject({ context_window: 32_768, context_window_source: 'provider' });

    // Emptied again: back to the guess, and no number in the file.
    await field.fill('');
    await page.getByRole('button', { name: 'Save model' }).click();
    await expect(page.getByRole('status')).toHaveText('Saved.');
    expect(profiles().find((p) => p.name === 'Olla')).not.toHaveProperty('context_window');
  } finally {
    await plain.close();
    await ollama.close();
  }
});
