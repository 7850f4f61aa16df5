/**
 * The host-side egress proxy of one sandboxed server (docs/ARCHITECTURE.md "Sandbox"): an HTTP
 * proxy on a Unix socket that the sandbox's bridge reaches. `CONNECT host:port` (HTTPS and any
 * TLS) and absolute-URL requests (plain HTTP) go out only to allowed hosts; anything else is
 * answered 403 and reported as a denial. Name resolution happens here, outside the sandbox.
 */
import http from 'node:http';
import net from 'node:net';
import { promises as fs } from 'node:fs';

/** One allowed-host rule: `host`, `*.domain` (any subdomain), optionally `:port`. */
export function hostAllowed(rules: readonly string[], host: string, port: number): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return rules.some((rule) => {
    const m = /^(.*?)(?::(\d{1,5}))?$/.exec(rule.toLowerCase())!;
    const name = m[1]!.replace(/^\[|\]$/g, '');
    if (m[2] && Number(m[2]) !== port) return false;
    if (name.startsWith('*.')) return h.endsWith(name.slice(1)) && h.length > name.length - 1;
    return h === name;
  });
}

/** Splits `host:port` (IPv6 in brackets); null when malformed. */
function hostPort(authority: string): { host: string; port: number } | null {
  const m = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(authority);
  if (!m) return null;
  const port = Number(m[2]);
  return port > 0 && port < 65536 ? { host: m[1]!.replace(/^\[|\]$/g, ''), port } : null;
}

/** What the proxy reports: a connection it refused (`host:port`). */
export type ProxyDenial = { host: string; port: number };

/** The egress proxy of one server. Construct, `listen(socketPath)`, `close()`. */
export class EgressProxy {
  private readonly server: http.Server;
  private readonly sockets = new Set<net.Socket>();
  private fetchOpen = true;

  /**
   * @param hosts allowed for the server's whole life;
   * @param fetchHosts allowed until {@link EgressProxy.endFetch} (package registries while starting);
   * @param onDenial told of each refused connection.
   */
  constructor(
    private readonly hosts: readonly string[],
    private readonly fetchHosts: readonly string[],
    private readonly onDenial: (d: ProxyDenial) => void,
  ) {
    this.server = http.createServer((req, res) => this.forward(req, res));
    this.server.on('connect', (req, socket: net.Socket, head) => this.tunnel(req, socket, head));
    this.server.on('connection', (s: net.Socket) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
  }

  /** Whether a connection to `host:port` may go out now. */
  allows(host: string, port: number): boolean {
    return hostAllowed(this.hosts, host, port) || (this.fetchOpen && hostAllowed(this.fetchHosts, host, port));
  }

  /** The server is ready: package registries are no longer reachable (unless in `hosts`). */
  endFetch(): void {
    this.fetchOpen = false;
  }

  /** Listen on a Unix socket at `socketPath` (owner-only). */
  async listen(socketPath: string): Promise<void> {
    await fs.rm(socketPath, { force: true });
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(socketPath, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    await fs.chmod(socketPath, 0o600);
  }

  /**
   * Listen on a fresh Unix socket at `socketPath` (in a new owner-only folder) at once: the socket
   * is bound before this returns, so a launch can follow synchronously. A later listening error
   * ends the proxy (connections then fail, as with no network).
   */
  listenNow(socketPath: string): void {
    this.server.on('error', () => this.server.close());
    this.server.listen(socketPath);
  }

  /** Stop listening and end every open connection. */
  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private refuse(host: string, port: number): void {
    this.onDenial({ host, port });
  }

  private tunnel(req: http.IncomingMessage, socket: net.Socket, head: Buffer): void {
    const target = hostPort(req.url ?? '');
    socket.on('error', () => socket.destroy());
    if (!target || !this.allows(target.host, target.port)) {
      if (target) this.refuse(target.host, target.port);
      socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return;
    }
    const up = net.connect(target.port, target.host, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) up.write(head);
      up.pipe(socket);
      socket.pipe(up);
    });
    up.on('error', () => {
      if (!socket.destroyed) socket.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
    });
    socket.on('close', () => up.destroy());
  }

  private forward(req: http.IncomingMessage, res: http.ServerResponse): void {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end();
      return;
    }
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    if (url.protocol !== 'http:' || !this.allows(url.hostname, port)) {
      this.refuse(url.hostname, port);
      res.writeHead(403, { 'content-length': '0' }).end();
      return;
    }
    const up = http.request({ host: url.hostname, port, method: req.method, path: url.pathname + url.search, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    req.pipe(up);
  }
}
