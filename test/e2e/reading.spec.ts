/**
 * A chat that reads well, in real Chromium through the browser shell: answers streamed by a fake
 * OpenAI-compatible model render as GitHub-flavoured markdown (table, highlighted code with a copy
 * button that really fills the clipboard); HTML from the model never executes; links are safe;
 * huge or deeply nested markdown is cut without freezing; the transcript never scrolls sideways;
 * both colour schemes are readable at 125 % zoom (screenshots in artifacts/screenshots).
 */
import path from 'node:path';
import { defaultScript, startFakeModel, textOf, type FakeModel, type Turn, type WireRequest } from '../fixtures/fake-model.js';
import { startFakeAnthropic } from '../fixtures/fake-anthropic.js';
import { addLocalServer, commandLine, configureModel, expect, expectStatus, openApp, openChat, openSettings, ROOT, sendMessage, SCREENSHOTS, serverCard, test } from './helpers.js';

// Never depend on a model server that happens to run on this machine.
process.env.OPENPROGRAM_LOCAL_MODEL_PROBES = 'none';

const RICH = [
  '# Release notes',
  '',
  'Here is **bold**, *italic*, `inline code` and a [link](https://example.com/docs).',
  '',
  '| Tool | Calls | Status |',
  '| --- | ---: | --- |',
  '| read_file | 12 | ok |',
  '| write_file | 3 | failed |',
  '',
  '- first item',
  '- second item',
  '  1. nested one',
  '',
  '```python',
  'def greet(name: str) -> str:',
  '    return f"Hello, {name}!"  # a friendly greeting',
  '```',
  '',
  '> A quote with a very long URL https://example.com/' + 'a'.repeat(300),
  '',
  '```text',
  'x'.repeat(400),
  '```',
].join('\n');

const HOSTILE = [
  'Before <script>window.__pwned = "script"</script> after.',
  '',
  '<img src="x" onerror="window.__pwned = \'img\'">',
  '',
  '[click me](javascript:window.__pwned=\'link\')',
  '',
  '<a href="javascript:window.__pwned=\'html-link\'">html link</a>',
  '',
  '<iframe src="https://example.com"></iframe>',
  '',
  '[safe](https://example.org/page)',
  '',
  'See [the structure](structure.md) next to it.',
].join('\n');

function script(req: WireRequest): Turn {
  const user = textOf([...req.messages].reverse().find((m) => m.role === 'user'));
  if (req.messages.at(-1)?.role === 'tool') return defaultScript(req);
  if (user === 'rich') return { text: RICH };
  if (user === 'hostile') return { text: HOSTILE };
  if (user === 'nested') return { text: `Deep:\n\n${'>'.repeat(5000)} bottom\n\n${'['.repeat(20000)}x` };
  // 200,000 characters in 2,000 streamed chunks.
  if (user === 'huge') return { text: `# Big\n\n${`${'w'.repeat(99)} `.repeat(2000)}\n\nTHE-END-MARKER` };
  return defaultScript(req);
}

let model: FakeModel;
test.beforeAll(async () => {
  model = await startFakeModel({ script, chunkDelayMs: 1 });
});
test.afterAll(async () => {
  await model?.close();
});

test.describe('markdown answers', () => {
  test('table, highlighted code block, copy button puts the code on the clipboard; nothing scrolls sideways', async ({ page, shell, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: shell.current.origin });
    await openApp(page, shell.current);
    await configureModel(page, { baseUrl: model.baseUrl, model: 'fake-1' });
    await openChat(page);
    await sendMessage(page, 'rich');
    const answer = page.getByTestId('msg-assistant').last();
    await expect(answer.getByRole('heading', { name: 'Release notes' })).toBeVisible();
    await expect(answer.locator('[data-streamdown="strong"]', { hasText: 'bold' })).toBeVisible();
    await expect(answer).not.toContainText('**bold**');
    const table = answer.locator('table');
    await expect(table.locator('th')).toHaveText(['Tool', 'Calls', 'Status']);
    await expect(table.locator('tbody tr')).toHaveCount(2);
    await expect(answer.locator('ul > li').first()).toHaveText('first item');
    // The code block is highlighted (coloured token spans) once shiki has loaded the grammar.
    const block = answer.locator('[data-streamdown="code-block"]').first();
    await expect(block).toContainText('def greet(name: str)');
    await expect.poll(async () => block.locator('code span span[style*="--sdm-c"]').count(), { timeout: 20_000 }).toBeGreaterThan(3);
    // … by a worker of the app's own origin: the grammar was loaded there, never in the page
    // (compiling it on the page's thread froze the window while an answer streamed). The worker
    // may load only the app's own modules: a fetch from it is refused (main/csp.ts WORKER_CSP).
    const worker = page.workers().find((w) => w.url().includes('highlight.worker'));
    expect(worker, 'the code-highlighting worker').toBeTruthy();
    expect(new URL(worker!.url()).origin).toBe(shell.current.origin);
    const scripts = (w: { evaluate: (f: () => string[]) => Promise<string[]> }) => w.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
    expect((await scripts(worker!)).some((u) => /\/python-[^/]*\.js$/.test(u))).toBe(true);
    expect((await scripts(page)).some((u) => /\/python-[^/]*\.js$/.test(u))).toBe(false);
    expect(await worker!.evaluate(() => fetch('/index.html').then(() => 'fetched', () => 'refused'))).toBe('refused');
    await expect(page.getByRole('button', { name: 'Stop' })).toBeHidden();
    // Copy puts exactly the code on the clipboard.
    await block.getByRole('button', { name: 'Copy code' }).click();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied.replace(/\n$/, '')).toBe('def greet(name: str) -> str:\n    return f"Hello, {name}!"  # a friendly greeting');
    // Links open outside the app (new browsing context, no opener).
    const link = answer.getByRole('link', { name: 'link' });
    await expect(link).toHaveAttribute('href', 'https://example.com/docs');
    await expect(link).toHaveAttribute('rel', /noopener/);
    // Long URL wraps, long code scrolls inside its own block: the transcript never scrolls sideways.
    const t = page.getByTestId('transcript');
    const { scrollWidth, clientWidth } = await t.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
    const wide = answer.locator('[data-streamdown="code-block-body"]').last();
    expect(await wide.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'reading-markdown.png') });
  });

  test('HTML from the model never executes: <script>, <img onerror>, javascript: links are inert', async ({ page, shell }) => {
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await openApp(page, shell.current);
    await configureModel(page, { baseUrl: model.baseUrl, model: 'fake-1' });
    await openChat(page);
    await sendMessage(page, 'hostile');
    const answer = page.getByTestId('msg-assistant').last();
    await expect(answer).toContainText('safe');
    await expect(page.getByRole('button', { name: 'Stop' })).toBeHidden();
    // Nothing ran …
    expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
    // … and nothing that could run is in the DOM (this holds even without the CSP).
    expect(await answer.locator('script, iframe, object, embed').count()).toBe(0);
    expect(await answer.locator('[onerror], [onload], [onclick]').count()).toBe(0);
    expect(await answer.locator('[href^="javascript:" i], [src^="javascript:" i]').count()).toBe(0);
    expect(await answer.locator('img').count()).toBe(0);
    // The javascript: links are shown as inert text, clicking them does nothing.
    await expect(answer.getByRole('link', { name: /click me|html link/ })).toHaveCount(0);
    const inert = answer.getByText('click me');
    await expect(inert).toBeVisible();
    await inert.click();
    expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
    // A relative link is plain text: not a link, no English "[blocked]" marker.
    await expect(answer).toContainText('See the structure next to it.');
    await expect(answer.getByRole('link', { name: 'the structure' })).toHaveCount(0);
    await expect(answer).not.toContainText('blocked');
    // The https link is a real link to the system browser.
    await expect(answer.getByRole('link', { name: 'safe' })).toHaveAttribute('href', 'https://example.org/page');
    expect(errors.filter((e) => /Content Security Policy/i.test(e))).toEqual([]);
  });

  test('pathologically nested and huge markdown render without freezing; the rest shows as text', async ({ page, shell }) => {
    await openApp(page, shell.current);
    await configureModel(page, { baseUrl: model.baseUrl, model: 'fake-1' });
    await openChat(page);
    await sendMessage(page, 'nested');
    const nested = page.getByTestId('msg-assistant').last();
    // Over 24,000 characters: folded; its rest (plain text past the nesting) shows on request.
    await nested.getByTestId('fold-rest').click({ timeout: 30_000 });
    await expect(nested.getByTestId('markdown-overflow')).toContainText('nested too deeply', { timeout: 30_000 });
    await expect(nested.getByTestId('markdown-overflow')).toContainText('>>>>> bottom');
    await expect(page.getByRole('button', { name: 'Stop' })).toBeHidden({ timeout: 60_000 });
    // The window still answers.
    expect(await page.evaluate(() => 1 + 1)).toBe(2);

    await sendMessage(page, 'huge');
    const huge = page.getByTestId('msg-assistant').last();
    await expect(page.getByRole('button', { name: 'Stop' })).toBeHidden({ timeout: 60_000 });
    // 200,000 characters: folded (docs/ARCHITECTURE.md "Conversations"); the rest shows on request,
    // past the markdown renderer's size limit as plain text.
    await expect(huge.getByTestId('markdown-overflow')).toHaveCount(0);
    await huge.getByTestId('fold-rest').click();
    await expect(huge.getByTestId('markdown-overflow')).toContainText('very long', { timeout: 60_000 });
    await expect(huge).toContainText('THE-END-MARKER', { timeout: 60_000 });
    await expect(huge.getByRole('heading', { name: 'Big' })).toBeVisible();
    const t = page.getByTestId('transcript');
    expect(await t.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  });
});

test.describe('model profiles', () => {
  test('Test connection reports a wrong URL and a wrong key in plain words, then lists the models to pick from', async ({ page, shell }) => {
    const guarded = await startFakeModel({ models: ['gpt-4o-mini', 'llama3.1:8b'], requireKey: 'sk-right-key-0000000000' });
    try {
      await openApp(page, shell.current);
      await openSettings(page, 'Model');
      const result = page.getByTestId('connection-result');
      // Wrong URL: the server answers 404 there.
      await page.getByLabel('Base URL').fill(guarded.baseUrl.replace('/v1', '/wrong'));
      await page.getByLabel('API key').fill('sk-right-key-0000000000');
      await page.getByRole('button', { name: 'Test connection' }).click();
      await expect(result).toContainText('says “not found”: check the base URL');
      // Nothing listening at all.
      await page.getByLabel('Base URL').fill('http://127.0.0.1:9/v1');
      await page.getByRole('button', { name: 'Test connection' }).click();
      await expect(result).toContainText('Nothing answers');
      // Wrong key.
      await page.getByLabel('Base URL').fill(guarded.baseUrl);
      await page.getByLabel('API key').fill('sk-wrong-key-0000000000');
      await page.getByRole('button', { name: 'Test connection' }).click();
      await expect(result).toContainText('refused the API key');
      // Right key: the models are listed and can be picked instead of typed.
      await page.getByLabel('API key').fill('sk-right-key-0000000000');
      await page.getByRole('button', { name: 'Test connection' }).click();
      await expect(result).toHaveText('Connected. The provider lists 2 models.');
      await page.getByLabel('Available models').selectOption('gpt-4o-mini');
      await expect(page.getByLabel('Model name')).toHaveValue('gpt-4o-mini');
      await expect(page.getByLabel(/Model accepts images/)).toBeChecked();
      await page.getByRole('button', { name: 'Save model' }).click();
      await expect(page.getByRole('status')).toHaveText('Saved.');
      await expect(page.getByTestId('profile-gpt-4o-mini')).toContainText('default');
      // The key was sent only as this endpoint's bearer token, and never shown back.
      expect(new Set(guarded.listRequests.map((r) => r.authorization))).toEqual(new Set(['Bearer sk-right-key-0000000000', 'Bearer sk-wrong-key-0000000000']));
      await expect(page.locator('body')).not.toContainText('sk-right-key');
    } finally {
      await guarded.close();
    }
  });

  test('an API key for http:// to another machine shows a clear-text warning', async ({ page, shell }) => {
    await openApp(page, shell.current);
    await openSettings(page, 'Model');
    await page.getByLabel('Base URL').fill('http://192.0.2.10:8000/v1');
    await expect(page.getByTestId('clear-text-warning')).toHaveCount(0);
    await page.getByLabel('API key').fill('sk-some-key-00000000000');
    await expect(page.getByTestId('clear-text-warning')).toContainText('travel unencrypted');
    await page.getByLabel('Base URL').fill('https://192.0.2.10:8000/v1');
    await expect(page.getByTestId('clear-text-warning')).toHaveCount(0);
    await page.getByLabel('Base URL').fill('http://127.0.0.1:8000/v1');
    await expect(page.getByTestId('clear-text-warning')).toHaveCount(0);
  });

  test('two profiles: each sends its own key to its own endpoint only', async ({ page, shell }) => {
    const a = await startFakeModel({ requireKey: 'sk-profile-A-0000000000' });
    const b = await startFakeAnthropic({ requireKey: 'sk-profile-B-0000000000' });
    try {
      await openApp(page, shell.current);
      await openSettings(page, 'Model');
      // Profile A (OpenAI-compatible).
      await page.getByLabel('Profile name').fill('Alpha');
      await page.getByLabel('Base URL').fill(a.baseUrl);
      await page.getByLabel('Model name').fill('fake-a');
      await page.getByLabel('API key').fill('sk-profile-A-0000000000');
      await page.getByRole('button', { name: 'Save model' }).click();
      await expect(page.getByRole('status')).toHaveText('Saved.');
      // Profile B (Anthropic).
      await page.getByRole('button', { name: '+ New profile' }).click();
      await page.getByLabel('Profile name').fill('Beta');
      await page.getByLabel('Provider').selectOption('anthropic');
      await page.getByLabel('Base URL').fill(b.baseUrl);
      await page.getByLabel('Model name').fill('claude-test-1');
      await page.getByLabel('API key').fill('sk-profile-B-0000000000');
      await page.getByRole('button', { name: 'Save model' }).click();
      await expect(page.getByRole('status')).toHaveText('Saved.');
      await expect(page.getByTestId('profile-Alpha')).toContainText('default');
      // Test connection of the saved B uses B's stored key with B's headers.
      await page.getByRole('button', { name: 'Test connection' }).click();
      await expect(page.getByTestId('connection-result')).toHaveText('Connected. The provider lists 3 models.');

      // Chat with the default (A), then make B the default and chat again.
      await openChat(page);
      await sendMessage(page, 'hello alpha');
      await expect(page.getByTestId('msg-assistant').last()).toHaveText('echo: hello alpha');
      await openSettings(page, 'Model');
      await page.getByTestId('profile-Beta').getByRole('button', { name: 'Make default' }).click();
      await expect(page.getByTestId('profile-Beta')).toContainText('default');
      await openChat(page);
      await page.getByRole('button', { name: 'New chat' }).click();
      await sendMessage(page, 'hello beta');
      await expect(page.getByTestId('msg-assistant').last()).toHaveText('echo: hello beta');

      expect(a.requests.length).toBeGreaterThan(0);
      expect(b.requests.length).toBeGreaterThan(0);
      expect(new Set(a.requests.map((r) => r.authorization))).toEqual(new Set(['Bearer sk-profile-A-0000000000']));
      expect(new Set(b.requests.map((r) => r.apiKey))).toEqual(new Set(['sk-profile-B-0000000000']));
      expect(b.listRequests.every((r) => r.apiKey === 'sk-profile-B-0000000000' && r.authorization === undefined)).toBe(true);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

test.describe('first launch with a local model server', () => {
  let ollama: FakeModel;
  test.beforeAll(async () => {
    ollama = await startFakeModel({ models: ['llama3.2:3b', 'llava:7b'] });
    // The shell of each test below starts after this and probes the fake instead of 127.0.0.1:11434.
    process.env.OPENPROGRAM_LOCAL_MODEL_PROBES = `ollama=${ollama.baseUrl},lmstudio=http://127.0.0.1:9/v1`;
  });
  test.afterAll(async () => {
    process.env.OPENPROGRAM_LOCAL_MODEL_PROBES = 'none';
    await ollama?.close();
  });

  test('offers the running Ollama with its models; one click makes it the profile and chat works', async ({ page, shell }) => {
    await openApp(page, shell.current);
    await openChat(page);
    const offer = page.getByTestId('local-offer-ollama');
    await expect(offer).toContainText('Ollama is running on this computer with 2 models.');
    await expect(page.getByTestId('local-offer-lmstudio')).toHaveCount(0);
    await offer.getByLabel('Ollama model').selectOption('llava:7b');
    await offer.getByRole('button', { name: 'Use Ollama' }).click();
    await expect(page.locator('.chat-toolbar')).toContainText('Model: llava:7b');
    await sendMessage(page, 'hi local');
    await expect(page.getByTestId('msg-assistant').last()).toHaveText('echo: hi local');
    expect(ollama.requests.at(-1)?.body.model).toBe('llava:7b');
    // The new profile is in Settings, marked default, images on (a vision model), no key.
    await openSettings(page, 'Model');
    const item = page.getByTestId('profile-Ollama · llava:7b');
    await expect(item).toContainText('default');
    await expect(page.getByLabel(/Model accepts images/)).toBeChecked();
    await expect(page.getByTestId('local-offers')).toHaveCount(0);
  });
});

const EVERYTHING = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`${scheme} theme at 125 % zoom`, () => {
    // 125 % zoom of a 1200×800 window: 960×640 CSS pixels drawn at 1.25 device pixels each.
    test.use({ colorScheme: scheme, viewport: { width: 960, height: 640 }, deviceScaleFactor: 1.25 });

    test(`chat, tool results and settings follow the OS (${scheme})`, async ({ page, shell }) => {
      await openApp(page, shell.current);
      const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      expect(bg).toBe(scheme === 'dark' ? 'rgb(17, 20, 24)' : 'rgb(255, 255, 255)');
      await configureModel(page, { baseUrl: model.baseUrl, model: 'fake-1' });
      await page.screenshot({ path: path.join(SCREENSHOTS, `reading-settings-${scheme}-125.png`) });
      await addLocalServer(page, { name: 'every', command: commandLine(['node', EVERYTHING, 'stdio']) });
      await expectStatus(serverCard(page, 'every'), 'ready');
      await openChat(page);
      await sendMessage(page, 'rich');
      await expect(page.getByTestId('msg-assistant').last().locator('table')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Stop' })).toBeHidden();
      // A tool result that is markdown renders as markdown; an image result shows as an image.
      await sendMessage(page, 'call echo {"message":"\\n\\n## Tool says\\n\\n- **one**\\n- two"}');
      const echoCard = page.getByTestId('tool-card').last();
      await expect(echoCard.getByTestId('tool-result').getByRole('heading', { name: 'Tool says' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Stop' })).toBeHidden();
      await sendMessage(page, 'call get-tiny-image {}');
      const imageCard = page.getByTestId('tool-card').last();
      await expect(imageCard.getByTestId('tool-result').locator('img.tool-image')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Stop' })).toBeHidden();
      const t = page.getByTestId('transcript');
      expect(await t.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      await t.evaluate((el) => el.scrollTo(0, 0));
      await page.screenshot({ path: path.join(SCREENSHOTS, `reading-chat-${scheme}-125.png`) });
      await echoCard.evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await page.screenshot({ path: path.join(SCREENSHOTS, `reading-tools-${scheme}-125.png`) });
    });
  });
}

test('saving a profile checks its connection at once: a wrong key shows before the first chat', async ({ page, shell }) => {
  const guarded = await startFakeModel({ requireKey: 'sk-right-key-0000000000' });
  try {
    await openApp(page, shell.current);
    await configureModel(page, { baseUrl: guarded.baseUrl, model: 'fake-1', apiKey: 'sk-wrong-key-0000000000' });
    await expect(page.getByTestId('connection-result')).toContainText('refused the API key');
    await page.getByLabel('API key').fill('sk-right-key-0000000000');
    await page.getByRole('button', { name: 'Save model' }).click();
    await expect(page.getByTestId('connection-result')).toHaveText('Connected. The provider lists 2 models.');
  } finally {
    await guarded.close();
  }
});
