/**
 * The transport registry (docs/ARCHITECTURE.md "Transports"): config `type` → descriptor. Typed
 * over every `type` of `ServerConfig`, so a new variant without a descriptor does not compile.
 */
import type { ServerConfig } from '../config.js';
import type { ConfigOf, TransportKind, TransportType } from './kind.js';
import { sseTransport } from './sse.js';
import { stdioTransport } from './stdio.js';
import { streamableHttpTransport } from './streamable-http.js';

/** One descriptor per config `type`, each serving that type's config variant. */
export type TransportRegistry = { readonly [T in TransportType]: TransportKind<ConfigOf<T>> };

/** Every transport, by config `type`. */
export const TRANSPORTS: TransportRegistry = {
  local: stdioTransport,
  http: streamableHttpTransport,
  sse: sseTransport,
};

/** Every config `type`, in the registry's order. */
export const TRANSPORT_TYPES = Object.keys(TRANSPORTS) as TransportType[];

/**
 * The descriptor of `type`, over the whole config union: its members must be given a config of
 * that `type` (or, for `sse`, any remote config — the legacy fallback of `http`).
 */
export function transportOf(type: TransportType): TransportKind<ServerConfig> {
  // The registry's type ties each key to its variant; a lookup by a runtime `type` widens it.
  return TRANSPORTS[type] as unknown as TransportKind<ServerConfig>;
}

/** The descriptor of a config's `type` ({@link transportOf}). */
export function transportFor(cfg: ServerConfig): TransportKind<ServerConfig> {
  return transportOf(cfg.type);
}

/** The config `type` a file's `type` names (its own or an alias such as `stdio`), or undefined. */
export function typeNamed(name: string): TransportType | undefined {
  return TRANSPORT_TYPES.find((t) => t === name || TRANSPORTS[t].aliases.includes(name));
}
