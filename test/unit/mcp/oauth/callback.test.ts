import net from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { escapeHtml, startCallbackServer } from '../../../../main/mcp/oauth/callback.js';
import { CancelledError, PortInUseError } from '../../../../main/mcp/oauth/errors.js';
import { occupy, portIsFree } from './oauth-helpers.js';

afterEach(() => vi.restoreAllMocks());

async function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string; headers: Headers }> {
  const r = await fetch(url, { headers });
  return { status: r.status, body: await r.text(), headers: r.headers };
}

describe('loopback callback server', () => {
  it('resolves with code and state on the expected state; serves a static page; frees the port', async () => {
    const cb = await startCallbackServer({ expectedState: 'expected-state-value' });
    expect(cb.redirectUri).toBe(`http://127.0.0.1:${cb.port}/callback`);
    const r = await get(`${cb.redirectUri}?code=the-code-123&state=expected-state-value`);
    expect(r.status).toBe(200);
    expect(r.body).toContain('You can close this tab');
    expect(r.body).not.toContain('the-code-123');
    expect(r.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(r.headers.get('referrer-policy')).toBe('no-referrer');
    await expect(cb.result).resolves.toEqual({ code: 'the-code-123', state: 'expected-state-value' });
    expect(cb.listening).toBe(false);
    expect(await portIsFree(cb.port)).toBe(true);
  });

  it('a wrong state gets a 400 page that reflects nothing, and the wait goes on', async () => {
    const cb = await startCallbackServer({ expectedState: 'good' });
    const evil = '<script>alert(1)</script>';
    const r = await get(`${cb.redirectUri}?code=x&state=${encodeURIComponent(evil)}`);
    expect(r.status).toBe(400);
    expect(r.body).not.toContain('<script>');
    expect(r.body).not.toContain('alert');
    expect(cb.listening).toBe(true);
    const missing = await get(`${cb.redirectUri}?code=x`);
    expect(missing.status).toBe(400);
    const ok = await get(`${cb.redirectUri}?code=c0de&state=good`);
    expect(ok.status).toBe(200);
    await expect(cb.result).resolves.toEqual({ code: 'c0de', state: 'good' });
  });

  it('a replay is refused (single use)', async () => {
    const cb = await startCallbackServer({ expectedState: 's' });
    const url = `${cb.redirectUri}?code=c&state=s`;
    const first = await get(url);
    expect(first.status).toBe(200);
    const second = await get(url).then((r) => r.status, () => 'refused');
    expect(second === 'refused' || second === 400).toBe(true);
    await expect(cb.result).resolves.toEqual({ code: 'c', state: 's' });
  });

  it('requests from a non-loopback peer are refused and do not resolve the waiter', async () => {
    const cb = await startCallbackServer({ expectedState: 's' });
    // Pretend the peer is another machine (the server binds 127.0.0.1, so a real one cannot connect).
    const spy = vi.spyOn(net.Socket.prototype as unknown as { _getpeername(): object }, '_getpeername').mockReturnValue({ address: '192.0.2.7', family: 'IPv4', port: 40000 });
    const r = await get(`${cb.redirectUri}?code=c&state=s`);
    spy.mockRestore();
    expect(r.status).toBe(403);
    expect(cb.listening).toBe(true);
    await cb.cancel();
    await expect(cb.result).rejects.toBeInstanceOf(CancelledError);
  });

  it('a foreign Host header (DNS rebinding) is refused; other paths and methods too', async () => {
    const cb = await startCallbackServer({ expectedState: 's' });
    const raw = await new Promise<string>((resolve) => {
      const sock = net.connect(cb.port, '127.0.0.1', () => sock.end('GET /callback?code=c&state=s HTTP/1.1\r\nHost: evil.example:80\r\n\r\n'));
      let data = '';
      sock.on('data', (d) => (data += d.toString()));
      sock.on('close', () => resolve(data));
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400/);
    expect((await get(`http://127.0.0.1:${cb.port}/other`)).status).toBe(404);
    expect((await fetch(`${cb.redirectUri}?code=c&state=s`, { method: 'POST' })).status).toBe(405);
    expect(cb.listening).toBe(true);
    await cb.close();
  });

  it('cancel() closes the socket and rejects with CancelledError, never inventing a result', async () => {
    const cb = await startCallbackServer({ expectedState: 's' });
    await cb.cancel();
    await expect(cb.result).rejects.toBeInstanceOf(CancelledError);
    expect(await portIsFree(cb.port)).toBe(true);
    const after = await get(`${cb.redirectUri}?code=c&state=s`).then((r) => r.status, () => 'refused');
    expect(after).toBe('refused');
  });

  it('an aborted signal cancels; a keep-alive connection does not keep the port', async () => {
    const ac = new AbortController();
    const cb = await startCallbackServer({ expectedState: 's', signal: ac.signal });
    const sock = net.connect(cb.port, '127.0.0.1');
    await new Promise((r) => sock.once('connect', r));
    ac.abort();
    await expect(cb.result).rejects.toBeInstanceOf(CancelledError);
    await new Promise((r) => setTimeout(r, 50));
    expect(await portIsFree(cb.port)).toBe(true);
    sock.destroy();
  });

  it('times out, rejecting and closing', async () => {
    const cb = await startCallbackServer({ expectedState: 's', timeoutMs: 100 });
    await expect(cb.result).rejects.toMatchObject({ name: 'CallbackTimeoutError' });
    expect(await portIsFree(cb.port)).toBe(true);
  });

  it('an AS error response rejects with the error code only', async () => {
    const cb = await startCallbackServer({ expectedState: 's' });
    const r = await get(`${cb.redirectUri}?error=access_denied&error_description=%3Cb%3Ex&state=s`);
    expect(r.status).toBe(200);
    expect(r.body).not.toContain('<b>');
    await expect(cb.result).rejects.toMatchObject({ name: 'AuthorizationDeniedError', code: 'access_denied' });
  });

  it('binding a taken port throws PortInUseError and leaves nothing behind', async () => {
    const blocker = await occupy();
    await expect(startCallbackServer({ expectedState: 's', port: blocker.port })).rejects.toBeInstanceOf(PortInUseError);
    await blocker.release();
    expect(await portIsFree(blocker.port)).toBe(true);
  });

  it('escapeHtml escapes markup characters', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&</a>`)).not.toMatch(/[<>"'&](?!#)/);
  });
});
