/**
 * The window keeps the newest view of a server (docs/ARCHITECTURE.md "Status"): a reply and an
 * event about one server can reach the window in either order. Here the reply to Add server is
 * held over the real socket until the server's `ready` event has reached the page; the card must
 * stay ready (it used to fall back to the reply's "starting" for good).
 */
import type { ServerView } from '../../preload/contract/index.js';
import { startHttpFixture } from '../fixtures/http-server.js';
import { expect, expectStatus, holdReplies, nextPaint, openApp, openSettings, serverCard, submitRemoteServer, test } from './helpers.js';

test('a reply older than an event does not turn a ready server back to starting', async ({ page, shell }) => {
  const remote = await startHttpFixture();
  try {
    let readySeen = false;
    const replies = await holdReplies(page, 'servers.add', (event, payload) => {
      const view = payload as ServerView;
      if (event === 'servers.changed' && view.name === 'fast' && view.state.kind === 'ready') readySeen = true;
    });
    await openApp(page, shell.current);
    await openSettings(page, 'MCP servers');
    const add = await submitRemoteServer(page, { name: 'fast', url: remote.url });
    await expect.poll(() => replies.held() > 0 && readySeen, { timeout: 30_000 }).toBe(true);
    await expectStatus(serverCard(page, 'fast'), 'ready');
    // Now the reply (its view says "starting") arrives last.
    replies.release();
    await expect(add).toBeHidden();
    await nextPaint(page);
    await expectStatus(serverCard(page, 'fast'), 'ready', 2000);
    await expect(serverCard(page, 'fast')).toContainText('2 tools');
  } finally {
    await remote.close();
  }
});
