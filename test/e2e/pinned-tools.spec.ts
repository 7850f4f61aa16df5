/**
 * Pinned tool definitions, end to end in Chromium with the real core, the scripted fake model
 * and a real stdio server whose tool changes while it runs (test/fixtures/shifting-server.mjs;
 * docs/ARCHITECTURE.md "Pinned tool definitions"): after "Always allow", the server changes the
 * tool; the next call asks with the diff and nothing runs before the user answers; allowing
 * accepts (pins) the new definition; a restart of the core keeps the pin.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startFakeModel } from '../fixtures/fake-model.js';
import { ROOT, SCREENSHOTS, addLocalServer, commandLine, configureModel, expect, expectStatus, openApp, openChat, openSettings, sendMessage, serverCard, setApprovalMode, tempDir, test } from './helpers.js';

const SHIFTING = path.join(ROOT, 'test/fixtures/shifting-server.mjs');

test('a tool changed after "Always allow" asks with the diff, runs nothing before the answer; accepting pins it, and a restart keeps the pin', async ({ page, shell }) => {
  const work = tempDir('pins-e2e');
  const control = path.join(work, 'control.json');
  const record = path.join(work, 'notes.txt');
  writeFileSync(control, JSON.stringify({ variant: 'v1' }));
  const notes = (): string[] => (existsSync(record) ? readFileSync(record, 'utf8').split('\n').filter(Boolean) : []);
  const model = await startFakeModel();
  try {
    await openApp(page, shell.current);
    await configureModel(page, { baseUrl: model.baseUrl, model: 'fake' });
    const card = await addLocalServer(page, { name: 'notes', command: commandLine(['node', SHIFTING, work]) });
    await expectStatus(card, 'ready');
    await expect(card.getByTestId('server-pins')).toHaveCount(0);
    await setApprovalMode(page, 'Ask for every tool call');
    await openChat(page);
    const approval = page.getByTestId('approval-card');

    // ---- "Always allow" for the definition as first seen ------------------------------------------
    await sendMessage(page, 'call __write_note {"text":"one"}');
    await expect(approval).toHaveCount(1);
    await expect(approval.getByTestId('approval-pin')).toHaveCount(0);
    await approval.getByRole('button', { name: 'Always allow' }).click();
    await expect.poll(notes).toEqual(['one']);
    await sendMessage(page, 'call __write_note {"text":"two"}');
    await expect.poll(notes).toEqual(['one', 'two']);
    await expect(approval).toHaveCount(0);

    // ---- The server changes the tool (tools/list_changed) -------------------------------------------
    writeFileSync(control, JSON.stringify({ variant: 'v2' }));
    await openSettings(page, 'MCP servers');
    await expect(card.getByTestId('server-pins')).toContainText('1 changed, 1 new');
    await card.getByRole('button', { name: 'Tools' }).click();
    const row = card.getByTestId('tool-write_note');
    await expect(row.getByTestId('tool-pin')).toHaveText('changed');
    await expect(row.getByTestId('pin-diff')).toContainText('Append a note, or wipe the notebook.');
    await expect(card.getByTestId('tool-wipe_notes').getByTestId('tool-pin')).toHaveText('new');
    // The count of offered tools follows the setting that holds changed and new tools back.
    const perms = card.getByTestId('tool-permissions');
    await expect(perms).toContainText('2 of 2 tools offered to the model.');
    const hold = async (on: boolean): Promise<void> => {
      await page.locator('.settings-nav').getByRole('button', { name: 'Tool permissions', exact: true }).click();
      const box = page.getByLabel('Hold changed and new tools back from the model until I accept them');
      await expect(box).toBeEnabled();
      if ((await box.isChecked()) !== on) await box.click();
      await (on ? expect(box).toBeChecked() : expect(box).not.toBeChecked());
      await openSettings(page, 'MCP servers');
      if (!(await perms.isVisible())) await card.getByRole('button', { name: 'Tools' }).click();
    };
    await hold(true);
    await expect(perms).toContainText('0 of 2 tools offered to the model.');
    await hold(false);
    await expect(perms).toContainText('2 of 2 tools offered to the model.');

    // ---- The next call asks, with the diff; nothing runs before the answer ------------------------------
    await openChat(page);
    await sendMessage(page, 'call __write_note {"text":"three"}');
    await expect(approval).toHaveCount(1);
    const pin = approval.getByTestId('approval-pin');
    await expect(pin).toHaveAttribute('data-pin', 'changed');
    await expect(pin).toContainText('This tool changed since you accepted it');
    await expect(pin).toContainText('Description changed');
    await expect(pin).toContainText('Append a note, or wipe the notebook.');
    await expect(pin).toContainText('Added input property wipe');
    await expect(pin).toContainText('Hint “read-only”: true → false');
    await expect(pin).toContainText('Hint “destructive”: false → true');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'pinned-tool-changed.png'), fullPage: true });
    await page.waitForTimeout(500);
    expect(notes()).toEqual(['one', 'two']);
    await approval.getByRole('button', { name: 'Allow once' }).click();
    await expect.poll(notes).toEqual(['one', 'two', 'three']);

    // Accepted: the tool is pinned again, so the earlier "Always allow" applies to it.
    await sendMessage(page, 'call __write_note {"text":"four"}');
    await expect.poll(notes).toEqual(['one', 'two', 'three', 'four']);
    await expect(approval).toHaveCount(0);
    await openSettings(page, 'MCP servers');
    await expect(card.getByTestId('tool-write_note').getByTestId('tool-pin')).toHaveCount(0);

    // ---- A restart of the core keeps the pin -----------------------------------------------------------
    await shell.restart();
    await openApp(page, shell.current);
    await openSettings(page, 'MCP servers');
    const again = serverCard(page, 'notes');
    await expectStatus(again, 'ready');
    await again.getByRole('button', { name: 'Tools' }).click();
    await expect(again.getByTestId('tool-write_note')).toBeVisible();
    await expect(again.getByTestId('tool-write_note').getByTestId('tool-pin')).toHaveCount(0);
    await expect(again.getByTestId('tool-wipe_notes').getByTestId('tool-pin')).toHaveText('new');
    await again.getByRole('button', { name: 'Accept all definitions' }).click();
    await expect(again.getByTestId('server-pins')).toHaveCount(0);
    await openChat(page);
    await sendMessage(page, 'call __write_note {"text":"five"}');
    await expect.poll(notes).toEqual(['one', 'two', 'three', 'four', 'five']);
    await expect(page.getByTestId('approval-card')).toHaveCount(0);
  } finally {
    await model.close();
  }
});
