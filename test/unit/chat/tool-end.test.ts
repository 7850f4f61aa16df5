/**
 * Why a tool call ended without a result of its own (main/chat/tool-end.ts), by the error's class
 * and code — never its text — for the window to word (docs/ARCHITECTURE.md "Languages").
 */
import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { failedCallEnd, toolErrorEnd } from '../../../main/chat/tool-end.js';
import { NotConnectedError } from '../../../main/mcp/connection.js';
import { ServerChangedError, ToolDisabledError } from '../../../main/mcp/host.js';
import { TaskLostError } from '../../../main/mcp/tasks/session.js';

describe('failedCallEnd', () => {
  it('the app’s own failures by class; the server’s JSON-RPC error as its words; anything else as other', () => {
    expect(failedCallEnd(new ServerChangedError('fs', 'write'))).toEqual({ code: 'failed', why: 'server_gone' });
    expect(failedCallEnd(new NotConnectedError('fs'))).toEqual({ code: 'failed', why: 'not_connected' });
    expect(failedCallEnd(new TaskLostError('gone'))).toEqual({ code: 'failed', why: 'task_lost' });
    expect(failedCallEnd(new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out'))).toEqual({ code: 'failed', why: 'timeout' });
    expect(failedCallEnd(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'))).toEqual({ code: 'failed', why: 'server_gone' });
    expect(failedCallEnd(new ToolDisabledError('fs', 'write'))).toEqual({ code: 'refused', via: 'disabled', reason: null });
    expect(failedCallEnd(new ProtocolError(-32603, 'disk full'))).toEqual({ code: 'server_error', said: true });
    expect(failedCallEnd(new Error('Request timed out'))).toEqual({ code: 'failed', why: 'other' });
  });

  it('a tool error says whether the tool gave any words', () => {
    expect(toolErrorEnd('no such file')).toEqual({ code: 'server_error', said: true });
    expect(toolErrorEnd('  ')).toEqual({ code: 'server_error', said: false });
  });
});
