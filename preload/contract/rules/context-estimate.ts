/**
 * How the context budget counts (docs/ARCHITECTURE.md "Context budget"): a text's estimated
 * tokens (~4 characters each; no tokenizer library is installed), the room every request keeps for
 * the answer, and how much attached text one message carries. Main fits each request with these;
 * the window uses the same numbers to say, when something is attached, that it cannot fit the
 * model's window even alone.
 */

/** Rough tokens of a text of `chars` characters: ~4 characters per token (conservative for English and code). */
export function textTokens(chars: number): number {
  return Math.ceil(chars / 4);
}

/** Tokens kept free in the context window for the answer (at most a quarter of a small window). */
export const ANSWER_RESERVE_TOKENS = 4096;

/** The answer's reserve in a context window of `contextWindow` tokens. */
export function answerReserveTokens(contextWindow: number): number {
  return Math.min(ANSWER_RESERVE_TOKENS, Math.floor(contextWindow / 4));
}

/**
 * Characters of attached text one message carries, all attachments together (resources, prompts,
 * a text attached as a file); the rest is cut with a note.
 */
export const MESSAGE_CONTEXT_CHARS = 120_000;
