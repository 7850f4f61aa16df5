/**
 * Resources in the composer and the resource viewer, in real Chromium through the browser shell,
 * against the real `@modelcontextprotocol/server-everything` and a fake model whose request bodies
 * are checked (docs/ARCHITECTURE.md "Prompts and resources in chat"):
 * - `@` lists resources and templates; a resource and a template-expanded resource (variable
 *   with server completions) become chips, and their text reaches the model request;
 * - the Attach button opens the same list;
 * - a resource link in a tool result opens the viewer (text), a sent markdown resource opens
 *   rendered, and a subscribed resource's update notification refreshes the open viewer.
 */
import path from 'node:path';
import { startFakeModel, requestTexts, type FakeModel, type WireRequest } from '../fixtures/fake-model.js';
import { addLocalServer, commandLine, expect, expectStatus, openApp, openChat, ROOT, saveProfile, SCREENSHOTS, sendMessage, serverCard, setApprovalMode, test } from './helpers.js';

process.env.OPENPROGRAM_LOCAL_MODEL_PROBES = 'none';

const EVERYTHING = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

let model: FakeModel;
test.beforeAll(async () => {
  model = await startFakeModel({ chunkDelayMs: 1 });
});
test.afterAll(async () => {
  await model?.close();
});


async function setup(page: import('@playwright/test').Page, shell: { current: Parameters<typeof openApp>[1] }, modelName: string): Promise<void> {
  await openApp(page, shell.current);
  await saveProfile(page, { name: 'Fake', baseUrl: model.baseUrl, model: modelName });
  await addLocalServer(page, { name: 'every', command: commandLine(['node', EVERYTHING, 'stdio']) });
  await expectStatus(serverCard(page, 'every'), 'ready');
}

test('"@" attaches a resource and a template-expanded resource; their text reaches the model', async ({ page, shell }) => {
  test.setTimeout(120_000);
  await setup(page, shell, 'fake-resources');
  await openChat(page);
  const box = page.getByRole('textbox', { name: 'Message' });
  const menu = page.getByTestId('composer-menu');

  await box.fill('Summarize @feat');
  await expect(menu.getByRole('option', { name: /@every\/features\.md/ })).toBeVisible();
  await box.press('Enter');
  await expect(box).toHaveValue('Summarize ');
  await expect(page.getByTestId('attachment-chip')).toHaveText(/every\/features\.md/);

  // The Attach button opens the same list, with the templates.
  await page.getByRole('button', { name: 'Attach' }).click();
  await expect(box).toHaveValue('Summarize @');
  await box.pressSequentially('text');
  const tpl = menu.getByRole('option', { name: /demo:\/\/resource\/dynamic\/text\/\{resourceId\}/ });
  await expect(tpl).toBeVisible();
  await tpl.click();
  const form = page.getByRole('form', { name: /Resource template every\// });
  await expect(form).toBeVisible();
  const id = form.getByRole('textbox', { name: /resourceId/ });
  await id.pressSequentially('7');
  // server-everything completes a valid id with itself.
  await expect(form.getByRole('listbox', { name: 'Suggestions for resourceId' })).toHaveCount(0);
  await form.getByRole('button', { name: 'Attach resource' }).click();
  await expect(page.getByTestId('attachment-chip')).toHaveCount(2);
  await expect(page.getByTestId('attachment-chip').nth(1)).toHaveText(/demo:\/\/resource\/dynamic\/text\/7/);
  await page.screenshot({ path: path.join(SCREENSHOTS, 'composer-attachments.png') });

  const before = model.requests.length;
  await box.press('Enter');
  await expect(page.getByTestId('attachment-chip')).toHaveCount(0);
  await expect
    .poll(
      () =>
        model.requests.slice(before).some((r) => {
          const all = requestTexts(r.body).join('\n');
          return (
            all.includes('[attached resource every: demo://resource/static/document/features.md]') &&
            all.includes('[resource: demo://resource/static/document/features.md]') &&
            all.includes('Resource 7: This is a plaintext resource') &&
            all.includes('Summarize')
          );
        }),
      { timeout: 15_000 },
    )
    .toBe(true);
  await expect(page.getByTestId('msg-context')).toContainText('every/features.md');
  await expect(page.getByTestId('msg-user')).toHaveText('Summarize');

  // The sent markdown resource opens rendered in the viewer.
  await page.getByTestId('msg-context').getByRole('button', { name: 'every/features.md' }).click();
  const viewer = page.getByRole('dialog', { name: 'Resource viewer' });
  await expect(viewer).toBeVisible();
  await expect(viewer.getByTestId('viewer-uri')).toHaveText('demo://resource/static/document/features.md');
  await expect(viewer.getByRole('heading').first()).toBeVisible();
  await page.screenshot({ path: path.join(SCREENSHOTS, 'resource-viewer-markdown.png') });
  await viewer.getByRole('button', { name: 'Close' }).click();
  await expect(viewer).toBeHidden();
});

test('a resource link in a tool result opens the viewer; a subscribed resource refreshes on update', async ({ page, shell }) => {
  test.setTimeout(120_000);
  await setup(page, shell, 'fake-links');
  await setApprovalMode(page, 'Never ask');
  await openChat(page);
  await sendMessage(page, 'call get-resource-links {"count":2}');
  const card = page.getByTestId('tool-card');
  await expect(card).toHaveAttribute('data-state', 'ok', { timeout: 30_000 });
  const link = card.getByRole('button', { name: 'Open resource demo://resource/dynamic/text/2' });
  await expect(link).toBeVisible();
  await link.click();
  const viewer = page.getByRole('dialog', { name: 'Resource viewer' });
  await expect(viewer.getByTestId('viewer-body')).toContainText('Resource 2: This is a plaintext resource');
  await page.screenshot({ path: path.join(SCREENSHOTS, 'resource-viewer-link.png') });
  await viewer.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('button', { name: 'Stop' })).toBeHidden({ timeout: 30_000 });

  // Simulated updates on, then open a resource: the server's update refreshes the open viewer.
  await sendMessage(page, 'call toggle-subscriber-updates {}');
  await expect(page.getByTestId('tool-card').nth(1)).toHaveAttribute('data-state', 'ok', { timeout: 30_000 });
  await page.getByTestId('tool-card').first().getByRole('button', { name: 'Open resource demo://resource/dynamic/text/2' }).click();
  await expect(viewer.getByTestId('viewer-body')).toContainText('Resource 2');
  await expect(viewer.getByText('Updated by the server.')).toBeVisible({ timeout: 15_000 });
});

const RESOURCE_SERVER = path.join(ROOT, 'test/fixtures/resource-server.mjs');

test('bad input: huge and binary attachments are cut or described, never pasted whole; foreign links stay text', async ({ page, shell }) => {
  test.setTimeout(120_000);
  await openApp(page, shell.current);
  // A window large enough for both 40,000-character attachments (the fitter would drop old turns otherwise).
  await saveProfile(page, { name: 'Fake', baseUrl: model.baseUrl, model: 'fake-bad', contextWindow: 200_000 });
  await addLocalServer(page, { name: 'notes', command: commandLine(['node', RESOURCE_SERVER]) });
  await expectStatus(serverCard(page, 'notes'), 'ready');
  await setApprovalMode(page, 'Never ask');
  await openChat(page);
  const box = page.getByRole('textbox', { name: 'Message' });
  const menu = page.getByTestId('composer-menu');
  for (const name of ['huge', 'bin', 'svg']) {
    await box.pressSequentially(`@notes/${name}`);
    await expect(menu.getByRole('option')).toHaveCount(1);
    await box.press('Enter');
  }
  await expect(page.getByTestId('attachment-chip')).toHaveCount(3);
  await box.fill('check these');
  const before = model.requests.length;
  await box.press('Enter');
  await expect.poll(() => model.requests.length > before, { timeout: 15_000 }).toBe(true);
  // (Checked as booleans: a failure must not print a 40,000-character body.)
  const body = JSON.stringify(model.requests[before]!.body);
  const has = (s: string): boolean => body.includes(s);
  expect(has('[… cut: 260000 more characters not included]')).toBe(true);
  expect(has('H'.repeat(40_001)), 'more than the attachment budget was sent').toBe(false);
  expect(has('[resource: note://bin — binary application/octet-stream, 1 KB: not included]')).toBe(true);
  // SVG is XML text: it goes to the model as text (never as an image, never rendered).
  expect(has('[resource: note://svg]\\n<svg')).toBe(true);
  // Worded by the window: the number grouped, the resource's own name and address not said again.
  await expect(page.getByTestId('msg-context')).toContainText('Shortened: 260,000 characters were left out');
  await expect(page.getByRole('button', { name: 'Stop' })).toBeHidden({ timeout: 30_000 });

  // A huge prompt: cut, its audio block described.
  await box.fill('/notes/huge');
  await box.press('Enter');
  const next = model.requests.length;
  await page.getByRole('form', { name: 'Prompt notes/huge-prompt' }).getByRole('button', { name: 'Send prompt' }).click();
  await expect.poll(() => model.requests.length > next, { timeout: 15_000 }).toBe(true);
  const promptBody = JSON.stringify(model.requests[next]!.body);
  expect(promptBody.includes('[… cut: 260000 more characters not included]')).toBe(true);
  expect(promptBody.includes('H'.repeat(40_001)), 'more than the attachment budget was sent').toBe(false);
  expect(promptBody.includes('[audio content, audio/wav: not included]')).toBe(true);
  await expect(page.getByRole('button', { name: 'Stop' })).toBeHidden({ timeout: 30_000 });

  // Links of a tool result: only the server's own resource opens in the viewer; https is an
  // external link; the rest are text.
  await sendMessage(page, 'call links {}');
  const card = page.getByTestId('tool-card');
  await expect(card).toHaveAttribute('data-state', 'ok', { timeout: 30_000 });
  const texts = card.getByTestId('resource-text');
  await expect(texts).toHaveCount(4);
  for (const uri of ['javascript:alert(1)', 'file:///etc/passwd', 'http://example.com/page', 'data:text/html;base64,PHNjcmlwdD4=']) {
    await expect(texts.filter({ hasText: uri })).toHaveCount(1);
    await expect(card.getByRole('button', { name: `Open resource ${uri}` })).toHaveCount(0);
  }
  await expect(card.getByRole('button', { name: 'Open resource https://example.com/page' })).toBeVisible();
  await card.getByRole('button', { name: 'Open resource note://small' }).click();
  const viewer = page.getByRole('dialog', { name: 'Resource viewer' });
  await expect(viewer.getByTestId('viewer-body')).toHaveText('The small note says hello.');
  await viewer.getByRole('button', { name: 'Close' }).click();

  // Binary in the viewer: described, and saved as a download (the browser shell).
  await page.getByTestId('msg-context').first().getByRole('button', { name: 'notes/bin' }).click();
  await expect(viewer.getByTestId('viewer-body')).toContainText('Binary content (application/octet-stream, 1 KB)');
  const download = page.waitForEvent('download');
  await viewer.getByRole('button', { name: 'Save to file…' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('bin');
  const saved = await file.path();
  const { readFileSync } = await import('node:fs');
  expect([...readFileSync(saved)]).toEqual([0, 1, 2, 3, 254, 255, 0, 9]);
});

test('an attached image resource reaches a vision model as an image part, a text-only model as a note', async ({ page, shell }) => {
  test.setTimeout(120_000);
  const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
  await openApp(page, shell.current);
  await saveProfile(page, { name: 'Text', baseUrl: model.baseUrl, model: 'fake-img-text', acceptsImages: false });
  await saveProfile(page, { name: 'Vision', baseUrl: model.baseUrl, model: 'fake-img-vision', acceptsImages: true, asNew: true });
  await addLocalServer(page, { name: 'notes', command: commandLine(['node', RESOURCE_SERVER]) });
  await expectStatus(serverCard(page, 'notes'), 'ready');
  await openChat(page);
  const box = page.getByRole('textbox', { name: 'Message' });
  const send = async (): Promise<WireRequest> => {
    await box.pressSequentially('@notes/png');
    await box.press('Enter');
    await box.pressSequentially('what is this?');
    const before = model.requests.length;
    await box.press('Enter');
    await expect.poll(() => model.requests.length > before, { timeout: 15_000 }).toBe(true);
    await expect(page.getByRole('button', { name: 'Stop' })).toBeHidden({ timeout: 30_000 });
    return model.requests[before]!.body;
  };
  // The default (text-only) profile: a note, no base64 anywhere.
  const text = JSON.stringify(await send());
  expect(text.includes(png)).toBe(false);
  expect(text.includes('not shown (this model does not accept images)')).toBe(true);
  // The vision profile: the image as an image part.
  await page.getByRole('button', { name: '+ New chat' }).click();
  await page.getByLabel('Model profile').selectOption({ label: 'Vision (fake-img-vision)' });
  const vision = await send();
  const images = vision.messages.flatMap((m) => (Array.isArray(m.content) ? (m.content as Array<{ type: string; image_url?: { url: string } }>) : [])).filter((p) => p.type === 'image_url');
  expect(images.map((p) => p.image_url!.url)).toEqual([`data:image/png;base64,${png}`]);
});
