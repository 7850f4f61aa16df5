/**
 * The window's side of the resource-link rule (pure; main enforces the same rule on every read,
 * main/chat/context/uri-guard.ts): a URI in a server's content opens in the resource viewer only
 * when it uses one of that server's own schemes (those of the resources and templates it lists);
 * `https:` opens as an external link; a `data:` raster image shows in the viewer; anything else
 * is shown as text.
 */

/** How a URI may be opened. */
export type LinkKind = 'server' | 'https' | 'data_image' | 'text';

const NEVER_SERVER = new Set(['http', 'https', 'data', 'javascript', 'vbscript', 'blob', 'about', 'chrome', 'devtools']);
const DATA_IMAGE = /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=\s]*$/i;
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;

/** The lower-cased scheme of a URI or template, or null. */
export function schemeOf(uri: string): string | null {
  const m = SCHEME.exec(uri);
  return m ? m[1]!.toLowerCase() : null;
}

/** A server's own schemes from the URIs (and templates) it lists. */
export function ownSchemesOf(uris: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const u of uris) {
    const s = schemeOf(u);
    if (s && !NEVER_SERVER.has(s)) out.add(s);
  }
  return out;
}

/** How `uri`, found in content of a server with own schemes `own`, may be opened. */
export function linkKind(uri: string, own: ReadonlySet<string>): LinkKind {
  if (!uri || uri.length > 8192 || [...uri].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f)) return 'text';
  const scheme = schemeOf(uri);
  if (!scheme) return 'text';
  if (scheme === 'https') {
    try {
      return new URL(uri).protocol === 'https:' ? 'https' : 'text';
    } catch {
      return 'text';
    }
  }
  if (scheme === 'data') return DATA_IMAGE.test(uri) ? 'data_image' : 'text';
  return own.has(scheme) && !NEVER_SERVER.has(scheme) ? 'server' : 'text';
}

/** The `[resource: <uri>]` / `[resource link: <uri>]` text main makes of a resource block, or null. */
export function resourceUriOfText(text: string): string | null {
  const m = /^\[resource(?: link)?: ([^\s\]]+)\]$/.exec(text.trim());
  return m ? m[1]! : null;
}
