/**
 * main/mcp/failures.ts: one row per failure kind the UI shows, each built from a real error
 * instance — thrown by a real operation where one exists here (spawning a missing program,
 * fetching a closed port, an SDK client probing a closed port or a server that exits), else
 * constructed from the real SDK / app error class. The classifier reads types and codes only and
 * returns typed facts (no sentence of the app's; a peer's own words only as `server_message`).
 */
import http from 'node:http';
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { Client, ProtocolError, SdkError, SdkErrorCode, SdkHttpError, SseError, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import type { ServerFailure } from '../../../preload/contract/index.js';
import { describeFailure } from '../../../main/mcp/failure-log.js';
import { classifyStartFailure, isLegacySseCandidate, isLocalProbeFailure, isSessionExpired, TimeoutError, type FailureContext } from '../../../main/mcp/failures.js';
import { LegacySseHintError } from '../../../main/mcp/sse-detect.js';
import { CommandNotFoundError } from '../../../main/mcp/transports/environment.js';
import { ManagedStdioTransport } from '../../../main/mcp/stdio.js';

const local: FailureContext = { type: 'local', url: null, command: '/usr/bin/srv', phase: 'handshake', exit: { code: 3, signal: null }, seconds: 7 };
const remote: FailureContext = { type: 'http', url: 'http://127.0.0.1:1234/mcp', command: null, phase: 'handshake', exit: null, seconds: 7 };
const URL_ = remote.url!;
/** A `connect_failed` failure with the given facts (the rest null). */
function connectFailed(reason: string, more: Record<string, unknown> = {}): ServerFailure {
  return { kind: 'connect_failed', url: URL_, reason, system_code: null, http_status: null, content_type: null, server_message: null, ...more } as ServerFailure;
}

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

describe('classifyStartFailure: typed facts, one row per kind and reason', () => {
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
    const none = { server_message: null };
    const rows: Array<[string, unknown, FailureContext, ServerFailure]> = [
      ['command not found', new CommandNotFoundError('nope'), local, { kind: 'spawn_failed', command: 'nope', code: 'not_on_path', ...none }],
      ['spawn ENOENT (real spawn)', await spawnError(), local, { kind: 'spawn_failed', command: '/usr/bin/srv', code: 'ENOENT', ...none }],
      ['our start deadline', new TimeoutError('deadline'), local, { kind: 'timeout', phase: 'handshake', seconds: 7, ...none }],
      ['SDK request timeout', new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out'), { ...remote, phase: 'listing' }, { kind: 'timeout', phase: 'listing', seconds: 7, ...none }],
      ['HTTP 401', httpError(401, SdkErrorCode.ClientHttpAuthentication), remote, { kind: 'auth_failed', http_status: 401, ...none }],
      ['HTTP 403 over SSE', new SseError(403, 'Forbidden', undefined as unknown as ErrorEvent), { ...remote, type: 'sse' }, { kind: 'auth_failed', http_status: 403, ...none }],
      ['SDK forbidden without a status', new SdkError(SdkErrorCode.ClientHttpForbidden, 'Forbidden'), remote, { kind: 'auth_failed', http_status: 403, ...none }],
      ['UnauthorizedError', new UnauthorizedError('Unauthorized'), remote, { kind: 'auth_failed', http_status: 401, ...none }],
      ['connection refused (real fetch)', refused, remote, connectFailed('network', { system_code: 'ECONNREFUSED' })],
      ['probe refused (real SDK client)', probeRefused, remote, connectFailed('network', { system_code: 'ECONNREFUSED' })],
      ['HTTP 500', httpError(500), remote, connectFailed('http_status', { http_status: 500 })],
      ['a non-MCP page', new LegacySseHintError(200, 'content_type', 'text/html'), remote, connectFailed('not_mcp', { content_type: 'text/html' })],
      ['a legacy SSE server whose SSE failed', new LegacySseHintError(200, 'endpoint_event', 'text/event-stream'), remote, connectFailed('legacy_sse')],
      ['unexpected content type', new SdkError(SdkErrorCode.ClientHttpUnexpectedContent, 'Unexpected content type: text/plain'), remote, connectFailed('not_mcp')],
      ['SSE failed', new SseError(undefined, 'stream broke', undefined as unknown as ErrorEvent), { ...remote, type: 'sse' }, connectFailed('sse_failed')],
      ['connection closed (remote)', new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'), remote, connectFailed('closed')],
      ['no answer at all (fetch TypeError)', new TypeError('fetch failed'), remote, connectFailed('no_answer')],
      ['connection closed (local)', new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'), local, { kind: 'exited', running: false, exit: { code: 3, signal: null }, ...none }],
      ['JSON-RPC error to initialize', new ProtocolError(-32600, 'Invalid request'), local, { kind: 'protocol', phase: 'handshake', reason: 'refused', rpc_code: -32600, server_message: 'Invalid request' }],
      ['malformed answer', new SdkError(SdkErrorCode.InvalidResult, 'Invalid result: [{"code":"invalid_type","path":["tools",0]}]'), { ...local, phase: 'listing' }, { kind: 'protocol', phase: 'listing', reason: 'invalid_answer', rpc_code: null, ...none }],
      ['no era in common', new SdkError(SdkErrorCode.EraNegotiationFailed, 'no overlap'), local, { kind: 'protocol', phase: 'handshake', reason: 'no_common_version', rpc_code: null, ...none }],
      ['unsupported protocol version (untyped SDK check)', new Error("Server's protocol version is not supported: 1999-01-01"), local, { kind: 'protocol', phase: 'handshake', reason: 'initialize_rejected', rpc_code: null, ...none }],
      ['anything else', new RangeError('Maximum call stack size exceeded'), { ...local, phase: 'listing' }, { kind: 'unknown', ...none }],
    ];
    for (const [label, err, ctx, expected] of rows) {
      const f = classifyStartFailure(err, ctx);
      expect(f, label).toEqual(expected);
      // The log's English line names the facts (never a validator dump).
      expect(describeFailure(f), `${label}: a sentence, not a dump`).not.toMatch(/[{[]"/);
    }
    // Only a peer's own words become server_message, cut to its first line of at most 300 characters.
    const long = classifyStartFailure(new ProtocolError(-32000, `${'x'.repeat(400)}\nsecond line`), local);
    expect(long.server_message).toBe(`${'x'.repeat(300)}…`);
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
