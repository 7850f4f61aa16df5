/**
 * Protocol eras through the app's own connection (main/mcp/connection.ts, main/mcp/negotiation.ts):
 * 2026-07-28 servers over stateless Streamable HTTP (createMcpHandler) and stdio (serveStdio), and
 * 2025-era servers — the SDK fixture, the hand-written 2024-11-05 bash server, servers that exit on
 * or ignore the `server/discover` probe — each a real process or HTTP server.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LocalServerConfig, RemoteServerConfig } from '../../../../main/mcp/config.js';
import { McpConnection } from '../../../../main/mcp/connection.js';
import { EraMemory } from '../../../../main/mcp/negotiation.js';
import { startModernHttpFixture } from '../../../fixtures/modern-http-server.js';
import { bashCommand, localServer, ROOT, sdkCommand, waitFor } from '../../helpers.js';

const MODERN_STDIO = path.join(ROOT, 'test', 'fixtures', 'modern-stdio-server.mjs');
const RAW = path.join(ROOT, 'test', 'fixtures', 'raw-server.mjs');
const open: McpConnection[] = [];
const closers: Array<() => Promise<void>> = [];

function connect(config: LocalServerConfig | RemoteServerConfig, eras: EraMemory | null = null): McpConnection {
  const c = new McpConnection('srv', config, undefined, undefined, null, { eras });
  open.push(c);
  return c;
}

function remote(url: string): RemoteServerConfig {
  return { type: 'http', url, headers: {}, auth: { kind: 'none' }, enabled: true, timeout_seconds: 10 };
}

function textOf(result: { content?: unknown }): string {
  return ((result.content ?? []) as Array<{ type: string; text?: string }>).map((b) => b.text ?? '').join('');
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
  await Promise.all(closers.splice(0).map((f) => f()));
});

describe('protocol eras', () => {
  it('a stateless 2026-07-28 HTTP server: negotiated with server/discover, no initialize, tools listed and called', async () => {
    const f = await startModernHttpFixture();
    closers.push(() => f.close());
    const c = connect(remote(f.url));
    await c.start();
    expect(c.state).toEqual({ kind: 'ready' });
    expect(c.status).toBe('ready');
    expect(c.protocol).toEqual({ era: 'modern', version: '2026-07-28' });
    expect(f.methods[0]).toBe('server/discover');
    expect(f.methods).not.toContain('initialize');
    expect(c.tools.map((t) => t.name).sort()).toEqual(['ask', 'echo', 'era', 'grow', 'roots', 'summarize']);
    expect(textOf(await c.callTool('echo', { text: 'hé "x"' }))).toBe('hé "x"');
    expect(textOf(await c.callTool('era', {}))).toBe('modern');
  });

  it('a 2026-07-28 stdio server (serveStdio): modern era on the one process', async () => {
    const c = connect(localServer([process.execPath, MODERN_STDIO]));
    await c.start();
    expect(c.state).toEqual({ kind: 'ready' });
    expect(c.protocol).toEqual({ era: 'modern', version: '2026-07-28' });
    expect(textOf(await c.callTool('echo', { text: 'over stdio' }))).toBe('over stdio');
    expect(textOf(await c.callTool('era', {}))).toBe('modern');
  });

  it('2025-era servers fall back to initialize: the SDK fixture and the hand-written 2024-11-05 bash server', async () => {
    const sdk = connect(localServer(sdkCommand()));
    const bash = connect(localServer(bashCommand()));
    await Promise.all([sdk.start(), bash.start()]);
    expect(sdk.state).toEqual({ kind: 'ready' });
    expect(sdk.protocol?.era).toBe('legacy');
    expect(sdk.protocol?.version).toMatch(/^2025-/);
    expect(bash.state).toEqual({ kind: 'ready' });
    expect(bash.protocol).toEqual({ era: 'legacy', version: '2024-11-05' });
    expect(textOf(await bash.callTool('upper', { text: 'abc' }))).toBe('ABC');
  });

  it('a server that exits on the probe is started again with the 2025 handshake, and the verdict is remembered', async () => {
    const eras = new EraMemory();
    const config = localServer([process.execPath, RAW, 'exit-on-discover']);
    const first = connect(config, eras);
    await first.start();
    expect(first.state).toEqual({ kind: 'ready' });
    expect(first.status).toBe('ready');
    expect(first.protocol?.era).toBe('legacy');
    expect(first.log.all().some((e) => e.text === "the server's process exited with code 1 at its first request (server/discover, which asks which protocol version it speaks); an older server does that, so it is started once more with the 2025 initialize handshake")).toBe(true);
    expect(first.log.all().some((e) => /sibling|probed in place|StdioClientTransport/.test(e.text)), "the SDK's internal wording reaches the log").toBe(false);
    expect(eras.prior(config)).toEqual({ kind: 'legacy' });
    // The next start of the same configuration goes straight to initialize: no second process.
    const second = connect(config, eras);
    await second.start();
    expect(second.status).toBe('ready');
    expect(second.log.all().some((e) => /at its first request \(server\/discover/.test(e.text))).toBe(false);
    // Without the remembered verdict the probe (and the restart) happens again.
    const third = connect(config, null);
    await third.start();
    expect(third.status).toBe('ready');
    expect(third.log.all().some((e) => /at its first request \(server\/discover/.test(e.text))).toBe(true);
  });

  it('a server that crashes at start (a missing module) is tried once more the 2025 way, and the log ends on its exit code, not the SDK\'s "Connection closed"', async () => {
    const crash = "process.stderr.write('Error: Cannot find module \\'left-pad\\'\\n'); process.exit(1)";
    const c = connect(localServer([process.execPath, '-e', crash]), new EraMemory());
    await c.start();
    expect(c.state).toEqual({ kind: 'error', failure: { kind: 'exited', running: false, exit: { code: 1, signal: null }, server_message: null } });
    const lines = c.log.all().filter((e) => e.source === 'lifecycle').map((e) => e.text);
    // Said as it happened: the process ended at its first request; an older server does that, so once more with initialize.
    expect(lines.filter((l) => l.includes('at its first request'))).toEqual([
      "the server's process exited with code 1 at its first request (server/discover, which asks which protocol version it speaks); an older server does that, so it is started once more with the 2025 initialize handshake",
    ]);
    expect(lines.filter((l) => l === 'command resolved to ' + process.execPath)).toHaveLength(2);
    expect(lines.at(-1)).toBe('error (exited): The server exited before it finished starting (the process exited with code 1).');
    expect(lines.some((l) => /Connection closed|SdkError|start failed/.test(l)), lines.join('\n')).toBe(false);
    expect(c.stderrTail()).toEqual(["Error: Cannot find module 'left-pad'"]);
  });

  it('a server that ignores the probe counts as legacy once the probe times out', async () => {
    const c = connect(localServer([process.execPath, RAW, 'silent-discover'], { timeout_seconds: 2 }));
    await c.start();
    expect(c.state).toEqual({ kind: 'ready' });
    expect(c.status).toBe('ready');
    expect(c.protocol?.era).toBe('legacy');
  });

  it('2026-07-28 list changes arrive on a subscriptions/listen stream, over HTTP and stdio', async () => {
    const f = await startModernHttpFixture();
    closers.push(() => f.close());
    for (const config of [remote(f.url), localServer([process.execPath, MODERN_STDIO])]) {
      const c = connect(config);
      await c.start();
      expect(c.protocol?.era).toBe('modern');
      expect(c.tools.map((t) => t.name)).not.toContain('grown');
      await c.callTool('grow', {});
      expect(await waitFor(() => c.tools.some((t) => t.name === 'grown'), 5000), config.type).toBe(true);
    }
    expect(f.methods).toContain('subscriptions/listen');
  });

  it('a 2026-07-28 stdio server slower to start than the probe still works, on the 2025 handshake', async () => {
    // Probe: half of the 8 s start timeout; the server reads its first line after 4.5 s (and a
    // loaded machine needs a second or more to start node), well before the start timeout.
    const slow = localServer(['bash', '-c', `sleep 4.5; exec "${process.execPath}" "${MODERN_STDIO}"`], { timeout_seconds: 8 });
    const c = connect(slow);
    await c.start();
    expect(c.state).toEqual({ kind: 'ready' });
    expect(c.protocol?.era).toBe('legacy');
    expect(textOf(await c.callTool('era', {}))).toBe('legacy');
  });

  it('a modern-only HTTP server stays reachable, a modern-only stdio server too', async () => {
    const f = await startModernHttpFixture({ legacy: 'reject' });
    closers.push(() => f.close());
    const http = connect(remote(f.url));
    const stdio = connect(localServer([process.execPath, MODERN_STDIO, '--modern-only']));
    await Promise.all([http.start(), stdio.start()]);
    expect(http.state).toEqual({ kind: 'ready' });
    expect(http.protocol?.era).toBe('modern');
    expect(stdio.state).toEqual({ kind: 'ready' });
    expect(stdio.protocol?.era).toBe('modern');
  });

  it('a modern-only stdio server slower to start than the probe connects, on 2026-07-28 (its refused initialize is not final)', async () => {
    // Probe: half of the 6 s start timeout; the server reads its first line after 4 s, then
    // refuses the 2025 handshake the timed-out probe fell back to.
    const slow = localServer(['bash', '-c', `sleep 4; exec "${process.execPath}" "${MODERN_STDIO}" --modern-only`], { timeout_seconds: 6 });
    const eras = new EraMemory();
    const c = connect(slow, eras);
    await c.start();
    expect(c.state).toEqual({ kind: 'ready' });
    expect(c.status).toBe('ready');
    expect(c.protocol).toEqual({ era: 'modern', version: '2026-07-28' });
    expect(textOf(await c.callTool('era', {}))).toBe('modern');
    expect(eras.prior(slow)).toBeUndefined();
    // The log says why it started twice.
    expect(c.log.all().some((e) => e.text.includes('refused the 2025 initialize handshake'))).toBe(true);
  });

  it('a remembered legacy verdict is a hint: a server upgraded in place to speak 2026-07-28 only connects after a restart', async () => {
    const eras = new EraMemory();
    const config = localServer([process.execPath, MODERN_STDIO, '--modern-only']);
    // The same configuration was a legacy server earlier this session.
    eras.remember(config, 'legacy');
    const c = connect(config, eras);
    await c.start();
    expect(c.state).toEqual({ kind: 'ready' });
    expect(c.protocol?.era).toBe('modern');
    // The stale verdict is gone: the next start probes.
    expect(eras.prior(config)).toBeUndefined();
  });
});
