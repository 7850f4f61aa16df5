/**
 * The window's code highlighter, for the markdown views (docs/ARCHITECTURE.md "Code highlighting
 * off the main thread"). main.tsx provides the worker-backed one; without a provider code blocks
 * are shown as plain text.
 */
import { createContext } from 'react';
import type { CodeHighlighterPlugin } from 'streamdown';
import { WorkerHighlighter } from './worker-highlighter.js';

/** Light and dark themes of highlighted code (shiki's bundled themes). */
export const CODE_THEMES: [string, string] = ['github-light', 'github-dark'];

/** The highlighter markdown uses; null: none. */
export const CodeHighlighterContext = createContext<CodeHighlighterPlugin | null>(null);

/** The window's highlighter: shiki in a module worker served from the app's own origin (started with the first code block). */
export function windowHighlighter(): WorkerHighlighter {
  // Written out here so the bundler sees the worker and builds it as its own entry.
  return new WorkerHighlighter(() => new Worker(new URL('./highlight.worker.ts', import.meta.url), { type: 'module', name: 'code-highlighter' }), CODE_THEMES);
}
