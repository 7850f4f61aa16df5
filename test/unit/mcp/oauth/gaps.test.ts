/**
 * Guards a mutation check found untested (docs/ARCHITECTURE.md "OAuth"): the server's configured
 * secret headers never reach the authorization server; removing a server or switching its auth
 * away from OAuth forgets its OAuth tokens; the OAuth error redaction really redacts.
 * Real HTTP servers and the real provider over a real secret store.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfigStore } from '../../../../main/mcp/config.js';
import { McpHost } from '../../../../main/mcp/host.js';
import { redact } from '../../../../main/mcp/oauth/errors.js';
import { PersistentOAuthProvider } from '../../../../main/mcp/oauth/provider.js';
import { createOAuthRemoteTransport } from '../../../../main/mcp/oauth/transport.js';
import { MemorySecretStore } from '../../../../main/secrets/store.js';
import { startMetadataServer } from '../../../fixtures/oauth/world.js';
import { makeTempDir, removeDir } from '../../helpers.js';
import { Client } from '@modelcontextprotocol/client';

const HEADER_SECRET = 'hdr-secret-5a4b3c2d1e0f9a8b';

describe('the authorization server never sees the server\'s configured headers', () => {
  it('PRM, metadata and registration requests carry none of them; the MCP endpoint does', async () => {
    const seen: Array<{ path: string; headers: IncomingHttpHeaders }> = [];
    const s = await startMetadataServer((url, base, req, res) => {
      seen.push({ path: url.pathname, headers: req.headers });
      if (url.pathname === '/.well-known/oauth-protected-resource/mcp') {
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ resource: `${base}/mcp`, authorization_servers: [base] }));
        return true;
      }
      if (url.pathname === '/.well-known/oauth-authorization-server') {
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(
          JSON.stringify({ issuer: base, authorization_endpoint: `${base}/authorize`, token_endpoint: `${base}/token`, registration_endpoint: `${base}/register`, response_types_supported: ['code'], code_challenge_methods_supported: ['S256'] }),
        );
        return true;
      }
      if (url.pathname === '/register') {
        res.writeHead(201, { 'Content-Type': 'application/json' }).end(JSON.stringify({ client_id: 'c1', redirect_uris: ['http://127.0.0.1/callback'] }));
        return true;
      }
    });
    const provider = new PersistentOAuthProvider({ serverName: 'hdr', store: new MemorySecretStore(), openUrl: vi.fn() });
    const transport = createOAuthRemoteTransport({ type: 'http', url: s.mcpUrl, headers: { 'X-Api-Key': HEADER_SECRET, 'X-Tenant': 'tenant-secret-123' } }, provider);
    const client = new Client({ name: 't', version: '1' });
    await client.connect(transport).catch(() => undefined); // needs a sign-in: fails after discovery
    await client.close().catch(() => undefined);
    await s.close();
    const mcp = seen.filter((r) => r.path === '/mcp');
    const other = seen.filter((r) => r.path !== '/mcp');
    expect(mcp.length).toBeGreaterThan(0);
    expect(mcp[0]!.headers['x-api-key']).toBe(HEADER_SECRET);
    expect(other.map((r) => r.path)).toEqual(expect.arrayContaining(['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-authorization-server']));
    for (const r of other) {
      expect(r.headers['x-api-key'], r.path).toBeUndefined();
      expect(r.headers['x-tenant'], r.path).toBeUndefined();
      expect(JSON.stringify(r.headers)).not.toContain(HEADER_SECRET);
    }
  });
});

describe('OAuth tokens are forgotten', () => {
  let dir: string;
  let secrets: MemorySecretStore;
  let host: McpHost;
  let store: ConfigStore;
  beforeEach(async () => {
    dir = makeTempDir('op-oauth-forget-');
    secrets = new MemorySecretStore();
    store = new ConfigStore(dir, secrets);
    await store.load();
    host = new McpHost(store, { secrets, openUrl: vi.fn() });
  });
  afterEach(async () => {
    await host.shutdown();
    await removeDir(dir);
  });

  async function signedInServer(name: string): Promise<void> {
    await host.add(name, { type: 'http', url: 'http://127.0.0.1:9/mcp', auth: { kind: 'oauth' }, enabled: false });
    // What a completed sign-in leaves in the store (same keys the provider reads).
    const p = new PersistentOAuthProvider({ serverName: name, store: secrets, openUrl: vi.fn() });
    await p.saveTokens({ access_token: 'at-forget-me-0123456789', refresh_token: 'rt-forget-me-0123456789', token_type: 'Bearer', expires_in: 3600 });
    await p.saveClientInformation({ client_id: 'c1', redirect_uris: ['http://127.0.0.1/callback'] } as never);
    expect((await secrets.keys()).filter((k) => k.startsWith(`oauth:${name}:`)).length).toBeGreaterThanOrEqual(2);
    // The host knows the server's provider once something asked for it (its view does).
    await host.setEnabled(name, true);
  }

  const oauthKeys = async (name: string): Promise<string[]> => (await secrets.keys()).filter((k) => k.startsWith(`oauth:${name}:`));

  it('remove() deletes them', async () => {
    await signedInServer('o1');
    await host.remove('o1');
    expect(await oauthKeys('o1')).toEqual([]);
  });

  it('switching auth away from OAuth deletes them', async () => {
    await signedInServer('o2');
    await host.update('o2', { auth: { kind: 'bearer', token: 'new-bearer-token-123' } }).catch(() => undefined); // the restart fails (nothing listens); the tokens go regardless
    expect(await oauthKeys('o2')).toEqual([]);
  });

  it('disabling it keeps them (not a forget)', async () => {
    await signedInServer('o3');
    await host.setEnabled('o3', false);
    expect((await oauthKeys('o3')).length).toBeGreaterThanOrEqual(2);
  });
});

describe('OAuth error redaction', () => {
  it('replaces each secret (plain and URL-encoded) and bearer-looking credentials', () => {
    const out = redact('token=at/secret+value&x=1 Authorization: Bearer abcdefghijkl at%2Fsecret%2Bvalue', ['at/secret+value']);
    expect(out).not.toContain('at/secret+value');
    expect(out).not.toContain('at%2Fsecret%2Bvalue');
    expect(out).not.toContain('abcdefghijkl');
    expect(out).toContain('[redacted]');
  });
});
