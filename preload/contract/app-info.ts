/**
 * The contract of facts about the running app: its version, shell and state folder, how secrets
 * are kept at rest, and app-wide warnings. docs/ARCHITECTURE.md "The IPC contract".
 */
import { z } from 'zod';
import type { ConversationsWarning } from './chat.js';
import type { ImportProblem, ImportSkipped } from './servers.js';

/** Facts about the running app. */
export interface AppInfo {
  version: string;
  shell: 'electron' | 'browser';
  state_dir: string;
  /**
   * What the start found that the user should know (the server list could not be read and was
   * kept, entries skipped, a stored secret missing, the default root folders unreadable, …) — also
   * sent as `app.warning` events, which a window that connects later misses; empty when all was well.
   */
  warnings: AppWarning[];
  /** The latest warning about the conversation database (e.g. it was damaged and set aside), or null. */
  conversations_warning: ConversationsWarning | null;
}

/**
 * Which stored secret of a server (a secret path of its config, by kind): an environment variable
 * or header `name`, argument number `name`, the URL's user name or password, a URL query parameter
 * `name`, the bearer token, the OAuth client secret.
 */
export type SecretPlace =
  | { kind: 'env' | 'header' | 'argument' | 'url_query'; name: string }
  | { kind: 'url_user' | 'url_password' | 'token' | 'client_secret' };

/**
 * An app-wide warning, by code (docs/ARCHITECTURE.md "Languages"): the window words it, with file
 * paths, names and the system's own words as data:
 * - `config_unreadable`: the server list `file` could not be read (`said`: the system's words); no
 *   servers were loaded, the file is kept;
 * - `config_unusable`: `file` is no server list (`problem`, as a pasted import's); no servers were
 *   loaded, the file is kept and moved aside, never overwritten, on the next save;
 * - `config_set_aside`: that file was moved aside to `kept_as`;
 * - `config_skipped`: entries of the server list that could not be used, each with why (as an
 *   import says it); they stay in the file as they were;
 * - `secret_missing`: the stored value of `server`'s `secret` is missing from the secret store;
 * - `roots_unreadable`: the default root folders' file `file` could not be read (`said`) and is not used;
 * - `link_declined`: `server` asked to open a link that is not `https:` (or `http:` to this
 *   computer), so it was declined without asking.
 */
export type AppWarning =
  | { code: 'config_unreadable'; file: string; said: string }
  | { code: 'config_unusable'; file: string; problem: ImportProblem }
  | { code: 'config_set_aside'; kept_as: string }
  | { code: 'config_skipped'; entries: ImportSkipped[] }
  | { code: 'secret_missing'; server: string; secret: SecretPlace }
  | { code: 'roots_unreadable'; file: string; said: string }
  | { code: 'link_declined'; server: string };

/**
 * How secrets are protected at rest (docs/ARCHITECTURE.md "Secrets at rest"): `keychain` = AES-256-GCM vault
 * whose key is in the OS keychain; `file` = owner-only (0600) unencrypted file because no keychain
 * is usable; `memory` = not persisted. `notice` is plain language for the UI (why, and what it
 * protects against); it never contains a secret. A `file` kind must be shown to the user.
 */
export interface SecretsInfo {
  kind: 'keychain' | 'file' | 'memory';
  notice: string;
}

const empty = z.strictObject({});

/** The app-facts channels (spread into `channels`, channels.ts). */
export const appInfoChannels = {
  'app.info': { input: empty },
  'app.secretsInfo': { input: empty },
} as const;

/** What each of {@link appInfoChannels} returns (part of `ChannelOutputs`, channels.ts). */
export interface AppInfoChannelOutputs {
  'app.info': AppInfo;
  'app.secretsInfo': SecretsInfo;
}

/** The app-wide events (part of `EventPayloads`, events.ts). */
export interface AppInfoEventPayloads {
  /** Something the user should know about the app, worded by the window. */
  'app.warning': AppWarning;
}
/** The names of {@link AppInfoEventPayloads}, one entry each (merged into `eventTable`, events.ts). */
export const appInfoEventTable: { [E in keyof AppInfoEventPayloads]: true } = { 'app.warning': true };
