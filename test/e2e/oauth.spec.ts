/**
 * OAuth end to end, through the UI only, in real Chromium: a real authorization server
 * (oidc-provider: dynamic registration, PKCE, resource indicators, rotating refresh tokens, short
 * access-token lifetime) and a Streamable HTTP MCP server that validates its tokens
 * (test/fixtures/oauth/world.ts), both on loopback in the test process.
 *
 * In the browser shell "opening the system browser" means main emits `auth.openUrl` and the
 * renderer calls `window.open` — a new tab in this same Chromium, where the test types into
 * oidc-provider's login and consent pages like a user. The browser then lands on the app's
 * loopback callback inside the shell process.
 *
 * Path: add the server (needs_auth) → Sign in in the popup → ready with tools → a tool call from
 * Chat → the access token expires and is refreshed silently → app restart reconnects without a
 * browser → the grant is revoked at the AS → needs_auth / "sign in again" → a new sign-in is
 * cancelled: the loopback listener closes and the server stays in needs_auth. Throughout, no
 * token, authorization code or PKCE verifier appears in the page.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import type { BrowserContext, Locator, Page } from '@playwright/test';
import { startFakeModel, type FakeModel } from '../fixtures/fake-model.js';
import { startWorld, type World } from '../fixtures/oauth/world.js';
import { SCREENSHOTS, configureModel, setApprovalMode, expect, expectStatus, openAddServerForm, openApp, openChat, openSettings, sendMessage, serverCard, test, type ShellHandle, cardAction } from './helpers.js';

/** Access-token lifetime at the AS, seconds. */
const TTL_S = 3;
const MODEL = 'fake-oauth-model';
const NAME = 'remote';

let world: World;
let model: FakeModel;

test.beforeAll(async () => {
  world = await startWorld({ accessTokenTTL: TTL_S });
  model = await startFakeModel();
  mkdirSync(SCREENSHOTS, { recursive: true });
});

test.afterAll(async () => {
  await world?.close();
  await model?.close();
});

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Whether nothing listens on 127.0.0.1:`port`. */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen({ port, host: '127.0.0.1', exclusive: true }, () => s.close(() => resolve(true)));
  });
}

/** The shell's secret store (a plain owner-only file: the e2e shell runs with the keychain off). */
function storedSecrets(shell: ShellHandle): Record<string, string> {
  try {
    return JSON.parse(readFileSync(path.join(shell.stateDir, 'secrets.json'), 'utf8')) as Record<string, string>;
  } catch {
    return {};
  }
}

interface Tokens {
  access_token: string;
  refresh_token?: string;
  expires_at?: number;
}

function storedTokens(shell: ShellHandle): Tokens | undefined {
  const raw = storedSecrets(shell)[`oauth:${NAME}:tokens`];
  return raw ? (JSON.parse(raw) as Tokens) : undefined;
}

/** Every secret value the test has seen so far; none may ever show up in the page. */
const secretsSeen = new Set<string>();

function collectSecrets(shell: ShellHandle): void {
  const t = storedTokens(shell);
  if (t?.access_token) secretsSeen.add(t.access_token);
  if (t?.refresh_token) secretsSeen.add(t.refresh_token);
  const pkce = storedSecrets(shell)[`oauth:${NAME}:pkce`];
  if (pkce) for (const v of Object.values(JSON.parse(pkce) as Record<string, { verifier: string }>)) secretsSeen.add(v.verifier);
}

async function expectNoSecretsInPage(page: Page): Promise<void> {
  const html = await page.content();
  const text = await page.locator('body').innerText();
  expect(secretsSeen.size).toBeGreaterThan(0);
  for (const s of secretsSeen) {
    expect(s.length).toBeGreaterThan(10);
    expect(html.includes(s), 'a token, code or verifier appears in the page HTML').toBe(false);
    expect(text.includes(s), 'a token, code or verifier appears in the page text').toBe(false);
  }
}

/** Ask the fake model to call the server's echo tool and wait for the answer. */
async function echoThroughChat(page: Page, text: string): Promise<void> {
  await openChat(page);
  await sendMessage(page, `call ${NAME}__echo ${JSON.stringify({ text })}`);
  const toolCard = page.getByTestId('tool-card').last();
  await expect(toolCard.getByTestId('tool-name')).toHaveText(`${NAME}__echo`);
  await expect(toolCard.getByTestId('tool-result')).toContainText(text);
  await expect(toolCard).toHaveClass(/\bok\b/);
  await expect(page.getByTestId('msg-assistant').last()).toContainText(`Tool result: ${text}`);
  await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeVisible();
}

/** The card in Settings → MCP servers. */
async function card(page: Page): Promise<Locator> {
  await openSettings(page, 'MCP servers');
  const c = serverCard(page, NAME);
  await expect(c).toBeVisible();
  return c;
}

/** Type into oidc-provider's dev login page, then approve its consent page. */
async function loginAndConsent(popup: Page): Promise<void> {
  await popup.getByPlaceholder('Enter any login').fill('alice');
  await popup.getByPlaceholder('and password').fill('wonderland');
  await popup.getByRole('button', { name: 'Sign-in' }).click();
  await popup.getByRole('button', { name: 'Continue' }).click();
}

/** Count every tab the app opens from now on. */
function trackPages(context: BrowserContext): Page[] {
  const opened: Page[] = [];
  context.on('page', (p) => opened.push(p));
  return opened;
}

test('OAuth sign-in in the browser, tool call, silent refresh, restart without browser, revoked grant, cancelled sign-in', async ({ page, context, shell }) => {
  test.setTimeout(180_000);
  // oidc-provider's dev pages import a web font; there is no internet here.
  await context.route(/fonts\.(googleapis|gstatic)\.com/, (r) => r.abort());
  const opened = trackPages(context);

  await openApp(page, shell.current);
  await configureModel(page, { baseUrl: model.baseUrl, model: MODEL, apiKey: 'sk-oauth-e2e' });
  // Tools here are not what is tested: run them without approval cards.
  await setApprovalMode(page, 'Never ask');

  // ---- Add the remote server with OAuth --------------------------------------------------------
  await openSettings(page, 'MCP servers');
  const form = await openAddServerForm(page);
  await form.getByLabel('Server name').fill(NAME);
  await form.getByLabel('Server type').selectOption({ label: 'Remote URL (Streamable HTTP)' });
  await form.getByLabel('URL', { exact: true }).fill(world.mcpUrl);
  await form.getByLabel('Authorization').selectOption({ label: 'OAuth sign-in (browser)' });
  await form.getByRole('button', { name: 'Add server' }).click();
  await expect(form).toBeHidden();

  let c = serverCard(page, NAME);
  await expectStatus(c, 'needs_auth');
  await expect(c.getByTestId('server-auth')).toContainText('OAuth: sign-in needed');
  await expect(c.getByTestId('server-error')).toContainText('sign in');
  await expect(c.getByRole('button', { name: 'Sign in' })).toBeVisible();
  expect(opened, 'nothing is opened before the user asks to sign in').toHaveLength(0);
  expect(world.stats.registrations, 'no client is registered before the sign-in').toBe(0);

  // ---- Sign in: the popup, login + consent by typing and clicking -----------------------------
  const popupPromise = context.waitForEvent('page');
  await c.getByRole('button', { name: 'Sign in' }).click();
  const popup = await popupPromise;
  await expect(c.getByTestId('server-auth')).toContainText('waiting for the browser');
  await expect(c.getByRole('button', { name: 'Cancel sign-in' })).toBeVisible();
  // The fallback link points at the AS's authorization endpoint (PKCE S256, resource indicator).
  const authUrl = new URL((await c.getByRole('link', { name: 'open the sign-in page' }).getAttribute('href'))!);
  expect(authUrl.origin).toBe(world.issuer);
  expect(authUrl.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authUrl.searchParams.get('resource')).toBe(world.mcpUrl);
  const redirectUri = new URL(authUrl.searchParams.get('redirect_uri')!);
  expect(redirectUri.hostname).toBe('127.0.0.1');
  const callbackPort = Number(redirectUri.port);
  expect(await portIsFree(callbackPort), 'the loopback callback listens while waiting').toBe(false);
  collectSecrets(shell); // the PKCE verifier is stored now
  expect([...secretsSeen].length, 'the PKCE verifier was stored for the sign-in').toBe(1);

  await loginAndConsent(popup);
  await expect(popup.getByRole('heading', { name: 'Sign-in finished' })).toBeVisible();
  await expect(popup.locator('body')).toContainText('You can close this tab');
  const landed = new URL(popup.url());
  expect(`${landed.origin}${landed.pathname}`).toBe(redirectUri.href);
  const code = landed.searchParams.get('code');
  expect(code).toBeTruthy();
  secretsSeen.add(code!);
  await popup.close();

  await expectStatus(c, 'ready');
  await expect(c).toContainText('2 tools');
  await expect(c.getByTestId('server-auth')).toContainText('OAuth: signed in');
  await expect(await cardAction(c, 'Sign out')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(c.getByRole('button', { name: 'Sign in' })).toHaveCount(0);
  await c.getByRole('button', { name: 'Tools' }).click();
  await expect(c.getByTestId('tools-list').getByTestId('tool-echo')).toBeVisible();
  await expect(c.getByTestId('tools-list').getByTestId('tool-whoami')).toBeVisible();
  expect(world.stats.codeGrants).toBe(1);
  expect(world.stats.registrations).toBe(1);
  await expect.poll(() => portIsFree(callbackPort), { message: 'the loopback listener is closed after the callback' }).toBe(true);
  const stored = storedSecrets(shell);
  expect(stored[`oauth:${NAME}:pkce`], 'the verifier is deleted after the sign-in').toBeUndefined();
  expect(storedTokens(shell)?.refresh_token).toBeTruthy();
  collectSecrets(shell);
  await expectNoSecretsInPage(page);
  await page.screenshot({ path: path.join(SCREENSHOTS, 'oauth.png'), fullPage: true });

  // ---- A tool call through Chat -----------------------------------------------------------------
  await echoThroughChat(page, 'hello through OAuth');
  await expectNoSecretsInPage(page);

  // ---- The access token expires: refreshed silently, still ready, calls still work -------------
  const first = storedTokens(shell)!;
  const refreshesBefore = world.stats.refreshGrants;
  await sleep(TTL_S * 1000 + 1500);
  expect(Date.now(), 'the first access token has expired by now').toBeGreaterThan(first.expires_at!);
  expect(world.stats.refreshGrants, 'a refresh grant happened at the AS').toBeGreaterThan(refreshesBefore);
  const refreshed = storedTokens(shell)!;
  expect(refreshed.access_token).not.toBe(first.access_token);
  expect(refreshed.refresh_token, 'the refresh token was rotated').not.toBe(first.refresh_token);
  c = await card(page);
  await expectStatus(c, 'ready');
  await expect(c.getByTestId('server-auth')).toContainText('OAuth: signed in');
  await echoThroughChat(page, 'after the token expired');
  collectSecrets(shell);
  await expectNoSecretsInPage(page);
  expect(opened, 'no browser tab for a refresh').toHaveLength(1);

  // ---- Restart: reconnects from the stored tokens without the browser ---------------------------
  const codeGrants = world.stats.codeGrants;
  const registrations = world.stats.registrations;
  await shell.restart();
  await sleep(TTL_S * 1000); // the stored access token is expired when the new app connects
  await openApp(page, shell.current);
  c = await card(page);
  await expectStatus(c, 'ready');
  await expect(c).toContainText('2 tools');
  await expect(c.getByTestId('server-auth')).toContainText('OAuth: signed in');
  await echoThroughChat(page, 'after a restart');
  expect(opened, 'no browser tab after the restart').toHaveLength(1);
  expect(world.stats.codeGrants, 'no new authorization code after the restart').toBe(codeGrants);
  expect(world.stats.registrations, 'no new registration after the restart').toBe(registrations);
  collectSecrets(shell);
  await expectNoSecretsInPage(page);

  // ---- The grant is revoked at the AS: the next refresh is rejected → sign in again -------------
  const refreshErrors = world.stats.refreshErrors;
  expect(await world.revokeAllGrants()).toBeGreaterThan(0);
  c = await card(page);
  await expectStatus(c, 'needs_auth', 30_000);
  await expect(c.getByTestId('server-auth')).toContainText('OAuth: sign in again');
  await expect(c.getByTestId('server-error')).toContainText('sign in again');
  await expect(c.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await (await cardAction(c, 'Restart')).focus();
  await expect(c.getByRole('button', { name: 'Sign out' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(c).not.toContainText('2 tools');
  expect(world.stats.refreshErrors).toBeGreaterThan(refreshErrors);
  expect(storedTokens(shell), 'the rejected tokens are dropped').toBeUndefined();
  expect(opened, 'a rejected refresh opens no browser by itself').toHaveLength(1);
  await page.screenshot({ path: path.join(SCREENSHOTS, 'oauth-reauth.png'), fullPage: true });
  await openChat(page);
  await expect(page.locator('.chat-toolbar')).toContainText('0 tools available');

  // ---- Sign in again, then cancel: the listener closes, the server stays in needs_auth ----------
  c = await card(page);
  const againPromise = context.waitForEvent('page');
  await c.getByRole('button', { name: 'Sign in' }).click();
  const again = await againPromise;
  await expect(c.getByRole('button', { name: 'Cancel sign-in' })).toBeVisible();
  const againUrl = new URL((await c.getByRole('link', { name: 'open the sign-in page' }).getAttribute('href'))!);
  const againPort = Number(new URL(againUrl.searchParams.get('redirect_uri')!).port);
  expect(againPort, 'the registration (and its redirect port) is reused').toBe(callbackPort);
  expect(await portIsFree(againPort)).toBe(false);
  // The AS still has the browser's session from the first sign-in: it asks for consent only.
  await expect(again.getByRole('button', { name: 'Continue' })).toBeVisible();
  collectSecrets(shell); // this sign-in's verifier

  await c.getByRole('button', { name: 'Cancel sign-in' }).click();
  await expect(c.getByRole('alert')).toContainText('cancelled');
  await expect(c.getByRole('button', { name: 'Cancel sign-in' })).toHaveCount(0);
  await expect(c.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expect(c.getByTestId('server-auth')).toContainText('OAuth: sign in again');
  await expectStatus(c, 'needs_auth');
  await expect.poll(() => portIsFree(againPort), { message: 'the loopback listener is closed after Cancel' }).toBe(true);
  expect(storedSecrets(shell)[`oauth:${NAME}:pkce`], 'the cancelled sign-in left no verifier').toBeUndefined();
  // Finishing in the browser now cannot sign in: the redirect finds no listener, and the app
  // neither invents a code nor redeems one.
  await again.getByRole('button', { name: 'Continue' }).click();
  await expect.poll(() => again.url()).not.toContain('/interaction/');
  await again.close();
  await sleep(1000);
  await expectStatus(c, 'needs_auth');
  expect(storedTokens(shell)).toBeUndefined();
  expect(world.stats.codeGrants).toBe(codeGrants);
  // The server's log tells the story without a secret in it.
  await (await cardAction(c, 'Logs')).click();
  // Refreshed in the background, or — when the app started after the token expired — while connecting.
  await expect(c.getByTestId('server-logs')).toContainText(/access token refreshed (in the background|while connecting)/);
  await expect(c.getByTestId('server-logs')).toContainText('background refresh rejected; sign in again');
  await expectNoSecretsInPage(page);
});
