/**
 * The loopback rule: which hosts mean "this machine" (docs/ARCHITECTURE.md "Shared rules"). The
 * one definition behind every "https:, or http: to loopback" allowance (OAuth 2.1 §1.5, RFC 8252
 * §8.3), the "a key would travel in clear" warning, and the SSRF classification of a host.
 * Dependency-free: main and the window import these values alike.
 */

/** One IPv4 octet in canonical decimal (0–255, no leading zeros), as `URL.hostname` spells it. */
const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]\\d|\\d)';
/** 127.0.0.0/8 as a canonical dotted quad (RFC 1122 §3.2.1.3; RFC 6890 Table 4). */
const IPV4_LOOPBACK = new RegExp(`^127\\.${OCTET}\\.${OCTET}\\.${OCTET}$`);
/** 127.0.0.0/8 mapped into IPv6 (RFC 4291 §2.5.5.2), as WHATWG URL serializes it: `::ffff:7fXX:XXXX`. */
const MAPPED_HEX = /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/;
/** The same in dotted form (`::ffff:127.0.0.1`, as a socket's remote address may spell it). */
const MAPPED_DOTTED = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/;

/**
 * Whether `hostname` names this machine: an address in 127.0.0.0/8, `::1` (RFC 4291 §2.5.3), an
 * IPv4-mapped 127.0.0.0/8 address (`::ffff:127.0.0.1`, `::ffff:7f00:1`), or a `localhost` name —
 * `localhost` itself or a name under it such as `app.localhost` (RFC 6761 §6.3; the same set the
 * W3C Secure Contexts "potentially trustworthy origin" check uses). Case-insensitive; IPv6 with or
 * without brackets.
 *
 * `hostname` is a host as `URL.hostname` (or a socket's address) spells it: canonical forms only.
 * Shorthand (`127.1`), leading zeros and expanded IPv6 (`0:0:0:0:0:0:0:1`) are not loopback here;
 * pass them through `new URL()` first, which canonicalizes them. Names with a trailing dot
 * (`localhost.`) are not loopback: Node's resolver need not treat them so, and refusing them
 * costs the user nothing. Look-alikes such as `127.0.0.1.example.com` or `localhost.example.com`
 * are ordinary names.
 */
export function isLoopbackHost(hostname: string): boolean {
  let h = hostname.toLowerCase();
  const bracketed = /^\[(.*)\]$/.exec(h);
  if (bracketed) h = bracketed[1]!;
  if (h === 'localhost' || h.endsWith('.localhost') || h === '::1') return true;
  if (IPV4_LOOPBACK.test(h) || MAPPED_HEX.test(h)) return true;
  const dotted = MAPPED_DOTTED.exec(h);
  return dotted !== null && IPV4_LOOPBACK.test(dotted[1]!);
}

/**
 * Whether a key (or any secret) sent to `url` would travel unencrypted: `http:` to a host that is
 * not {@link isLoopbackHost}. A URL that does not parse counts as not in clear (it fails
 * validation elsewhere). Main sets a profile's `key_in_clear` by it; the window warns by it.
 */
export function keyWouldTravelInClear(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' && !isLoopbackHost(u.hostname);
  } catch {
    return false;
  }
}

/**
 * Whether a parsed URL may be used by the "https:, or http: to loopback" rule: `https:`, or
 * `http:` whose host {@link isLoopbackHost} (OAuth 2.1 §1.5: TLS everywhere except on this
 * machine). Only the scheme and host are checked; callers that refuse credentials or other
 * parts check those themselves.
 */
export function isHttpsOrLoopbackHttp(url: URL): boolean {
  return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
}
