/**
 * The composer keeps what the user typed per conversation (renderer/src/store/drafts.ts): a text
 * typed in one conversation waits there while another conversation or Settings is open, the other
 * conversation's box is empty, a sent message leaves its box empty for good, and the new chat has
 * a draft of its own. Real core, the scripted fake model, real Chromium through the browser shell.
 */
import type { Locator, Page } from '@playwright/test';
import { startFakeModel, type FakeModel } from '../fixtures/fake-model.js';
import { configureModel, expect, openApp, openChat, saveProfile, sendMessage, test } from './helpers.js';

process.env.OPENPROGRAM_LOCAL_MODEL_PROBES = 'none';

let model: FakeModel;
test.beforeAll(async () => {
  model = await startFakeModel({ chunkDelayMs: 1 });
});
test.afterAll(async () => {
  await model?.close();
});

/** The message box. */
const composer = (page: Page): Locator => page.getByRole('textbox', { name: 'Message' });

/** Open the saved conversation whose title starts with `title` from the sidebar. */
async function openConversation(page: Page, title: string): Promise<void> {
  const sidebar = page.getByRole('complementary', { name: 'Conversations' });
  await sidebar.getByTestId('conversation').filter({ hasText: title }).locator('.conv-open').click();
  await expect(page.getByTestId('chat-title')).toHaveText(new RegExp(`^${title}`));
  await expect(page.getByTestId('msg-user').first()).toHaveText(title);
}

/** Go to Settings and back to the chat. */
async function viaSettings(page: Page): Promise<void> {
  await page.getByRole('tab', { name: 'Settings' }).click();
  await expect(composer(page)).toHaveCount(0);
  await openChat(page);
}

test('a typed message waits in its conversation through another conversation and Settings, and is gone once sent', async ({ page, shell }) => {
  await openApp(page, shell.current);
  await configureModel(page, { baseUrl: model.baseUrl, model: 'fake-drafts' });
  await openChat(page);
  // Two conversations, A and B.
  await sendMessage(page, 'topic alpha');
  await expect(page.getByTestId('msg-assistant')).toHaveText('echo: topic alpha');
  await page.getByRole('button', { name: '+ New chat' }).click();
  await sendMessage(page, 'topic beta');
  await expect(page.getByTestId('msg-assistant')).toHaveText('echo: topic beta');
  await expect(composer(page)).toHaveValue('');

  // Typed in A; B's box is empty; through Settings and back to A, the text is there.
  await openConversation(page, 'topic alpha');
  await composer(page).fill('half-written thought for alpha');
  await openConversation(page, 'topic beta');
  await expect(composer(page)).toHaveValue('');
  await viaSettings(page);
  await expect(composer(page)).toHaveValue('');
  await openConversation(page, 'topic alpha');
  await expect(composer(page)).toHaveValue('half-written thought for alpha');
  // Settings while in A: still there.
  await viaSettings(page);
  await expect(composer(page)).toHaveValue('half-written thought for alpha');
  // B's own draft is its own.
  await openConversation(page, 'topic beta');
  await composer(page).fill('note for beta');
  await openConversation(page, 'topic alpha');
  await expect(composer(page)).toHaveValue('half-written thought for alpha');

  // Sent: the box is empty, and stays empty after going away and back; B keeps its draft.
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByTestId('msg-assistant').last()).toHaveText('echo: half-written thought for alpha');
  await expect(composer(page)).toHaveValue('');
  await openConversation(page, 'topic beta');
  await expect(composer(page)).toHaveValue('note for beta');
  await viaSettings(page);
  await openConversation(page, 'topic alpha');
  await expect(composer(page)).toHaveValue('');
});

test('the new chat keeps its own draft until its first message is sent', async ({ page, shell }) => {
  await openApp(page, shell.current);
  await configureModel(page, { baseUrl: model.baseUrl, model: 'fake-drafts' });
  await openChat(page);
  await sendMessage(page, 'topic gamma');
  await expect(page.getByTestId('msg-assistant')).toHaveText('echo: topic gamma');

  await page.getByRole('button', { name: '+ New chat' }).click();
  await composer(page).fill('an idea for a new chat');
  await openConversation(page, 'topic gamma');
  await expect(composer(page)).toHaveValue('');
  await page.getByRole('button', { name: '+ New chat' }).click();
  await expect(composer(page)).toHaveValue('an idea for a new chat');

  // Sent: it becomes a conversation; neither it nor the next new chat shows the text again.
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByTestId('msg-assistant')).toHaveText('echo: an idea for a new chat');
  await expect(composer(page)).toHaveValue('');
  await page.getByRole('button', { name: '+ New chat' }).click();
  await expect(composer(page)).toHaveValue('');
  await openConversation(page, 'an idea for a new chat');
  await expect(composer(page)).toHaveValue('');
});

test("what is attached waits with its conversation's draft and goes with its message", async ({ page, shell }) => {
  test.setTimeout(90_000);
  await openApp(page, shell.current);
  // A window the pasted text fits in, so the message with it is sent.
  await saveProfile(page, { name: 'Fake', baseUrl: model.baseUrl, model: 'fake-drafts', contextWindow: 200_000 });
  await openChat(page);
  await sendMessage(page, 'topic delta');
  await expect(page.getByTestId('msg-assistant')).toHaveText('echo: topic delta');
  await page.getByRole('button', { name: '+ New chat' }).click();
  await sendMessage(page, 'topic epsilon');
  await expect(page.getByTestId('msg-assistant')).toHaveText('echo: topic epsilon');

  // A long paste in delta becomes an attached file there.
  await openConversation(page, 'topic delta');
  await composer(page).fill('y'.repeat(185_000));
  await page.getByRole('button', { name: 'Attach as a file' }).click();
  // The composer's chips (a sent message shows its own, apart).
  const chips = page.getByTestId('attachment-chip');
  await expect(chips).toHaveText(/pasted text \(185,000 characters\)/);
  await composer(page).fill('see the log');
  // Not in epsilon; back in delta (through Settings too), still there.
  await openConversation(page, 'topic epsilon');
  await expect(chips).toHaveCount(0);
  await viaSettings(page);
  await openConversation(page, 'topic delta');
  await expect(chips).toHaveText(/pasted text \(185,000 characters\)/);
  await expect(composer(page)).toHaveValue('see the log');

  // Sent with its message: the chip is gone here and did not move anywhere else.
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByTestId('msg-user').last()).toHaveText(/see the log/);
  await expect(page.getByTestId('msg-context').last()).toContainText('pasted text.txt');
  await expect(chips).toHaveCount(0);
  await openConversation(page, 'topic epsilon');
  await expect(chips).toHaveCount(0);
  await openConversation(page, 'topic delta');
  await expect(chips).toHaveCount(0);
});
