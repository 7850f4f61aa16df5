/**
 * The composer's tool picker: per conversation, the user chooses which servers' tools the model
 * gets; main applies the choice to every request of that conversation (and remembers it).
 */
import { startFakeModel } from '../fixtures/fake-model.js';
import { FS_SERVER, addLocalServer, commandLine, configureModel, expect, expectStatus, openApp, openChat, sendMessage, tempDir, test } from './helpers.js';

test('unchecking a server in Tools keeps its tools out of that conversation’s requests, and it is remembered', async ({ page, shell }) => {
  const model = await startFakeModel();
  const dir = tempDir('picker');
  try {
    await openApp(page, shell.current);
    await configureModel(page, { baseUrl: model.baseUrl, model: 'fake' });
    await expectStatus(await addLocalServer(page, { name: 'files', command: commandLine(['node', FS_SERVER, dir]) }), 'ready');
    await openChat(page);
    const picker = page.getByRole('button', { name: 'Tools for this conversation' });
    await expect(picker).toHaveText(/Tools: \d+/);
    await picker.click();
    await page.getByLabel('Use tools of files').uncheck();
    await expect(picker).toHaveText('Tools: 0');
    await sendMessage(page, 'hello without tools');
    await expect(page.getByTestId('msg-assistant')).toHaveText('echo: hello without tools');
    expect(model.requests.at(-1)!.body.tools ?? []).toEqual([]);

    // Remembered with the conversation (after a reload too); checking it again offers the tools.
    await page.reload();
    await expect(page.getByRole('button', { name: 'Tools for this conversation' })).toHaveText('Tools: 0');
    await page.getByRole('button', { name: 'Tools for this conversation' }).click();
    await page.getByLabel('Use tools of files').check();
    await sendMessage(page, 'hello with tools');
    await expect(page.getByTestId('msg-assistant').last()).toHaveText('echo: hello with tools');
    expect(model.requests.at(-1)!.body.tools?.map((t) => t.function.name)).toContain('files__read_text_file');

    // A new chat starts with every server again.
    await page.keyboard.press('Control+Shift+O');
    await expect(page.getByRole('button', { name: 'Tools for this conversation' })).not.toHaveText('Tools: 0');
  } finally {
    await model.close();
  }
});
