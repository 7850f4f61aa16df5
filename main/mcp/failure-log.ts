/**
 * A server's start as English lines for its log: a failure (`ServerFailure`, docs/ARCHITECTURE.md
 * "Status") as one line, and the era retry of a local server that ended at the `server/discover`
 * probe ("Protocol eras"). The window never shows these lines as the failure: it words the typed
 * facts in the user's language (renderer/src/i18n/server-state.tsx).
 */
import type { NetworkCode, ServerFailure, SpawnCode } from '../../preload/contract/index.js';

const NETWORK: Record<NetworkCode, string> = {
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was reset',
  ENOTFOUND: 'the host name was not found',
  EAI_AGAIN: 'the host name could not be resolved',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  EPIPE: 'the connection was closed',
  UND_ERR_SOCKET: 'the connection was closed',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  CERT_HAS_EXPIRED: 'its TLS certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'its TLS certificate is not trusted',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its TLS certificate is not trusted',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its TLS certificate is for another host',
};

const SPAWN: Record<SpawnCode | 'not_on_path', string> = {
  not_on_path: 'the command was not found',
  ENOENT: 'the command or its interpreter was not found',
  EACCES: 'permission denied (is it executable?)',
  EPERM: 'the operation was not permitted',
  ENOEXEC: 'it is not an executable the system can run',
  E2BIG: 'the command line or environment is too large',
};

function exitText(exit: { code: number | null; signal: string | null } | null): string {
  if (!exit) return '';
  return exit.signal ? ` (the process was ended by ${exit.signal})` : ` (the process exited with code ${exit.code})`;
}

function connectText(f: Extract<ServerFailure, { kind: 'connect_failed' }>): string {
  switch (f.reason) {
    case 'network':
      return f.system_code ? NETWORK[f.system_code] : 'a network error';
    case 'http_status':
      return `the server answered HTTP ${f.http_status}`;
    case 'legacy_sse':
      return 'it looks like a legacy SSE server, but the SSE connection failed';
    case 'not_mcp':
      return `it answered with ${f.content_type ?? 'something'}, not MCP — check the URL`;
    case 'sse_failed':
      return 'the SSE connection failed';
    case 'closed':
      return 'the connection closed before the session started';
    case 'no_answer':
      return 'the request failed before the server answered';
  }
}

/**
 * The log line when a local server's process ended (or closed its output) at its first request,
 * the `server/discover` probe: an older server does that, and so does one that crashes at start
 * (a missing module) — it is tried once more, with the 2025 `initialize` handshake.
 */
export function probeEndedLine(exit: { code: number | null; signal: string | null } | null): string {
  const ended = !exit ? "the server's process closed its connection" : exit.signal ? `the server's process was ended by ${exit.signal}` : `the server's process exited with code ${exit.code}`;
  return `${ended} at its first request (server/discover, which asks which protocol version it speaks); an older server does that, so it is started once more with the 2025 initialize handshake`;
}

/**
 * Whether the log needs the error's own words besides the failure's line: only where that line
 * does not say what happened (an unknown failure, an `initialize` answer the SDK refused). An
 * exit, a timeout or a refusal is said by the line itself (with the exit code when known), so
 * the SDK's "Connection closed" is not the log's last word.
 */
export function needsRawDetail(f: ServerFailure): boolean {
  return f.kind === 'unknown' || (f.kind === 'protocol' && f.reason === 'initialize_rejected');
}

/** One English line describing `f`, for the server's log (no secret: URLs and commands come masked). */
export function describeFailure(f: ServerFailure): string {
  const said = f.server_message ? ` The server said: ${f.server_message}` : '';
  switch (f.kind) {
    case 'spawn_failed':
      return `Could not start ${f.command}: ${SPAWN[f.code]}.`;
    case 'timeout':
      return `The server did not answer within ${f.seconds} s while ${f.phase === 'handshake' ? 'starting the session' : 'listing its tools'}.`;
    case 'exited':
      return `${f.running ? 'The server closed the connection' : 'The server exited before it finished starting'}${exitText(f.exit)}.`;
    case 'auth_failed':
      return `The server rejected the credentials (HTTP ${f.http_status}).`;
    case 'connect_failed':
      return `Could not connect to ${f.url}: ${connectText(f)}.`;
    case 'protocol': {
      const what = f.phase === 'handshake' ? 'the session start' : 'the tool listing';
      const why = { refused: `the server refused it${f.rpc_code !== null ? ` (JSON-RPC error ${f.rpc_code})` : ''}`, invalid_answer: 'the answer does not follow the MCP specification', no_common_version: 'no protocol version in common', initialize_rejected: 'the initialize answer was not accepted' }[f.reason];
      return `Protocol failure in ${what}: ${why}.${said}`;
    }
    case 'unknown':
      return 'Could not start the server (see the lines above).';
  }
}
