import { describe, expect, it } from 'vitest';
import { assertSafeAuthorizationServerMetadata, classifyHost, isSafeAuthorizationUrl, isSafeEndpointUrl, issuersMatch } from '../../../../main/mcp/oauth/url-safety.js';
import type { AuthorizationServerMetadata } from '@modelcontextprotocol/client';

describe('isSafeAuthorizationUrl', () => {
  it.each([
    'https://auth.example.com/authorize?client_id=a&state=b',
    'http://127.0.0.1:8080/authorize',
    'http://localhost/authorize',
    'http://[::1]:9000/authorize',
    'http://127.0.0.2/authorize', // all of 127.0.0.0/8: the one loopback rule (preload/contract/rules)
    'http://app.localhost/authorize',
    new URL('https://example.org/a'),
  ])('accepts %s', (u) => expect(isSafeAuthorizationUrl(u)).toBe(true));

  it.each([
    'file:///etc/passwd',
    'javascript:alert(1)',
    'JAVASCRIPT:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox',
    'ms-settings:',
    'http://auth.example.com/authorize',
    'http://192.168.1.5/authorize',
    'http://127.0.0.1.evil.com/authorize',
    'http://localhost./authorize',
    'https://user:pass@auth.example.com/authorize',
    'https://user@auth.example.com/',
    'https://auth.example.com/a\nb',
    'https://auth.example.com/a\tb',
    'https://auth.example.com/\u0000',
    'https://auth.example.com/\u202e',
    ' https://auth.example.com/',
    'https://',
    'not a url',
    '',
    `https://example.com/${'a'.repeat(9000)}`,
  ])('refuses %s', (u) => expect(isSafeAuthorizationUrl(u)).toBe(false));
});

describe('classifyHost', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.9.9.9', 'loopback'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['localhost', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.1', 'private'],
    ['169.254.169.254', 'private'],
    ['100.64.0.1', 'private'],
    ['0.0.0.0', 'private'],
    ['[fd00::1]', 'private'],
    ['fe80::1', 'private'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:a00:1', 'private'],
    ['172.32.0.1', 'public'],
    ['8.8.8.8', 'public'],
    ['example.com', 'public'],
  ])('%s → %s', (h, want) => expect(classifyHost(h)).toBe(want));
});

describe('metadata checks', () => {
  const base: AuthorizationServerMetadata = {
    issuer: 'https://as.example.com',
    authorization_endpoint: 'https://as.example.com/authorize',
    token_endpoint: 'https://as.example.com/token',
    response_types_supported: ['code'],
  };
  it('accepts good metadata (issuer with or without trailing slash)', () => {
    expect(() => assertSafeAuthorizationServerMetadata(base, 'https://as.example.com/')).not.toThrow();
    expect(issuersMatch('https://as.example.com', 'https://as.example.com/')).toBe(true);
  });
  it('refuses an issuer mismatch (RFC 8414 §3.3)', () => {
    expect(() => assertSafeAuthorizationServerMetadata({ ...base, issuer: 'https://evil.example.com' }, 'https://as.example.com')).toThrow(/issuer/);
  });
  it('refuses a file: or plain-http authorization endpoint and a plain-http token endpoint', () => {
    expect(() => assertSafeAuthorizationServerMetadata({ ...base, authorization_endpoint: 'file:///etc/passwd' }, base.issuer)).toThrow(/authorization_endpoint/);
    expect(() => assertSafeAuthorizationServerMetadata({ ...base, token_endpoint: 'http://as.example.com/token' }, base.issuer)).toThrow(/token_endpoint/);
    expect(() => assertSafeAuthorizationServerMetadata({ ...base, registration_endpoint: 'https://u:p@as.example.com/reg' }, base.issuer)).toThrow(/registration_endpoint/);
    expect(isSafeEndpointUrl('http://127.0.0.1:3000/token')).toBe(true);
  });
});
