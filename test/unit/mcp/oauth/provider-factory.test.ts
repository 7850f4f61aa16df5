/**
 * main/mcp/oauth/provider-factory.ts: the one way a provider is built from a server config,
 * without the app core (a MemorySecretStore and a redirect handler), as the host and the
 * conformance client use it.
 */
import { describe, expect, it } from 'vitest';
import type { RemoteServerConfig, ServerConfig } from '../../../../main/mcp/config.js';
import { createOAuthProvider, oauthProviderIdentity } from '../../../../main/mcp/oauth/provider-factory.js';
import { MemorySecretStore } from '../../../../main/secrets/store.js';

const remote = (auth: RemoteServerConfig['auth'], url = 'https://mcp.example/mcp'): RemoteServerConfig => ({ type: 'http', url, headers: {}, auth, enabled: true, timeout_seconds: 30 });
const deps = () => ({ store: new MemorySecretStore(), openUrl: () => undefined });

describe('createOAuthProvider', () => {
  it('builds nothing for a server that does not use OAuth', () => {
    const local: ServerConfig = { type: 'local', command: ['node'], env: {}, enabled: true, timeout_seconds: 30 };
    expect(createOAuthProvider('l', local, deps())).toBeNull();
    expect(createOAuthProvider('n', remote({ kind: 'none' }), deps())).toBeNull();
    expect(createOAuthProvider('b', remote({ kind: 'bearer', token: 't' }), deps())).toBeNull();
    expect(oauthProviderIdentity(local)).toBeNull();
  });

  it('without a client of the user: dynamic registration, or the given client metadata document', () => {
    const p = createOAuthProvider('srv', remote({ kind: 'oauth', scope: 'read' }), { ...deps(), clientMetadataUrl: 'https://client.example/meta.json' })!;
    expect(p.serverName).toBe('srv');
    expect(p.keyPrefix).toBe('oauth:srv:');
    expect(p.preRegistered).toBeUndefined();
    expect(p.clientMetadataUrl).toBe('https://client.example/meta.json');
  });

  it("with the user's client: that client is used and no client metadata document is offered", () => {
    const p = createOAuthProvider('srv', remote({ kind: 'oauth', client_id: 'cid', client_secret: 'cs' }), { ...deps(), clientMetadataUrl: 'https://client.example/meta.json' })!;
    expect(p.preRegistered).toEqual({ client_id: 'cid', client_secret: 'cs' });
    expect(p.clientMetadataUrl).toBeUndefined();
    expect(createOAuthProvider('pub', remote({ kind: 'oauth', client_id: 'cid' }), deps())!.preRegistered).toEqual({ client_id: 'cid' });
  });

  it('keeps its state in the given store and reports state changes with the server name', async () => {
    const d = deps();
    const changes: Array<[string, string]> = [];
    const p = createOAuthProvider('srv', remote({ kind: 'oauth' }), { ...d, onStateChange: (name, state) => changes.push([name, state]) })!;
    await p.saveTokens({ access_token: 'at', token_type: 'Bearer' });
    expect(await d.store.get('oauth:srv:tokens')).toContain('"access_token":"at"');
    expect(changes).toEqual([['srv', 'authorized']]);
  });

  it('identity changes with the URL or the client, not with the scope', () => {
    const base = oauthProviderIdentity(remote({ kind: 'oauth', scope: 'a' }));
    expect(oauthProviderIdentity(remote({ kind: 'oauth', scope: 'b' }))).toBe(base);
    expect(oauthProviderIdentity(remote({ kind: 'oauth', scope: 'a' }, 'https://other.example/mcp'))).not.toBe(base);
    expect(oauthProviderIdentity(remote({ kind: 'oauth', client_id: 'cid' }))).not.toBe(base);
  });
});
