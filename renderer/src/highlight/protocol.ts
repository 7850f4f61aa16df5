/**
 * The messages between the window and the code-highlighting worker (docs/ARCHITECTURE.md
 * "Code highlighting off the main thread"). Plain data only: everything here crosses
 * `postMessage` (structured clone). Types only.
 */

/** One coloured piece of a line, as shiki's dual-theme tokens carry it (streamdown's `HighlightToken`). */
export interface WireToken {
  content: string;
  /** Position of the piece in the whole code, in UTF-16 code units. */
  offset: number;
  color?: string;
  bgColor?: string;
  /** CSS properties of the piece: the light colour and `--shiki-dark` for the dark one. */
  htmlStyle?: Record<string, string>;
  htmlAttrs?: Record<string, string>;
}

/** Highlighted code: one array of pieces per line, and the block's colours. */
export interface WireTokens {
  tokens: WireToken[][];
  fg?: string;
  bg?: string;
  rootStyle?: string | false;
}

/** The window asks: highlight `code` as `language` (a name or alias; unknown → plain text) in the two themes. */
export interface HighlightRequest {
  id: number;
  code: string;
  language: string;
  /** Light and dark theme names (shiki's bundled themes). */
  themes: [string, string];
}

/**
 * The worker answers: once `languages` when it starts (every name and alias it knows), then one
 * `tokens` or `failed` per request, by `id` (not necessarily in the order asked: a grammar that
 * still loads holds back only its own requests).
 */
export type HighlightReply =
  | { kind: 'languages'; names: string[] }
  | { kind: 'tokens'; id: number; result: WireTokens }
  | { kind: 'failed'; id: number; message: string };
