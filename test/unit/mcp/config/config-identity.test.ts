/**
 * main/mcp/config/identity.ts: the identity of a server's configuration — what approvals and
 * "Allow in this conversation" are bound to (docs/ARCHITECTURE.md "Permissions") — changes with
 * the program, its arguments, the host and path, the transport and the names of its variables,
 * never with a secret value (env or header values, secret arguments, URL user info or query).
 */
import { describe, expect, it } from 'vitest';
import { programIdentity, serverIdentity, sameDestination } from '../../../../main/mcp/config/identity.js';
import type { LocalServerConfig, RemoteServerConfig } from '../../../../main/mcp/config.js';

const local = (over: Partial<LocalServerConfig> = {}): LocalServerConfig => ({ type: 'local', command: ['node', 'server.js', '--token', 'sk-first-secret-value'], env: { API_KEY: 'one' }, enabled: true, timeout_seconds: 30, secret_args: [3], ...over });
const remote = (over: Partial<RemoteServerConfig> = {}): RemoteServerConfig => ({ type: 'http', url: 'https://u:p@api.example.com/mcp?key=one', headers: { Authorization: 'Bearer one' }, auth: { kind: 'none' }, enabled: true, timeout_seconds: 30, ...over });

describe('serverIdentity', () => {
  it('keeps the identity when only secret values change', () => {
    const id = serverIdentity(local());
    expect(serverIdentity(local({ env: { API_KEY: 'two' } }))).toBe(id);
    expect(serverIdentity(local({ command: ['node', 'server.js', '--token', 'sk-other-secret-value'] }))).toBe(id);
    const rid = serverIdentity(remote());
    expect(serverIdentity(remote({ url: 'https://v:q@api.example.com/mcp?key=two', headers: { Authorization: 'Bearer two' } }))).toBe(rid);
  });

  it('changes with the program, a plain argument, the variable names, the transport, the host or the path', () => {
    const id = serverIdentity(local());
    expect(serverIdentity(local({ command: ['python3', 'server.js', '--token', 'sk-first-secret-value'] }))).not.toBe(id);
    expect(serverIdentity(local({ command: ['node', 'other.js', '--token', 'sk-first-secret-value'] }))).not.toBe(id);
    expect(serverIdentity(local({ env: { OTHER: 'one' } }))).not.toBe(id);
    const rid = serverIdentity(remote());
    expect(serverIdentity(remote({ url: 'https://evil.example.com/mcp?key=one' }))).not.toBe(rid);
    expect(serverIdentity(remote({ url: 'https://api.example.com/other?key=one' }))).not.toBe(rid);
    expect(serverIdentity(remote({ type: 'sse' }))).not.toBe(rid);
    expect(serverIdentity(remote({ headers: { 'X-Other': 'one' } }))).not.toBe(rid);
  });

  it('the identity is a digest: no value of the config can be read from it', () => {
    const id = serverIdentity(local());
    expect(id).toMatch(/^[0-9a-f]{64}$/);
    expect(id).not.toContain('sk-first');
  });
});

describe('programIdentity', () => {
  it('changes with the program, its arguments, the transport, the host or the path, not with the variable names or secret values', () => {
    const id = programIdentity(local());
    expect(programIdentity(local({ env: {} }))).toBe(id);
    expect(programIdentity(local({ env: { OTHER: 'x', API_KEY: 'two' } }))).toBe(id);
    expect(programIdentity(local({ command: ['node', 'server.js', '--token', 'sk-other-secret-value'] }))).toBe(id);
    expect(programIdentity(local({ command: ['node', 'other.js', '--token', 'sk-first-secret-value'] }))).not.toBe(id);
    const rid = programIdentity(remote());
    expect(programIdentity(remote({ headers: { 'X-Other': 'one' } }))).toBe(rid);
    expect(programIdentity(remote({ url: 'https://api.example.com/other?key=one' }))).not.toBe(rid);
    expect(programIdentity(remote({ type: 'sse' }))).not.toBe(rid);
    expect(programIdentity(local())).not.toBe(serverIdentity(local()));
  });
});

describe('sameDestination', () => {
  it('is the command line for stdio and the URL origin for remote servers', () => {
    expect(sameDestination(local(), local({ env: {} }))).toBe(true);
    expect(sameDestination(local(), local({ command: ['node', 'x.js'] }))).toBe(false);
    expect(sameDestination(remote(), remote({ url: 'https://api.example.com/other' }))).toBe(true);
    expect(sameDestination(remote(), remote({ url: 'https://api.example.org/mcp' }))).toBe(false);
    expect(sameDestination(local(), remote())).toBe(false);
  });
});
