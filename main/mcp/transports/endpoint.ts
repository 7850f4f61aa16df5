/**
 * Where a remote server's requests go (docs/ARCHITECTURE.md "Transports"): the URL without its
 * userinfo, and the headers to send with every request.
 */
import type { RemoteServerConfig } from '../config.js';

function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/**
 * Where a remote server's requests go, with its real secrets (read at launch only): the URL
 * without userinfo — fetch refuses URLs with credentials, and would quote them back in its error —
 * and the headers, plus `Authorization: Basic` (RFC 7617) from the userinfo when `basic` is set
 * and no header of that name is configured. Query values stay in the URL.
 */
export function remoteEndpoint(cfg: Pick<RemoteServerConfig, 'url' | 'headers'>, basic: boolean): { url: URL; headers: Record<string, string> } {
  const url = new URL(cfg.url);
  const headers: Record<string, string> = { ...cfg.headers };
  if (url.username || url.password) {
    const credentials = Buffer.from(`${decoded(url.username)}:${decoded(url.password)}`, 'utf8').toString('base64');
    url.username = '';
    url.password = '';
    if (basic && !Object.keys(headers).some((k) => k.toLowerCase() === 'authorization')) headers.Authorization = `Basic ${credentials}`;
  }
  return { url, headers };
}
