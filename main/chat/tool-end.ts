/**
 * Why a tool call ended without a result of its own, as the contract's `ToolEnd` (docs/ARCHITECTURE.md
 * "The path of a tool call", "Languages"): decided from the error's class and code, never its
 * text. The window words it; the English `error` saved beside it is what the model was told.
 */
import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { ToolEnd } from '../../preload/contract/index.js';
import { NotConnectedError } from '../mcp/connection.js';
import { ServerChangedError, ToolDisabledError } from '../mcp/host.js';
import { TaskLostError } from '../mcp/tasks/session.js';

/**
 * A call whose request failed (not cancelled): its server went away or was not connected, it
 * timed out, its task was lost, the user disabled the tool meanwhile — or the server answered
 * with a JSON-RPC error, whose message (its own words) is the saved `error`.
 */
export function failedCallEnd(err: unknown): ToolEnd {
  if (err instanceof ToolDisabledError) return { code: 'refused', via: 'disabled', reason: null };
  if (err instanceof ServerChangedError) return { code: 'failed', why: 'server_gone' };
  if (err instanceof NotConnectedError) return { code: 'failed', why: 'not_connected' };
  if (err instanceof TaskLostError) return { code: 'failed', why: 'task_lost' };
  if (err instanceof SdkError && err.code === SdkErrorCode.RequestTimeout) return { code: 'failed', why: 'timeout' };
  if (err instanceof SdkError && (err.code === SdkErrorCode.ConnectionClosed || err.code === SdkErrorCode.NotConnected || err.code === SdkErrorCode.SendFailed)) return { code: 'failed', why: 'server_gone' };
  if (err instanceof ProtocolError) return { code: 'server_error', said: err.message.trim() !== '' };
  return { code: 'failed', why: 'other' };
}

/** A call the tool or its server said failed (`isError`, a failed task): whether it said anything. */
export function toolErrorEnd(words: string): ToolEnd {
  return { code: 'server_error', said: words.trim() !== '' };
}
