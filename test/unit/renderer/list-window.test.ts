/**
 * The rendered part of long lists (renderer/src/list-window.ts) and the transcript's sliding range
 * of shown entries (`earlierWindow` / `laterWindow`), pure.
 */
import { describe, expect, it } from 'vitest';
import { MAX_SHOWN, SHOWN_AT_FIRST, earlierWindow, laterWindow, listWindow } from '../../../renderer/src/list-window.js';

describe('listWindow', () => {
  it('renders the rows in view and a margin, with the space of the others before and after', () => {
    const w = listWindow(5000, 500, 50, 1000, 10);
    expect(w).toEqual({ start: 90, end: 120, before: 90 * 50, after: 880 * 50 });
  });
  it('stays inside the list at both ends, and shows a first screenful before the list is laid out', () => {
    expect(listWindow(0, 500, 50, 1000, 10)).toMatchObject({ start: 0, end: 20, before: 0 });
    expect(listWindow(1e9, 500, 50, 1000, 10)).toMatchObject({ start: 1000, end: 1000, after: 0 });
    expect(listWindow(0, 0, 50, 1000, 10, 40)).toMatchObject({ start: 0, end: 50 });
    expect(listWindow(0, 500, 50, 3, 10)).toEqual({ start: 0, end: 3, before: 0, after: 0 });
  });
});

describe('the transcript window', () => {
  it('showing earlier entries keeps at most MAX_SHOWN on the page, dropping the newest', () => {
    const count = 5000;
    let w: { firstShown: number; lastShown: number | null } = { firstShown: count - SHOWN_AT_FIRST, lastShown: null };
    for (let i = 0; i < 3; i++) w = earlierWindow(w.firstShown, w.lastShown, count);
    expect(w).toEqual({ firstShown: count - 4 * SHOWN_AT_FIRST, lastShown: null });
    for (let i = 0; i < 200; i++) {
      w = earlierWindow(w.firstShown, w.lastShown, count);
      expect((w.lastShown ?? count) - w.firstShown).toBeLessThanOrEqual(MAX_SHOWN);
    }
    expect(w).toEqual({ firstShown: 0, lastShown: MAX_SHOWN });
  });
  it('showing later entries slides back, and reaching the newest follows new entries again (null)', () => {
    const count = 1000;
    let w: { firstShown: number; lastShown: number | null } = { firstShown: 0, lastShown: MAX_SHOWN };
    w = laterWindow(w.firstShown, w.lastShown, count);
    expect(w).toEqual({ firstShown: SHOWN_AT_FIRST, lastShown: MAX_SHOWN + SHOWN_AT_FIRST });
    for (let i = 0; i < 100 && w.lastShown !== null; i++) w = laterWindow(w.firstShown, w.lastShown, count);
    expect(w).toEqual({ firstShown: count - MAX_SHOWN, lastShown: null });
    expect(laterWindow(5, null, count)).toEqual({ firstShown: 5, lastShown: null });
  });
});
