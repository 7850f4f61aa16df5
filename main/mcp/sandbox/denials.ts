/**
 * Denials a sandboxed server met, as the user sees them (docs/ARCHITECTURE.md "Sandbox"):
 * connections the egress proxy refused (reported by the proxy itself), and file accesses the
 * server's own log shows failing on a path the policy hides or keeps read-only. bubblewrap does
 * not report what a program could not see, so file denials are read off the system error code and
 * path the server printed (Node's `ENOENT: …, open '/x'`, Python's `[Errno 2] …: '/x'`), and
 * counted only when the path exists on the host outside the policy's grants (for a file the host
 * lacks either: its folder, when that exists and is hidden), so a path missing everywhere is never
 * reported; a write refused in a read-only grant is a write denial. Connections: the sandbox has
 * no network of its own, so a program that does not go through the proxy fails at once; the
 * system error and host it printed (`connect ENETUNREACH 1.1.1.1:443`, `getaddrinfo EAI_AGAIN
 * api.example.com`) are a connection denial. A path inside what the sandbox never shows is
 * reported as not grantable.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { SandboxDenial } from '../../../preload/contract/index.js';
import { inside, type SandboxPolicy } from './policy.js';
import { hostAllowed } from './proxy.js';

/** At most this many distinct denials are kept per server (the oldest go first). */
export const MAX_DENIALS = 20;

/** Node's errno codes, Python's errno numbers, for a path that cannot be seen or written. */
const NODE_ERROR = /\b(ENOENT|EACCES|EROFS|EPERM)\b[^'"\n]*?(?:open|scandir|stat|lstat|access|mkdir|rename|unlink|copyfile|opendir|readlink|realpath|rmdir|chmod|utime)\s+['"](\/[^'"\n]+)['"]/;
const PYTHON_ERROR = /\[Errno (2|13|30)\][^'"\n]*?['"](\/[^'"\n]+)['"]/;
/** Node's errors of a connection the sandbox's empty network refused: the host or `ip:port` it names. */
const NODE_NET_ERROR = /\b(?:connect|getaddrinfo) (?:ENETUNREACH|EAI_AGAIN|ENOTFOUND|ECONNREFUSED|EHOSTUNREACH) ((?:\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(?::\d{1,5})?)/;

type Found = Omit<SandboxDenial, 'at' | 'count'>;

/** The host and port (null: any) of a `host`, `host:port` or `[v6]:port` target. */
function hostPort(target: string): { host: string; port: number | null } {
  const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(target);
  return { host: (m?.[1] ?? target).replace(/^\[|\]$/g, ''), port: m?.[2] ? Number(m[2]) : null };
}

/** A connection denial read off a line, unless the host is one the server may reach (through the proxy). */
function connectFromLog(line: string, policy: SandboxPolicy): Found | null {
  const m = NODE_NET_ERROR.exec(line);
  if (!m) return null;
  const target = m[1]!;
  const { host, port } = hostPort(target);
  // A host it may reach failed for another reason (or the program ignores the proxy): not the sandbox's refusal to fix.
  if (hostAllowed([...policy.hosts, ...policy.fetchHosts], host, port ?? 443)) return null;
  return { kind: 'connect', target, grantable: true };
}

/** Whether `target` lies in a path the sandbox never shows (no setting can grant it). */
function neverShown(target: string, policy: SandboxPolicy): boolean {
  return policy.protected.some((d) => inside(target, d));
}

/** A denial read off one stderr line, or null when the line shows none. */
export function denialFromLog(line: string, policy: SandboxPolicy): Found | null {
  const found = fileFromLog(line, policy);
  if (found) return { ...found, grantable: !neverShown(found.target, policy) };
  return connectFromLog(line, policy);
}

function fileFromLog(line: string, policy: SandboxPolicy): Omit<Found, 'grantable'> | null {
  const node = NODE_ERROR.exec(line);
  const py = node ? null : PYTHON_ERROR.exec(line);
  if (!node && !py) return null;
  const code = node ? node[1]! : ({ '2': 'ENOENT', '13': 'EACCES', '30': 'EROFS' } as const)[py![1] as '2' | '13' | '30'];
  const target = path.normalize((node ?? py)![2]!);
  const writable = [...policy.write, policy.scratch].some((g) => inside(target, g));
  const readable = writable || policy.read.some((g) => inside(target, g));
  const hidden = policy.deny.some((d) => inside(target, d));
  if (code === 'EROFS' || ((code === 'EACCES' || code === 'EPERM') && readable && !hidden)) return writable ? null : { kind: 'write', target };
  if (!hidden && readable) return null;
  if (existsSync(target)) return { kind: 'read', target };
  // A file the host lacks, in a folder the sandbox hides: reading or creating it, the server was
  // kept out of that folder.
  if (existsSync(path.dirname(target))) return { kind: 'read', target: path.dirname(target) };
  return null;
}

/** Whether the policy `p` now allows what denial `d` was refused. */
function resolvedBy(d: SandboxDenial, p: SandboxPolicy): boolean {
  if (d.kind === 'connect') {
    const { host, port } = hostPort(d.target);
    return hostAllowed(p.hosts, host, port ?? 443);
  }
  const writable = [...p.write, p.scratch].some((g) => inside(d.target, g));
  if (d.kind === 'write') return writable;
  return writable || [...p.read, ...p.bundles].some((g) => inside(d.target, g));
}

/**
 * One server's denials across its restarts: one entry per kind and target, counted, bounded.
 * A new start drops only what its policy now grants ({@link DenialLog.keepUnresolved}).
 */
export class DenialLog {
  private readonly byKey = new Map<string, SandboxDenial>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Record one denial. @returns true when it is new (worth a log line and a card update). */
  add(d: Omit<SandboxDenial, 'at' | 'count'>): boolean {
    const key = `${d.kind} ${d.target}`;
    const seen = this.byKey.get(key);
    if (seen) {
      seen.count += 1;
      seen.at = this.now();
      return false;
    }
    this.byKey.set(key, { ...d, at: this.now(), count: 1 });
    if (this.byKey.size > MAX_DENIALS) this.byKey.delete(this.byKey.keys().next().value!);
    return true;
  }

  /** The denials, oldest first (copies). */
  list(): SandboxDenial[] {
    return [...this.byKey.values()].map((d) => ({ ...d }));
  }

  /** A new start under policy `p`: forget the denials it now grants, keep the rest. */
  keepUnresolved(p: SandboxPolicy): void {
    for (const [k, d] of this.byKey) if (resolvedBy(d, p)) this.byKey.delete(k);
  }

  /** Forget them all (the server was removed, or runs unsandboxed now). */
  clear(): void {
    this.byKey.clear();
  }
}
