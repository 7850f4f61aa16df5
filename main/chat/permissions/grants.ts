/**
 * "Allow in this conversation" grants: per conversation, the tools (server + real tool name) the
 * user allowed for the rest of that conversation. Held in memory by one instance per app core
 * (a later change may persist them with the conversation).
 */

function key(server: string, tool: string): string {
  return `${server}\u0000${tool}`;
}

/** Per-conversation tool grants. */
export class ConversationGrants {
  private readonly byConversation = new Map<string, Set<string>>();

  /** Allow `tool` of `server` for the rest of `conversationId`. */
  grant(conversationId: string, server: string, tool: string): void {
    let set = this.byConversation.get(conversationId);
    if (!set) this.byConversation.set(conversationId, (set = new Set()));
    set.add(key(server, tool));
  }

  /** Whether `tool` of `server` is allowed in `conversationId`. */
  has(conversationId: string, server: string, tool: string): boolean {
    return this.byConversation.get(conversationId)?.has(key(server, tool)) ?? false;
  }

  /** The grants of one conversation, as `{server, tool}` pairs (for showing or persisting them). */
  list(conversationId: string): Array<{ server: string; tool: string }> {
    return [...(this.byConversation.get(conversationId) ?? [])].map((k) => {
      const i = k.indexOf('\u0000');
      return { server: k.slice(0, i), tool: k.slice(i + 1) };
    });
  }

  /** Forget a conversation's grants (conversation reset or deleted). */
  clear(conversationId: string): void {
    this.byConversation.delete(conversationId);
  }
}
