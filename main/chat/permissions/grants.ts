/**
 * "Allow in this conversation" grants: per conversation, the tools the user allowed for the rest
 * of that conversation — each bound to its server's name *and* the identity of the server's
 * configuration (main/mcp/config/identity.ts `serverIdentity`: transport, command or URL origin +
 * path, env/header names), so a server removed and added again under the same name with another
 * command does not inherit them (docs/ARCHITECTURE.md "Permissions"). Held in memory by one
 * instance per app core (a later change may persist them with the conversation).
 */

/** The server a grant is for: its name and the identity of its configuration. */
export interface GrantServer {
  server: string;
  identity: string;
}

function key(s: GrantServer, tool: string): string {
  return `${s.server}\u0000${s.identity}\u0000${tool}`;
}

/** Per-conversation tool grants. */
export class ConversationGrants {
  private readonly byConversation = new Map<string, Map<string, GrantServer & { tool: string }>>();

  /** Allow `tool` of the server `s` (name and identity) for the rest of `conversationId`. */
  grant(conversationId: string, s: GrantServer, tool: string): void {
    let grants = this.byConversation.get(conversationId);
    if (!grants) this.byConversation.set(conversationId, (grants = new Map()));
    grants.set(key(s, tool), { server: s.server, identity: s.identity, tool });
  }

  /** Whether `tool` of the server `s` — that name with that identity — is allowed in `conversationId`. */
  has(conversationId: string, s: GrantServer, tool: string): boolean {
    return this.byConversation.get(conversationId)?.has(key(s, tool)) ?? false;
  }

  /** The grants of one conversation, as `{server, tool}` pairs (for showing them). */
  list(conversationId: string): Array<{ server: string; tool: string }> {
    return [...(this.byConversation.get(conversationId)?.values() ?? [])].map((g) => ({ server: g.server, tool: g.tool }));
  }

  /**
   * A server was renamed: its grants, in every conversation, now name it `to` (its identity is
   * unchanged — a name is not part of it; docs/ARCHITECTURE.md "Renaming a server").
   */
  rename(from: string, to: string): void {
    for (const grants of this.byConversation.values()) {
      for (const [k, g] of [...grants]) {
        if (g.server !== from) continue;
        grants.delete(k);
        const moved = { server: to, identity: g.identity };
        grants.set(key(moved, g.tool), { ...moved, tool: g.tool });
      }
    }
  }

  /** Forget a conversation's grants (conversation reset or deleted). */
  clear(conversationId: string): void {
    this.byConversation.delete(conversationId);
  }
}
