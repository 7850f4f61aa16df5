/**
 * Secret URL parts and arguments through the real UI (docs/ARCHITECTURE.md "Masked views only"):
 * a remote server added with a token in its URL's query and a local one with an argument marked
 * secret show `***` only — on the card, in the edit form, in the page — and an edit that does not
 * retype them (another field changed) keeps them: the servers still get the real values.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startHttpFixture, type HttpFixture } from '../fixtures/http-server.js';
import { ROOT, commandLine, expect, expectStatus, openAddServerForm, openApp, openSettings, serverCard, test, cardAction } from './helpers.js';

const SDK_SERVER = path.join(ROOT, 'test/fixtures/sdk-server.mjs');
const QUERY = 'q-e2eCanary-7c3a9e1f5b2d';
const ARG = 'a-e2eCanary-4e8b2d6f0a1c';

let http: HttpFixture;
test.beforeEach(async () => {
  http = await startHttpFixture();
});
test.afterEach(async () => {
  await http.close();
});

test('a secret query value and a secret argument are shown masked and kept by an edit that does not retype them', async ({ page, shell }) => {
  await openApp(page, shell.current);
  await openSettings(page, 'MCP servers');

  // A remote server with a token in its URL: every query value is a secret.
  let form = await openAddServerForm(page);
  await form.getByLabel('Server name').fill('web');
  await form.getByLabel('Server type').selectOption({ label: 'Remote URL (Streamable HTTP)' });
  await form.getByLabel('URL').fill(`${http.url}?token=${QUERY}`);
  await form.getByRole('button', { name: 'Add server' }).click();
  await expect(form).toBeHidden();
  const web = serverCard(page, 'web');
  await expectStatus(web, 'ready');
  await expect(web.getByText(`${http.url}?token=***`)).toBeVisible();

  // A local server with one argument marked secret in the form.
  form = await openAddServerForm(page);
  await form.getByLabel('Server name').fill('argv');
  await form.getByLabel('Command').fill(commandLine([process.execPath, SDK_SERVER, `--stderr=${ARG}`, '--tools=1']));
  await form.getByLabel('Argument 2 is a secret').check();
  await expect(form.getByText(`--stderr=${ARG}`)).toHaveCount(0); // masked as soon as it is marked
  await form.getByRole('button', { name: 'Add server' }).click();
  await expect(form).toBeHidden();
  const argv = serverCard(page, 'argv');
  await expectStatus(argv, 'ready');
  await expect(argv.locator('.server-meta')).toContainText('*** --tools=1');
  expect(await page.content()).not.toContain(QUERY);
  expect(await page.content()).not.toContain(ARG);

  // Edit the remote one: the URL field and its secrets are masked; change only the timeout.
  await (await cardAction(web, 'Edit')).click();
  let edit = page.getByRole('form', { name: 'Edit web' });
  await expect(edit.getByLabel('Edit URL')).toHaveValue(`${http.url}?token=***`);
  await expect(edit.getByText('query token')).toBeVisible();
  await expect(edit.getByLabel('New value for query token')).toHaveValue('');
  await edit.getByLabel('Edit timeout seconds').fill('45');
  await edit.getByRole('button', { name: 'Save and restart' }).click();
  await expect(edit).toBeHidden({ timeout: 30_000 });
  await expectStatus(web, 'ready');

  // Edit the local one: the command shows *** for the secret; add an argument, keep the ***.
  await (await cardAction(argv, 'Edit')).click();
  edit = page.getByRole('form', { name: 'Edit argv' });
  const line = await edit.getByLabel('Edit command').inputValue();
  expect(line).toContain(' *** ');
  expect(line).not.toContain(ARG);
  await expect(edit.getByLabel('Argument 2 is a secret')).toBeChecked();
  await expect(edit.getByLabel('Argument 2 is a secret')).toBeDisabled();
  await edit.getByLabel('Edit command').fill(line.replace('--tools=1', '--tools=2'));
  await edit.getByRole('button', { name: 'Save and restart' }).click();
  await expect(edit).toBeHidden({ timeout: 30_000 });
  await expectStatus(argv, 'ready');

  // The real values were kept and reach the servers; the file and the page hold neither.
  const requestsWithToken = http.requests.filter((r) => r.search === `?token=${QUERY}`).length;
  expect(requestsWithToken).toBeGreaterThan(1); // the first start and the restart after the edit
  const file = readFileSync(path.join(shell.stateDir, 'mcp_servers.json'), 'utf8');
  expect(file).not.toContain(QUERY);
  expect(file).not.toContain(ARG);
  const doc = JSON.parse(file) as { servers: { web: { url: string; timeout_seconds: number }; argv: { command: unknown[] } } };
  expect(doc.servers.web).toMatchObject({ url: `${http.url}?token=`, timeout_seconds: 45 });
  expect(doc.servers.argv.command[2]).toMatchObject({ secret: expect.any(String) });
  expect(doc.servers.argv.command[3]).toBe('--tools=2');
  await page.reload();
  await openSettings(page, 'MCP servers');
  await expectStatus(serverCard(page, 'argv'), 'ready');
  expect(await page.content()).not.toContain(QUERY);
  expect(await page.content()).not.toContain(ARG);
});
