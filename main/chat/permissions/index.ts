/**
 * Tool permissions — this room's one job: decide, in main and at execution time, whether a tool
 * call may run. This header is the map of the room.
 *
 * - policy.ts         the pure decision table (mode × per-tool setting × annotations × grants)
 * - broker.ts         pending approvals: random single-use ids bound to one call and its arguments
 * - grants.ts         "Allow in this conversation" grants
 * - settings-store.ts the global mode (permissions.json)
 * - gate.ts           `authorize()`, the single check the agent calls before a tool executes
 *
 * Per-tool settings themselves live with each server in mcp_servers.json (main/mcp/tool-settings.ts);
 * enforcement of "disabled" is also in McpHost (not offered, refused if called).
 */
import type { ApprovalView, PermissionMode } from '../../../preload/contract/index.js';
import { ApprovalBroker, type ApprovalEvents } from './broker.js';
import { PermissionGate, type GateHost } from './gate.js';
import { ConversationGrants } from './grants.js';
import { PermissionSettingsStore } from './settings-store.js';

export { ApprovalBroker, ApprovalError, type ApprovalAnswer, type ApprovalCall, type ApprovalResult } from './broker.js';
export { PermissionGate, type AuthorizeRequest, type AuthorizeResult, type GateHost } from './gate.js';
export { ConversationGrants } from './grants.js';
export { decide, DEFAULT_PERMISSION_MODE, type PolicyDecision, type PolicyInput } from './policy.js';
export { PermissionSettingsStore } from './settings-store.js';

/** The room's parts, built once per app core. */
export class Permissions {
  readonly broker: ApprovalBroker;
  readonly grants = new ConversationGrants();
  readonly settings: PermissionSettingsStore;
  readonly gate: PermissionGate;

  constructor(stateDir: string, host: GateHost, events: Partial<ApprovalEvents> = {}, timeoutMs?: number) {
    this.broker = new ApprovalBroker(events, timeoutMs);
    this.settings = new PermissionSettingsStore(stateDir);
    this.gate = new PermissionGate(host, this.broker, this.grants, this.settings);
  }

  /** The global mode. */
  async getMode(): Promise<{ mode: PermissionMode }> {
    return { mode: await this.settings.mode() };
  }

  /** Store the global mode. */
  async setMode(mode: PermissionMode): Promise<{ mode: PermissionMode }> {
    return { mode: await this.settings.setMode(mode) };
  }

  /** Pending approvals (for a reloaded window). */
  pending(): ApprovalView[] {
    return this.broker.pending();
  }
}
