/**
 * Finding saved conversations by their title, in the window (docs/ARCHITECTURE.md
 * "Conversations"): the titles are already there, so the sidebar's search asks main nothing for
 * them; messages are searched by main's full-text index.
 */
import type { ConversationSummary } from '../../preload/contract/index.js';

/** At most this many conversations found by their title are listed above the message hits. */
const TITLE_HITS_MAX = 20;

/**
 * The saved conversations whose title holds every word of `query` (case-insensitive, any script;
 * Chinese needs no spaces), newest first. The titles are already in the window, so this asks
 * main nothing.
 */
export function titleMatches(conversations: ConversationSummary[], query: string): ConversationSummary[] {
  const words = query.toLocaleLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return [];
  return conversations.filter((c) => words.every((w) => c.title.toLocaleLowerCase().includes(w))).slice(0, TITLE_HITS_MAX);
}
