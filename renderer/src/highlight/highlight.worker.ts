/**
 * The code-highlighting worker's entry (docs/ARCHITECTURE.md "Code highlighting off the main
 * thread"): answers the window's requests with ./engine.ts, one reply per request, and first says
 * which languages it knows. Served from the app's own origin with its own, stricter policy
 * (main/csp.ts `WORKER_CSP`: its own modules, no connections).
 */
import { HighlightEngine } from './engine';
import type { HighlightReply, HighlightRequest } from './protocol';

/** The part of the worker's global scope used here (the DOM typings in use do not describe it). */
interface WorkerScope {
  postMessage(message: HighlightReply): void;
  addEventListener(type: 'message', listener: (e: MessageEvent<HighlightRequest>) => void): void;
}

const scope = self as unknown as WorkerScope;
const engine = new HighlightEngine();
scope.postMessage({ kind: 'languages', names: engine.languageNames() });
scope.addEventListener('message', (e) => {
  void engine.answer(e.data).then((reply) => scope.postMessage(reply));
});
