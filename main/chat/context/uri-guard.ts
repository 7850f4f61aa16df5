/**
 * Which resource URIs the app may open, and where a read may go (pure; docs/ARCHITECTURE.md
 * "Prompts and resources in chat"). A URI is opened only when it is
 * - one of the server's own resources: a scheme the same server uses in the resources or
 *   templates it lists (read through that server with `resources/read`, never by the app itself),
 * - an `https:` link (opened as an ordinary external link), or
 * - a `data:` URL of a raster image (shown in the viewer);
 * anything else (`javascript:`, `file:` of a server that never listed one, `http:`, other `data:`,
 * malformed text) is shown as text.
 */
import type { ResourceLinkKind } from '../../../preload/contract/index.js';

/** Schemes never read through a server or opened, whatever a server lists. */
const NEVER_SERVER = new Set(['http', 'https', 'data', 'javascript', 'vbscript', 'blob', 'about', 'chrome', 'devtools']);
/** `data:` images the viewer shows (no SVG: it is a document that may carry script). */
const DATA_IMAGE = /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=\s]*$/i;
/** An RFC 3986 scheme followed by `:`. */
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;

/** The lower-cased scheme of a URI or URI template, or null when it has none. */
export function uriScheme(uri: string): string | null {
  const m = SCHEME.exec(uri);
  return m ? m[1]!.toLowerCase() : null;
}

/**
 * The schemes a server's own resources use: those of its listed resource URIs and template URIs,
 * minus {@link NEVER_SERVER}.
 */
export function ownSchemes(uris: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const u of uris) {
    const s = uriScheme(u);
    if (s && !NEVER_SERVER.has(s)) out.add(s);
  }
  return out;
}

/**
 * How a URI found in a server's content (a `resource_link`, an embedded resource, a listing) may
 * be opened. `own` is {@link ownSchemes} of that server.
 */
export function classifyResourceUri(uri: string, own: ReadonlySet<string>): ResourceLinkKind {
  if (uri.length === 0 || uri.length > 8192 || [...uri].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f)) return 'text';
  const scheme = uriScheme(uri);
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

/** Whether `resources/read` of `uri` may go to a server whose own schemes are `own`. */
export function mayReadFromServer(uri: string, own: ReadonlySet<string>): boolean {
  return classifyResourceUri(uri, own) === 'server';
}
