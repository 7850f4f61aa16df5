/**
 * The composer's unsent message, one draft per conversation: what the user typed and attached
 * (resources, a pasted text as a file) stays with its conversation while they open another one or
 * Settings, comes back when they return, and goes when it is sent. A new chat (not created in main until its first message) has one draft of its
 * own, so "New chat" brings back what was typed there.
 *
 * Drafts live in this window's memory only: they are not kept across an app restart (nor written
 * to the window's storage — a draft may hold anything the user pasted, a secret too).
 */
import type { StateCreator } from 'zustand';
import type { ContextRef } from '../../../preload/contract/index.js';
import type { AppState } from './index';

/** One attachment on the message being written. */
export interface AttachmentChip {
  /** A server's resource, or a pasted text attached as a file. */
  ref: Extract<ContextRef, { kind: 'resource' | 'text' }>;
  label: string;
}

/** Whether two chips attach the same thing (a resource once per server and URI; every text its own). */
function sameChip(a: AttachmentChip, b: AttachmentChip): boolean {
  if (a.ref.kind === 'resource' && b.ref.kind === 'resource') return a.ref.server === b.ref.server && a.ref.uri === b.ref.uri;
  return a === b;
}

/** A draft's attachments when it has none (one frozen list, so a selector's answer stays the same). */
const NO_ATTACHMENTS: readonly AttachmentChip[] = Object.freeze([]);

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

/** The open conversation's attachments (an empty list when there are none). */
export function openAttachments(s: Pick<AppState, 'conversationId' | 'conversations' | 'draftAttachments'>): readonly AttachmentChip[] {
  return s.draftAttachments[draftKey(s)] ?? NO_ATTACHMENTS;
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
  /** Attachments by draft key; a draft without any has no entry. */
  draftAttachments: Record<string, readonly AttachmentChip[]>;
  /** Add `chip` to draft `key`'s attachments (a resource once per server and URI). */
  attach(key: string, chip: AttachmentChip): void;
  /** Remove draft `key`'s attachment at `index`. */
  detach(key: string, index: number): void;
  /**
   * A message was sent from draft `key` with `sent` attached: those chips go; any attached while
   * the send was under way stay.
   */
  clearAttachments(key: string, sent: readonly AttachmentChip[]): void;
  /** The conversation `key` is gone: its text and attachments go. */
  dropDraft(key: string): void;
}

export const createDraftsSlice: StateCreator<AppState, [], [], DraftsSlice> = (set) => {
  const without = <T>(drafts: Record<string, T>, key: string): Record<string, T> => {
    const rest = { ...drafts };
    delete rest[key];
    return rest;
  };
  const withChips = (s: AppState, key: string, chips: readonly AttachmentChip[]): Partial<AppState> => ({
    draftAttachments: chips.length ? { ...s.draftAttachments, [key]: chips } : without(s.draftAttachments, key),
  });
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
    draftAttachments: {},
    attach(key, chip) {
      set((s) => {
        const chips = s.draftAttachments[key] ?? NO_ATTACHMENTS;
        return chips.some((a) => sameChip(a, chip)) ? s : withChips(s, key, [...chips, chip]);
      });
    },
    detach(key, index) {
      set((s) => withChips(s, key, (s.draftAttachments[key] ?? NO_ATTACHMENTS).filter((_, i) => i !== index)));
    },
    clearAttachments(key, sent) {
      set((s) => (key in s.draftAttachments ? withChips(s, key, s.draftAttachments[key]!.filter((a) => !sent.includes(a))) : s));
    },
    dropDraft(key) {
      set((s) => ({ drafts: without(s.drafts, key), draftAttachments: without(s.draftAttachments, key) }));
    },
  };
};
