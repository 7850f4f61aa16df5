/**
 * The public shapes of an MCP connection (main/mcp/connection.ts): the app's client identity,
 * what the host hands a server's sampling and elicitation requests to, call options and
 * progress (and turning the SDK's progress into it), and the error for a call on a connection
 * that is not ready.
 * docs/ARCHITECTURE.md "Processes and rooms".
 */

import type { TaskObserver } from '../tasks/session.js';

/** The app's identity sent in `initialize` (MCP spec "Lifecycle"). */
export const CLIENT_INFO = { name: 'openprogram-desktop', version: '0.1.0' };

/** A form-mode elicitation request as the host hands it to the user. */
export interface ElicitationForm {
  message: string;
  requestedSchema: Record<string, unknown>;
}

/** The user's answer (MCP `ElicitResult`). */
export interface ElicitationAnswer {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, string | number | boolean | string[]>;
}

/** A server's sampling request (MCP `sampling/createMessage`), as the host hands it on. */
export interface SamplingRequest {
  messages: Array<{ role: 'user' | 'assistant'; content: { type: string; text?: string; data?: string; mimeType?: string } }>;
  systemPrompt?: string;
  maxTokens: number;
  temperature?: number;
}

/** The host's completion for a sampling request. */
export interface SamplingResult {
  model: string;
  text: string;
  stopReason: 'endTurn' | 'maxTokens' | 'stopSequence';
}

/** Answers a sampling request (after the user approved it); throws to refuse. */
export type SampleHandler = (server: string, req: SamplingRequest, signal: AbortSignal) => Promise<SamplingResult>;

/** Asks the user; `signal` aborts when the server cancels the request or the connection ends. */
export type ElicitHandler = (server: string, form: ElicitationForm, signal: AbortSignal) => Promise<ElicitationAnswer>;

/** Error thrown for a call on a connection that is not ready (or closed under it). */
export class NotConnectedError extends Error {
  override name = 'NotConnectedError';
}


/** Options for a tool call. */
export interface CallOptions {
  signal?: AbortSignal;
  /** Per-call read timeout in ms; defaults to the server's `timeout_seconds`. */
  timeoutMs?: number;
  /**
   * Receives the server's progress notifications for this call (MCP spec "Utilities: Progress"):
   * `progress` so far, `total` when the server knows it, and its `message`. Each notification
   * also restarts the call's read timeout (bounded by a total deadline).
   */
  onProgress?: (p: ToolProgress) => void;
  /**
   * Why the app makes this call, for the protocol inspector (`chat:<run_id>:<call_id>`,
   * `replay:<id>`): the recorded request and its response carry it (docs/ARCHITECTURE.md
   * "Protocol inspector").
   */
  trace?: string;
  /**
   * Follows the call's task when the server runs it as one (MCP Tasks; docs/ARCHITECTURE.md
   * "Tasks"): told when it is created (with its reference and a cancel) and of each status.
   */
  task?: TaskObserver;
}

/** One progress notification of a running call (MCP `notifications/progress`), as numbers + message. */
export interface ToolProgress {
  progress: number;
  total: number | null;
  message: string | null;
}

/**
 * The SDK `onprogress` handler of a tool call, handing `onProgress` each notification as a
 * {@link ToolProgress} (message cut to 1000 characters). A listener that throws does not fail
 * the call. A handler is returned even without `onProgress`: the SDK sends a progress token only
 * when one is present.
 */
export function progressListener(onProgress: ((p: ToolProgress) => void) | undefined): (p: { progress: number; total?: unknown; message?: unknown }) => void {
  return (p) => {
    if (!onProgress) return;
    try {
      onProgress({
        progress: p.progress,
        total: typeof p.total === 'number' ? p.total : null,
        message: typeof p.message === 'string' ? p.message.slice(0, 1000) : null,
      });
    } catch {
      // A listener's failure must not fail the call.
    }
  };
}
