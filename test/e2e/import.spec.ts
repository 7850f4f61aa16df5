/**
 * Import over an existing server (docs/ARCHITECTURE.md "Security"), in the UI: the preview says
 * which stored secrets a replaced server keeps — none when the pasted entry points at another
 * command.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { BASH_SERVER, expect, openApp, openSettings, serverCard, test } from './helpers.js';

test('the import preview names the stored secrets a replacement keeps, and only for the same command', async ({ page, shell }) => {
  // A server with a stored secret, written as a hand-edited file (migrated into the store on start).
  writeFileSync(
    path.join(shell.stateDir, 'mcp_servers.json'),
    JSON.stringify({ servers: { files: { type: 'local', command: ['bash', BASH_SERVER], env: { API_TOKEN: 'tok-stored-0123456789' }, enabled: false } } }),
  );
  await shell.restart();
  await openApp(page, shell.current);
  await openSettings(page, 'MCP servers');
  await expect(serverCard(page, 'files')).toBeVisible();
  await page.getByRole('button', { name: 'Import / export' }).click();
  const box = page.getByTestId('import-export');
  const paste = async (command: string[]): Promise<void> => {
    await box.getByLabel('Import JSON').fill(JSON.stringify({ servers: { files: { type: 'local', command, env: { API_TOKEN: '' }, enabled: false } } }));
    await box.getByRole('button', { name: 'Preview' }).click();
  };
  await paste(['bash', BASH_SERVER]);
  await expect(box.getByTestId('import-kept')).toHaveText('If replaced, keeps the stored env API_TOKEN.');
  await paste(['bash', '/tmp/someone-elses-server.sh']);
  await expect(box.getByTestId('import-kept')).toHaveText('If replaced, no stored secret is kept (values left empty stay empty).');
  await expect(page.getByText('tok-stored-0123456789')).toHaveCount(0);
});

test('pasted text that is no config is refused beside Preview, in words for pasted text; an existing entry the import skips says so', async ({ page, shell }) => {
  writeFileSync(path.join(shell.stateDir, 'mcp_servers.json'), JSON.stringify({ servers: { files: { type: 'local', command: ['bash', BASH_SERVER], env: {}, enabled: false } } }));
  await shell.restart();
  await openApp(page, shell.current);
  await openSettings(page, 'MCP servers');
  await page.getByRole('button', { name: 'Import / export' }).click();
  const box = page.getByTestId('import-export');
  const preview = box.getByRole('button', { name: 'Preview' });
  // The problem is said in the row of the button that met it (not under the export buttons), as a sentence about pasted text.
  const error = box.getByTestId('import-error');
  for (const [text, said] of [
    ['[1,2]', 'The pasted text is not a JSON object: paste {"servers": …} or {"mcpServers": …}.'],
    ['{"mcpServers": ', 'The pasted text is not valid JSON.'],
    ['{"servers": [1]}', 'In the pasted text, “servers” (or “mcpServers”) is not an object of servers.'],
  ]) {
    await box.getByLabel('Import JSON').fill(text!);
    await preview.click();
    await expect(error, text).toHaveText(said!);
    await expect(error.locator('xpath=..')).toContainText('Preview');
    await expect(box.getByTestId('export-error')).toHaveCount(0);
  }
  // Typing on clears it.
  await box.getByLabel('Import JSON').fill('{}');
  await expect(error).toHaveCount(0);

  // Two new entries and one that exists: the existing one is marked as skipped — or replaced, once that is ticked.
  const doc = { mcpServers: { notes: { command: 'bash', args: [BASH_SERVER], disabled: true }, files: { command: 'bash', args: [BASH_SERVER], disabled: true }, remote: { url: 'http://127.0.0.1:9/mcp', disabled: true } } };
  await box.getByLabel('Import JSON').fill(JSON.stringify(doc));
  await preview.click();
  await expect(box.getByRole('button', { name: 'Import 2 servers (2 new, 1 skipped)' })).toBeVisible();
  const exists = box.getByTestId('import-preview').locator('li').filter({ hasText: 'files' }).getByTestId('import-exists');
  await expect(exists).toHaveText('exists: skipped (tick “replace servers that exist” to replace it)');
  await box.getByLabel('replace servers that exist').check();
  await expect(box.getByRole('button', { name: 'Import 3 servers (2 new, 1 replaced)' })).toBeVisible();
  await expect(exists).toHaveText('exists: will be replaced');
});
