/**
 * The inspector's transport tap on real connections (docs/ARCHITECTURE.md "Protocol inspector"):
 * a McpConnection given a traffic ring records both directions of a real server's traffic — the
 * handshake, the listing, a tagged tools/call and its result — over stdio (a 2025-era SDK server)
 * and over Streamable HTTP (a 2026-07-28 server), where an `input_required` round is grouped with
 * the call it belongs to; the connection works the same with and without the tap.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LocalServerConfig, RemoteServerConfig } from '../../../../main/mcp/config.js';
import { McpConnection } from '../../../../main/mcp/connection.js';
import { TrafficRing } from '../../../../main/mcp/inspector/ring.js';
import { SecretRedactor } from '../../../../main/secrets/redact.js';
import { startModernHttpFixture } from '../../../fixtures/modern-http-server.js';
import { localServer, ROOT, sdkCommand } from '../../helpers.js';

const MODERN_STDIO = path.join(ROOT, 'test', 'fixtures', 'modern-stdio-server.mjs');
const open: McpConnection[] = [];
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
  await Promise.all(closers.splice(0).map((f) => f()));
});

function connect(config: LocalServerConfig | RemoteServerConfig, ring: TrafficRing | null): McpConnection {
  const c = new McpConnection('fx', config, undefined, undefined, null, {
    traffic: ring,
    elicit: async () => ({ action: 'accept', content: { name: 'Ada', age: 36 } }),
  });
  open.push(c);
  return c;
}

describe('the traffic tap on real connections', () => {
  it('stdio: records the handshake, the listing and a tagged call with its result; the transport keeps its pid', async () => {
    const ring = new TrafficRing(new SecretRedactor());
    const c = connect(localServer(sdkCommand()), ring);
    await c.start();
    expect(c.status).toBe('ready');
    expect(c.pid).toBeGreaterThan(0);
    const r = await c.callTool('echo', { text: 'hi' }, { trace: 'chat:r1:c1' });
    expect(r.content).toEqual([{ type: 'text', text: 'hi' }]);
    const all = ring.all();
    const methods = all.filter((m) => m.dir === 'out' && m.kind === 'request').map((m) => m.method);
    expect(methods).toContain('tools/list');
    expect(methods).toContain('tools/call');
    const req = all.find((m) => m.method === 'tools/call' && m.kind === 'request')!;
    const res = all.find((m) => m.request_seq === req.seq)!;
    expect(req).toMatchObject({ dir: 'out', tag: 'chat:r1:c1', connection: 1 });
    expect(JSON.parse(req.json!).params).toMatchObject({ name: 'echo', arguments: { text: 'hi' } });
    expect(res).toMatchObject({ dir: 'in', kind: 'response', method: 'tools/call', tag: 'chat:r1:c1' });
    expect(JSON.parse(res.json!).result.content).toEqual([{ type: 'text', text: 'hi' }]);
    expect(res.elapsed_ms).toBeGreaterThanOrEqual(0);
    // Each message once: the SDK's chained onmessage handlers do not record twice.
    expect(all.filter((m) => m.request_seq === req.seq)).toHaveLength(1);
  });

  it('Streamable HTTP and stdio on 2026-07-28: an input_required round is grouped with its call', async () => {
    const f = await startModernHttpFixture();
    closers.push(() => f.close());
    const http: RemoteServerConfig = { type: 'http', url: f.url, headers: {}, auth: { kind: 'none' }, enabled: true, timeout_seconds: 10 };
    for (const config of [http, localServer([process.execPath, MODERN_STDIO])]) {
      const ring = new TrafficRing(new SecretRedactor());
      const c = connect(config, ring);
      await c.start();
      expect(c.protocol?.era).toBe('modern');
      await c.callTool('ask', {}, { trace: 'chat:r1:ask' });
      const calls = ring.all().filter((m) => m.method === 'tools/call');
      expect(calls.map((m) => `${m.dir} ${m.kind}${m.input_required ? ' input_required' : ''}`), config.type).toEqual(['out request', 'in response input_required', 'out request', 'in response']);
      const first = calls[0]!.seq;
      expect(calls.slice(1).map((m) => m.group)).toEqual([first, first, first]);
      expect(calls.map((m) => m.tag)).toEqual(['chat:r1:ask', 'chat:r1:ask', 'chat:r1:ask', 'chat:r1:ask']);
      expect(JSON.parse(calls[2]!.json!).params.inputResponses).toBeTruthy();
      await c.close();
    }
  });

  it('a call that runs as a task is tagged too (both Tasks generations), and the lane’s requests are recorded with their answers', async () => {
    const v1 = localServer([process.execPath, path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio']);
    const v2 = localServer([process.execPath, path.join(ROOT, 'test', 'fixtures', 'tasks-v2-server.mjs')]);
    for (const [config, tool, args] of [
      [v1, 'simulate-research-query', { topic: 'tides' }],
      [v2, 'slow-job', { steps: 2, step_ms: 50 }],
    ] as const) {
      const ring = new TrafficRing(new SecretRedactor());
      const c = connect(config, ring);
      await c.start();
      await c.callTool(tool, args, { trace: 'chat:r1:task', task: { created: () => undefined, updated: () => undefined } });
      const call = ring.all().find((m) => m.method === 'tools/call' && m.kind === 'request');
      expect(call?.tag, tool).toBe('chat:r1:task');
      expect(ring.all().some((m) => m.request_seq === call!.seq && m.kind === 'response'), tool).toBe(true);
      expect(ring.all().some((m) => m.method === 'tasks/get' && m.kind === 'request'), tool).toBe(true);
      await c.close();
    }
  }, 60_000);

  it('without a ring the connection is not tapped and works the same', async () => {
    const c = connect(localServer(sdkCommand()), null);
    await c.start();
    expect((await c.callTool('echo', { text: 'x' })).content).toEqual([{ type: 'text', text: 'x' }]);
  });
});
