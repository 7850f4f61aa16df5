/**
 * The server catalog's one job here: show registry icons without letting the window load remote
 * images (its CSP allows only `self` and `data:`). Main fetches an icon that a registry answer
 * named — no other URL — over https (or http on loopback), at most 128 KiB in 5 s, accepts PNG,
 * JPEG, WebP and GIF by their first bytes (never SVG, which can carry script), and hands the window
 * a `data:` URL (docs/ARCHITECTURE.md "Server catalog").
 */
import { isHttpsOrLoopbackHttp } from '../../../preload/contract/rules/index.js';

const MAX_ICON_BYTES = 128 * 1024;
const MAX_KNOWN = 2000;

/** The image type of `b` by its signature, or null. */
export function imageType(b: Uint8Array): 'image/png' | 'image/jpeg' | 'image/webp' | 'image/gif' | null {
  const at = (i: number, ...xs: number[]): boolean => xs.every((x, j) => b[i + j] === x);
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (at(0, 0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return 'image/webp';
  if (at(0, 0x47, 0x49, 0x46, 0x38)) return 'image/gif';
  return null;
}

/** Whether an icon URL may be fetched at all: https, or http to loopback, no credentials. */
export function iconUrlAllowed(src: string): boolean {
  try {
    const u = new URL(src);
    return !u.username && !u.password && isHttpsOrLoopbackHttp(u);
  } catch {
    return false;
  }
}

/** Icons named by registry answers, and the ones fetched (in memory, per app run). */
export class CatalogIcons {
  private readonly known = new Set<string>();
  private readonly fetched = new Map<string, string | null>();

  constructor(private readonly fetchImpl: typeof fetch = globalThis.fetch) {}

  /** Remember that a registry answer named `src` (the only URLs {@link get} fetches). */
  allow(src: string): void {
    if (this.known.size >= MAX_KNOWN) this.known.delete(this.known.values().next().value!);
    this.known.add(src);
  }

  /** The icon as a `data:` URL, or null when it is unknown, unreachable, too big or not an image. */
  async get(src: string): Promise<string | null> {
    if (!this.known.has(src) || !iconUrlAllowed(src)) return null;
    if (this.fetched.has(src)) return this.fetched.get(src)!;
    const data = await this.load(src);
    if (this.fetched.size >= MAX_KNOWN) this.fetched.delete(this.fetched.keys().next().value!);
    this.fetched.set(src, data);
    return data;
  }

  private async load(src: string): Promise<string | null> {
    const ctl = new AbortController();
    const timer = setTimeout(() => ctl.abort(), 5000);
    try {
      const res = await this.fetchImpl(src, { signal: ctl.signal, redirect: 'error' });
      if (!res.ok || !res.body) return null;
      const reader = res.body.getReader();
      const chunks: Uint8Array[] = [];
      let size = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > MAX_ICON_BYTES) {
          ctl.abort();
          return null;
        }
        chunks.push(value);
      }
      const bytes = new Uint8Array(Buffer.concat(chunks));
      const type = imageType(bytes);
      return type ? `data:${type};base64,${Buffer.from(bytes).toString('base64')}` : null;
    } catch {
      return null;
    } finally {
      clearTimeout(timer);
    }
  }
}
