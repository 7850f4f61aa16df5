/**
 * The conversation list (newest first) and full-text search, as main reports them. Main announces
 * every change (`conversations.changed` / `conversations.removed`); this slice only mirrors it.
 */
import type { StateCreator } from 'zustand';
import type { ConversationSummary, SearchHit } from '../../../preload/contract/index.js';
import { call } from '../api';
import type { AppState } from './index';

export interface ConversationsSlice {
  conversations: ConversationSummary[];
  /** The search text; empty means the list is shown. */
  searchQuery: string;
  searchHits: SearchHit[];
  /** Load the list and reopen the conversation the user had open last (once, at start). */
  loadConversations(reopen: boolean): Promise<void>;
  upsertConversation(s: ConversationSummary): void;
  dropConversation(id: string): void;
  renameConversation(id: string, title: string): Promise<void>;
  removeConversation(id: string): Promise<void>;
  search(query: string): Promise<void>;
}

const newestFirst = (a: ConversationSummary, b: ConversationSummary): number => b.updated_at - a.updated_at;

export const createConversationsSlice: StateCreator<AppState, [], [], ConversationsSlice> = (set, get) => ({
  conversations: [],
  searchQuery: '',
  searchHits: [],
  async loadConversations(reopen) {
    const { conversations, last_opened } = await call('conversations.list', {});
    set({ conversations });
    if (reopen && last_opened && get().items.length === 0) await get().openConversation(last_opened);
  },
  upsertConversation(c) {
    set((s) => ({ conversations: [c, ...s.conversations.filter((x) => x.id !== c.id)].sort(newestFirst) }));
  },
  dropConversation(id) {
    set((s) => ({ conversations: s.conversations.filter((x) => x.id !== id), searchHits: s.searchHits.filter((h) => h.conversation_id !== id) }));
    get().dropDraft(id);
    if (get().conversationId === id) get().newChat();
  },
  async renameConversation(id, title) {
    get().upsertConversation(await call('conversations.rename', { id, title }));
  },
  async removeConversation(id) {
    await call('conversations.remove', { id });
    get().dropConversation(id);
  },
  async search(query) {
    set({ searchQuery: query });
    if (!query.trim()) {
      set({ searchHits: [] });
      return;
    }
    const hits = await call('conversations.search', { query });
    if (get().searchQuery === query) set({ searchHits: hits });
  },
});
