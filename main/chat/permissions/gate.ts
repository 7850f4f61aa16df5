/**
 * The permission gate: the one check the agent runs right before a tool call executes, in main.
 * It binds the tool to its server as it is now (the host's `resolveTool`: the server's live
 * connection and the identity of its configuration), reads the global mode, applies the policy
 * table (./policy.ts), asks the user through the approval broker when the table says so, and
 * records "Always allow" and "Allow in this conversation" answers. What it allows is that resolved
 * tool, and the caller runs exactly it (`McpHost.callResolved`; docs/ARCHITECTURE.md "Permissions").
 * A tool whose definition is not the pinned one (`new`, `changed`) is never allowed by an earlier
 * answer: the card shows the diff, and allowing accepts the definition shown as the new pin
 * (docs/ARCHITECTURE.md "Pinned tool definitions").
 */
import type { ApprovalDecision, ApprovalView, PermissionNotSaved, ToolSettingPatch } from '../../../preload/contract/index.js';
import type { ResolvedTool, ToolRef } from '../../mcp/host/resolved-tools.js';
import type { CheckedTool } from '../../mcp/pins/index.js';
import type { ToolSetting } from '../../mcp/tool-settings.js';
import { APPROVAL_INTERRUPTED_RESULT } from '../interruption.js';
import { argsHash } from './args-hash.js';
import type { ApprovalBroker } from './broker.js';
import type { ConversationGrants, GrantServer } from './grants.js';
import { decide, type AllowReason } from './policy.js';
import type { PermissionSettingsStore } from './settings-store.js';

/** What the gate needs of the host (McpHost implements it). */
export interface GateHost {
  /** Bind an offered tool to its server's live, ready connection (null: not offered by it now). */
  resolveTool(ref: ToolRef): ResolvedTool | null;
  /** Whether a resolved tool's connection is still its server's live, ready one. */
  isLive(resolved: ResolvedTool): boolean;
  /** The stored per-tool setting, by server (or `@host`, the host's own tools) and real tool name. */
  toolSetting(server: string, tool: string): Readonly<ToolSetting> | undefined;
  /** Persist a per-tool setting ("Always allow") where that tool's choices live (a server's entry, or the host tools' file). */
  saveToolSetting(server: string, tool: string, patch: NonNullable<ToolSettingPatch>): Promise<void>;
  /** The resolved tool's definition against its pin, on its connection's listing now (null: no longer listed). */
  pinCheck(resolved: ResolvedTool): CheckedTool | null;
  /** Accept the definition with `hash` as the tool's pin, if it is still the one listed on the same connection. */
  acceptResolved(resolved: ResolvedTool, hash: string): Promise<boolean>;
  /** Whether tools that are not `pinned` are held back from the model until accepted. */
  pinSettings(): { hold_unaccepted: boolean };
}

/** One call about to execute. `args` must be the exact arguments that will be sent. */
export interface AuthorizeRequest {
  conversation_id: string;
  run_id: string;
  /** The model's tool-call id (AI SDK `toolCallId`). */
  call_id: string;
  /**
   * The tool the caller was offered: its namespaced name (`{server}__{tool}`) and the server and
   * real name behind it. The gate resolves the server and real name — never the name alone, which
   * another server may have taken since.
   */
  tool: ToolRef;
  args: unknown;
  /** The run's (or the call's) abort signal: Stop cancels a pending approval. */
  signal?: AbortSignal;
  /**
   * Who makes the call: the model (absent), or an MCP App view that a tool of `server` rendered in
   * this conversation. A view's call is covered by an "Allow in this conversation" grant of the
   * same tool only when the view is its own server's; while it waits for approval, such a grant
   * given on another card (the model's call of the same tool) decides it too, and its card closes
   * (docs/ARCHITECTURE.md "Permissions").
   */
  caller?: { kind: 'view'; server: string };
}

/** A view's call waiting for approval that a new conversation grant may decide (see `AuthorizeRequest.caller`). */
interface WaitingViewCall {
  conversation_id: string;
  grantee: GrantServer;
  tool: string;
  covered: AbortController;
}

/** Why a call was not allowed. */
export type RefusalReason =
  | 'unknown_tool'
  | 'disabled'
  | 'held_back'
  | 'denied'
  | 'cancelled'
  | 'timed_out'
  | 'args_changed'
  | 'server_changed'
  | 'definition_changed'
  /** The app stopped or restarted while the card waited: nobody answered (not the user's cancel). */
  | 'interrupted';

/**
 * The gate's answer. Allowed: `via` says why (a policy row, or `user` with the card's decision,
 * for the transcript), and `resolved` is the tool bound to the server instance that was approved —
 * call exactly it (`McpHost.callResolved`). Refused: `message` is the tool error to give the model.
 */
export type AuthorizeResult =
  | { allowed: true; via: AllowReason; decision: null; resolved: ResolvedTool }
  | { allowed: true; via: 'user'; decision: Exclude<ApprovalDecision, 'deny'>; warning: string | null; not_saved: PermissionNotSaved[]; resolved: ResolvedTool }
  | { allowed: false; reason: RefusalReason; message: string; decision: 'deny' | null; /** The user's own reason for a denial, as typed. */ said?: string };

/** What the system said when a choice could not be saved: the error's message, bounded (shown as sent). */
function systemWords(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).slice(0, 500);
}

/** The gate of one app core. */
export class PermissionGate {
  /** Views' calls waiting for approval, which a grant given on another card may decide. */
  private readonly waitingViews = new Set<WaitingViewCall>();

  constructor(
    private readonly host: GateHost,
    private readonly broker: ApprovalBroker,
    private readonly grants: ConversationGrants,
    private readonly settings: PermissionSettingsStore,
  ) {}

  /**
   * Whether an approval card matching `match` is open now (for callers that should not stack a
   * second card behind one the user has not answered yet, like an MCP App view that polls).
   */
  isAsking(match: (approval: ApprovalView) => boolean): boolean {
    return this.broker.pending().some(match);
  }

  /**
   * Decide whether one tool call may execute now — the agent's single integration point.
   *
   * Call it inside the tool's `execute`, with the offered tool and the exact arguments the call
   * will be sent with. `{allowed: true}` → call `resolved` (`host.callResolved`), which runs only
   * on the connection that was approved. `{allowed: false}` → do not call;
   * end the call as a tool error whose text is `message` (e.g. "Denied by the user: not that
   * folder"), and let the run go on — the model sees the refusal as the tool result.
   *
   * When the policy says "ask", an approval card opens (`approvals.request` event) and this
   * waits for the answer; `signal` aborting (Stop) cancels the card. "Allow in this
   * conversation" adds a grant for `conversation_id`; "Always allow" stores
   * `approval: "always_allow"` in the server's tool settings (mcp_servers.json). An answer that
   * comes after the server stopped or restarted (perhaps with another command) is refused
   * (`server_changed`), and nothing is recorded for it. Never throws for a refusal; it rejects only if the host lookups themselves throw.
   */
  async authorize(req: AuthorizeRequest): Promise<AuthorizeResult> {
    const resolved = this.host.resolveTool(req.tool);
    if (!resolved) return { allowed: false, reason: 'unknown_tool', message: `No tool named "${req.tool.name}": server "${req.tool.server}" does not offer "${req.tool.original_name}" now.`, decision: null };
    const tool = resolved.tool;
    const pin = this.host.pinCheck(resolved);
    if (!pin) return { allowed: false, reason: 'unknown_tool', message: `Server "${tool.server}" no longer lists the tool "${tool.original_name}".`, decision: null };
    if (pin.status.kind !== 'pinned' && this.host.pinSettings().hold_unaccepted)
      return { allowed: false, reason: 'held_back', message: `The tool "${tool.original_name}" of server "${tool.server}" is ${pin.status.kind === 'new' ? 'new' : 'changed since the user accepted it'}, and is held back until the user accepts its definition.`, decision: null };
    // Grants hold for the server's name with the identity of its configuration (./grants.ts).
    const grantee = { server: tool.server, identity: resolved.identity };
    const mode = this.settings.cachedMode() ?? (await this.settings.mode());
    const setting = this.host.toolSetting(tool.server, tool.original_name);
    // A view's call is covered by a grant only when the view is the granted tool's own server's.
    const ownView = req.caller === undefined || req.caller.server === tool.server;
    const conversationGrant = ownView && this.grants.has(req.conversation_id, grantee, tool.original_name);
    const d = decide({ mode, setting, annotations: tool.annotations, conversationGrant, pin: pin.status.kind });
    if (d.kind === 'refuse') return { allowed: false, reason: 'disabled', message: `The tool "${tool.original_name}" of server "${tool.server}" is disabled by the user.`, decision: null };
    if (d.kind === 'allow') return { allowed: true, via: d.why, decision: null, resolved };
    const asked = argsHash(req.args);
    // A view's own call may be decided by a grant given on another card while this one waits.
    const waiting: WaitingViewCall | null = req.caller && ownView ? { conversation_id: req.conversation_id, grantee, tool: tool.original_name, covered: new AbortController() } : null;
    if (waiting) this.waitingViews.add(waiting);
    const r = await this.broker
      .request(
      {
        conversation_id: req.conversation_id,
        run_id: req.run_id,
        call_id: req.call_id,
        server: tool.server,
        tool: tool.original_name,
        namespaced_tool: tool.name,
        title: tool.title,
        annotations: tool.annotations,
        args: req.args,
        pin: pin.status,
      },
      req.signal,
      waiting?.covered.signal,
    )
      .finally(() => waiting && this.waitingViews.delete(waiting));
    // Decided again from the start, by the table: the new grant, and anything else that changed
    // meanwhile (the tool disabled, its definition changed, the server restarted).
    if (r.outcome === 'covered') return this.authorize(req);
    if (r.outcome === 'cancelled') return { allowed: false, reason: 'cancelled', message: 'Cancelled by the user.', decision: null };
    if (r.outcome === 'interrupted') return { allowed: false, reason: 'interrupted', message: APPROVAL_INTERRUPTED_RESULT, decision: null };
    if (r.outcome === 'timed_out') return { allowed: false, reason: 'timed_out', message: 'The user did not answer the approval request in time; the call was not run.', decision: null };
    // The answer binds to the arguments shown; refuse if they changed while the card was open.
    if (r.args_sha256 !== asked || argsHash(req.args) !== asked) return { allowed: false, reason: 'args_changed', message: 'The arguments changed after the user was asked; the call was not run.', decision: null };
    const { decision, reason } = r.answer;
    if (decision === 'deny') return { allowed: false, reason: 'denied', message: `Denied by the user${reason ? `: ${reason}` : '.'}`, decision: 'deny', ...(reason ? { said: reason } : {}) };
    // The answer is about the server instance the card showed: if it stopped or restarted while
    // the card was open (another command may run under that name now), nothing is allowed or kept.
    if (!this.host.isLive(resolved))
      return { allowed: false, reason: 'server_changed', message: `Server "${tool.server}" stopped or restarted while the call waited for approval, so the call was not run.`, decision: null };
    const warnings: string[] = [];
    const notSaved: PermissionNotSaved[] = [];
    // Allowing a tool that is not pinned accepts the definition the card showed — only if that is
    // still what the server lists; a definition that changed again while the card was open is not run.
    if (pin.status.kind !== 'pinned') {
      try {
        if (!(await this.host.acceptResolved(resolved, pin.hash)))
          return { allowed: false, reason: 'definition_changed', message: `The tool "${tool.original_name}" of server "${tool.server}" changed again while the call waited for approval, so the call was not run.`, decision: null };
      } catch (err) {
        // The user did accept it for this call; only remembering the pin failed. Say so.
        warnings.push(`Could not save the accepted definition: ${(err as Error).message}`);
        notSaved.push({ what: 'definition', said: systemWords(err) });
      }
    }
    if (decision === 'allow_conversation') {
      this.grants.grant(req.conversation_id, grantee, tool.original_name);
      this.coverWaitingViews(req.conversation_id, grantee, tool.original_name);
    }
    if (decision === 'always_allow') {
      try {
        await this.host.saveToolSetting(tool.server, tool.original_name, { approval: 'always_allow' });
      } catch (err) {
        // The user did allow this call; only remembering it failed. Say so.
        warnings.push(`Could not save "Always allow": ${(err as Error).message}`);
        notSaved.push({ what: 'always_allow', said: systemWords(err) });
      }
    }
    const warning = warnings.length ? warnings.join(' ') : null;
    return { allowed: true, via: 'user', decision, warning, not_saved: notSaved, resolved };
  }

  /**
   * A grant of `tool` of `grantee` in `conversationId` was just given: the views' calls of exactly
   * that tool of that server (name and identity), in that conversation, still waiting for their
   * own card, are decided again (their cards close as `covered`). Calls of other tools, of other
   * conversations and of views of other servers keep their cards.
   */
  private coverWaitingViews(conversationId: string, grantee: GrantServer, tool: string): void {
    for (const w of this.waitingViews) {
      if (w.conversation_id === conversationId && w.tool === tool && w.grantee.server === grantee.server && w.grantee.identity === grantee.identity) w.covered.abort();
    }
  }
}
