/**
 * The browser shell's gatekeeping as pure functions: who may open the IPC socket, which file a
 * static request may read, and how a reply is encoded without ever throwing. Each takes plain
 * values and never throws, so whatever a peer sends can fail only its own request
 * (README, "Security").
 */
import path from 'node:path';
import { timingSafeEqual } from 'node:crypto';

/** Why an upgrade was refused (each maps to HTTP 403 without further detail). */
export type UpgradeRefusal = 'bad_path' | 'bad_origin' | 'bad_token';

/** Verdict on a WebSocket upgrade request. */
export type UpgradeVerdict = { ok: true } | { ok: false; reason: UpgradeRefusal };

/** Constant-time comparison of two tokens (different lengths compare unequal). */
export function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The origins a page served by this shell on `port` may have. */
export function allowedOrigins(port: number): string[] {
  return [`http://127.0.0.1:${port}`, `http://localhost:${port}`];
}

/**
 * Decide whether a WebSocket upgrade may proceed: the path must be exactly `/ipc`, the `Origin`
 * header one of {@link allowedOrigins}, and the `token` query parameter equal to `token`.
 * A request target that does not parse is refused (`bad_path`), never thrown.
 *
 * @param req.url the raw request target (`req.url`)
 * @param req.origin the `Origin` header (may be absent or repeated)
 * @param expected.port the port the shell listens on; expected.token the session token
 */
export function checkUpgrade(req: { url?: string; origin?: string | string[] }, expected: { port: number; token: string }): UpgradeVerdict {
  let url: URL;
  try {
    url = new URL(req.url ?? '/', 'http://shell.invalid');
  } catch {
    return { ok: false, reason: 'bad_path' };
  }
  if (url.pathname !== '/ipc' || url.host !== 'shell.invalid') return { ok: false, reason: 'bad_path' };
  const origin = typeof req.origin === 'string' ? req.origin : '';
  if (!allowedOrigins(expected.port).includes(origin)) return { ok: false, reason: 'bad_origin' };
  const given = url.searchParams.get('token') ?? '';
  if (!expected.token || !sameToken(given, expected.token)) return { ok: false, reason: 'bad_token' };
  return { ok: true };
}

/**
 * The file a static request names, inside `rendererDir`, or null when the target does not parse,
 * is not percent-decodable, contains a NUL, or resolves outside the folder (`..`, encoded
 * separators, absolute paths). `/` means `/index.html`. Lexical only: symlinks are checked by
 * {@link isInside} on the real paths.
 *
 * @param rendererDir absolute path of the built renderer
 * @param rawUrl the raw request target (`req.url`)
 */
export function resolveStaticPath(rendererDir: string, rawUrl: string | undefined): string | null {
  let rel: string;
  try {
    const url = new URL(rawUrl ?? '/', 'http://shell.invalid');
    if (url.host !== 'shell.invalid') return null;
    rel = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  if (rel.includes('\0') || rel.includes('\\')) return null;
  if (rel === '/' || rel === '') rel = '/index.html';
  const root = path.resolve(rendererDir);
  const file = path.resolve(root, `.${rel}`);
  return isInside(root, file) ? file : null;
}

/** Whether `file` is strictly inside `root` (both absolute, already resolved). */
export function isInside(root: string, file: string): boolean {
  const r = path.relative(root, file);
  return r !== '' && !r.startsWith('..') && !path.isAbsolute(r);
}

/**
 * The request id of a message too large to parse: the window writes `{"id":<n>,` first
 * (renderer/src/api.ts), so a number right there is its id; anything else gives null (the refusal
 * then reaches the sender without an id). Reads only the first bytes.
 */
export function oversizedMessageId(data: Buffer): number | null {
  const m = /^\{"id":(\d{1,15})[,}]/.exec(data.subarray(0, 32).toString('latin1'));
  return m ? Number(m[1]) : null;
}

/** Encoding a reply failed (e.g. a value nested too deeply for `JSON.stringify`). */
export const UNENCODABLE_REPLY = 'The reply could not be encoded, so it was not sent.';

/**
 * Encode one request's reply as the socket's JSON text. When the envelope cannot be serialized
 * (too deep, a cycle, a BigInt) the request gets an `internal` error envelope instead; never throws.
 */
export function encodeReply(id: number | string | null, envelope: unknown): string {
  try {
    return JSON.stringify({ id, envelope });
  } catch {
    return JSON.stringify({ id, envelope: { ok: false, error: { code: 'internal', message: UNENCODABLE_REPLY } } });
  }
}

/** Encode an event, or null when it cannot be serialized (the event is then dropped). Never throws. */
export function encodeEvent(event: string, payload: unknown): string | null {
  try {
    return JSON.stringify({ event, payload });
  } catch {
    return null;
  }
}
