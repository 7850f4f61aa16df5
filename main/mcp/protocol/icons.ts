/**
 * Icons servers declare (MCP spec 2025-11-25 "Icons": `icons` arrays on the server's
 * `serverInfo`, tools, prompts and resources). Only `https:` URLs and `data:` images (PNG, JPEG,
 * GIF, WebP, SVG) are kept; the window shows them with `referrerpolicy="no-referrer"` and
 * `crossorigin="anonymous"`, so no cookie or referrer goes with the fetch (docs/ARCHITECTURE.md
 * "Protocol features"). Pure functions.
 */
import type { IconView } from '../../../preload/contract/index.js';

/** Longest icon `src` kept, in characters (a data: URL included). */
export const MAX_ICON_SRC = 64 * 1024;

const DATA_IMAGE = /^data:image\/(png|jpeg|gif|webp|svg\+xml);base64,[A-Za-z0-9+/]+={0,2}$/i;

/** Whether `src` may be shown as an icon: an `https:` URL without credentials, or a base64 `data:` image. */
export function isSafeIconSrc(src: string): boolean {
  if (src.length === 0 || src.length > MAX_ICON_SRC) return false;
  if (src.slice(0, 5).toLowerCase() === 'data:') return DATA_IMAGE.test(src);
  let u: URL;
  try {
    u = new URL(src);
  } catch {
    return false;
  }
  return u.protocol === 'https:' && !u.username && !u.password && u.href.length <= 2048;
}

/**
 * The first usable icon of an `icons` array (malformed entries are skipped), preferring a light
 * theme icon or one without a theme. Null when none is usable.
 */
export function pickIcon(icons: unknown): IconView | null {
  if (!Array.isArray(icons)) return null;
  let fallback: IconView | null = null;
  for (const raw of icons.slice(0, 16)) {
    if (typeof raw !== 'object' || raw === null) continue;
    const i = raw as { src?: unknown; mimeType?: unknown; theme?: unknown };
    if (typeof i.src !== 'string' || !isSafeIconSrc(i.src)) continue;
    const view: IconView = { src: i.src, mime_type: typeof i.mimeType === 'string' ? i.mimeType.slice(0, 64) : null };
    if (i.theme === undefined || i.theme === 'light') return view;
    fallback ??= view;
  }
  return fallback;
}

/** `key → icon` for the items that declare a usable one (at most `max` items looked at). */
export function iconsByKey<T>(items: readonly T[], key: (item: T) => string, icons: (item: T) => unknown, max = 500): Record<string, IconView> {
  const out: Record<string, IconView> = {};
  for (const item of items.slice(0, max)) {
    const icon = pickIcon(icons(item));
    if (icon) out[key(item)] = icon;
  }
  return out;
}
