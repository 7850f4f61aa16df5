/**
 * A chat under test: the real ChatService over a real SQLite conversation store in a temp dir,
 * recording every event, with helpers to wait for a run's end and read what it saved.
 */
import { expect } from 'vitest';
import type { ChatEvent, ConversationSummary, TranscriptItem } from '../../preload/contract/index.js';
import { ChatService } from '../../main/chat/agent.js';
import { openConversationDatabase } from '../../main/chat/conversations/database.js';
import { ConversationStore } from '../../main/chat/conversations/store.js';
import { Permissions } from '../../main/chat/permissions/index.js';
import type { ProfileStore } from '../../main/chat/profiles.js';
import type { McpHost } from '../../main/mcp/host.js';
import { waitFor } from './helpers.js';

/** A chat service with its store and everything it announced. */
export interface ChatHarness {
  chat: ChatService;
  /** The permissions the chat's tool calls pass (mode `never_ask` unless a test changes it). */
  permissions: Permissions;
  store: ConversationStore;
  events: ChatEvent[];
  summaries: ConversationSummary[];
  /** Wait until a run ended; returns its outcome. */
  finished(runId: string, timeoutMs?: number): Promise<'done' | 'stopped' | 'failed' | 'interrupted'>;
  /** The saved transcript of a conversation. */
  items(conversationId: string): TranscriptItem[];
  /** The saved tool-call entries of a conversation. */
  tools(conversationId: string): Array<Extract<TranscriptItem, { kind: 'tool' }>>;
  /** The saved answer text of a run (all its answer entries joined). */
  answer(conversationId: string, runId: string): string;
  close(): void;
}

/**
 * Build a chat over a fresh (or existing) database in `stateDir`, with real permissions whose
 * mode is `never_ask` (the agent tests are about the loop; the permission tests set their own).
 */
export async function chatHarness(host: McpHost, profiles: ProfileStore, stateDir: string): Promise<ChatHarness> {
  const { db } = openConversationDatabase(stateDir);
  const store = new ConversationStore(db);
  store.markInterrupted();
  const events: ChatEvent[] = [];
  const summaries: ConversationSummary[] = [];
  const permissions = new Permissions(stateDir, host);
  await permissions.setMode('never_ask');
  const chat = new ChatService(host, profiles, store, permissions.gate, { chat: (e) => events.push(e), changed: (s) => summaries.push(s) });
  const items = (id: string): TranscriptItem[] => store.get(id).items;
  return {
    chat,
    permissions,
    store,
    events,
    summaries,
    async finished(runId, timeoutMs = 15_000) {
      const end = (): Extract<ChatEvent, { type: 'run-end' }> | undefined =>
        events.find((e): e is Extract<ChatEvent, { type: 'run-end' }> => e.run_id === runId && e.type === 'run-end');
      const ok = await waitFor(() => end() !== undefined, timeoutMs);
      expect(ok, `run did not finish: ${JSON.stringify(events.filter((e) => e.run_id === runId).map((e) => e.type))}`).toBe(true);
      return end()!.outcome;
    },
    items,
    tools: (id) => items(id).filter((i): i is Extract<TranscriptItem, { kind: 'tool' }> => i.kind === 'tool'),
    answer: (id, runId) =>
      items(id)
        .flatMap((i) => (i.kind === 'assistant' && i.run_id === runId ? [i.text] : []))
        .join(''),
    close: () => store.close(),
  };
}
