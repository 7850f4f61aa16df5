/**
 * The resource-link rule (docs/ARCHITECTURE.md "Prompts and resources in chat"): which URIs found
 * in a server's content (a `resource_link` content block, an embedded resource, a listing — MCP
 * spec "Server Features: Resources" and "Tools: Resource Links") the app may open, and where a
 * read may go. A URI is opened only when it is
 * - one of the server's own resources: a scheme the same server uses in the resources or
 *   templates it lists (read through that server with `resources/read`, never by the app itself),
 * - an `https:` link (opened as an ordinary external link), or
 * - a `data:` URL of a raster image (shown in the viewer);
 * anything else (`javascript:`, `file:` of a server that never listed one, `http:`, other `data:`,
 * malformed text) is shown as text. Main enforces it on every read; the window decides with the
 * same functions how to show a link. Dependency-free.
 */

/** How a resource URI may be opened: through its server, as a web link, as an image, or not at all. */
export type ResourceLinkKind = 'server' | 'https' | 'data_image' | 'text';

/** Longest URI that may be opened, in characters. */
export const MAX_RESOURCE_URI_LENGTH = 8192;

/** Schemes never read through a server or opened, whatever a server lists. */
const NEVER_SERVER: ReadonlySet<string> = new Set(['http', 'https', 'data', 'javascript', 'vbscript', 'blob', 'about', 'chrome', 'devtools']);
/** `data:` images the viewer shows (no SVG: it is a document that may carry script). */
const DATA_IMAGE = /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=\s]*$/i;
/** An RFC 3986 §3.1 scheme followed by `:`. */
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;

/** The lower-cased scheme of a URI or URI template (RFC 3986 §3.1), or null when it has none. */
export function uriScheme(uri: string): string | null {
  const m = SCHEME.exec(uri);
  return m ? m[1]!.toLowerCase() : null;
}

/**
 * The schemes a server's own resources use: those of its listed resource URIs and template URIs,
 * minus the web and script schemes that are never a server's own.
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
 * How a URI found in a server's content may be opened. `own` is {@link ownSchemes} of that
 * server. Empty, overlong (> {@link MAX_RESOURCE_URI_LENGTH}) or control-character URIs are `text`.
 */
export function classifyResourceUri(uri: string, own: ReadonlySet<string>): ResourceLinkKind {
  if (uri.length === 0 || uri.length > MAX_RESOURCE_URI_LENGTH || [...uri].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f)) return 'text';
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

/**
 * Why `resources/read` of `uri` may not go to a server whose own schemes are `own`: `scheme` — its
 * scheme is never read through a server (web, script and `data:` schemes), `not_listed` — anything
 * else (a scheme the server does not list, malformed text); null when it may.
 */
export type ResourceReadRefusal = 'scheme' | 'not_listed';

/** {@link ResourceReadRefusal} of `uri`, or null when {@link mayReadFromServer}. */
export function readRefusal(uri: string, own: ReadonlySet<string>): ResourceReadRefusal | null {
  if (mayReadFromServer(uri, own)) return null;
  const scheme = uriScheme(uri);
  return scheme && NEVER_SERVER.has(scheme) ? 'scheme' : 'not_listed';
}
