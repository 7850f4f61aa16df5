/**
 * What the model is sent and what the user sees, in real Chromium through the browser shell, with a
 * fake OpenAI-compatible model whose request bodies are checked:
 * - tool images: a text-only profile gets a short note (no base64 anywhere in the request); a
 *   vision profile gets an image part when the image fits the per-image budget, a note when it does
 *   not (no image library is installed, so nothing is downscaled); the user always sees the image;
 * - tool progress (server-everything's long-running tool) shows as a bar with numbers in the tool
 *   card while the call runs, and is gone when it ends;
 * - a model endpoint that answers with an HTML page, or hangs, ends with a plain notice and a
 *   usable composer;
 * - a tiny context window: every request sent fits, the oldest tool result is shortened, and a
 *   notice says so.
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomPng } from '../fixtures/png.js';
import { startFakeModel, type FakeModel, type WireRequest } from '../fixtures/fake-model.js';
import { addLocalServer, commandLine, configureModel, expect, expectStatus, openApp, openChat, ROOT, saveProfile, SCREENSHOTS, sendMessage, serverCard, setApprovalMode, tempDir, test } from './helpers.js';

// Never depend on a model server that happens to run on this machine.
process.env.OPENPROGRAM_LOCAL_MODEL_PROBES = 'none';

const IMAGE_SERVER = path.join(ROOT, 'test/fixtures/image-server.mjs');
const SDK_SERVER = path.join(ROOT, 'test/fixtures/sdk-server.mjs');
const EVERYTHING = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

let model: FakeModel;
test.beforeAll(async () => {
  model = await startFakeModel({ chunkDelayMs: 1 });
});
test.afterAll(async () => {
  await model?.close();
});

/** Requests received for one model name since `from`. */
function requestsFor(name: string, from = 0): WireRequest[] {
  return model.requests.slice(from).map((r) => r.body).filter((b) => b.model === name);
}

/** The image parts of a request (OpenAI wire format: `image_url` with a data URL). */
function imageUrls(body: WireRequest): string[] {
  const out: string[] = [];
  for (const m of body.messages)
    if (Array.isArray(m.content))
      for (const p of m.content as Array<{ type: string; image_url?: { url: string } }>) if (p.type === 'image_url' && p.image_url) out.push(p.image_url.url);
  return out;
}

/** The text of the tool message(s) of a request. */
function toolTexts(body: WireRequest): string {
  return body.messages
    .filter((m) => m.role === 'tool')
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
    .join('\n');
}

async function waitIdle(page: import('@playwright/test').Page): Promise<void> {
  await expect(page.getByRole('button', { name: 'Stop' })).toBeHidden({ timeout: 30_000 });
}

test('tool images: a text-only model gets a note, a vision model gets the image when it fits the budget; the user always sees it', async ({ page, shell }) => {
  test.setTimeout(120_000);
  const dir = tempDir('png');
  const bigPng = randomPng(1_500_000);
  const smallPng = randomPng(300_000);
  const big = path.join(dir, 'big.png');
  const small = path.join(dir, 'small.png');
  writeFileSync(big, bigPng);
  writeFileSync(small, smallPng);
  const bigB64 = bigPng.toString('base64');
  const smallB64 = smallPng.toString('base64');
  try {
    await openApp(page, shell.current);
    await setApprovalMode(page, 'Never ask');
    await saveProfile(page, { name: 'Text', baseUrl: model.baseUrl, model: 'fake-text', acceptsImages: false });
    await saveProfile(page, { name: 'Vision', baseUrl: model.baseUrl, model: 'fake-vision', acceptsImages: true, asNew: true });
    // The image folder is an argument (the fixture ignores it), so the sandbox grants it to the server.
    await addLocalServer(page, { name: 'img', command: commandLine(['node', IMAGE_SERVER, dir]) });
    await expectStatus(serverCard(page, 'img'), 'ready');

    // 1. Text-only profile (the default), 1.5 MB image: a one-line note, no base64 in any request.
    await openChat(page);
    let from = model.requests.length;
    await sendMessage(page, `call png_file ${JSON.stringify({ path: big })}`);
    const card1 = page.getByTestId('tool-card').last();
    await expect(card1).toHaveAttribute('data-state', 'ok', { timeout: 30_000 });
    await waitIdle(page);
    const img1 = card1.getByTestId('tool-result').locator('img.tool-image');
    await expect(img1).toBeVisible();
    // The real PNG decodes (a 2 MB data URL may take a moment under load).
    await expect.poll(() => img1.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(Math.round(Math.sqrt(1_500_000 / 3)));
    let sent = requestsFor('fake-text', from);
    expect(sent.length).toBe(2);
    const textBodies = sent.map((b) => JSON.stringify(b));
    for (const s of textBodies) {
      expect(s).not.toContain(bigB64.slice(5000, 5100));
      expect(s.length).toBeLessThan(20_000);
    }
    expect(imageUrls(sent[1]!)).toEqual([]);
    expect(toolTexts(sent[1]!)).toMatch(/\[image\/png, 1\.5 MB: not shown to the model \(this model does not accept images\)\]/);
    expect(toolTexts(sent[1]!)).toContain(`png of ${bigPng.length} bytes`);

    // 2. Vision profile, same 1.5 MB image: over the 1 MB per-image budget → a note, not the image.
    await page.getByRole('button', { name: 'New chat' }).click();
    await page.getByLabel('Model profile').selectOption({ label: 'Vision (fake-vision)' });
    from = model.requests.length;
    await sendMessage(page, `call png_file ${JSON.stringify({ path: big })}`);
    const card2 = page.getByTestId('tool-card').last();
    await expect(card2).toHaveAttribute('data-state', 'ok', { timeout: 30_000 });
    await waitIdle(page);
    await expect(card2.getByTestId('tool-result').locator('img.tool-image')).toBeVisible();
    sent = requestsFor('fake-vision', from);
    expect(sent.length).toBe(2);
    for (const b of sent) {
      const s = JSON.stringify(b);
      expect(s).not.toContain(bigB64.slice(5000, 5100));
      expect(s.length).toBeLessThan(20_000);
      expect(imageUrls(b)).toEqual([]);
    }
    expect(toolTexts(sent[1]!)).toMatch(/\[image\/png, 1\.5 MB: not shown to the model \(larger than 1\.0 MB\)\]/);

    // 3. Vision profile, a 300 KB image: within budget → an image part in a follow-up user message
    //    (Chat Completions tool messages carry text only), byte for byte the tool's image.
    from = model.requests.length;
    await sendMessage(page, `call png_file ${JSON.stringify({ path: small })}`);
    const card3 = page.getByTestId('tool-card').last();
    await expect(card3).toHaveAttribute('data-state', 'ok', { timeout: 30_000 });
    await waitIdle(page);
    await expect(card3.getByTestId('tool-result').locator('img.tool-image')).toBeVisible();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'reading-models-image.png') });
    sent = requestsFor('fake-vision', from);
    expect(sent.length).toBe(2);
    expect(imageUrls(sent[0]!)).toEqual([]);
    const withImage = sent[1]!;
    // (compared as booleans and lengths: a failure must not print 400 KB of base64)
    expect(imageUrls(withImage).map((u) => u === `data:image/png;base64,${smallB64}`)).toEqual([true]);
    expect(toolTexts(withImage)).toMatch(/\[image\/png, 300 KB: attached as image 1 of the next message\]/);
    const last = withImage.messages.at(-1)!;
    expect(last.role).toBe('user');
    // The base64 travels only as the image part, never as text of a message.
    const asText = withImage.messages.map((m) => (typeof m.content === 'string' ? m.content : (m.content ?? []).map((p) => p.text ?? '').join(''))).join('\n');
    expect(asText).not.toContain(smallB64.slice(5000, 5100));
    // The text-only profile never received an image part in any request.
    expect(model.requests.filter((r) => r.body.model === 'fake-text').every((r) => imageUrls(r.body).length === 0)).toBe(true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a long-running tool shows a progress bar with numbers in its card while it runs; the bar is gone when it ends', async ({ page, shell }) => {
  test.setTimeout(90_000);
  await openApp(page, shell.current);
  await setApprovalMode(page, 'Never ask');
  await configureModel(page, { baseUrl: model.baseUrl, model: 'fake-1' });
  await addLocalServer(page, { name: 'every', command: commandLine(['node', EVERYTHING, 'stdio']) });
  await expectStatus(serverCard(page, 'every'), 'ready');
  await openChat(page);
  // 8 steps over 4 s: a notification every 0.5 s with progress k of total 8.
  await sendMessage(page, 'call trigger-long-running-operation {"duration":4,"steps":8}');
  const card = page.getByTestId('tool-card').last();
  const bar = card.getByTestId('tool-progress');
  await expect(bar).toBeVisible({ timeout: 15_000 });
  await expect(card).toHaveAttribute('data-state', 'running');
  const numbers = card.getByTestId('tool-progress-numbers');
  await expect(numbers).toHaveText(/^[1-8] \/ 8$/);
  const first = Number(/^(\d)/.exec((await numbers.textContent()) ?? '')![1]);
  // It advances while the call runs (a later notification replaces the earlier one).
  await expect.poll(async () => Number(/^(\d)/.exec((await numbers.textContent()) ?? '0')?.[1] ?? 0), { timeout: 10_000 }).toBeGreaterThan(first);
  const pb = bar.getByRole('progressbar', { name: 'Progress' });
  await expect(pb).toHaveAttribute('max', '8');
  await card.screenshot({ path: path.join(SCREENSHOTS, 'reading-models-progress.png') });
  await expect(card).toHaveAttribute('data-state', 'ok', { timeout: 20_000 });
  await expect(card.getByTestId('tool-progress')).toHaveCount(0);
  await expect(card.getByTestId('tool-result')).toContainText(/completed/i);
  await waitIdle(page);
  // After a reload the finished card shows no stale bar either.
  await page.reload();
  await expect(page.getByTestId('tool-card').last()).toHaveAttribute('data-state', 'ok');
  await expect(page.getByTestId('tool-progress')).toHaveCount(0);
});

test('an endpoint that answers with an HTML page, or hangs: a plain notice, and the composer is usable again', async ({ page, shell }) => {
  test.setTimeout(90_000);
  const faulty = await startFakeModel({ chunkDelayMs: 1 });
  try {
    await openApp(page, shell.current);
    await configureModel(page, { baseUrl: faulty.baseUrl, model: 'fake-1' });
    await openChat(page);
    const box = page.getByRole('textbox', { name: 'Message' });
    const notices = page.getByTestId('chat-notice');

    faulty.setFault('html-404');
    await sendMessage(page, 'first');
    await expect(notices.last()).toContainText('answered with a web page, not the model API', { timeout: 20_000 });
    await expect(notices.last()).not.toContainText('<');
    await waitIdle(page);
    await expect(box).toBeEnabled();

    faulty.setFault('html-200');
    await sendMessage(page, 'second');
    await expect(notices).toHaveCount(2, { timeout: 20_000 });
    await expect(notices.last()).toContainText('answered with a web page');
    await waitIdle(page);

    // A hang: the run shows it is waiting and Stop ends it at once (the 120 s deadline of
    // main/chat/model-fetch.ts is covered by the unit tests).
    faulty.setFault('hang');
    await sendMessage(page, 'third');
    const stop = page.getByRole('button', { name: 'Stop' });
    await expect(stop).toBeVisible();
    await page.waitForTimeout(1000);
    await stop.click();
    await expect(notices.last()).toHaveText(/Stopped\./, { timeout: 10_000 });
    await waitIdle(page);
    await expect(box).toBeEnabled();

    // The same conversation works again once the endpoint behaves.
    faulty.setFault(null);
    await sendMessage(page, 'fourth');
    await expect(page.getByTestId('msg-assistant').last()).toHaveText('echo: fourth');
    await expect(page.locator('.spinner, [aria-busy="true"]')).toHaveCount(0);
  } finally {
    await faulty.close();
  }
});

test('a tiny context window: every request fits, the oldest tool result is shortened, and a notice says so', async ({ page, shell }) => {
  test.setTimeout(90_000);
  const WINDOW = 3000;
  await openApp(page, shell.current);
  await setApprovalMode(page, 'Never ask');
  await saveProfile(page, { name: 'Tiny', baseUrl: model.baseUrl, model: 'fake-tiny', contextWindow: WINDOW });
  await addLocalServer(page, { name: 'sdk', command: commandLine(['node', SDK_SERVER]) });
  await expectStatus(serverCard(page, 'sdk'), 'ready');
  await openChat(page);
  const from = model.requests.length;
  // A tool result of 60,000 characters (~15,000 tokens), five times the whole window.
  await sendMessage(page, 'call huge {"bytes":60000}');
  await expect(page.getByTestId('tool-card').last()).toHaveAttribute('data-state', 'ok', { timeout: 30_000 });
  await waitIdle(page);
  await sendMessage(page, 'and now?');
  await expect(page.getByTestId('msg-assistant').last()).toHaveText('echo: and now?');
  await waitIdle(page);
  const sent = requestsFor('fake-tiny', from);
  expect(sent.length).toBe(3);
  for (const b of sent) expect(JSON.stringify(b).length / 4, 'estimated tokens of a request').toBeLessThanOrEqual(WINDOW);
  const lastReq = sent[2]!;
  expect(toolTexts(lastReq)).toMatch(/shortened to fit the context window/);
  // The step after the call (same run) already had to shorten it; the next turn shortens the now
  // older result again — each time with a notice in the transcript.
  expect(toolTexts(sent[1]!)).toMatch(/shortened to fit the context window: \d+ characters left out/);
  const notices = page.getByTestId('chat-notice');
  await expect(notices).toHaveText([/^To fit the model’s context window, 1 tool result was shortened\.$/, /^To fit the model’s context window, 1 older tool result was shortened\.$/]);
  // The window still shows the whole result to the user.
  await expect(page.getByTestId('tool-card').last().getByTestId('tool-result')).toContainText('x'.repeat(1000));
});
