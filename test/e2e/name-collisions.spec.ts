/**
 * Server names that would share a tool namespace, in the window (docs/ARCHITECTURE.md "Tool names
 * and result content"): a config file that already holds `my_fs` and `my.fs` shows both cards,
 * each warning of the other; the import preview marks an entry that collides as refused and the
 * button does not count it; the Add form shows main's refusal under the name, naming the server.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { BASH_SERVER, commandLine, expect, openApp, openSettings, serverCard, submitLocalServer, test } from './helpers.js';

test('colliding names: cards warn, the import preview refuses, the Add form says which server is in the way', async ({ page, shell }) => {
  const entry = { type: 'local', command: ['bash', BASH_SERVER], enabled: false };
  writeFileSync(path.join(shell.stateDir, 'mcp_servers.json'), JSON.stringify({ servers: { my_fs: entry, 'my.fs': entry } }));
  await shell.restart();
  await openApp(page, shell.current);
  await openSettings(page, 'MCP servers');
  await expect(serverCard(page, 'my_fs').getByTestId('server-namespace-warning')).toContainText('The server “my.fs” gets the same tool name prefix as this one');
  await expect(serverCard(page, 'my.fs').getByTestId('server-namespace-warning')).toContainText('The server “my_fs”');

  await page.getByRole('button', { name: 'Import / export' }).click();
  const box = page.getByTestId('import-export');
  await box.getByLabel('Import JSON').fill(JSON.stringify({ servers: { 'data.set': entry, Data_Set: entry } }));
  await box.getByRole('button', { name: 'Preview' }).click();
  await expect(box.getByTestId('import-refused')).toHaveCount(1);
  await expect(box.getByTestId('import-refused')).toHaveText('refused: its tools would be named like those of the server “data.set” (“.” becomes “_” in tool names); add it under another name');
  const importButton = box.getByRole('button', { name: 'Import 1 server (1 new, 1 refused)' });
  await importButton.click();
  await expect(box.getByTestId('import-result')).toContainText('Skipped Data_Set: Its tools would be named like those of the server “data.set” (“.” becomes “_” in tool names).');
  await expect(serverCard(page, 'data.set')).toBeVisible();
  await expect(page.locator('[data-testid="server-Data_Set"]')).toHaveCount(0);
  await box.getByRole('button', { name: 'Close' }).click();

  const form = await submitLocalServer(page, { name: 'data_set', command: commandLine(['bash', BASH_SERVER]) });
  await expect(form.getByRole('alert')).toHaveText('The tools of “data_set” would be named like those of the server “data.set” (“.” becomes “_” in tool names): choose another name.');
  await expect(form.getByLabel('Server name')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('[data-testid="server-data_set"]')).toHaveCount(0);
});
