/**
 * The composer's unsent text, one draft per conversation: what the user typed stays with its
 * conversation while they open another one or Settings, comes back when they return, and goes
 * when it is sent. A new chat (not created in main until its first message) has one draft of its
 * own, so "New chat" brings back what was typed there.
 *
 * Drafts live in this window's memory only: they are not kept across an app restart (nor written
 * to the window's storage — a draft may hold anything the user pasted, a secret too).
 */
import type { StateCreator } from 'zustand';
import type { AppState } from './index';

/** The draft key of the new chat (conversation ids are UUIDs, so it never meets one). */
export const NEW_CHAT_DRAFT = 'new-chat';

/** The key of the open conversation's draft: its id once main has it, else the new chat's. */
export function draftKey(s: Pick<AppState, 'conversationId' | 'conversations'>): string {
  return s.conversations.some((c) => c.id === s.conversationId) ? s.conversationId : NEW_CHAT_DRAFT;
}

/** The open conversation's unsent text ('' when there is none). */
export function openDraft(s: Pick<AppState, 'conversationId' | 'conversations' | 'drafts'>): string {
  return s.drafts[draftKey(s)] ?? '';
}

export interface DraftsSlice {
  /** Unsent text by draft key ({@link draftKey}); an empty draft has no entry. */
  drafts: Record<string, string>;
  /** Keep `text` as the draft of `key` ('' drops it). */
  setDraft(key: string, text: string): void;
  /**
   * A message was sent from draft `key`: drop the draft — when `sent` is given, only if the draft
   * still is that text (trimmed), so what the user typed while the send was under way stays.
   */
  clearDraft(key: string, sent?: string): void;
}

export const createDraftsSlice: StateCreator<AppState, [], [], DraftsSlice> = (set) => {
  const without = (drafts: Record<string, string>, key: string): Record<string, string> => {
    const rest = { ...drafts };
    delete rest[key];
    return rest;
  };
  return {
    drafts: {},
    setDraft(key, text) {
      set((s) => (text ? { drafts: { ...s.drafts, [key]: text } } : key in s.drafts ? { drafts: without(s.drafts, key) } : s));
    },
    clearDraft(key, sent) {
      set((s) => {
        const cur = s.drafts[key];
        if (cur === undefined || (sent !== undefined && cur.trim() !== sent)) return s;
        return { drafts: without(s.drafts, key) };
      });
    },
  };
};
