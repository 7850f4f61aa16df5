/**
 * main/mcp/failures.ts: one row per failure kind the UI shows, each built from a real error
 * instance — thrown by a real operation where one exists here (spawning a missing program,
 * fetching a closed port, an SDK client probing a closed port or a server that exits), else
 * constructed from the real SDK / app error class. The classifier reads types and codes only.
 */
import http from 'node:http';
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { Client, ProtocolError, SdkError, SdkErrorCode, SdkHttpError, SseError, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import type { ErrorKind } from '../../preload/contract/index.js';
import { classifyStartFailure, isLegacySseCandidate, isLocalProbeFailure, isSessionExpired, TimeoutError, type FailureContext } from '../../main/mcp/failures.js';
import { LegacySseHintError } from '../../main/mcp/sse-detect.js';
import { CommandNotFoundError } from '../../main/mcp/transports.js';
import { ManagedStdioTransport } from '../../main/mcp/stdio.js';

const local: FailureContext = { type: 'local', url: null, command: '/usr/bin/srv', phase: 'handshake', exit: ' (the process exited with code 3)' };
const remote: FailureContext = { type: 'http', url: 'http://127.0.0.1:1234/mcp', command: null, phase: 'handshake', exit: '' };

async function closedPort(): Promise<number> {
  const srv = http.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const port = (srv.address() as { port: number }).port;
  await new Promise((r) => srv.close(r));
  return port;
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
}

async function spawnError(): Promise<Error> {
  return new Promise((resolve) => spawn('/nonexistent/definitely-missing-binary').on('error', resolve));
}

function httpError(status: number, code: SdkErrorCode = SdkErrorCode.ClientHttpNotImplemented): SdkHttpError {
  return new SdkHttpError(code, `HTTP ${status}`, { status, statusText: 'x' });
}

describe('classifyStartFailure: one row per kind', () => {
  it('table', async () => {
    const port = await closedPort();
    const refused = await rejection(fetch(`http://127.0.0.1:${port}/mcp`));
    const probeRefused = await rejection(
      new Client({ name: 't', version: '1' }, { versionNegotiation: { mode: 'auto' } }).connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)), { timeout: 3000 }),
    );
    // A local server that exits before answering anything: the SDK's probe fails on our transport.
    const exitingProbe = await rejection(
      new Client({ name: 't', version: '1' }, { versionNegotiation: { mode: 'auto' } }).connect(
        new ManagedStdioTransport({ command: process.execPath, args: ['-e', 'process.exit(3)'], env: process.env as Record<string, string> }),
        { timeout: 3000 },
      ),
    );
    const rows: Array<[string, unknown, FailureContext, ErrorKind, RegExp]> = [
      ['command not found', new CommandNotFoundError('nope'), local, 'spawn_failed', /"nope" was not found/],
      ['spawn ENOENT (real spawn)', await spawnError(), local, 'spawn_failed', /^Could not start \/usr\/bin\/srv: the command or its interpreter was not found\.$/],
      ['our start deadline', new TimeoutError('The server did not finish starting within 2 s.'), local, 'timeout', /within 2 s/],
      ['SDK request timeout', new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out'), remote, 'timeout', /did not answer in time while starting the session/],
      ['HTTP 401', httpError(401, SdkErrorCode.ClientHttpAuthentication), remote, 'auth_failed', /rejected the credentials \(HTTP 401\)/],
      ['HTTP 403 over SSE', new SseError(403, 'Forbidden', undefined as unknown as ErrorEvent), { ...remote, type: 'sse' }, 'auth_failed', /HTTP 403/],
      ['UnauthorizedError', new UnauthorizedError('Unauthorized'), remote, 'auth_failed', /HTTP 401/],
      ['connection refused (real fetch)', refused, remote, 'connect_failed', /^Could not connect to http:\/\/127\.0\.0\.1:1234\/mcp: the connection was refused\.$/],
      ['probe refused (real SDK client)', probeRefused, remote, 'connect_failed', /the connection was refused/],
      ['HTTP 500', httpError(500), remote, 'connect_failed', /answered HTTP 500/],
      ['a non-MCP page', new LegacySseHintError(200, 'content_type', 'text/html'), remote, 'connect_failed', /answered with text\/html, not MCP/],
      ['unexpected content type', new SdkError(SdkErrorCode.ClientHttpUnexpectedContent, 'Unexpected content type: text/plain'), remote, 'connect_failed', /not an MCP response/],
      ['connection closed (local)', new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'), local, 'exited', /^The server exited before it finished starting \(the process exited with code 3\)\.$/],
      ['JSON-RPC error to initialize', new ProtocolError(-32600, 'Invalid request'), local, 'protocol', /refused to start the session: Invalid request \(JSON-RPC error -32600\)/],
      ['malformed answer', new SdkError(SdkErrorCode.InvalidResult, 'Invalid result: [{"code":"invalid_type","path":["tools",0]}]'), { ...local, phase: 'listing' }, 'protocol', /^The server's answer listing its tools does not follow the MCP specification\.$/],
      ['no era in common', new SdkError(SdkErrorCode.EraNegotiationFailed, 'no overlap'), local, 'protocol', /no protocol version in common/],
      ['unsupported protocol version (untyped SDK check)', new Error("Server's protocol version is not supported: 1999-01-01"), local, 'protocol', /1999-01-01/],
      ['anything else', new RangeError('Maximum call stack size exceeded'), { ...local, phase: 'listing' }, 'unknown', /^Could not start the server: Maximum call stack size exceeded$/],
    ];
    for (const [label, err, ctx, kind, message] of rows) {
      const f = classifyStartFailure(err, ctx);
      expect(f.kind, label).toBe(kind);
      expect(f.message, label).toMatch(message);
      expect(f.message, `${label}: a sentence, not a dump`).not.toMatch(/[{[]"/);
    }
    // The real probe failure of an exiting local server is what triggers the legacy retry.
    expect(isLocalProbeFailure(exitingProbe)).toBe(true);
    expect(isLocalProbeFailure(probeRefused)).toBe(false);
  });

  it('typed predicates for the fallbacks', () => {
    expect(isLegacySseCandidate(httpError(405))).toBe(true);
    expect(isLegacySseCandidate(httpError(404))).toBe(true);
    expect(isLegacySseCandidate(new SdkError(SdkErrorCode.EraNegotiationFailed, 'probe failed', undefined, { cause: new LegacySseHintError(200, 'endpoint_event', 'text/event-stream') }))).toBe(true);
    expect(isLegacySseCandidate(httpError(401, SdkErrorCode.ClientHttpAuthentication))).toBe(false);
    expect(isLegacySseCandidate(httpError(500))).toBe(false);
    expect(isSessionExpired(httpError(404))).toBe(true);
    expect(isSessionExpired(new ProtocolError(-32001, 'Session not found'))).toBe(false);
  });
});
