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
