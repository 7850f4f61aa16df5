/**
 * The transport registry (docs/ARCHITECTURE.md "Transports"): one descriptor for every config
 * `type` the contract accepts, and each descriptor's launch gives a transport that really talks
 * MCP — stdio against the SDK fixture server process, Streamable HTTP and legacy SSE against
 * in-process HTTP servers — plus the stdio launch seam (`LaunchWrapper`) really deciding what runs.
 */
import { afterEach, describe, expect, it } from 'vitest';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { Client } from '@modelcontextprotocol/client';
import { serverInputSchema } from '../../../../preload/contract/index.js';
import type { LocalServerConfig, RemoteServerConfig, ServerConfig } from '../../../../main/mcp/config.js';
import { parseServerEntry } from '../../../../main/mcp/config.js';
import { McpConnection } from '../../../../main/mcp/connection.js';
import { TRANSPORT_TYPES, TRANSPORTS, transportOf, typeNamed } from '../../../../main/mcp/transports/registry.js';
import type { LaunchWrapper, StdioLaunch } from '../../../../main/mcp/transports/kind.js';
import { startHttpFixture } from '../../../fixtures/http-server.js';

const SDK_SERVER = path.resolve(__dirname, '../../../fixtures/sdk-server.mjs');
const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanup.splice(0).map((f) => f().catch(() => undefined)));
});

/** Every `type` the contract's add-server input accepts (the config union's discriminant). */
function contractTypes(): string[] {
  return serverInputSchema.options.flatMap((o) => {
    const t = o.shape.type as unknown as { value?: string; options?: string[] };
    return t.options ?? (t.value !== undefined ? [t.value] : []);
  });
}

const local = (command: string[], env: Record<string, string> = {}): LocalServerConfig => ({ type: 'local', command, env, enabled: true, timeout_seconds: 10 });
const remote = (type: 'http' | 'sse', url: string): RemoteServerConfig => ({ type, url, headers: {}, auth: { kind: 'none' }, enabled: true, timeout_seconds: 10 });

async function echoOver(cfg: ServerConfig): Promise<string> {
  const launched = transportOf(cfg.type).launch(cfg, { name: 'reg' });
  const client = new Client({ name: 'registry-test', version: '1' });
  cleanup.push(() => client.close());
  await client.connect(launched.transport, { timeout: 10_000 });
  const r = await client.callTool({ name: 'echo', arguments: { text: `over ${cfg.type}` } });
  return (r.content as Array<{ text: string }>)[0]!.text;
}

describe('transport registry', () => {
  it('has one descriptor for every config type, keyed by its own type', () => {
    expect([...TRANSPORT_TYPES].sort()).toEqual([...new Set(contractTypes())].sort());
    for (const t of TRANSPORT_TYPES) {
      expect(TRANSPORTS[t].type).toBe(t);
      expect(typeNamed(t)).toBe(t);
    }
    // Other hosts' spellings reach the same descriptors.
    expect(typeNamed('stdio')).toBe('local');
    expect(typeNamed('streamable-http')).toBe('http');
    expect(typeNamed('websocket')).toBeUndefined();
    expect(parseServerEntry({ type: 'stdio', command: 'node' }).type).toBe('local');
  });

  it('stdio: the launch runs the server process and speaks MCP with it', async () => {
    expect(await echoOver(local([process.execPath, SDK_SERVER]))).toBe('over local');
  });

  it('Streamable HTTP and legacy SSE: each launch connects to a real server of its kind', async () => {
    const http = await startHttpFixture();
    cleanup.push(() => http.close());
    expect(await echoOver(remote('http', http.url))).toBe('over http');
    const sse = await startHttpFixture({ mode: 'sse' });
    cleanup.push(() => sse.close());
    expect(await echoOver(remote('sse', sse.url))).toBe('over sse');
  });

  it('the launch wrapper gets the resolved launch and the server, and what it returns is what runs', async () => {
    const seen: Array<{ launch: StdioLaunch; name: string; config: LocalServerConfig }> = [];
    // The configured argument names no file: only the wrapper's launch can start the server.
    const wrapper: LaunchWrapper = {
      wrap(launch, server) {
        seen.push({ launch: structuredClone(launch), name: server.name, config: server.config });
        return { ...launch, args: [SDK_SERVER], env: { ...launch.env, WRAPPED: 'wrapped-value-123' } };
      },
    };
    const conn = new McpConnection('wrapped', local([process.execPath, '/nonexistent/server.mjs'], { FROM_CONFIG: 'yes' }), undefined, undefined, null, { launchWrapper: wrapper });
    cleanup.push(() => conn.close());
    await conn.start();
    expect(conn.status).toBe('ready');
    expect(seen).toHaveLength(1);
    const { launch, name, config } = seen[0]!;
    expect(name).toBe('wrapped');
    expect(config.command[1]).toBe('/nonexistent/server.mjs');
    expect(path.isAbsolute(launch.command)).toBe(true);
    expect(launch.args).toEqual(['/nonexistent/server.mjs']);
    expect(launch.env.FROM_CONFIG).toBe('yes');
    expect(launch.env.PATH).toBeTruthy();
    expect(conn.resolvedCommand).toBe(launch.command);
    const sha = createHash('sha256').update('wrapped-value-123').digest('hex');
    const r = await conn.callTool('env_check', { name: 'WRAPPED', sha256: sha });
    expect((r.content as Array<{ text: string }>)[0]!.text).toBe('match');
  });
});
