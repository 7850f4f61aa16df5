/**
 * The open conversation: the transcript main sent (never a copy that can drift — main owns it and
 * every change arrives as a `chat.event`), and the actions on it. A new chat is a draft with a
 * fresh id until its first message creates it in main.
 */
import type { StateCreator } from 'zustand';
import type { ChatEvent, ContextRef, ToolInputEvent, TranscriptItem } from '../../../preload/contract/index.js';
import { ApiError, call } from '../api';
import type { AppState } from './index';
import { MAX_SHOWN, SHOWN_AT_FIRST, earlierWindow, laterWindow } from '../list-window';

export { MAX_SHOWN, SHOWN_AT_FIRST } from '../list-window';

/**
 * Whether a refusal shown in the window still holds: "no model set up" (`no_model`) stops holding
 * once a model is set up, though nothing was sent since.
 */
export function refusalHolds(notice: LocalNotice, modelReady: boolean): boolean {
  return !(modelReady && notice.error instanceof ApiError && notice.error.fact?.kind === 'no_model');
}

/** A message shown only in this window (e.g. a refused send); not part of the saved transcript. */
export interface LocalNotice {
  id: string;
  /** What the action was refused with (an `ApiError`: components/ErrorText.tsx words its facts). */
  error: unknown;
}

/**
 * A tool call the model is still writing, for a tool with an MCP App view (from `tool-input`
 * events; docs/ARCHITECTURE.md "MCP Apps"): shown as a provisional row with the view until the
 * call's own `tool` entry arrives. Kept only in this window, never saved.
 */
export type PreparingTool = Omit<ToolInputEvent, 'type' | 'conversation_id'> & { kind: 'preparing-tool' };

export interface ChatSlice {
  /** The open conversation's id (a draft's id until its first message). */
  conversationId: string;
  /** The open conversation's entries, as main sent them. */
  items: TranscriptItem[];
  /**
   * Tool calls of the open conversation whose input is streaming and whose entry has not arrived,
   * in order of their first input. Cleared when the run ends or another conversation opens.
   */
  preparingTools: PreparingTool[];
  /** The conversation is being loaded; its events are ignored until the snapshot arrives. */
  loading: boolean;
  /** An entry to scroll to and highlight (a search hit). */
  focusItemId: string | null;
  /** Index of the first entry shown (long conversations open with their newest entries only). */
  firstShown: number;
  /** Index after the last entry shown; null: through the newest (and new entries show as they come). */
  lastShown: number | null;
  /** Show `SHOWN_AT_FIRST` more of the older entries (the newest may leave the page, see `MAX_SHOWN`). */
  showEarlier(): void;
  /** Show `SHOWN_AT_FIRST` more of the later entries that left the page. */
  showLater(): void;
  localNotices: LocalNotice[];
  /** The model profile picked for a draft (sent with its first message); null: the default. */
  draftProfileId: string | null;
  /** The servers picked for a draft's tools (sent with its first message); null: all. */
  draftToolServers: string[] | null;
  /** Pick which servers' tools the model gets in the open conversation (null: all). */
  pickToolServers(servers: string[] | null): Promise<void>;
  /** Pick the open conversation's model profile (a draft keeps it until its first message). */
  pickProfile(profileId: string | null): Promise<void>;
  /** Open a saved conversation. */
  openConversation(id: string, focusItemId?: string | null): Promise<void>;
  /** Start a new, empty chat (a draft). */
  newChat(): void;
  /** Send a message with the prompts and resources attached to it (`context`). */
  send(text: string, context?: ContextRef[]): Promise<boolean>;
  stop(): Promise<void>;
  editResend(itemId: string, text: string): Promise<boolean>;
  regenerate(): Promise<void>;
  cancelTool(callId: string): Promise<void>;
  applyChatEvent(e: ChatEvent): void;
  dismissLocalNotice(id: string): void;
}

export const createChatSlice: StateCreator<AppState, [], [], ChatSlice> = (set, get) => {
  // Streamed text is applied at most once per frame: an answer can bring hundreds of deltas a
  // second, and each store update re-renders the answer (bench/streaming.ts). Deltas by item id,
  // in arrival order; flushed before any other event so the order of entries never changes.
  let pendingText: Map<string, string> | null = null;
  const flushText = (): void => {
    const p = pendingText;
    if (!p) return;
    pendingText = null;
    set((st) => ({ items: st.items.map((it) => (it.kind === 'assistant' && p.has(it.id) ? { ...it, text: it.text + p.get(it.id)! } : it)) }));
  };
  const refuse = (err: unknown): void =>
    set((s) => ({ localNotices: [...s.localNotices, { id: crypto.randomUUID(), error: err }] }));
  /** Run an action that starts a run; on refusal show why. Once one is taken, earlier refusals are old news and go. */
  const start = async (action: () => Promise<unknown>): Promise<boolean> => {
    try {
      await action();
      set((s) => (s.localNotices.length ? { localNotices: [] } : s));
      return true;
    } catch (err) {
      refuse(err);
      return false;
    }
  };
  return {
    conversationId: crypto.randomUUID(),
    items: [],
    preparingTools: [],
    loading: false,
    focusItemId: null,
    firstShown: 0,
    lastShown: null,
    showEarlier() {
      set((st) => earlierWindow(st.firstShown, st.lastShown, st.items.length));
    },
    showLater() {
      set((st) => laterWindow(st.firstShown, st.lastShown, st.items.length));
    },
    localNotices: [],
    draftProfileId: null,
    draftToolServers: null,
    async pickToolServers(servers) {
      const id = get().conversationId;
      const conv = get().conversations.find((c) => c.id === id);
      if (conv) {
        // Shown at once; main's answer (the saved choice) replaces it, or the old one comes back.
        get().upsertConversation({ ...conv, tool_servers: servers });
        try {
          get().upsertConversation(await call('conversations.setToolServers', { id, servers }));
        } catch (err) {
          get().upsertConversation(conv);
          refuse(err);
        }
      } else set({ draftToolServers: servers });
    },
    async pickProfile(profileId) {
      const id = get().conversationId;
      if (get().conversations.some((c) => c.id === id)) {
        try {
          get().upsertConversation(await call('conversations.setProfile', { id, profile_id: profileId }));
        } catch (err) {
          refuse(err);
        }
      } else set({ draftProfileId: profileId });
    },
    async openConversation(id, focusItemId = null) {
      pendingText = null;
      set({ conversationId: id, items: [], preparingTools: [], loading: true, focusItemId, localNotices: [], firstShown: 0, lastShown: null });
      try {
        const conv = await call('conversations.get', { id });
        if (get().conversationId !== id) return; // the user moved on meanwhile
        const items = JSON.parse(conv.items_json) as TranscriptItem[];
        const hitAt = focusItemId ? items.findIndex((it) => it.id === focusItemId) : -1;
        const newest = Math.max(0, items.length - SHOWN_AT_FIRST);
        const firstShown = hitAt >= 0 ? Math.min(newest, Math.max(0, hitAt - 10)) : newest;
        set({ items, loading: false, firstShown, lastShown: firstShown + MAX_SHOWN < items.length ? firstShown + MAX_SHOWN : null });
      } catch (err) {
        if (get().conversationId !== id) return;
        set({ loading: false });
        refuse(err);
      }
    },
    newChat() {
      pendingText = null;
      set({ conversationId: crypto.randomUUID(), items: [], preparingTools: [], loading: false, focusItemId: null, localNotices: [], draftProfileId: null, draftToolServers: null, firstShown: 0, lastShown: null });
    },
    send(text, context) {
      const { conversationId, draftProfileId, draftToolServers, conversations, lastShown, items } = get();
      // What is sent shows with the newest entries.
      if (lastShown !== null) set({ firstShown: Math.max(0, items.length - SHOWN_AT_FIRST), lastShown: null });
      const draft = !conversations.some((c) => c.id === conversationId);
      return start(() =>
        call('chat.send', {
          conversation_id: conversationId,
          text,
          ...(draft && draftProfileId ? { profile_id: draftProfileId } : {}),
          ...(draft && draftToolServers ? { tool_servers: draftToolServers } : {}),
          ...(context?.length ? { context } : {}),
        }),
      );
    },
    async stop() {
      await call('chat.stop', { conversation_id: get().conversationId }).catch(refuse);
    },
    editResend(itemId, text) {
      return start(() => call('chat.editResend', { conversation_id: get().conversationId, item_id: itemId, text }));
    },
    async regenerate() {
      await start(() => call('chat.regenerate', { conversation_id: get().conversationId }));
    },
    async cancelTool(callId) {
      await call('chat.cancelTool', { conversation_id: get().conversationId, call_id: callId }).catch(refuse);
    },
    applyChatEvent(e) {
      const s = get();
      // Events of the conversation being loaded are already in the snapshot main is sending.
      if (e.conversation_id !== s.conversationId || s.loading) return;
      if (e.type === 'text-delta') {
        if (!pendingText) {
          pendingText = new Map();
          requestAnimationFrame(flushText);
        }
        pendingText.set(e.item_id, (pendingText.get(e.item_id) ?? '') + e.text);
        return;
      }
      flushText();
      const items = get().items;
      switch (e.type) {
        case 'item': {
          const i = items.findIndex((it) => it.id === e.item.id);
          const next = i < 0 ? [...items, e.item] : items.map((it, j) => (j === i ? e.item : it));
          // A call's own entry takes the place of its provisional row.
          const entry = e.item;
          const preparing = entry.kind === 'tool' ? s.preparingTools.filter((p) => !(p.run_id === entry.run_id && p.call_id === entry.call_id)) : s.preparingTools;
          set(preparing.length === s.preparingTools.length ? { items: next } : { items: next, preparingTools: preparing });
          return;
        }
        case 'tool-input': {
          // Late input of a call whose entry is here already: the entry has the whole input.
          if (items.some((it) => it.kind === 'tool' && it.run_id === e.run_id && it.call_id === e.call_id)) return;
          const { type: _type, conversation_id: _conversation, ...input } = e;
          const p: PreparingTool = { kind: 'preparing-tool', ...input };
          const at = s.preparingTools.findIndex((x) => x.run_id === e.run_id && x.call_id === e.call_id);
          set({ preparingTools: at < 0 ? [...s.preparingTools, p] : s.preparingTools.map((x, j) => (j === at ? p : x)) });
          return;
        }
        case 'items-removed': {
          const gone = new Set(e.item_ids);
      pendingText = null;
          const items = s.items.filter((it) => !gone.has(it.id));
          set({ items, firstShown: Math.min(s.firstShown, items.length), lastShown: s.lastShown !== null && s.lastShown < items.length ? s.lastShown : null });
          return;
        }
        case 'run-end':
          // Calls whose input never became a call (a stop, a malformed input) leave with the run.
          if (s.preparingTools.length) set({ preparingTools: [] });
          return;
      }
    },
    dismissLocalNotice(id) {
      set((st) => ({ localNotices: st.localNotices.filter((n) => n.id !== id) }));
    },
  };
};
