/**
 * The window keeps the newest view of a server (docs/ARCHITECTURE.md "Status"): a reply and an
 * event about one server can reach the window in either order. Here the reply to Add server is
 * held over the real socket until the server's `ready` event has reached the page; the card must
 * stay ready (it used to fall back to the reply's "starting" for good).
 */
import { startHttpFixture } from '../fixtures/http-server.js';
import { expect, expectStatus, openAddServerForm, openApp, openSettings, serverCard, test } from './helpers.js';

test('a reply older than an event does not turn a ready server back to starting', async ({ page, shell }) => {
  const remote = await startHttpFixture();
  try {
    let release: () => void = () => undefined;
    const released = new Promise<void>((r) => (release = r));
    let readySeen = false;
    let replyHeld = false;
    await page.routeWebSocket(/\/ipc\?token=/, (ws) => {
      const server = ws.connectToServer();
      const addIds = new Set<number>();
      ws.onMessage((m) => {
        const msg = JSON.parse(String(m)) as { id?: number; channel?: string };
        if (msg.channel === 'servers.add' && typeof msg.id === 'number') addIds.add(msg.id);
        server.send(m);
      });
      server.onMessage((m) => {
        const msg = JSON.parse(String(m)) as { id?: number; event?: string; payload?: { name?: string; state?: { kind?: string } } };
        if (typeof msg.id === 'number' && addIds.has(msg.id)) {
          replyHeld = true;
          void released.then(() => ws.send(m));
          return;
        }
        ws.send(m);
        if (msg.event === 'servers.changed' && msg.payload?.name === 'fast' && msg.payload.state?.kind === 'ready') readySeen = true;
      });
    });
    await openApp(page, shell.current);
    await openSettings(page, 'MCP servers');
    const add = await openAddServerForm(page);
    await add.getByLabel('Server name').fill('fast');
    await add.getByLabel('Server type').selectOption({ label: 'Remote URL (Streamable HTTP)' });
    await add.getByLabel('URL').fill(remote.url);
    await add.getByRole('button', { name: 'Add server' }).click();
    await expect.poll(() => replyHeld && readySeen, { timeout: 30_000 }).toBe(true);
    await expectStatus(serverCard(page, 'fast'), 'ready');
    // Now the reply (its view says "starting") arrives last.
    release();
    await expect(add).toBeHidden();
    // Two frames: the reply is applied and the card rendered.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await expectStatus(serverCard(page, 'fast'), 'ready', 2000);
    await expect(serverCard(page, 'fast')).toContainText('2 tools');
  } finally {
    await remote.close();
  }
});
