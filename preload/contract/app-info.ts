/**
 * The contract of facts about the running app: its version, shell and state folder, how secrets
 * are kept at rest, and app-wide warnings. docs/ARCHITECTURE.md "The IPC contract".
 */
import { z } from 'zod';
import type { ConversationsWarning } from './chat.js';

/** Facts about the running app. */
export interface AppInfo {
  version: string;
  shell: 'electron' | 'browser';
  state_dir: string;
  /** A visible warning about the config file (e.g. it could not be parsed and was kept). */
  config_warning: string | null;
  /** The latest warning about the conversation database (e.g. it was damaged and set aside), or null. */
  conversations_warning: ConversationsWarning | null;
}

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
  'app.warning': { message: string };
}
/** The names of {@link AppInfoEventPayloads}, one entry each (merged into `eventTable`, events.ts). */
export const appInfoEventTable: { [E in keyof AppInfoEventPayloads]: true } = { 'app.warning': true };
