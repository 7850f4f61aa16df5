/**
 * Denials a sandboxed server met, as the user sees them (docs/ARCHITECTURE.md "Sandbox"):
 * connections the egress proxy refused (reported by the proxy itself), and file accesses the
 * server's own log shows failing on a path the policy hides or keeps read-only. bubblewrap does
 * not report what a program could not see, so file denials are read off the system error code and
 * path the server printed (Node's `ENOENT: …, open '/x'`, Python's `[Errno 2] …: '/x'`), and
 * counted only when the path exists on the host outside the policy's grants (for a file the host
 * lacks either: its folder, when that exists and is hidden), so a path missing everywhere is never
 * reported; a write refused in a read-only grant is a write denial.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { SandboxDenial } from '../../../preload/contract/index.js';
import { inside, type SandboxPolicy } from './policy.js';

/** At most this many distinct denials are kept per server start (the oldest go first). */
export const MAX_DENIALS = 20;

/** Node's errno codes, Python's errno numbers, for a path that cannot be seen or written. */
const NODE_ERROR = /\b(ENOENT|EACCES|EROFS|EPERM)\b[^'"\n]*?(?:open|scandir|stat|lstat|access|mkdir|rename|unlink|copyfile|opendir|readlink|realpath|rmdir|chmod|utime)\s+['"](\/[^'"\n]+)['"]/;
const PYTHON_ERROR = /\[Errno (2|13|30)\][^'"\n]*?['"](\/[^'"\n]+)['"]/;

/** A denial read off one stderr line, or null when the line shows none. */
export function denialFromLog(line: string, policy: SandboxPolicy): Omit<SandboxDenial, 'at' | 'count'> | null {
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

/** One server start's denials: one entry per kind and target, counted, bounded. */
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

  /** Forget them (a new start). */
  clear(): void {
    this.byKey.clear();
  }
}
