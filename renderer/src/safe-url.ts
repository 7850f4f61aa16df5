/**
 * The renderer's rule for links from models and servers: only `http:` and `https:` URLs are
 * opened, outside the app (the system browser in Electron via the window-open handler in
 * main/ipc/electron.ts; a new tab without opener in the browser shell). Everything else
 * (`javascript:`, `data:`, `file:`, custom schemes) is not a link. Pure.
 */

/** The normalized URL when it is http(s), else null. */
export function safeExternalUrl(href: unknown): string | null {
  if (typeof href !== 'string' || !href) return null;
  try {
    const u = new URL(href);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}
