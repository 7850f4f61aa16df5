/**
 * Multi-round-trip requests (MCP 2026-07-28 "input_required"): a tools/call that answers with
 * embedded elicitation / sampling / roots requests reaches the same handlers the 2025-era
 * server→client requests reach (McpConnection.elicit / .sample, registered with the SDK's
 * setRequestHandler), on real 2026-07-28 servers over HTTP (createMcpHandler) and stdio
 * (serveStdio) — and the same tools keep working on a 2025-era connection (the SDK's legacy shim).
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LocalServerConfig, RemoteServerConfig } from '../../../../main/mcp/config.js';
import { McpConnection, type ConnectionDeps, type ElicitationForm, type SamplingRequest } from '../../../../main/mcp/connection.js';
import { EraMemory } from '../../../../main/mcp/negotiation.js';
import { startModernHttpFixture } from '../../../fixtures/modern-http-server.js';
import { localServer, ROOT } from '../../helpers.js';

const MODERN_STDIO = path.join(ROOT, 'test', 'fixtures', 'modern-stdio-server.mjs');
const open: McpConnection[] = [];
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
  await Promise.all(closers.splice(0).map((f) => f()));
});

interface Seen {
  forms: ElicitationForm[];
  samples: SamplingRequest[];
}

/** A connection whose elicit/sample handlers answer like a user who accepts, and record what they saw. */
function withHandlers(config: LocalServerConfig | RemoteServerConfig, over: ConnectionDeps = {}): { c: McpConnection; seen: Seen } {
  const seen: Seen = { forms: [], samples: [] };
  const c = new McpConnection('fx', config, undefined, undefined, null, {
    elicit: async (server, form) => {
      expect(server).toBe('fx');
      seen.forms.push(form);
      return { action: 'accept', content: { name: 'Ada', age: 36 } };
    },
    sample: async (server, req) => {
      expect(server).toBe('fx');
      seen.samples.push(req);
      return { model: 'host-model', text: `summary of ${req.messages.length} message(s)`, stopReason: 'endTurn' };
    },
    ...over,
  });
  open.push(c);
  return { c, seen };
}

const textOf = (r: { content?: unknown }): string => ((r.content ?? []) as Array<{ text?: string }>).map((b) => b.text ?? '').join('');

async function servers(): Promise<Array<{ label: string; config: LocalServerConfig | RemoteServerConfig; era: 'modern' | 'legacy' }>> {
  const f = await startModernHttpFixture();
  closers.push(() => f.close());
  const http: RemoteServerConfig = { type: 'http', url: f.url, headers: {}, auth: { kind: 'none' }, enabled: true, timeout_seconds: 10 };
  return [
    { label: 'HTTP (createMcpHandler)', config: http, era: 'modern' },
    { label: 'stdio (serveStdio)', config: localServer([process.execPath, MODERN_STDIO]), era: 'modern' },
  ];
}

describe('input_required on 2026-07-28 servers', () => {
  it('elicitation: the form reaches the elicit handler; the answer reaches the server', async () => {
    for (const s of await servers()) {
      const { c, seen } = withHandlers(s.config);
      await c.start();
      expect(c.protocol?.era, s.label).toBe(s.era);
      const r = await c.callTool('ask', {});
      expect(seen.forms, s.label).toHaveLength(1);
      expect(seen.forms[0]!.message).toBe('Who are you?');
      expect(seen.forms[0]!.requestedSchema).toMatchObject({ type: 'object', required: ['name'] });
      expect(JSON.parse(textOf(r)), s.label).toEqual({ action: 'accept', content: { name: 'Ada', age: 36 } });
    }
  });

  it('sampling: the request reaches the sample handler; the completion reaches the server', async () => {
    for (const s of await servers()) {
      const { c, seen } = withHandlers(s.config);
      await c.start();
      const r = await c.callTool('summarize', { text: 'the quarterly numbers' });
      expect(seen.samples, s.label).toHaveLength(1);
      expect(seen.samples[0]!.systemPrompt).toBe('Be brief.');
      expect(seen.samples[0]!.messages[0]!.content.text).toBe('the quarterly numbers');
      expect(textOf(r), s.label).toBe('model host-model said: summary of 1 message(s)');
    }
  });

  it('a declined form reaches the server as declined', async () => {
    const [s] = await servers();
    const { c } = withHandlers(s!.config, { elicit: async () => ({ action: 'decline' }) });
    await c.start();
    expect(JSON.parse(textOf(await c.callTool('ask', {})))).toEqual({ action: 'decline' });
  });

  it('roots: the app declares no roots, so the call fails with an error instead of waiting', async () => {
    for (const s of await servers()) {
      const { c } = withHandlers(s.config);
      await c.start();
      const outcome = await c.callTool('roots', {}).then(
        (r) => ({ ok: true, isError: r.isError === true, text: textOf(r) }),
        (e: Error) => ({ ok: false, isError: true, text: e.message }),
      );
      expect(outcome.isError, `${s.label}: ${outcome.text}`).toBe(true);
    }
  });

  it('the same input_required tools on a 2025-era connection (legacy shim: real server→client requests)', async () => {
    // Connect with the 2025 handshake, as the app does for a server it knows to be legacy.
    const config = localServer([process.execPath, MODERN_STDIO]);
    const eras = new EraMemory();
    eras.remember(config, 'legacy');
    const { c, seen } = withHandlers(config, { eras });
    await c.start();
    expect(c.protocol?.era).toBe('legacy');
    expect(JSON.parse(textOf(await c.callTool('ask', {})))).toEqual({ action: 'accept', content: { name: 'Ada', age: 36 } });
    expect(textOf(await c.callTool('summarize', { text: 'x' }))).toBe('model host-model said: summary of 1 message(s)');
    expect(seen.forms).toHaveLength(1);
    expect(seen.samples).toHaveLength(1);
  });
});
