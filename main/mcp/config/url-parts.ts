/**
 * The secret parts of a remote server's URL: the userinfo (user and password) and every query
 * parameter's value are secrets, like header values (docs/ARCHITECTURE.md "Masked views only").
 * A part is named `username`, `password` or `query:<name>` (`query:<name>#<n>` for the n-th
 * parameter of one name, n ≥ 2) and its value is kept exactly as written in the URL (percent
 * escapes included), so putting it back gives the same URL byte for byte.
 */
import { SECRET_PLACEHOLDER } from '../../secrets/mask.js';

/** One `&`-separated piece of a query: its raw name and value (null: no `=`), and its part name. */
interface QueryPiece {
  name: string;
  value: string | null;
  part: string;
}

function queryPieces(search: string): QueryPiece[] {
  const seen = new Map<string, number>();
  const q = search.startsWith('?') ? search.slice(1) : search;
  if (!q) return [];
  return q.split('&').map((piece) => {
    const eq = piece.indexOf('=');
    const name = eq < 0 ? piece : piece.slice(0, eq);
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    return { name, value: eq < 0 ? null : piece.slice(eq + 1), part: n === 1 ? `query:${name}` : `query:${name}#${n}` };
  });
}

/** A URL split into its shape (userinfo removed, query values emptied) and its secret parts. */
export interface SplitUrl {
  /** The URL without its secrets: no userinfo, every query value empty (`?token=`). */
  base: string;
  /** Part name → raw value, in URL order; only parts that hold a value. */
  parts: Record<string, string>;
}

/**
 * Split `url` into {@link SplitUrl}. @throws TypeError for a URL that does not parse.
 */
export function splitUrl(url: string): SplitUrl {
  const u = new URL(url);
  const parts: Record<string, string> = {};
  if (u.username) parts.username = u.username;
  if (u.password) parts.password = u.password;
  const pieces = queryPieces(u.search);
  for (const p of pieces) if (p.value) parts[p.part] = p.value;
  u.username = '';
  u.password = '';
  if (pieces.length) u.search = `?${pieces.map((p) => (p.value === null ? p.name : `${p.name}=`)).join('&')}`;
  return { base: u.href, parts };
}

/**
 * Put secret parts into `base`: userinfo from `username`/`password`, each query value from its
 * part (a part whose parameter is missing is appended); parameters named in `drop` are removed.
 * @throws TypeError for a base that does not parse.
 */
export function joinUrl(base: string, parts: Record<string, string>, drop: ReadonlySet<string> = new Set()): string {
  const u = new URL(base);
  u.username = parts.username ?? '';
  u.password = parts.password ?? '';
  const pieces = queryPieces(u.search).filter((p) => !drop.has(p.part));
  const present = new Set(pieces.map((p) => p.part));
  const out = pieces.map((p) => (p.value === null && parts[p.part] === undefined ? p.name : `${p.name}=${parts[p.part] ?? p.value ?? ''}`));
  for (const [part, value] of Object.entries(parts)) {
    if (!part.startsWith('query:') || present.has(part) || drop.has(part)) continue;
    out.push(`${part.slice('query:'.length).replace(/#\d+$/, '')}=${value}`);
  }
  u.search = out.length ? `?${out.join('&')}` : '';
  return u.href;
}

/** The secret parts of `url` (see {@link splitUrl}); `{}` for a URL that does not parse. */
export function urlSecretParts(url: string): Record<string, string> {
  try {
    return splitUrl(url).parts;
  } catch {
    return {};
  }
}

/**
 * `url` as views show it: every secret part replaced by `***`
 * (`https://***:***@host/mcp?token=***`). A URL that does not parse is shown as `***` whole.
 */
export function maskUrl(url: string): string {
  try {
    const { base, parts } = splitUrl(url);
    return joinUrl(base, Object.fromEntries(Object.keys(parts).map((k) => [k, SECRET_PLACEHOLDER])));
  } catch {
    return SECRET_PLACEHOLDER;
  }
}

/** Characters that cannot stand as they are in a part: encoded when a value is put in by name. */
const UNSAFE_IN_QUERY = /[\s&#"<>\\^`{|}]/g;
const UNSAFE_IN_USERINFO = /[\s@/:?#"<>\\^`{|}[\];=]/g;

/**
 * A value given for a part by name (an edit's `url_secrets`), as written in the URL: characters
 * that cannot stand there are percent-encoded; existing `%XX` escapes are kept.
 */
export function encodeUrlPart(part: string, value: string): string {
  const unsafe = part.startsWith('query:') ? UNSAFE_IN_QUERY : UNSAFE_IN_USERINFO;
  return value.replace(/%(?![0-9A-Fa-f]{2})/g, '%25').replace(unsafe, (c) => encodeURIComponent(c));
}

/** Whether `part` names a URL part (`username`, `password`, `query:<name>[#n]`). */
export function isUrlPartName(part: string): boolean {
  return part === 'username' || part === 'password' || /^query:[^&=#\s]{1,256}(#[2-9]\d{0,2})?$/.test(part);
}

/** Words for a URL part in messages: `URL user name`, `URL password`, `URL query parameter token`. */
export function describeUrlPart(part: string): string {
  if (part === 'username') return 'URL user name';
  if (part === 'password') return 'URL password';
  return `URL query parameter ${part.slice('query:'.length)}`;
}
