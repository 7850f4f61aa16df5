/**
 * The OAuth `state` parameter of a sign-in (RFC 6749 §10.12): an unguessable value the loopback
 * callback checks. docs/ARCHITECTURE.md "OAuth".
 */
import { randomBytes } from 'node:crypto';

/** A random OAuth `state` value: 32 random bytes, base64url (RFC 6749 §10.12). */
export function newState(): string {
  return randomBytes(32).toString('base64url');
}
