/**
 * Placeholders in the server forms read as placeholders, never as values typed there: each example
 * is worded as one ("e.g. filesystem", "例如 filesystem"), the fields stay empty, and the
 * placeholder colour is the app's own — dimmer than the input's text while still readable on its
 * background, in light and dark. Real renderer in real Chromium through the browser shell.
 */
import type { Locator, Page } from '@playwright/test';
import { contrast } from './colour.js';
import { addLocalServer, BASH_SERVER, cardAction, commandLine, expect, openAddServerForm, openApp, openSettings, serverCard, test } from './helpers.js';

/**
 * An input's text, placeholder and background colours as computed, and the palette's
 * `--placeholder` resolved the same way (rgb).
 */
function colours(input: Locator): Promise<{ text: string; placeholder: string; background: string; palette: string }> {
  return input.evaluate((el) => {
    const probe = document.createElement('span');
    probe.style.color = 'var(--placeholder)';
    document.body.append(probe);
    const palette = getComputedStyle(probe).color;
    probe.remove();
    return { text: getComputedStyle(el).color, placeholder: getComputedStyle(el, '::placeholder').color, background: getComputedStyle(el).backgroundColor, palette };
  });
}

/** Switch the window's language in Settings → Language. */
async function pickLanguage(page: Page, value: 'en' | 'zh-CN'): Promise<void> {
  await page.getByRole('tab', { name: /^(Settings|设置)$/ }).click();
  await page.locator('.settings-nav').getByRole('button', { name: /^(Language|语言)$/ }).click();
  await page.getByRole('combobox', { name: /^(Language|语言)$/ }).selectOption(value);
}

test('the Add server form: empty fields whose placeholders are worded as examples', async ({ page, shell }) => {
  await openApp(page, shell.current);
  await openSettings(page, 'MCP servers');
  const form = await openAddServerForm(page);

  const name = form.getByLabel('Server name');
  await expect(name).toHaveValue('');
  await expect(name).toHaveAttribute('placeholder', 'e.g. filesystem');
  const command = form.getByLabel('Command', { exact: true });
  await expect(command).toHaveValue('');
  await expect(command).toHaveAttribute('placeholder', /^e\.g\. npx /);
  await form.getByRole('button', { name: '+ Add variable' }).click();
  await expect(form.getByLabel('Variable name 1')).toHaveValue('');
  await expect(form.getByLabel('Variable name 1')).toHaveAttribute('placeholder', 'e.g. API_KEY');

  // A remote server: its URL, header name and the pre-registered OAuth client are examples or say what they are.
  await form.getByLabel('Server type').selectOption('http');
  await expect(form.getByLabel('URL', { exact: true })).toHaveAttribute('placeholder', 'e.g. https://example.com/mcp');
  await form.getByRole('button', { name: '+ Add header' }).click();
  await expect(form.getByLabel('Header name 1')).toHaveAttribute('placeholder', 'e.g. Authorization');
  await form.getByLabel('Authorization').selectOption('oauth');
  await form.getByText('Pre-registered client').click();
  await expect(form.getByLabel('OAuth client ID')).toHaveValue('');
  await expect(form.getByLabel('OAuth client ID')).toHaveAttribute('placeholder', 'client_id (optional)');

  // In 简体中文 the examples say 例如.
  await pickLanguage(page, 'zh-CN');
  await page.locator('.settings-nav').getByRole('button', { name: 'MCP 服务器', exact: true }).click();
  const zhForm = page.getByRole('form', { name: '添加服务器' });
  if (!(await zhForm.isVisible())) await page.getByRole('button', { name: '添加服务器' }).click();
  await expect(zhForm.getByLabel('服务器名称')).toHaveValue('');
  await expect(zhForm.getByLabel('服务器名称')).toHaveAttribute('placeholder', '例如 filesystem');
});

test('the Edit form: a new row’s placeholders are an example name and what the value is', async ({ page, shell }) => {
  await openApp(page, shell.current);
  await addLocalServer(page, { name: 'probe', command: commandLine(['bash', BASH_SERVER]) });
  await (await cardAction(serverCard(page, 'probe'), 'Edit', { exact: true })).click();
  const form = page.getByRole('form', { name: 'Edit probe' });
  await form.getByRole('button', { name: '+ Add variable' }).click();
  await expect(form.getByLabel('New variable name 1')).toHaveAttribute('placeholder', 'e.g. API_KEY');
  await expect(form.getByLabel('New variable value 1')).toHaveAttribute('placeholder', 'value (stored as a secret)');
});

for (const scheme of ['light', 'dark'] as const) {
  test(`placeholder colour (${scheme}): the app's own, dimmer than typed text, readable on the field`, async ({ page, shell }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await openApp(page, shell.current);
    await openSettings(page, 'MCP servers');
    const form = await openAddServerForm(page);
    for (const input of [form.getByLabel('Server name'), form.getByLabel('Command', { exact: true })]) {
      const c = await colours(input);
      // The app's own colour (a browser's default differs between browsers and versions).
      expect(c.placeholder, 'the palette’s placeholder colour').toBe(c.palette);
      expect(c.placeholder, 'the placeholder has its own colour').not.toBe(c.text);
      // Clearly apart from typed text, and dimmer than it: nearer the background than the text is.
      expect(contrast(c.placeholder, c.text), `${c.placeholder} against text ${c.text}`).toBeGreaterThanOrEqual(2.5);
      expect(contrast(c.placeholder, c.background)).toBeLessThan(contrast(c.text, c.background));
      // Still readable: WCAG AA's 4.5:1 on the field's background (placeholders are exempt; the palette meets it).
      expect(contrast(c.placeholder, c.background), `${c.placeholder} on ${c.background}`).toBeGreaterThanOrEqual(4.5);
    }
  });
}
