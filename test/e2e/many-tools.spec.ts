/**
 * Hundreds of tools and a context window learned from the provider (docs/ARCHITECTURE.md "Tool
 * discovery", "Context budget"), in Chromium against the real main core:
 * - 150 tools over two servers against a fake provider that refuses more than 128 tools the way
 *   OpenAI does: the first message is answered — the run offers what fits plus the host's tool
 *   search, the model finds the tool it needs and calls it after the user's approval — and the run
 *   shows what was offered and found; the tool picker shows each server's cost in tokens;
 * - "Test connection" against a fake Ollama fills in the model's context window and says it came
 *   from the provider; without one the form says the window is a guess.
 */
import { startFakeModel, textOf, type Turn, type WireRequest } from '../fixtures/fake-model.js';
import { ROOT, addLocalServer, commandLine, configureModel, expect, expectStatus, openApp, openChat, openSettings, sendMessage, test } from './helpers.js';
import path from 'node:path';

const MANY = path.join(ROOT, 'test/fixtures/many-tools-stdio.mjs');

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

test('Test connection learns the context window from Ollama; without it the form says the window is a guess', async ({ page, shell }) => {
  const ollama = await startFakeModel({ models: ['llama3.2:3b'], native: 'ollama', contextLength: 32_768 });
  try {
    await openApp(page, shell.current);
    await openSettings(page, 'Model');
    await page.getByLabel('Base URL').fill(ollama.baseUrl);
    await page.getByLabel('Model name').fill('llama3.2:3b');
    await expect(page.getByTestId('context-window-source')).toHaveText(/This is a guess/);
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
