/**
 * The worker's side of the highlighting conversation (docs/ARCHITECTURE.md "Code highlighting off
 * the main thread"): say which languages are known, then answer each request with the engine, one
 * reply per request. Takes the scope it talks through, so tests run it over a `MessageChannel`.
 */
import type { HighlightEngine } from './engine.js';
import type { HighlightReply, HighlightRequest } from './protocol.js';

/** What the worker talks through: its global scope, or one end of a `MessageChannel`. */
export interface HighlightScope {
  postMessage(message: HighlightReply): void;
  addEventListener(type: 'message', listener: (e: MessageEvent<HighlightRequest>) => void): void;
}

/** Serve `engine` on `scope` until the worker ends. */
export function serveHighlighting(scope: HighlightScope, engine: HighlightEngine): void {
  scope.postMessage({ kind: 'languages', names: engine.languageNames() });
  scope.addEventListener('message', (e) => {
    void engine.answer(e.data).then((reply) => scope.postMessage(reply));
  });
}
