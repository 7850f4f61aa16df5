/**
 * The protocol inspector's service — this file's one job: what the window asks of the recorder
 * (docs/ARCHITECTURE.md "Protocol inspector"): a server's recording, clearing it, saving it as a
 * `.jsonl` file, switching its recording on or off, and replaying a recorded `tools/call` with edited arguments.
 *
 * A replay is a tool call like any other: the permission gate decides (an approval card when the
 * mode asks; its `run_id` is `INSPECTOR_RUN_ID`), and the call runs on exactly the connection the
 * gate approved (`McpHost.callResolved`). Its messages carry the tag `replay:<id>`. Each replay is
 * its own approval scope (conversation id `inspector:replay:<id>`, which no chat conversation can
 * have): "Allow in this conversation" on its card allows that one replay and is forgotten when it
 * ends, so it never reaches a later replay or a chat; "Always allow" is what it says, for that tool.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { INSPECTOR_RUN_ID, type InspectorReplayResult, type InspectorSaveResult, type InspectorSnapshot } from '../../../preload/contract/index.js';
import type { PermissionGate } from '../../chat/permissions/gate.js';
import type { ConversationGrants } from '../../chat/permissions/grants.js';
import { writeFileAtomic } from '../../util/atomic-write.js';
import type { RegisteredTool } from '../adapter.js';
import type { CallOptions } from '../connection.js';
import type { ResolvedTool } from '../host/resolved-tools.js';
import { HostError, noSuchServer } from '../host/errors.js';
import { boundDepth } from '../nesting.js';
import type { TrafficRecorder } from './recorder.js';

/**
 * The conversation id a replay's approval and grants are filed under: `inspector:` + its tag. The
 * colon keeps it out of the ids a chat conversation may have (the contract's `conversationIdSchema`).
 */
export function replayConversation(tag: string): string {
  return `inspector:${tag}`;
}

/** What the service needs of the host (McpHost implements it). */
export interface InspectorHost {
  /** Whether a server of that name is configured. */
  has(name: string): boolean;
  /** Every registered tool (to find the one a recorded call named). */
  allTools(): RegisteredTool[];
  /** Call the tool the gate approved on the connection it was approved on. */
  callResolved(resolved: ResolvedTool, args: Record<string, unknown>, opts: CallOptions): Promise<CallToolResult>;
}

/** What the service is built from. */
export interface InspectorDeps {
  recorder: TrafficRecorder;
  host: InspectorHost;
  gate: Pick<PermissionGate, 'authorize'>;
  /** The gate's conversation grants: a replay's are forgotten when it ends. */
  grants: Pick<ConversationGrants, 'clear'>;
  /** Saved recordings go to `<stateDir>/exports/`. */
  stateDir: string;
}

/** The inspector of one app core. */
export class InspectorService {
  constructor(private readonly deps: InspectorDeps) {}

  private checkServer(server: string): void {
    if (!this.deps.host.has(server)) throw noSuchServer(server);
  }

  /** One server's recording, oldest first. @throws HostError('not_found') */
  list(server: string): InspectorSnapshot {
    this.checkServer(server);
    const ring = this.deps.recorder.existing(server);
    return { server, recording: this.deps.recorder.recording(server), messages: ring?.all() ?? [], dropped: ring?.dropped ?? 0, limits: this.deps.recorder.limits };
  }

  /**
   * Switch recording of one server on or off (kept across restarts).
   * @throws HostError('not_found'); the file system's error when the choice cannot be stored
   */
  async setRecording(server: string, on: boolean): Promise<{ server: string; recording: boolean }> {
    this.checkServer(server);
    await this.deps.recorder.setRecording(server, on);
    return { server, recording: this.deps.recorder.recording(server) };
  }

  /** Forget one server's recording. @throws HostError('not_found') */
  clear(server: string): { cleared: number } {
    this.checkServer(server);
    return { cleared: this.deps.recorder.existing(server)?.clear() ?? 0 };
  }

  /**
   * Write one server's recording as JSON Lines (one {@link InspectorMessage} per line, the message
   * itself under `message`; already redacted) to `<state dir>/exports/inspector-<server>-<time>.jsonl`,
   * owner-only and atomically, as the server list's export does. @throws HostError('not_found');
   * the file system's error when it cannot be written
   */
  async save(server: string): Promise<InspectorSaveResult> {
    const { messages } = this.list(server);
    const lines = messages.map(({ json, ...rest }) => JSON.stringify({ ...rest, message: json === null ? null : (JSON.parse(json) as unknown) }));
    const file = path.join(this.deps.stateDir, 'exports', `inspector-${server}-${new Date().toISOString().replace(/[:.]/g, '-')}.jsonl`);
    await writeFileAtomic(file, lines.length ? `${lines.join('\n')}\n` : '');
    return { path: file, count: messages.length };
  }

  /**
   * Run a recorded `tools/call` (by `seq`) again with `args`, through the permission gate.
   * @throws HostError('not_found') for an unknown server; HostError('invalid_input') when `seq` is
   *   not a recorded `tools/call` request of this server (or was too large to keep)
   */
  async replay(server: string, seq: number, rawArgs: Record<string, unknown>, signal?: AbortSignal): Promise<InspectorReplayResult> {
    this.checkServer(server);
    // Bounded before anything walks them: the gate's hash, the approval card, the server.
    const args = boundDepth(rawArgs);
    const m = this.deps.recorder.existing(server)?.get(seq);
    if (!m || m.dir !== 'out' || m.kind !== 'request' || m.method !== 'tools/call' || m.json === null) throw new HostError('invalid_input', 'That message is not a recorded tools/call request.', 'seq');
    const params = (JSON.parse(m.json) as { params?: { name?: unknown } }).params;
    const name = typeof params?.name === 'string' ? params.name : null;
    const tag = `replay:${randomUUID()}`;
    const tool = name === null ? undefined : this.deps.host.allTools().find((t) => t.server === server && t.original_name === name);
    if (!tool) return { kind: 'refused', tag, message: `Server "${server}" does not offer the tool "${name ?? '?'}" now.` };
    const conversation = replayConversation(tag);
    try {
      const auth = await this.deps.gate.authorize({ conversation_id: conversation, run_id: INSPECTOR_RUN_ID, call_id: tag, tool, args, ...(signal ? { signal } : {}) });
      if (!auth.allowed) return { kind: 'refused', tag, message: auth.message };
      const started = Date.now();
      try {
        const result = await this.deps.host.callResolved(auth.resolved, args, { trace: tag, ...(signal ? { signal } : {}) });
        return { kind: 'ok', tag, result: result as Record<string, unknown>, duration_ms: Date.now() - started };
      } catch (err) {
        return { kind: 'failed', tag, message: err instanceof Error ? err.message : String(err) };
      }
    } finally {
      // "Allow in this conversation" on a replay's card was for this replay alone.
      this.deps.grants.clear(conversation);
    }
  }
}
