import type { StateCreator } from 'zustand';
import type { ChatEvent, ContentView } from '../../../preload/contract/index.js';
import { call } from '../api';
import type { AppState } from './index';

/** A tool call as shown in a tool card. */
export interface ToolCallItem {
  call_id: string;
  tool: string;
  server: string;
  original_name: string;
  args: unknown;
  status: 'running' | 'ok' | 'error';
  content: ContentView[];
  error: string | null;
  duration_ms: number | null;
}

/** One entry of the transcript. */
export type ChatItem =
  | { kind: 'user'; id: string; text: string }
  | { kind: 'assistant'; id: string; text: string }
  | { kind: 'tool'; id: string; call: ToolCallItem }
  | { kind: 'notice'; id: string; text: string; tone: 'error' | 'info' };

export interface ChatSlice {
  conversationId: string;
  items: ChatItem[];
  runId: string | null;
  send(text: string): Promise<void>;
  stop(): Promise<void>;
  newChat(): Promise<void>;
  applyChatEvent(e: ChatEvent): void;
}

let seq = 0;
// Events that arrive before `chat.send` has returned their run id are replayed once it has.
let sending = false;
let early: ChatEvent[] = [];
const nid = (): string => `i${++seq}`;

export const createChatSlice: StateCreator<AppState, [], [], ChatSlice> = (set, get) => ({
  conversationId: crypto.randomUUID(),
  items: [],
  runId: null,
  async send(text) {
    set((s) => ({ items: [...s.items, { kind: 'user', id: nid(), text }] }));
    sending = true;
    try {
      const { run_id } = await call('chat.send', { conversation_id: get().conversationId, text });
      set({ runId: run_id });
      const replay = early.filter((e) => e.run_id === run_id);
      early = [];
      replay.forEach((e) => get().applyChatEvent(e));
    } catch (err) {
      set((s) => ({ items: [...s.items, { kind: 'notice', id: nid(), text: (err as Error).message, tone: 'error' }] }));
    } finally {
      sending = false;
    }
  },
  async stop() {
    const runId = get().runId;
    if (runId) await call('chat.stop', { run_id: runId });
  },
  async newChat() {
    const old = get().conversationId;
    await get().stop();
    set({ conversationId: crypto.randomUUID(), items: [], runId: null });
    await call('chat.reset', { conversation_id: old }).catch(() => undefined);
  },
  applyChatEvent(e) {
    if (e.run_id !== get().runId) {
      if (sending) early.push(e);
      return;
    }
    set((s) => {
      const items = [...s.items];
      switch (e.type) {
        case 'text-delta': {
          const last = items[items.length - 1];
          if (last?.kind === 'assistant') items[items.length - 1] = { ...last, text: last.text + e.text };
          else items.push({ kind: 'assistant', id: nid(), text: e.text });
          return { items };
        }
        case 'tool-start':
          items.push({
            kind: 'tool',
            id: nid(),
            call: { call_id: e.call_id, tool: e.tool, server: e.server, original_name: e.original_name, args: e.args, status: 'running', content: [], error: null, duration_ms: null },
          });
          return { items };
        case 'tool-end': {
          const i = items.findIndex((it) => it.kind === 'tool' && it.call.call_id === e.call_id);
          const it = items[i];
          if (it?.kind === 'tool') items[i] = { ...it, call: { ...it.call, status: e.ok ? 'ok' : 'error', content: e.content, error: e.error, duration_ms: e.duration_ms } };
          return { items };
        }
        case 'done':
          return { runId: null };
        case 'aborted':
          items.push({ kind: 'notice', id: nid(), text: 'Stopped.', tone: 'info' });
          return { items, runId: null };
        case 'error':
          items.push({ kind: 'notice', id: nid(), text: e.message, tone: 'error' });
          return { items, runId: null };
      }
      return {};
    });
  },
});
