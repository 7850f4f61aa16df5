/**
 * MCP Apps end to end (docs/ARCHITECTURE.md "MCP Apps"): real MCP App servers over stdio, the real
 * core through the browser shell, the scripted fake model, Chromium. A tool with
 * `_meta.ui.resourceUri` gets its view beside the tool card, in a sandbox frame on the view origin
 * (a second loopback listener); the view's controls reach its server through the app bridge and the
 * permission gate; the view comes back when the conversation is reopened. A hostile view is refused
 * at every door.
 */
import { createSocket } from 'node:dgram';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import path from 'node:path';
import type { FrameLocator, Page } from '@playwright/test';
import { startFakeModel, type FakeModel } from '../fixtures/fake-model.js';
import { ROOT, SCREENSHOTS, addLocalServer, commandLine, configureModel, expect, expectStatus, openApp, openChat, openSettings, sendMessage, serverCard, setApprovalMode, test, type ShellHandle, cardAction } from './helpers.js';

const appServer = (name: string): string => commandLine(['node', path.join(ROOT, `node_modules/@modelcontextprotocol/${name}/dist/index.js`), '--stdio']);
const HOSTILE = commandLine(['node', path.join(ROOT, 'test/fixtures/hostile-app-server.mjs')]);

/** The view inside the sandbox page inside the app view slot (two frames deep). */
function view(page: Page, nth = 0): FrameLocator {
  return page.getByTestId('app-view-frame').nth(nth).contentFrame().locator('iframe').contentFrame();
}

let model: FakeModel;
test.beforeAll(async () => {
  model = await startFakeModel();
});
test.afterAll(async () => {
  await model.close();
});

test('basic-react: the view shows the tool result, its button calls the server, its message reaches the chat, and it comes back after a reload; Close view holds across a reload', async ({ page, shell }) => {
  await openApp(page, shell.current);
  await configureModel(page, { baseUrl: model.baseUrl, model: 'fake-apps' });
  await expectStatus(await addLocalServer(page, { name: 'clock', command: appServer('server-basic-react') }), 'ready');
  await setApprovalMode(page, 'Never ask');
  await openChat(page);

  await sendMessage(page, 'call get-time');
  await expect(page.getByTestId('tool-card')).toHaveAttribute('data-state', 'ok');
  const frame = page.getByTestId('app-view-frame');
  await expect(frame).toHaveCount(1);
  // The sandbox page is on another origin than the app.
  const appOrigin = new URL(page.url()).origin;
  const src = (await frame.getAttribute('src'))!;
  expect(new URL(src).origin).not.toBe(appOrigin);

  // The tool result (an ISO time) is shown by the view.
  const resultText = await readToolResult(page);
  const v = view(page);
  await expect(v.locator('code')).toHaveText(resultText, { timeout: 20_000 });
  // The view grew after the answer was shown; the chat still shows its bottom (the answer).
  const transcript = page.getByTestId('transcript');
  await expect.poll(() => transcript.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)).toBeLessThan(4);
  expect(await transcript.evaluate((el) => el.scrollHeight > el.clientHeight + 100)).toBe(true);
  await expect(page.getByTestId('msg-assistant').first()).toBeInViewport();
  await page.screenshot({ path: path.join(SCREENSHOTS, 'apps-basic-react.png'), fullPage: true });

  // Its button calls get-time on the same server through the bridge: a newer time appears.
  await page.waitForTimeout(1100);
  await v.getByRole('button', { name: 'Get Server Time' }).click();
  await expect(v.locator('code')).not.toHaveText(resultText, { timeout: 10_000 });
  await expect(v.locator('code')).toHaveText(/^\d{4}-\d\d-\d\dT/);

  // Its message becomes a user message of the conversation (and the model answers it) only once
  // the user agrees: cancelled, nothing is sent; agreed, it is.
  const users = await page.getByTestId('msg-user').count();
  await v.locator('textarea').fill('not this one');
  await v.getByRole('button', { name: 'Send Message' }).click();
  const ask = page.getByTestId('app-view-message');
  await expect(ask).toContainText('The clock view wants to send this message to the model as yours:');
  await expect(ask.locator('blockquote')).toHaveText('not this one');
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(ask).toHaveCount(0);
  await page.waitForTimeout(500);
  await expect(page.getByTestId('msg-user')).toHaveCount(users);
  await v.locator('textarea').fill('hello from the view');
  await v.getByRole('button', { name: 'Send Message' }).click();
  await ask.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByTestId('msg-user').last()).toHaveText('hello from the view');
  await expect(page.getByTestId('msg-assistant').last()).toHaveText('echo: hello from the view');

  // A reload of the window: the view is rebuilt from the saved input and result.
  await page.reload();
  await expect(page.getByTestId('app-view-frame')).toHaveCount(1);
  await expect(view(page).locator('code')).toHaveText(resultText, { timeout: 20_000 });
  // The reopened conversation shows its end, though the view grew after the jump to the bottom.
  await expect.poll(() => transcript.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)).toBeLessThan(4);
  await expect(page.getByTestId('msg-assistant').last()).toBeInViewport();
  // And after the app itself restarts (the server starts again; the view reads its resource anew).
  await shell.restart();
  await openApp(page, shell.current);
  await expect(page.getByTestId('app-view-frame')).toHaveCount(1, { timeout: 30_000 });
  await expect(view(page).locator('code')).toHaveText(resultText, { timeout: 30_000 });

  // Close view is saved with the conversation: after a reload the view stays closed (no frame),
  // and Show app view brings it back from the saved input and result.
  await page.getByTestId('app-view').getByRole('button', { name: 'Close view' }).click();
  await expect(page.getByTestId('app-view-reopen')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('app-view-reopen')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('app-view-frame')).toHaveCount(0);
  await page.getByTestId('app-view-reopen').click();
  await expect(page.getByTestId('app-view-frame')).toHaveCount(1);
  await expect(view(page).locator('code')).toHaveText(resultText, { timeout: 20_000 });
  // Shown again is saved too.
  await page.reload();
  await expect(view(page).locator('code')).toHaveText(resultText, { timeout: 20_000 });
});

/** The tool's result as the fake model repeated it (`Tool result: <text>`). */
async function readToolResult(page: Page): Promise<string> {
  const answer = page.getByTestId('msg-assistant').first();
  await expect(answer).toHaveText(/^Tool result: /);
  return ((await answer.textContent()) ?? '').replace(/^Tool result: /, '').trim();
}

test('system-monitor: a second App server renders its view with its data', async ({ page, shell }) => {
  await openApp(page, shell.current);
  await configureModel(page, { baseUrl: model.baseUrl, model: 'fake-apps' });
  const card = await addLocalServer(page, { name: 'monitor', command: appServer('server-system-monitor') });
  await expectStatus(card, 'ready');
  // Its card: poll-system-stats (visibility ["app"]) is marked as for views only and is not
  // counted among the tools offered to the model; get-system-info has no such mark.
  await expect(card).toContainText('1 of 2 tools');
  await card.getByRole('button', { name: 'Tools' }).click();
  const appOnly = card.getByTestId('tool-poll-system-stats').getByTestId('tool-audience');
  await expect(appOnly).toHaveText('Views only');
  await expect(appOnly).toHaveAttribute('title', /model is never offered it/);
  await expect(card.getByTestId('tool-get-system-info').getByTestId('tool-audience')).toHaveCount(0);
  // get-system-info comes with a view (the tool to call to see it); the app-only poller has none.
  await expect(card.getByTestId('tool-get-system-info').getByTestId('tool-has-view')).toHaveText('App view');
  await expect(card.getByTestId('tool-poll-system-stats').getByTestId('tool-has-view')).toHaveCount(0);
  await expect(card.getByTestId('tool-permissions')).toContainText('1 of 2 tools offered to the model.');
  await card.getByTestId('tool-permissions').screenshot({ path: path.join(SCREENSHOTS, 'apps-tools-views-only.png') });
  await setApprovalMode(page, 'Never ask');
  await openChat(page);
  // The composer's tool picker counts only what the model is offered.
  const picker = page.getByRole('button', { name: 'Tools for this conversation' });
  await expect(picker).toHaveText('Tools: 1');
  // One offered tool reads as one (an i18next plural form).
  await expect(page.locator('.chat-toolbar')).toContainText('· 1 tool available');
  await picker.click();
  await expect(page.getByRole('group', { name: 'Servers whose tools the model gets' })).toContainText('monitor 1 tool');
  await picker.click();
  const before = model.requests.length;
  await sendMessage(page, 'call get-system-info');
  await expect(page.getByTestId('tool-card')).toHaveAttribute('data-state', 'ok');
  await expect(page.getByTestId('app-view-frame')).toHaveCount(1);
  // The saved structured result fills System Info (this machine's host name).
  const v = view(page);
  await expect(v.locator('body')).toContainText(hostname(), { timeout: 20_000 });
  // The view polls poll-system-stats — a tool only views may call — through the bridge, and
  // shows the machine's memory use from it.
  await expect(v.getByRole('button', { name: 'Stop' })).toBeVisible({ timeout: 20_000 });
  await expect(v.locator('body')).toContainText(/\d+(\.\d+)?\s*%/, { timeout: 20_000 });
  await page.screenshot({ path: path.join(SCREENSHOTS, 'apps-system-monitor.png'), fullPage: true });
  // The model was offered get-system-info and never the view-only tool.
  const offered = new Set(model.requests.slice(before).flatMap((r) => (r.body.tools ?? []).map((t) => t.function.name)));
  expect(offered.has('monitor__get-system-info')).toBe(true);
  expect([...offered].some((n) => n.endsWith('poll-system-stats'))).toBe(false);
});

test('budget-allocator: the view shows the tool data, its sliders and selectors update it, and the model is offered only the server tool', async ({ page, shell }) => {
  await openApp(page, shell.current);
  await configureModel(page, { baseUrl: model.baseUrl, model: 'fake-apps' });
  await expectStatus(await addLocalServer(page, { name: 'budget', command: appServer('server-budget-allocator') }), 'ready');
  await setApprovalMode(page, 'Never ask');
  await openChat(page);
  const before = model.requests.length;
  await sendMessage(page, 'call get-budget-data');
  await expect(page.getByTestId('tool-card')).toHaveAttribute('data-state', 'ok');
  await expect(page.getByTestId('msg-assistant').first()).toContainText('Budget Allocator Configuration');
  await expect(page.getByTestId('app-view-frame')).toHaveCount(1);

  // The structured result fills the view: its five categories at their default shares of the
  // default $100,000 budget, the preset budgets and the default stage.
  const v = view(page);
  const rows = v.locator('.slider-row');
  await expect(rows).toHaveCount(5, { timeout: 20_000 });
  await expect(rows.locator('.label-text')).toHaveText(['Marketing', 'Engineering', 'Operations', 'Sales', 'R&D']);
  const marketing = v.locator('.slider-row[data-category-id="marketing"]');
  await expect(marketing.locator('.percent')).toHaveText('25.0%');
  await expect(marketing.locator('.amount')).toHaveText('$25K');
  await expect(v.locator('#status-bar')).toContainText('Allocated: $100,000 / $100,000');
  await expect(v.locator('#budget-selector option')).toHaveText(['$50,000', '$100,000', '$250,000', '$500,000']);
  await expect(v.locator('#stage-selector')).toHaveValue('Series A');
  // The view sized itself (its layout is 600 px tall), within the host's bounds.
  await expect.poll(async () => (await page.getByTestId('app-view-frame').boundingBox())?.height ?? 0).toBeGreaterThan(400);
  await page.getByTestId('app-view').screenshot({ path: path.join(SCREENSHOTS, 'apps-budget-allocator.png') });

  // Its slider moves an allocation: the row, the total and the over-budget warning follow.
  await marketing.locator('input.slider').fill('40');
  await expect(marketing.locator('.percent')).toHaveText('40.0%');
  await expect(marketing.locator('.amount')).toHaveText('$40K');
  await expect(v.locator('#status-bar')).toContainText('Allocated: $115,000 / $100,000');
  await expect(v.locator('#status-bar')).toHaveClass(/status-over/);
  // The budget selector rescales every amount; the stage selector re-ranks against its benchmarks.
  await v.locator('#budget-selector').selectOption('250000');
  await expect(v.locator('#status-bar')).toContainText('Allocated: $287,500 / $250,000');
  await expect(marketing.locator('.amount')).toHaveText('$100K');
  const badge = v.locator('.slider-row[data-category-id="engineering"] .percentile-badge');
  const seriesA = await badge.textContent();
  await v.locator('#stage-selector').selectOption('Seed');
  await expect(badge).not.toHaveText(seriesA!);
  await page.getByTestId('app-view').screenshot({ path: path.join(SCREENSHOTS, 'apps-budget-allocator-changed.png') });

  // The server lists one tool, and the model was offered exactly that one of it (the view's own
  // tools — get-allocations, set-allocation, … — are the view's, never the model's here).
  const offered = model.requests.slice(before).flatMap((r) => (r.body.tools ?? []).map((t) => t.function.name)).filter((n) => n.startsWith('budget'));
  expect([...new Set(offered)]).toEqual(['budget__get-budget-data']);
});

test('a hostile view reaches neither the app, its origin, another server nor a model-only tool; app-only tools stay hidden from the model; the app keeps working', async ({ page, shell }) => {
  await openApp(page, shell.current);
  await configureModel(page, { baseUrl: model.baseUrl, model: 'fake-apps' });
  await expectStatus(await addLocalServer(page, { name: 'clock', command: appServer('server-basic-react') }), 'ready');
  await expectStatus(await addLocalServer(page, { name: 'evil', command: HOSTILE }), 'ready');
  await setApprovalMode(page, 'Never ask');
  await openChat(page);
  const appOrigin = new URL(page.url()).origin;
  await sendMessage(page, `call __probe ${JSON.stringify({ app_origin: appOrigin, other_tool: 'get-time' })}`);
  const v = view(page);
  await expect(v.locator('[data-probe="done"]')).toBeVisible({ timeout: 20_000 });
  await page.screenshot({ path: path.join(SCREENSHOTS, 'apps-hostile.png'), fullPage: true });
  const probe = (k: string) => v.locator(`[data-probe="${k}"]`);
  await expect(probe('parent-api')).toHaveText('parent-api: blocked');
  await expect(probe('top-api')).toHaveText('top-api: blocked');
  await expect(probe('top-document')).toHaveText('top-document: blocked');
  await expect(probe('top-token')).toHaveText('top-token: blocked');
  await expect(probe('fetch-app')).toHaveText('fetch-app: blocked');
  await expect(probe('socket-app')).toHaveText('socket-app: blocked');
  await expect(probe('other-server-tool')).toHaveText('other-server-tool: refused');
  await expect(probe('model-only-tool')).toHaveText('model-only-tool: refused');
  // The positive control: a tool with "app" visibility runs for the view.
  await expect(probe('app-only-tool')).toContainText('app-only ran');
  // The view asked for full screen and got it; the user takes it back to inline, and the view is told.
  await expect(probe('display-mode')).toHaveText('display-mode: fullscreen');
  await expect(page.getByTestId('app-view')).toHaveAttribute('data-mode', 'fullscreen');
  await page.screenshot({ path: path.join(SCREENSHOTS, 'apps-fullscreen.png') });
  await page.getByTestId('app-view').getByRole('button', { name: 'Exit full screen' }).click();
  await expect(page.getByTestId('app-view')).toHaveAttribute('data-mode', 'inline');
  await expect(probe('display-mode-changed').last()).toHaveText('display-mode-changed: inline');
  // The user's own Full screen button, and Esc in the window to leave it.
  await page.getByTestId('app-view').getByRole('button', { name: 'Full screen' }).click();
  await expect(probe('display-mode-changed').last()).toHaveText('display-mode-changed: fullscreen');
  await page.getByTestId('app-view').getByRole('button', { name: 'Exit full screen' }).focus();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('app-view')).toHaveAttribute('data-mode', 'inline');
  await expect(probe('display-mode-changed').last()).toHaveText('display-mode-changed: inline');
  // Full screen is modal: the app behind is covered; a click on it returns the view inline.
  await page.getByTestId('app-view').getByRole('button', { name: 'Full screen' }).click();
  await expect(page.getByRole('dialog')).toHaveAttribute('data-testid', 'app-view');
  await page.mouse.click(8, 400);
  await expect(page.getByTestId('app-view')).toHaveAttribute('data-mode', 'inline');
  await expect(page.getByTestId('app-view-backdrop')).toHaveCount(0);
  // The view got the window's colours as the spec's style variables, and gets them again when the
  // theme changes.
  const bg = (): Promise<string> => page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--bg').trim());
  await expect(probe('style-bg')).toHaveText(`style-bg: ${await bg()}`);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(probe('style-bg-changed').last()).toHaveText(`style-bg-changed: ${await bg()}`);
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(probe('style-bg-changed').last()).toHaveText(`style-bg-changed: ${await bg()}`);

  // The model was never offered the app-only tool, but was offered the others (the header counts
  // get-time, probe, model_only, camera, slow_view, wander, isolate, flood and draft — not app_only).
  await expect(page.getByText('9 tools available')).toBeVisible();
  const offered = model.requests.flatMap((r) => (r.body.tools ?? []).map((t) => t.function.name));
  expect(offered.some((n) => n.endsWith('app_only'))).toBe(false);
  expect(offered.some((n) => n.endsWith('model_only'))).toBe(true);

  // The app goes on working, and what the view put in the model's context reaches the model.
  await expect(probe('model-context')).toHaveText('model-context: kept');
  await sendMessage(page, 'still there?');
  await expect(page.getByTestId('msg-assistant').last()).toHaveText('echo: still there?');
  expect(JSON.stringify(model.requests[model.requests.length - 1]!.body)).toContain('probe-context-marker');

  // Close view: the view gets its teardown before it is removed (it answers after leaving a mark).
  await page.getByTestId('app-view').getByRole('button', { name: 'Close view' }).click();
  await expect(page.getByRole('button', { name: 'Show app view' })).toBeVisible();
  await expect(page.getByTestId('app-view-frame')).toHaveCount(0);
  await sendMessage(page, 'after close');
  await expect(page.getByTestId('msg-assistant').last()).toHaveText('echo: after close');
  expect(JSON.stringify(model.requests[model.requests.length - 1]!.body)).toContain('teardown-seen-marker');
});

test('one oversized request from a view fails alone: the view gets a clear error, the socket, the window and other requests go on, nothing reloads', async ({ page, shell }) => {
  let sockets = 0;
  const viewCalls: string[] = [];
  page.on('websocket', (ws) => {
    sockets++;
    ws.on('framesent', (f) => {
      if (String(f.payload).includes('"apps.callTool"')) viewCalls.push(String(f.payload).slice(0, 200));
    });
  });
  await openApp(page, shell.current);
  await configureModel(page, { baseUrl: model.baseUrl, model: 'fake-apps' });
  await expectStatus(await addLocalServer(page, { name: 'evil', command: HOSTILE }), 'ready');
  await setApprovalMode(page, 'Never ask');
  await openChat(page);
  await sendMessage(page, 'call __flood');
  const flood = view(page, 0);
  await expect(flood.locator('[data-flood="small"]')).toHaveText(/^ok .*app-only ran/, { timeout: 30_000 });
  await expect(flood.locator('[data-flood="big"]')).toHaveText(/^refused: This request is 5\.0 MB, more than the 4\.0 MB the app core accepts at once/);
  // The oversized call never went out; the small one once (a reloaded view would call again), on
  // the first socket; the app shows no lost connection.
  await page.waitForTimeout(2500);
  expect(viewCalls).toHaveLength(1);
  expect(sockets).toBe(1);
  await expect(page.getByTestId('bridge-lost')).toHaveCount(0);
  await sendMessage(page, 'hello');
  await expect(page.getByTestId('transcript')).toContainText('hello', { timeout: 10_000 });
});

test('every view has an origin of its own: a hostile view reaches no other view — not its document, bridge, storage nor cookies — and its WebRTC sends nothing; the other views keep working', async ({ page, shell }) => {
  // A STUN server stand-in: any packet here is data a view sent around its CSP.
  const stun = createSocket('udp4');
  let packets = 0;
  stun.on('message', () => packets++);
  await new Promise<void>((resolve) => stun.bind(0, '127.0.0.1', resolve));
  const stunPort = stun.address().port;
  // Everything the window sends main: a forged request that reached another view's bridge would be here.
  const sent: string[] = [];
  page.on('websocket', (ws) => ws.on('framesent', (f) => sent.push(String(f.payload))));
  try {
    await openApp(page, shell.current);
    await configureModel(page, { baseUrl: model.baseUrl, model: 'fake-apps' });
    await expectStatus(await addLocalServer(page, { name: 'clock', command: appServer('server-basic-react') }), 'ready');
    await expectStatus(await addLocalServer(page, { name: 'monitor', command: appServer('server-system-monitor') }), 'ready');
    await expectStatus(await addLocalServer(page, { name: 'evil', command: HOSTILE }), 'ready');
    await setApprovalMode(page, 'Never ask');
    await openChat(page);

    // Two views of two real servers.
    await sendMessage(page, 'call get-time');
    const time = await readToolResult(page);
    await expect(view(page, 0).locator('code')).toHaveText(time, { timeout: 20_000 });
    await sendMessage(page, 'call get-system-info');
    await expect(view(page, 1).locator('body')).toContainText(hostname(), { timeout: 20_000 });
    // The hostile one.
    await sendMessage(page, `call __isolate ${JSON.stringify({ stun_port: stunPort, marker: 'first' })}`);
    const evil = view(page, 2);
    const iso = (k: string) => evil.locator(`[data-iso="${k}"]`);
    await expect(iso('done')).toBeVisible({ timeout: 30_000 });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'apps-isolation.png'), fullPage: true });

    // Three views, three origins, none the app's.
    const frames = page.getByTestId('app-view-frame');
    const origins = await frames.evaluateAll((els) => els.map((el) => new URL((el as HTMLIFrameElement).src).origin));
    expect(origins).toHaveLength(3);
    expect(new Set(origins).size).toBe(3);
    expect(origins).not.toContain(new URL(page.url()).origin);
    await expect(iso('origin')).toHaveText(`origin: ${origins[2]}`);
    for (const o of origins) expect(o).toMatch(/^http:\/\/v[0-9a-f]{32}\.localhost:\d+$/);

    await expect(iso('siblings')).toHaveText('siblings: 2');
    await expect(iso('sibling-documents')).toHaveText('sibling-documents: blocked');
    await expect(iso('sibling-documents-after-domain')).toHaveText('sibling-documents-after-domain: blocked');
    await expect(iso('storage-seen')).toHaveText('storage-seen: none');
    await expect(iso('cookies-seen')).toHaveText('cookies-seen: none');
    await expect(iso('webrtc-own')).toHaveText('webrtc-own: blocked');
    await expect(iso('webrtc-child')).toHaveText('webrtc-child: blocked');
    await expect(iso('webrtc-parent')).toHaveText('webrtc-parent: blocked');
    // The view bar says what it may reach, and plainly that WebRTC is not something a page can block.
    await expect(page.getByTestId('app-view-network').nth(2)).toHaveText(/^No network \(WebRTC cannot be blocked in a page/);

    // The forged host messages and tools/call reached no bridge: main never heard of the tool,
    // and the real views show what they showed.
    await page.waitForTimeout(500);
    expect(sent.some((f) => f.includes('forged_by_probe'))).toBe(false);
    await expect(view(page, 0).locator('code')).toHaveText(time);
    await expect(view(page, 0).locator('body')).not.toContainText('FORGED');
    await expect(view(page, 1).locator('body')).not.toContainText('FORGED');
    expect(packets).toBe(0);

    // The real views still work: the clock's button calls its own server.
    await page.waitForTimeout(1100);
    await view(page, 0).getByRole('button', { name: 'Get Server Time' }).click();
    await expect(view(page, 0).locator('code')).not.toHaveText(time, { timeout: 10_000 });

    // Another view of the same server is another origin again: the first one's storage and
    // cookies are not there.
    await sendMessage(page, `call __isolate ${JSON.stringify({ stun_port: stunPort, marker: 'second' })}`);
    const second = view(page, 3);
    await expect(second.locator('[data-iso="done"]')).toBeVisible({ timeout: 30_000 });
    await expect(second.locator('[data-iso="siblings"]')).toHaveText('siblings: 3');
    await expect(second.locator('[data-iso="sibling-documents"]')).toHaveText('sibling-documents: blocked');
    await expect(second.locator('[data-iso="storage-seen"]')).toHaveText('storage-seen: none');
    await expect(second.locator('[data-iso="cookies-seen"]')).toHaveText('cookies-seen: none');
    expect(await second.locator('[data-iso="origin"]').textContent()).not.toBe(`origin: ${origins[2]}`);
    expect(packets).toBe(0);
  } finally {
    stun.close();
  }
});

test('a view that navigates its frame to another origin loses the bridge: the page there is not heard', async ({ page, shell }) => {
  // The page the view goes to: it sends a message as if it were the view.
  const wanderer = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><p>wanderer</p><script>let id = 100; const t = setInterval(() => parent.postMessage({ jsonrpc: '2.0', id: id++, method: 'ui/message', params: { role: 'user', content: [{ type: 'text', text: 'WANDERED-IN' }] } }, '*'), 250); setTimeout(() => clearInterval(t), 2500);</script>`);
  });
  await new Promise<void>((resolve) => wanderer.listen(0, '127.0.0.1', resolve));
  const frameOrigin = `http://127.0.0.1:${(wanderer.address() as AddressInfo).port}`;
  try {
    await openApp(page, shell.current);
    await configureModel(page, { baseUrl: model.baseUrl, model: 'fake-apps' });
    await expectStatus(await addLocalServer(page, { name: 'evil', command: commandLine(['node', path.join(ROOT, 'test/fixtures/hostile-app-server.mjs'), '--frame-origin', frameOrigin]) }), 'ready');
    await setApprovalMode(page, 'Never ask');
    await openChat(page);
    await sendMessage(page, 'call __wander {}');
    // The view's own message arrives once the user agrees (the positive control); then it
    // navigates, and the page there sends messages of its own, which must never reach the chat
    // nor even ask.
    const ask = page.getByTestId('app-view-message');
    await expect(ask.locator('blockquote')).toHaveText('before wandering', { timeout: 20_000 });
    await ask.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(page.getByTestId('msg-user').filter({ hasText: 'before wandering' })).toHaveCount(1, { timeout: 20_000 });
    await expect(page.getByTestId('msg-assistant').last()).toHaveText('echo: before wandering');
    await expect(page.getByTestId('app-view-frame').contentFrame().locator('iframe').contentFrame().locator('p')).toHaveText('wanderer');
    await page.waitForTimeout(3000);
    await expect(page.getByTestId('msg-user').filter({ hasText: 'WANDERED-IN' })).toHaveCount(0);
    await expect(ask).toHaveCount(0);
    // The app goes on working.
    await sendMessage(page, 'still fine');
    await expect(page.getByTestId('msg-assistant').last()).toHaveText('echo: still fine');
    await expect(page.getByTestId('msg-user').filter({ hasText: 'WANDERED-IN' })).toHaveCount(0);
  } finally {
    wanderer.close();
  }
});

test('a view whose call the user stops is told it was cancelled', async ({ page, shell }) => {
  await openApp(page, shell.current);
  await configureModel(page, { baseUrl: model.baseUrl, model: 'fake-apps' });
  await expectStatus(await addLocalServer(page, { name: 'evil', command: HOSTILE }), 'ready');
  await setApprovalMode(page, 'Never ask');
  await openChat(page);
  await sendMessage(page, 'call __slow_view {}');
  await expect(page.getByTestId('tool-card')).toHaveAttribute('data-state', 'running');
  const v = view(page);
  // While it runs the view has its input and no result.
  await expect(v.locator('[data-note="tool-input"]')).toHaveCount(1, { timeout: 20_000 });
  await expect(v.locator('[data-note="tool-result"]')).toHaveCount(0);
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  await expect(page.getByTestId('tool-card')).toHaveAttribute('data-state', 'cancelled');
  await expect(v.locator('[data-note="tool-cancelled"]')).toHaveText('tool-cancelled: cancelled');
  await expect(v.locator('[data-note="tool-result"]')).toHaveCount(0);
});

test('declared device permissions reach the frame only after the user agrees; links open only after consent', async ({ page, shell }) => {
  await openApp(page, shell.current);
  await configureModel(page, { baseUrl: model.baseUrl, model: 'fake-apps' });
  await expectStatus(await addLocalServer(page, { name: 'evil', command: HOSTILE }), 'ready');
  await expectStatus(await addLocalServer(page, { name: 'clock', command: appServer('server-basic-react') }), 'ready');
  await setApprovalMode(page, 'Never ask');
  await openChat(page);

  // The camera view: nothing is framed until the user answers.
  await sendMessage(page, 'call __camera');
  const consent = page.getByTestId('app-view-consent');
  await expect(consent).toContainText('camera');
  await expect(page.getByTestId('app-view-frame')).toHaveCount(0);
  await page.screenshot({ path: path.join(SCREENSHOTS, 'apps-permission-consent.png'), fullPage: true });
  await consent.getByRole('button', { name: 'Show without them' }).click();
  await expect(page.getByTestId('app-view-frame')).toHaveAttribute('allow', '');
  await expect(view(page).locator('#cam')).toHaveText('camera view');
  // Reopened (reload): asked again; Allow grants exactly what was declared.
  await page.reload();
  await page.getByTestId('app-view-consent').getByRole('button', { name: 'Allow' }).click();
  await expect(page.getByTestId('app-view-frame')).toHaveAttribute('allow', 'camera');

  // basic-react's Open Link: a consent bar first; Cancel opens nothing, Open opens a new window.
  await sendMessage(page, 'call get-time');
  const v = view(page, 1);
  await expect(v.locator('code')).toHaveText(/^\d{4}-/, { timeout: 20_000 });
  // A short window scrolled to the bottom: the view's top (where the question appears) is out of sight.
  await page.setViewportSize({ width: 1200, height: 520 });
  await page.getByTestId('transcript').evaluate((el) => (el.scrollTop = el.scrollHeight));
  await v.getByRole('button', { name: 'Open Link' }).scrollIntoViewIfNeeded();
  await expect(page.getByTestId('app-view').nth(1).locator('.app-view-bar')).not.toBeInViewport();
  await v.getByRole('button', { name: 'Open Link' }).click();
  const bar = page.getByTestId('app-view-link');
  await expect(bar).toContainText('https://modelcontextprotocol.io/');
  // The question is where the user looks, though the view's button is far below the view's top.
  await expect(bar).toBeInViewport();
  let popups = 0;
  page.on('popup', () => popups++);
  await bar.getByRole('button', { name: 'Cancel' }).click();
  await expect(bar).toHaveCount(0);
  expect(popups).toBe(0);
  await v.getByRole('button', { name: 'Open Link' }).click();
  // (This machine has no network: the new window's request for the link is what shows it opened.)
  const asked: string[] = [];
  page.context().on('request', (r) => asked.push(r.url()));
  const popup = page.waitForEvent('popup');
  await page.getByTestId('app-view-link').getByRole('button', { name: 'Open', exact: true }).click();
  await popup;
  await expect.poll(() => asked.some((u) => u.startsWith('https://modelcontextprotocol.io/'))).toBe(true);
});

/**
 * basic-react as server "clock", its get-time called by the model and allowed once (default mode:
 * get-time declares no read-only hint, so the model's call asks first); returns once the view
 * shows the time.
 */
async function showTimeView(page: Page, shell: ShellHandle): Promise<void> {
  await openApp(page, shell.current);
  await configureModel(page, { baseUrl: model.baseUrl, model: 'fake-apps' });
  await expectStatus(await addLocalServer(page, { name: 'clock', command: appServer('server-basic-react') }), 'ready');
  await openChat(page);
  await sendMessage(page, 'call get-time');
  await page.getByTestId('tool-card').getByTestId('approval-card').getByRole('button', { name: 'Allow once' }).click();
  await expect(view(page).locator('code')).toHaveText(/^\d{4}-/, { timeout: 20_000 });
}

test("a view's tool call asks through the same approval card as the model's, shown in the view", async ({ page, shell }) => {
  await showTimeView(page, shell);
  const v = view(page);
  const first = await v.locator('code').textContent();
  await page.waitForTimeout(1100);
  // The view's own call: the card appears in the view, and nothing runs before the answer.
  await v.getByRole('button', { name: 'Get Server Time' }).click();
  const card = page.getByTestId('app-view').getByTestId('approval-card');
  await expect(card).toContainText('get-time');
  await expect(card).toContainText('the app view asks to run');
  await expect(card.getByRole('textbox', { name: 'Reason for denying' })).toHaveAttribute('placeholder', 'Reason (optional, sent to the view)');
  await expect(v.locator('code')).toHaveText(first!);
  // Clicking again while the card waits asks no second question (a polling view would pile them up).
  await v.getByRole('button', { name: 'Get Server Time' }).click();
  await v.getByRole('button', { name: 'Get Server Time' }).click();
  await page.waitForTimeout(500);
  await expect(card).toHaveCount(1);
  await page.screenshot({ path: path.join(SCREENSHOTS, 'apps-view-approval.png'), fullPage: true });
  await card.getByRole('button', { name: 'Allow once' }).click();
  await expect(v.locator('code')).not.toHaveText(first!, { timeout: 10_000 });
  await expect(card).toHaveCount(0);
});

test("a view's call waiting for approval goes with the view: a reload or Close view withdraws its card, and a rebuilt view asks afresh; its log messages reach the server's log", async ({ page, shell }) => {
  await showTimeView(page, shell);
  const card = page.getByTestId('app-view').getByTestId('approval-card');

  // The view asks; its card is brought into sight, whole — in a narrow window with the chat at its
  // bottom too, where following the bottom as the card grows the view would push the card's top
  // out of sight. Then the page reloads before anyone answers:
  // the call belonged to the page that went away, so its card is withdrawn, not shown in the
  // rebuilt view (where "Allow once" would answer a call nobody waits for).
  await page.setViewportSize({ width: 800, height: 900 });
  await page.getByTestId('transcript').evaluate((el) => (el.scrollTop = el.scrollHeight));
  await view(page).getByRole('button', { name: 'Get Server Time' }).click();
  await expect(card).toHaveCount(1);
  await page.waitForTimeout(300);
  await expect(card).toBeInViewport({ ratio: 1 });
  await page.reload();
  await expect(view(page).locator('code')).toHaveText(/^\d{4}-/, { timeout: 20_000 });
  await page.waitForTimeout(500);
  await expect(card).toHaveCount(0);

  // The rebuilt view asks afresh, and its answer reaches it.
  const shown = await view(page).locator('code').textContent();
  await page.waitForTimeout(1100);
  await view(page).getByRole('button', { name: 'Get Server Time' }).click();
  await card.getByRole('button', { name: 'Allow once' }).click();
  await expect(view(page).locator('code')).not.toHaveText(shown!, { timeout: 10_000 });

  // Close view while its call waits: the card goes with it, and Show app view asks nothing old.
  await view(page).getByRole('button', { name: 'Get Server Time' }).click();
  await expect(card).toHaveCount(1);
  await page.getByTestId('app-view').getByRole('button', { name: 'Close view' }).click();
  await expect(page.getByTestId('app-view-reopen')).toBeVisible();
  await page.getByTestId('app-view-reopen').click();
  await expect(view(page).locator('code')).toHaveText(/^\d{4}-/, { timeout: 20_000 });
  await page.waitForTimeout(500);
  await expect(card).toHaveCount(0);

  // The view's log messages land in its server's log, marked as the view's.
  await view(page).locator('input[type=text]').fill('log line from the view');
  await view(page).getByRole('button', { name: 'Send Log' }).click();
  await openSettings(page, 'MCP servers');
  await (await cardAction(serverCard(page, 'clock'), 'Logs', { exact: true })).click();
  await expect(serverCard(page, 'clock').getByTestId('server-logs')).toContainText('[view] info: log line from the view');
});

test('a view starts while the model still writes its input: it gets the partial input, then the whole input and the result, in the same frame', async ({ page, shell }) => {
  // A model that writes the call's arguments in 10 pieces, 400 ms apart.
  const slow = await startFakeModel({ slowChunks: 10, slowDelayMs: 400 });
  try {
    await openApp(page, shell.current);
    await configureModel(page, { baseUrl: slow.baseUrl, model: 'fake-apps' });
    await expectStatus(await addLocalServer(page, { name: 'evil', command: HOSTILE }), 'ready');
    await setApprovalMode(page, 'Never ask');
    await openChat(page);
    // Every load of a view's sandbox page (a remounted view would load it again).
    const sandboxLoads: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/sandbox.html') sandboxLoads.push(r.url());
    });
    const args = { text: 'The quick brown fox jumps over the lazy dog. '.repeat(4).trim() };
    await sendMessage(page, `call-slow __draft ${JSON.stringify(args)}`);

    // While the input streams: a provisional row with the view, no tool call yet, and the view
    // gets the partial input.
    const preparing = page.getByTestId('tool-preparing');
    await expect(preparing).toHaveText(/Preparing evil__draft…/);
    await expect(page.getByTestId('app-view-frame')).toHaveCount(1);
    const log = view(page).locator('li');
    await expect.poll(async () => view(page).locator('[data-draft="partial"]').count(), { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    expect(await page.getByTestId('tool-card').count()).toBe(0);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'apps-partial-input.png'), fullPage: true });
    const frameEl = await page.getByTestId('app-view-frame').elementHandle();

    // The call's entry replaces the provisional row; the view gets the whole input, then the result.
    await expect(page.getByTestId('tool-card')).toHaveAttribute('data-state', 'ok', { timeout: 20_000 });
    await expect(preparing).toHaveCount(0);
    await expect(view(page).locator('[data-draft="result"]')).toHaveText(`draft saved: ${args.text.length} characters`, { timeout: 20_000 });
    // The same frame element all along, its page loaded once, and the view initialized once.
    expect(await frameEl!.evaluate((el) => el.isConnected)).toBe(true);
    expect(await page.getByTestId('app-view-frame').evaluate((el, old) => el === old, frameEl)).toBe(true);
    expect(sandboxLoads).toHaveLength(1);
    const entries = await log.evaluateAll((els) => els.map((el) => [(el as HTMLElement).dataset.draft!, el.textContent ?? '']));
    const kinds = entries.map(([k]) => k);
    expect(kinds.filter((k) => k === 'initialize')).toHaveLength(1);
    // In order: initialize, partial inputs, the whole input, the result.
    expect(kinds[0]).toBe('initialize');
    const partials = entries.filter(([k]) => k === 'partial').map(([, v]) => JSON.parse(v!) as { text?: string });
    expect(partials.length).toBeGreaterThanOrEqual(2);
    expect(kinds.slice(1)).toEqual([...partials.map(() => 'partial'), 'input', 'result']);
    // The partial inputs grow, each a beginning of the final text.
    const lengths = partials.map((p) => p.text?.length ?? 0);
    for (let i = 1; i < lengths.length; i++) expect(lengths[i]).toBeGreaterThanOrEqual(lengths[i - 1]!);
    expect(lengths.at(-1)!).toBeGreaterThan(lengths[0]!);
    for (const p of partials) expect(args.text.startsWith(p.text ?? '')).toBe(true);
    expect(JSON.parse(entries.find(([k]) => k === 'input')![1]!)).toEqual(args);
  } finally {
    await slow.close();
  }
});

test("Allow in this conversation on the model's call also answers the same tool's call its view made meanwhile; a new chat asks again", async ({ page, shell }) => {
  // A model that writes the call's input in pieces: the view starts before the call asks.
  const slow = await startFakeModel({ slowChunks: 4, slowDelayMs: 300 });
  try {
    await openApp(page, shell.current);
    await configureModel(page, { baseUrl: slow.baseUrl, model: 'fake-apps' });
    await expectStatus(await addLocalServer(page, { name: 'clock', command: appServer('server-basic-react') }), 'ready');
    await openChat(page);
    await sendMessage(page, 'call get-time');
    const modelCard = page.getByTestId('tool-card').getByTestId('approval-card');
    await expect(modelCard).toBeVisible();
    // While the model's call waits, its view (already shown) calls get-time itself: a second card.
    const viewCard = page.getByTestId('app-view').getByTestId('approval-card');
    await view(page).getByRole('button', { name: 'Get Server Time' }).click();
    await expect(viewCard).toContainText('the app view asks to run');
    await expect(page.getByTestId('approval-card')).toHaveCount(2);
    // One answer on the model's card decides both: no card is left, and the view gets its time.
    await modelCard.getByRole('button', { name: 'Allow in this conversation' }).click();
    await expect(page.getByTestId('approval-card')).toHaveCount(0);
    await expect(view(page).locator('code')).toHaveText(/^\d{4}-/, { timeout: 20_000 });
    await expect(page.getByTestId('tool-card')).toHaveAttribute('data-state', 'ok');
    // The view's next calls run without a card.
    const shown = await view(page).locator('code').textContent();
    await page.waitForTimeout(1100);
    await view(page).getByRole('button', { name: 'Get Server Time' }).click();
    await expect(view(page).locator('code')).not.toHaveText(shown!, { timeout: 10_000 });
    await expect(page.getByTestId('approval-card')).toHaveCount(0);
    // Another conversation is not covered: the model's call there asks again.
    await page.getByRole('button', { name: '+ New chat' }).click();
    await sendMessage(page, 'call get-time');
    await expect(page.getByTestId('tool-card').getByTestId('approval-card')).toBeVisible();
  } finally {
    await slow.close();
  }
});

test('an open-link question the user leaves unanswered never times out in the view: the view hears "not opened" in time, the question stays, and Open still opens it', async ({ page, shell }) => {
  test.setTimeout(150_000);
  await openApp(page, shell.current);
  await configureModel(page, { baseUrl: model.baseUrl, model: 'fake-apps' });
  await expectStatus(await addLocalServer(page, { name: 'clock', command: appServer('server-basic-react') }), 'ready');
  await setApprovalMode(page, 'Never ask');
  await openChat(page);
  await sendMessage(page, 'call get-time');
  const v = view(page);
  await expect(v.locator('code')).toHaveText(/^\d{4}-/, { timeout: 20_000 });
  // What the view itself logs (basic-react logs how its request ended) and any error in any frame.
  const logs: string[] = [];
  page.on('console', (m) => logs.push(m.text()));
  page.on('pageerror', (e) => logs.push(`pageerror: ${e.message}`));
  const rejected = (): number => logs.filter((l) => l.includes('Open link request rejected')).length;

  // A second question while one is open: the older is answered "not opened" at once.
  await v.getByRole('button', { name: 'Open Link' }).click();
  const bar = page.getByTestId('app-view-link');
  await expect(bar).toBeVisible();
  await v.getByRole('button', { name: 'Open Link' }).click();
  await expect.poll(rejected).toBe(1);
  await expect(bar).toHaveCount(1);

  // Unanswered: before the view's own 60 s request timeout, it hears "not opened"; the question stays.
  const asked = Date.now();
  await expect.poll(rejected, { timeout: 70_000, intervals: [1000] }).toBe(2);
  await expect(bar).toBeVisible();
  await expect(bar.getByTestId('app-view-link-late')).toHaveText('The view was told the link is not open yet, so that it does not wait; Open still opens it.');
  // Past the moment its request would have timed out: no error anywhere.
  await page.waitForTimeout(Math.max(0, 63_000 - (Date.now() - asked)));
  expect(logs.filter((l) => /timed out|pageerror/i.test(l))).toEqual([]);
  // The user's late Open still opens the link.
  const requested: string[] = [];
  page.context().on('request', (r) => requested.push(r.url()));
  const popup = page.waitForEvent('popup');
  await bar.getByRole('button', { name: 'Open', exact: true }).click();
  await popup;
  await expect(bar).toHaveCount(0);
  await expect.poll(() => requested.some((u) => u.startsWith('https://modelcontextprotocol.io/'))).toBe(true);
});
