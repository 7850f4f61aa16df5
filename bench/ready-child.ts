/**
 * One "app core ready to serve the UI" sample, in a fresh process (so module loading counts, as
 * it does when the app starts). Usage: ready-child.ts <stateDir> <expectedServers> <tag>
 * Runs under tsx (as `npm run web` does) or bundled to plain JS (as the Electron build loads main).
 *
 * Prints `RESULT {...}` once the UI can be served (shell started, index page fetched, a
 * WebSocket `servers.list` round-trip answered), then shuts the core down, checks that no fixture
 * process is left, and prints `FINAL {...}`.
 */
import http from 'node:http';
import path from 'node:path';
import { WebSocket } from 'ws';
import { ROOT, findTagged, waitNoTagged } from './util.js';

function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

function serversList(port: number, token: string): Promise<unknown[]> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ipc?token=${encodeURIComponent(token)}`, { origin: `http://127.0.0.1:${port}` });
    ws.on('error', reject);
    ws.on('open', () => ws.send(JSON.stringify({ id: 1, channel: 'servers.list', input: {} })));
    ws.on('message', (data) => {
      const msg = JSON.parse(data.toString()) as { id?: unknown; envelope?: { ok: boolean; value?: unknown; error?: unknown } };
      if (msg.id !== 1) return; // events (servers.changed) may arrive first
      ws.close();
      if (msg.envelope?.ok && Array.isArray(msg.envelope.value)) resolve(msg.envelope.value);
      else reject(new Error(`servers.list failed: ${JSON.stringify(msg.envelope)}`));
    });
  });
}

async function main(): Promise<void> {
  const [stateDir, expectedArg, tag] = process.argv.slice(2);
  if (!stateDir || !expectedArg || !tag) throw new Error('usage: ready-child.ts <stateDir> <expectedServers> <tag>');
  const expected = Number(expectedArg);

  const tImportStart = performance.now();
  const { startBrowserShell } = await import('../main/shell/browser-shell.js');
  const tImported = performance.now();
  const shell = await startBrowserShell({ stateDir, rendererDir: path.join(ROOT, 'out/renderer') });
  const tShell = performance.now();
  const token = new URL(shell.url).hash.replace(/^#token=/, '');
  const page = await get(`http://127.0.0.1:${shell.port}/`);
  if (page.status !== 200 || !/<html/i.test(page.body)) throw new Error(`index page: HTTP ${page.status}`);
  const tPage = performance.now();
  const list = await serversList(shell.port, token);
  if (list.length !== expected) throw new Error(`servers.list returned ${list.length} servers, expected ${expected}`);
  const tReady = performance.now();
  const statuses = (list as { state: { kind: string } }[]).map((s) => s.state.kind);
  process.stdout.write(
    `RESULT ${JSON.stringify({
      sinceProcessStartMs: tReady,
      loaderMs: tImportStart,
      importMs: tImported - tImportStart,
      shellStartMs: tShell - tImported,
      pageMs: tPage - tShell,
      wsListMs: tReady - tPage,
      shellCallToReadyMs: tReady - tImported,
      statuses,
    })}\n`,
  );

  // Shut down; let the background startup run a little first so some servers are mid-start.
  await new Promise((r) => setTimeout(r, 300));
  const pids = expected ? shell.core.host.list().map((v) => shell.core.host.connection(v.name)?.pid ?? null) : [];
  const tagged = findTagged(tag).length;
  const t0 = performance.now();
  await shell.close();
  const shutdownMs = performance.now() - t0;
  const left = await waitNoTagged(tag, 3000);
  process.stdout.write(`FINAL ${JSON.stringify({ shutdownMs, spawnedBeforeShutdown: tagged, pidsKnown: pids.filter((p) => p !== null).length, leftAfterShutdown: left })}\n`);
  // The process must now exit on its own; report handles that keep it alive.
  setTimeout(() => {
    process.stdout.write(`FINAL ${JSON.stringify({ lingering: process.getActiveResourcesInfo() })}\n`);
    process.exit(0);
  }, 5000).unref();
}

main().catch((err) => {
  console.error((err as Error).stack ?? err);
  process.exit(1);
});
