/**
 * The range of a long conversation's entries the transcript renders, and its moves (the window
 * slides, see MAX_SHOWN in ../list-window.ts; docs/ARCHITECTURE.md "Conversations"): showing
 * earlier or later entries on request or when the user scrolls near an end, one step at a time.
 *
 * A move renders as a React transition (React yields between entries, so forty answers appearing
 * make no long task): until it is done, the range shown before holds — the store's own updates are
 * synchronous (useSyncExternalStore), hence this local hold. The entry at the top of the view keeps
 * its place across a move (the browser's own scroll anchoring does not hold in this column).
 *
 * One move at a time: a move asked for while one is still rendering ("Show earlier" clicked again)
 * waits, and starts when the one before is on the page. Each commit then adds and drops at most
 * SHOWN_AT_FIRST entries; moves let through together would have been rendered as one range jump
 * that replaces up to every entry on the page, all laid out in one task (bench/many-conversations.ts).
 */
import { startTransition, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { useApp } from '../store';

/** How close (px) to the top or bottom of the shown entries a scroll shows more of them. */
const NEAR_END_PX = 400;

/** The range shown before a move, held while the move renders. */
interface Hold {
  id: string;
  from: number;
  to: number;
}

/** The transcript's shown range [from, to) of the store's entries, and how to move it. */
export interface TranscriptRange {
  from: number;
  to: number;
  /** Show earlier entries (the "Show earlier" button); asked during a move, it follows that move. */
  showEarlier(): void;
  /** Show later entries (the "Show later" button); asked during a move, it follows that move. */
  showLater(): void;
  /** For the transcript's `onScroll`: near an end, a move of the user's towards it shows more. */
  onScroll(): void;
}

/**
 * @param transcript the scroll container; its entries are direct children `.item[data-item-id]`
 * @returns the range to render and its moves
 */
export function useTranscriptRange(transcript: RefObject<HTMLElement | null>): TranscriptRange {
  const conversationId = useApp((s) => s.conversationId);
  const count = useApp((s) => s.items.length);
  // The first entry shown (set by the store when a conversation opens: the newest entries, or a
  // little before a search hit), so a long conversation never renders whole.
  const storeFrom = useApp((s) => Math.min(s.firstShown, s.items.length));
  const storeTo = useApp((s) => (s.lastShown === null ? s.items.length : Math.min(s.lastShown, s.items.length)));
  const storeEarlier = useApp((s) => s.showEarlier);
  const storeLater = useApp((s) => s.showLater);
  const [hold, setHold] = useState<Hold | null>(null);
  // Counts moves that reached the page: each move's transition bumps it once, so an effect on it
  // runs after every move, even one that changed nothing.
  const [moved, setMoved] = useState(0);
  const held = hold !== null && hold.id === conversationId;
  const from = held ? Math.min(hold.from, count) : storeFrom;
  const to = held ? Math.min(hold.to, count) : storeTo;
  // Set at once (a render may come later than the next event), cleared when the move is on the page.
  const moving = useRef(false);
  const waiting = useRef<Array<() => void>>([]);
  // The entry at the top of the view and its offset there, kept across a move.
  const anchor = useRef<{ id: string; top: number } | null>(null);
  const lastTop = useRef(0);

  const move = (action: () => void, queue: boolean): void => {
    if (moving.current) {
      if (queue) waiting.current.push(action);
      return;
    }
    moving.current = true;
    const el = transcript.current;
    if (el) {
      const box = el.getBoundingClientRect();
      const first = Array.from(el.querySelectorAll<HTMLElement>(':scope > .item[data-item-id]')).find((it) => it.getBoundingClientRect().bottom > box.top);
      anchor.current = first ? { id: first.dataset.itemId!, top: first.getBoundingClientRect().top - box.top } : null;
    }
    setHold({ id: conversationId, from, to });
    action();
    startTransition(() => {
      setHold(null);
      setMoved((n) => n + 1);
    });
  };

  // Another conversation: moves still waiting were for the one before.
  useEffect(() => {
    waiting.current = [];
  }, [conversationId]);
  // The last move is on the page (and its anchor restored): the next one waiting may start. Runs
  // once per move (and at mount), so `move` is this render's, with the range just committed.
  useEffect(() => {
    moving.current = false;
    const next = waiting.current.shift();
    if (next) move(next, true);
  }, [moved]);
  useLayoutEffect(() => {
    const a = anchor.current;
    const el = transcript.current;
    if (!a || held || !el) return;
    anchor.current = null;
    const it = el.querySelector<HTMLElement>(`:scope > [data-item-id="${CSS.escape(a.id)}"]`);
    if (!it) return;
    el.scrollTop += it.getBoundingClientRect().top - el.getBoundingClientRect().top - a.top;
    lastTop.current = el.scrollTop;
  }, [from, to, held, transcript]);

  return {
    from,
    to,
    showEarlier: () => move(storeEarlier, true),
    showLater: () => move(storeLater, true),
    onScroll: () => {
      const el = transcript.current;
      if (!el) return;
      const up = el.scrollTop < lastTop.current;
      lastTop.current = el.scrollTop;
      // A move is still being rendered: the next scroll event, after it, decides again.
      if (moving.current) return;
      if (up && el.scrollTop < NEAR_END_PX && from > 0) move(storeEarlier, false);
      else if (!up && el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_END_PX && to < count) move(storeLater, false);
    },
  };
}
