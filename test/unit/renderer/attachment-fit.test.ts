/**
 * The composer's warning that attached text cannot fit the model's window (renderer/src/attachment-fit.ts)
 * against main's real pieces: text attached as a file is resolved by the context service, turned
 * into the model's messages from a saved user entry, and budgeted by the run budget with no tools
 * and no system prompt. Whenever the window says "does not fit", main refuses the request
 * (ContextOverflowError); and the numbers are main's (docs/ARCHITECTURE.md "Context budget").
 */
import { describe, expect, it } from 'vitest';
import type { TranscriptItem } from '../../../preload/contract/index.js';
import { ContextService } from '../../../main/chat/context/service.js';
import { transcriptToMessages } from '../../../main/chat/conversations/history.js';
import { ContextOverflowError, RunBudget } from '../../../main/chat/run-budget.js';
import { attachedTextOverflow } from '../../../renderer/src/attachment-fit.js';

/** Whether main refuses a message of `chars` attached characters in a window of `window` tokens. */
async function mainRefuses(chars: number, window: number): Promise<boolean> {
  const svc = new ContextService({ ready: () => null, names: () => [] }, () => undefined);
  const context = await svc.resolve([{ kind: 'text', name: 'pasted text.txt', text: 'p'.repeat(chars) }]);
  const item: TranscriptItem = { kind: 'user', id: 'u', ts: 1, text: 'summarize', context };
  const history = transcriptToMessages([item]);
  const budget = new RunBudget({ provider: 'openai-compatible', context_window: window }, [], undefined, history, () => true);
  try {
    budget.step(history);
    return false;
  } catch (err) {
    if (err instanceof ContextOverflowError) return true;
    throw err;
  }
}

describe('attached text over the window', () => {
  it('gives the numbers: what a message carries, its tokens, the window, the answer’s reserve and the room', () => {
    expect(attachedTextOverflow(300_000, 8192)).toEqual({ chars: 300_000, sentChars: 120_000, tokens: 30_000, window: 8192, reserve: 2048, room: 6144 });
    expect(attachedTextOverflow(30_000, 8192)).toEqual({ chars: 30_000, sentChars: 30_000, tokens: 7500, window: 8192, reserve: 2048, room: 6144 });
    expect(attachedTextOverflow(20_000, 8192)).toBeNull();
  });

  it('whenever it says "does not fit", main refuses the request; near the edge it stays silent', async () => {
    for (const [chars, window] of [
      [300_000, 8192],
      [30_000, 8192],
      [24_600, 8192],
      [200_000, 32_768],
      [1_000_000, 16_384],
      [120_000, 4096],
    ] as const) {
      const over = attachedTextOverflow(chars, window);
      expect(over, `${chars} characters in ${window} tokens`).not.toBeNull();
      expect(await mainRefuses(chars, window), `${chars} characters in ${window} tokens`).toBe(true);
    }
    // What fits alone says nothing (main may still refuse it with tools and a system prompt on top).
    for (const [chars, window] of [
      [20_000, 8192],
      [300_000, 200_000],
      [1000, 4096],
    ] as const) {
      expect(attachedTextOverflow(chars, window)).toBeNull();
      expect(await mainRefuses(chars, window)).toBe(false);
    }
  });
});
