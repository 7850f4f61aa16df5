/**
 * What one transport is, as the rest of the app asks it (docs/ARCHITECTURE.md "Transports"): the
 * `TransportKind` interface every descriptor in this room implements (stdio.ts, streamable-http.ts,
 * sse.ts), keyed by the config's `type` in registry.ts. Framing stays the SDK's; a descriptor
 * only creates the SDK (or our stdio) transport and knows its own part of the config.
 */
import type { Transport } from '@modelcontextprotocol/client';
import type { ServerInput, ServerView, TransportKind as LiveTransport } from '../../../preload/contract/index.js';
import type { AuthConfig, LocalServerConfig, RefCollector, ServerConfig } from '../config.js';
import type { ChallengeAwareProvider } from '../oauth/transport.js';
import type { ServerEnvironment } from './environment.js';

/** A config `type`: `local` (stdio), `http` (Streamable HTTP), `sse` (legacy HTTP+SSE). */
export type TransportType = ServerConfig['type'];

/** The stored config variant of one `type` (`http` and `sse` share `RemoteServerConfig`). */
export type ConfigOf<T extends TransportType> = ServerConfig extends infer C ? (C extends { type: infer K } ? (T extends K ? C : never) : never) : never;

/** The contract's add-server input variant of one `type`. */
export type InputOf<T extends TransportType> = ServerInput extends infer I ? (I extends { type: infer K } ? (T extends K ? I & { type: T } : never) : never) : never;

/** The fields every entry has, whatever its transport (parsed before the transport's own part). */
export interface EntryCommon {
  enabled: boolean;
  timeout_seconds: number;
}

/**
 * How a stdio server's process is started: the resolved absolute `command`, its `args`, the
 * merged environment (inherited env, the server's `env`, the app's bookkeeping variables) and
 * the working directory (undefined = the app's).
 */
export interface StdioLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string | undefined;
}

/**
 * The one seam where a launch may be changed before the process starts (e.g. run inside a
 * sandbox): gets the launch and the server it is for, returns the launch to spawn. Never given to
 * a shell; the returned `command` is spawned directly.
 */
export interface LaunchWrapper {
  wrap(launch: StdioLaunch, server: { name: string; config: LocalServerConfig }): StdioLaunch;
}

/** The default {@link LaunchWrapper}: the launch as it is. */
export const directLaunch: LaunchWrapper = { wrap: (launch) => launch };

/** What a launch is given besides the config: the sinks of a stdio server, the OAuth provider of a remote one. */
export interface LaunchContext {
  /** The server's configured name. */
  name: string;
  /** A stderr line of a stdio server. */
  onStderr?: (line: string) => void;
  /** A stdout line of a stdio server that is not JSON-RPC. */
  onNoise?: (line: string) => void;
  /** Variables the app adds for its own bookkeeping (the process ledger's run marker). */
  extraEnv?: Record<string, string>;
  /** Told when a stdio server's process group starts and ends (see `ProcessLedger`). */
  onGroup?: (pgid: number, alive: boolean) => void;
  /** The environment stdio servers inherit; default: this process's, without a login-shell PATH. */
  environment?: ServerEnvironment;
  /** The stdio launch seam; default {@link directLaunch}. */
  wrapper?: LaunchWrapper;
  /** Working directory of a stdio server (default: the app's). */
  cwd?: string;
  /** The OAuth provider of a remote server whose auth kind is `oauth`; null otherwise. */
  oauth?: ChallengeAwareProvider | null;
}

/** A created (not started) transport, and the absolute command a stdio one runs. */
export interface Launched {
  transport: Transport;
  resolvedCommand: string | null;
}

/**
 * One transport, as a descriptor object (docs/ARCHITECTURE.md "Transports", "Recipes").
 * `C` is the stored config variant it serves. Every member answers for that variant only; the
 * registry (./registry.ts) picks the descriptor by `type`.
 */
export interface TransportKind<C extends ServerConfig = ServerConfig> {
  /** The config `type` it serves. */
  readonly type: C['type'];
  /** Other spellings of `type` accepted on import (other hosts' files), e.g. `stdio`. */
  readonly aliases: readonly string[];
  /**
   * Whether it goes over the network: OAuth, a fresh session on an expired one, SEP-2243 header
   * checks, network failure classes. False for a child process.
   */
  readonly remote: boolean;
  /** Whether a failed first attempt may be retried once over legacy HTTP+SSE (`http` only). */
  readonly legacyFallback: boolean;

  // --- config ---
  /**
   * Its own part of a file entry (command/env, or url/headers/auth) plus `common`; with `refs`,
   * `{"secret": key}` values are collected there and left empty. @throws ConfigError
   */
  parse(raw: Record<string, unknown>, type: C['type'], common: EntryCommon, refs?: RefCollector): C;
  /** A validated contract input as a stored config with defaults. @throws ConfigError */
  fromInput(input: InputOf<C['type']>, common: EntryCommon): C;
  /** Refuse `***` where a new server's value belongs. @throws ConfigError naming the field */
  assertNoPlaceholders(cfg: C): void;
  /** What a save could lose without an error (compared before and after a round trip). */
  loadShape(cfg: C): unknown;
  /** `cfg` with every argument equal to a known secret marked secret (stdio); else `cfg`. */
  markKnownSecrets(cfg: C, isKnownSecret: (v: string) => boolean): C;

  // --- secrets (docs/ARCHITECTURE.md "Secrets at rest") ---
  /** Every secret of `cfg` by path (`env:NAME`, `args:3`, `headers:NAME`, `auth:token`, `url:…`). */
  secrets(cfg: C): Record<string, string>;
  /** Put a secret back at its path in a (cloned) config; an unknown path is ignored. */
  setSecret(cfg: C, path: string, value: string): void;
  /** The config with every secret replaced by `replace(path, value)` (see config/secret-refs.ts `mapSecrets`). */
  mapSecrets(cfg: C, replace: (path: string, value: string) => unknown, mode: 'file' | 'inline'): Record<string, unknown>;
  /**
   * The stored values an imported `next` keeps from `stored` (only to the same destination), as
   * descriptions; filled into `next` when `apply`.
   */
  keptSecrets(next: C, stored: ServerConfig, apply: boolean): string[];
  /** Whether stored secrets may follow `next` from `stored` (docs/ARCHITECTURE.md "Security"). */
  sameSecretDestination(next: C, stored: ServerConfig): boolean;
  /** The env or header values (the names the catalog's fields refer to). */
  namedValues(cfg: C): Record<string, string>;

  // --- identity (config/identity.ts) ---
  /** Where requests go (`local:` + command line, `url:` + origin); null for a URL that does not parse. */
  destination(cfg: C): string | null;
  /** The approval identity's target (command with secret args as `***`, or URL origin + path) and value names. */
  identity(cfg: C): { target: unknown; names: string[] };
  /** What a remembered protocol era is keyed by (secrets included; hashed by the caller). */
  fingerprint(cfg: C): unknown[];

  // --- views (docs/ARCHITECTURE.md "Masked views only") ---
  /** The masked command / URL and their secret parts. */
  maskedTarget(cfg: C, isKnownSecret?: (v: string) => boolean): Pick<ServerView, 'command' | 'secret_args' | 'url' | 'url_secrets'>;
  /** The masked env and header values (one of them always empty). */
  maskedValues(cfg: C): Pick<ServerView, 'env' | 'headers'>;
  /** The auth of `cfg` (`none` for stdio). */
  auth(cfg: C): AuthConfig;
  /** The server's URL (remote) or null. */
  url(cfg: C): string | null;
  /** The URL (masked) and command a start failure names (main/mcp/failures.ts). */
  failureTarget(cfg: C, resolvedCommand: string | null): { url: string | null; command: string | null };

  // --- launch ---
  /**
   * Create (not start) the transport. @throws CommandNotFoundError when a stdio command does not
   * resolve; a URL error for a remote one.
   */
  launch(cfg: C, ctx: LaunchContext): Launched;
  /** Check before saving that it could launch (a stdio command on the PATH). @throws CommandNotFoundError */
  preflight(cfg: C, environment: ServerEnvironment): void;
  /** How the live session is reported (`ServerView.protocol.transport`). */
  readonly live: LiveTransport;
  /**
   * The `server/discover` probe's own timeout for a start timeout (MCP spec 2026-07-28
   * "Lifecycle: Version Negotiation"), or null for the whole start timeout.
   */
  probeTimeoutMs(startTimeoutMs: number): number | null;
}
