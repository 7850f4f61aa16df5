/**
 * What a connection needs from the host for the client features of main/mcp/protocol (MCP spec
 * 2025-11-25 client features "Roots" and "Elicitation" URL mode). The host builds one
 * {@link ProtocolHooks} (./service.ts) and gives it to every connection; the connection declares
 * the capabilities and routes the server's requests to it (docs/ARCHITECTURE.md "Protocol features").
 */

/** One root as sent in a `roots/list` result (MCP spec "Roots": a `file://` URI and a name). */
export interface RootEntry {
  uri: string;
  name: string;
}

/** A URL-mode elicitation as the server sent it (`elicitation/create` with `mode: "url"`). */
export interface UrlElicitationParams {
  message: string;
  url: string;
  elicitationId: string;
}

/** The client features a connection hands on to the host. */
export interface ProtocolHooks {
  /** The roots of `server` now (its own folders, or the default ones). */
  roots(server: string): RootEntry[];
  /**
   * Ask the user whether to open a server's URL. Resolves with the action the server gets;
   * `signal` aborts when the server cancels or the connection ends.
   */
  urlElicit(server: string, params: UrlElicitationParams, signal: AbortSignal): Promise<'accept' | 'decline' | 'cancel'>;
  /** The server finished an out-of-band interaction (`notifications/elicitation/complete`). */
  elicitationComplete(server: string, elicitationId: string): void;
}
