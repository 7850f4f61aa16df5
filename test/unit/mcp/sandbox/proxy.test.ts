/**
 * The sandbox's egress proxy on a real Unix socket (docs/ARCHITECTURE.md "Sandbox"): host rules
 * (exact, `*.domain`, `:port`), package registries reachable only until the server is ready, and
 * every refused connection reported.
 */
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EgressProxy, hostAllowed, type ProxyDenial } from '../../../../main/mcp/sandbox/proxy.js';
import { makeTempDir, removeDir } from '../../helpers.js';

function tunnel(socketPath: string, target: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath, method: 'CONNECT', path: target });
    req.on('connect', (res, socket) => {
      socket.destroy();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('hostAllowed', () => {
  it('matches exact names, subdomains of *. rules, and ports', () => {
    expect(hostAllowed(['api.example.com'], 'API.example.com', 443)).toBe(true);
    expect(hostAllowed(['api.example.com'], 'evil-api.example.com', 443)).toBe(false);
    expect(hostAllowed(['*.example.com'], 'a.b.example.com', 443)).toBe(true);
    expect(hostAllowed(['*.example.com'], 'example.com', 443)).toBe(false);
    expect(hostAllowed(['*.example.com'], 'badexample.com', 443)).toBe(false);
    expect(hostAllowed(['example.com:8443'], 'example.com', 443)).toBe(false);
    expect(hostAllowed(['example.com:8443'], 'example.com', 8443)).toBe(true);
    expect(hostAllowed([], 'example.com', 443)).toBe(false);
  });
});

describe('EgressProxy', () => {
  let dir: string;
  let target: net.Server;
  let port: number;
  beforeAll(async () => {
    dir = makeTempDir('op-proxy-');
    target = net.createServer((s) => s.end());
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', () => r()));
    port = (target.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((r) => target.close(() => r()));
    await removeDir(dir);
  });

  it('lets registries through only until the server is ready, and reports what it refuses', async () => {
    const denials: ProxyDenial[] = [];
    const proxy = new EgressProxy([], [`127.0.0.1:${port}`], (d) => denials.push(d));
    const sock = path.join(dir, 'p.sock');
    await proxy.listen(sock);
    try {
      expect(await tunnel(sock, `127.0.0.1:${port}`)).toBe(200);
      proxy.endFetch();
      expect(await tunnel(sock, `127.0.0.1:${port}`)).toBe(403);
      expect(denials).toEqual([{ host: '127.0.0.1', port }]);
    } finally {
      await proxy.close();
    }
  });

  it('refuses plain-HTTP requests to hosts not allowed', async () => {
    const denials: ProxyDenial[] = [];
    const proxy = new EgressProxy([], [], (d) => denials.push(d));
    const sock = path.join(dir, 'q.sock');
    await proxy.listen(sock);
    try {
      const status = await new Promise<number>((resolve, reject) => {
        http.get({ socketPath: sock, path: `http://127.0.0.1:${port}/x` }, (res) => resolve(res.statusCode ?? 0)).on('error', reject);
      });
      expect(status).toBe(403);
      expect(denials).toEqual([{ host: '127.0.0.1', port }]);
    } finally {
      await proxy.close();
    }
  });
});
