/**
 * renderer/src/apps/view-question.ts: a view's question is answered to the view once — by the user,
 * or with the "not done" value before the view's own request timeout — and a late user answer is
 * not sent again.
 */
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { VIEW_ANSWER_BY_MS, VIEW_REQUEST_TIMEOUT_MS, viewQuestion } from '../../../renderer/src/apps/view-question.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

it('answers the view "not done" before its request would time out, once; the later answer is not sent', () => {
  expect(VIEW_ANSWER_BY_MS).toBeLessThan(VIEW_REQUEST_TIMEOUT_MS);
  const sent: boolean[] = [];
  let late = 0;
  const q = viewQuestion<boolean>((v) => sent.push(v), false, () => late++);
  vi.advanceTimersByTime(VIEW_ANSWER_BY_MS - 1);
  expect(sent).toEqual([]);
  vi.advanceTimersByTime(1);
  expect(sent).toEqual([false]);
  expect(late).toBe(1);
  expect(q.reply(true)).toBe(false);
  expect(sent).toEqual([false]);
});

it("the user's answer in time is the view's reply, and the clock stops", () => {
  const sent: boolean[] = [];
  let late = 0;
  const q = viewQuestion<boolean>((v) => sent.push(v), false, () => late++);
  expect(q.reply(true)).toBe(true);
  vi.advanceTimersByTime(VIEW_REQUEST_TIMEOUT_MS);
  expect(sent).toEqual([true]);
  expect(late).toBe(0);
});

it('a disposed question (the view went away) sends nothing', () => {
  const sent: boolean[] = [];
  const q = viewQuestion<boolean>((v) => sent.push(v), false, () => undefined);
  q.dispose();
  vi.advanceTimersByTime(VIEW_REQUEST_TIMEOUT_MS);
  expect(q.reply(true)).toBe(false);
  expect(sent).toEqual([]);
});
