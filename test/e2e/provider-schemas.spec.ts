/**
 * Schemas every provider accepts, in the real UI: a server whose tools carry schemas real
 * providers refuse below the top level; its card names the tool left out for Gemini models and
 * why; with a scripted Gemini-style provider that refuses the whole request when any tool schema
 * breaks its rules, a chat still answers and the poisoned tool can be called.
 */
import path from 'node:path';
import { startFakeModel, type WireRequest } from '../fixtures/fake-model.js';
import { geminiProblem } from '../fixtures/provider-schema-rules.js';
import { ROOT, SCREENSHOTS, addLocalServer, commandLine, configureModel, expect, expectStatus, openApp, openChat, sendMessage, setApprovalMode, test } from './helpers.js';

const POISONED = path.join(ROOT, 'test/fixtures/poisoned-schema-server.mjs');

test('the card names the tool left out for Gemini; a Gemini-style chat answers and calls the poisoned tool', async ({ page, shell }) => {
  const model = await startFakeModel({
    validateTools: (tools: NonNullable<WireRequest['tools']>) => tools.map((t, i) => geminiProblem(i, t.function.parameters)).find((p) => p) ?? null,
  });
  try {
    await openApp(page, shell.current);
    const card = await addLocalServer(page, { name: 'bad', command: commandLine([process.execPath, POISONED]) });
    await expectStatus(card, 'ready');
    const issues = card.getByTestId('server-issue');
    await expect(issues).toHaveCount(1);
    await expect(issues.first()).toHaveText('The tool “recursive” is left out of requests to Gemini models: its input schema refers to itself, which these models cannot take. Other models still get it.');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'provider-schemas-card.png'), fullPage: true });
    await configureModel(page, { baseUrl: model.baseUrl, model: 'gemini-2.5-flash' });
    await setApprovalMode(page, 'Never ask');
    await openChat(page);
    await sendMessage(page, 'hello');
    await expect(page.getByTestId('msg-assistant').last()).toHaveText('echo: hello', { timeout: 15_000 });
    await sendMessage(page, 'call bad__poisoned {"text":"hi","mode":"fast"}');
    await expect(page.getByTestId('msg-assistant').last()).toContainText('poisoned got {"text":"hi","mode":"fast"}', { timeout: 15_000 });
    expect(model.requests.every((r) => !r.body.tools?.some((t) => t.function.name === 'bad__recursive'))).toBe(true);
  } finally {
    await model.close();
  }
});
