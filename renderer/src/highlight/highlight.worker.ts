/**
 * The code-highlighting worker's entry (docs/ARCHITECTURE.md "Code highlighting off the main
 * thread"): serves ./engine.ts to the window. Served from the app's own origin with its own,
 * stricter policy (main/csp.ts `WORKER_CSP`: its own modules, no connections, no eval).
 */
import { HighlightEngine } from './engine.js';
import { serveHighlighting, type HighlightScope } from './serve.js';

serveHighlighting(self as unknown as HighlightScope, new HighlightEngine());
