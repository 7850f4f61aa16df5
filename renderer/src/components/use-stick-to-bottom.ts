/**
 * Keep a scroll container at its bottom while its content grows — a tool's app view that loads
 * and sizes itself, an image that arrives — as long as the user was at the bottom (they have not
 * scrolled up to read). Changes of the entry list itself are followed by Chat's own effect.
 *
 * Only a move up lets go of the bottom. Content that grows under a pinned view leaves a gap until
 * the resize observer closes it, and a scroll event can land in that gap (one still queued from
 * our own scroll to the bottom, say): judged by the distance alone, it would unpin the view and
 * leave the newest entry out of sight.
 */
import { useEffect, useRef, type RefObject } from 'react';

/** How close to the bottom still counts as "at the bottom", in CSS pixels. */
const PINNED_SLACK_PX = 48;
/** The event (bubbling to the scroll container) by which a part asks the chat to stop following the bottom. */
const HOLD_EVENT = 'op-hold-bottom';

/**
 * Bring `target` into sight inside the chat and keep it there: the chat stops following the
 * bottom (as if the user had scrolled up), so growth below — the target itself arriving in a
 * pinned chat — does not push it out of sight again. For questions the user must see (a view's
 * approval card or link consent). Must be called after the target is in the document.
 */
export function revealInChat(target: HTMLElement): void {
  target.dispatchEvent(new Event(HOLD_EVENT, { bubbles: true }));
  target.scrollIntoView({ block: 'nearest' });
}

/**
 * Stop following the bottom, leaving the view where it is: for a part that is about to grow on
 * the user's request (a long message unfolding) so the reader stays where they were reading.
 */
export function holdInChat(target: HTMLElement): void {
  target.dispatchEvent(new Event(HOLD_EVENT, { bubbles: true }));
}

/**
 * @param scroller the scroll container (its direct children are watched for size changes)
 * @param paused while true, growth is not followed (e.g. the view is held at a search hit)
 * @returns the `onScroll` handler to put on the container
 */
export function useStickToBottom(scroller: RefObject<HTMLElement | null>, paused: boolean): () => void {
  const pinned = useRef(true);
  const lastTop = useRef(0);
  const pausedRef = useRef(paused);
  pausedRef.current = paused;
  useEffect(() => {
    const el = scroller.current;
    if (!el || typeof ResizeObserver !== 'function') return;
    const sizes = new ResizeObserver(() => {
      if (pinned.current && !pausedRef.current) el.scrollTop = el.scrollHeight;
    });
    const watchChildren = (): void => {
      sizes.disconnect();
      for (const child of Array.from(el.children)) sizes.observe(child);
    };
    watchChildren();
    const children = new MutationObserver(watchChildren);
    children.observe(el, { childList: true });
    const hold = (): void => {
      pinned.current = false;
    };
    el.addEventListener(HOLD_EVENT, hold);
    return () => {
      sizes.disconnect();
      children.disconnect();
      el.removeEventListener(HOLD_EVENT, hold);
    };
  }, [scroller]);
  return () => {
    const el = scroller.current;
    if (!el) return;
    const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < PINNED_SLACK_PX;
    if (atBottom) pinned.current = true;
    else if (el.scrollTop < lastTop.current - 1) pinned.current = false;
    lastTop.current = el.scrollTop;
  };
}
