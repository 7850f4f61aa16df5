/**
 * Whether text attached to a message can fit a model's context window at all (docs/ARCHITECTURE.md
 * "Context budget"), counted the way main counts it (the shared rules): at most
 * `MESSAGE_CONTEXT_CHARS` characters of attached text go with a message, at ~4 characters a token,
 * and every request keeps room for the answer. Tool definitions, the system prompt and the rest of
 * the conversation come on top, so "does not fit" is certain; "fits" is not a promise. Pure.
 */
import { MESSAGE_CONTEXT_CHARS, answerReserveTokens, textTokens } from '../../preload/contract/rules/index.js';

/** The numbers of attached text that cannot fit a window even alone. */
export interface AttachmentOverflow {
  /** Characters attached, and how many of them a message carries (the rest is cut). */
  chars: number;
  sentChars: number;
  /** Estimated tokens of what is sent. */
  tokens: number;
  /** The model's window, what it keeps for the answer, and the room left. */
  window: number;
  reserve: number;
  room: number;
}

/**
 * The numbers when `chars` characters of attached text cannot fit a context window of
 * `contextWindow` tokens even with nothing else in the request; null when they may fit.
 */
export function attachedTextOverflow(chars: number, contextWindow: number): AttachmentOverflow | null {
  const sentChars = Math.min(chars, MESSAGE_CONTEXT_CHARS);
  const tokens = textTokens(sentChars);
  const reserve = answerReserveTokens(contextWindow);
  const room = Math.max(0, contextWindow - reserve);
  return tokens > room ? { chars, sentChars, tokens, window: contextWindow, reserve, room } : null;
}
