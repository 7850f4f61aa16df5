/**
 * The OAuth state stored per server in the `SecretStore`, under the key prefix
 * `oauth:<serverName>:` (docs/ARCHITECTURE.md "OAuth"):
 *
 * | key         | value (JSON)                                                               |
 * |-------------|----------------------------------------------------------------------------|
 * | `tokens`    | {@link StoredTokens}: the token response with an absolute `expires_at`      |
 * | `client`    | {@link StoredClient}: DCR/CIMD client information + the redirect URI used   |
 * | `discovery` | the SDK's `OAuthDiscoveryState` (AS metadata, PRM, resource metadata URL)   |
 * | `pkce`      | {@link StoredPkce}: PKCE code verifiers keyed by OAuth `state`              |
 *
 * Each save is one store write, so a rotated refresh token replaces the old one atomically.
 * This file holds the stored shapes, reading them back, the issuer binding of SEP-2352 and the
 * PKCE verifier map; the provider (provider.ts) decides when each is read or written.
 */
import type { OAuthClientInformationContext, OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/client';
import type { SecretStore } from '../../secrets/store.js';

/** Stored form of the tokens: the SDK's `OAuthTokens` with `expires_in` turned into `expires_at`. */
export interface StoredTokens extends Omit<OAuthTokens, 'expires_in'> {
  /** Absolute expiry of the access token, ms since the epoch; absent when the AS gave no `expires_in`. */
  expires_at?: number;
  /** When these tokens were saved, ms since the epoch. */
  saved_at: number;
}

/** Stored client registration. */
export interface StoredClient {
  v: 1;
  /**
   * `dynamic` = RFC 7591 registration; `cimd` = URL-based client id (SEP-991); `pre` = only the
   * issuer stamp of the user's own client (its id and issuer — the secret stays in the config).
   */
  kind: 'dynamic' | 'cimd' | 'pre';
  /** Client information exactly as the SDK handed it to `saveClientInformation` (incl. `issuer`). */
  info: OAuthClientInformationMixed;
  /** The redirect URI the registration was made with (its loopback port is reused). */
  redirect_uri?: string;
  saved_at: number;
}

/** Stored PKCE verifiers, keyed by OAuth `state`. */
export type StoredPkce = Record<string, { verifier: string; created_at: number }>;

/** How long an unused PKCE verifier is kept, in ms. */
export const PKCE_TTL_MS = 30 * 60 * 1000;

/** The entries stored per server. */
export type StoredEntry = 'tokens' | 'client' | 'discovery' | 'pkce';

/** A stored JSON object, or undefined when absent, unparsable or not an object. */
export function parseJson<T>(text: string | undefined): T | undefined {
  if (text === undefined) return undefined;
  try {
    const v = JSON.parse(text) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as T) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a stored credential may be offered for `ctx` (SEP-2352): unstamped, no ctx, or the same issuer. */
export function sameIssuer(stored: { issuer?: unknown }, ctx: OAuthClientInformationContext | undefined): boolean {
  return !ctx || typeof stored.issuer !== 'string' || stored.issuer === ctx.issuer;
}

/** The stored PKCE verifiers under `key` (empty when none). */
export async function readPkce(store: SecretStore, key: string): Promise<StoredPkce> {
  return parseJson<StoredPkce>(await store.get(key)) ?? {};
}

/** Store `verifier` under `state`, dropping entries older than {@link PKCE_TTL_MS} (one store write). */
export async function savePkceVerifier(store: SecretStore, key: string, state: string, verifier: string, now: number): Promise<void> {
  const map: StoredPkce = {};
  for (const [k, v] of Object.entries(await readPkce(store, key))) if (v && now - v.created_at < PKCE_TTL_MS) map[k] = v;
  map[state] = { verifier, created_at: now };
  await store.set(key, JSON.stringify(map));
}

/** Delete the verifier of `state`; the entry itself when it was the last one. */
export async function dropPkceVerifier(store: SecretStore, key: string, state: string): Promise<void> {
  const map = await readPkce(store, key);
  if (!(state in map)) return;
  delete map[state];
  if (Object.keys(map).length) await store.set(key, JSON.stringify(map));
  else await store.delete(key);
}

/** Every entry stored per server (see the table above). */
export const STORED_ENTRIES: readonly StoredEntry[] = ['tokens', 'client', 'discovery', 'pkce'];

/**
 * Move a server's stored OAuth state from `oauth:<from>:…` to `oauth:<to>:…` in one store write
 * (`update` is all or nothing), so a renamed server keeps its sign-in (docs/ARCHITECTURE.md
 * "Renaming a server"). Entries stored under `to` before are replaced or deleted.
 * @throws the store's error (nothing moved then)
 */
export async function moveStoredState(store: SecretStore, from: string, to: string): Promise<void> {
  if (from === to) return;
  const set: Record<string, string> = {};
  const remove: string[] = [];
  for (const e of STORED_ENTRIES) {
    const v = await store.get(`oauth:${from}:${e}`);
    if (v !== undefined) {
      set[`oauth:${to}:${e}`] = v;
      remove.push(`oauth:${from}:${e}`);
    } else remove.push(`oauth:${to}:${e}`);
  }
  await store.update(set, remove);
}
