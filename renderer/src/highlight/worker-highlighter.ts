/**
 * Streamdown's code highlighter, with the work done in a Web Worker (docs/ARCHITECTURE.md "Code
 * highlighting off the main thread"): compiling a grammar takes a few hundred milliseconds, which
 * on the window's thread froze it while an answer streamed. Here the window only posts the code
 * and draws the tokens that come back; a block shows as plain text until then. Finished blocks'
 * tokens are kept (bounded), so a block drawn again — scrolled back into view, a conversation
 * reopened — is coloured at once.
 *
 * If the worker cannot start (its script fails to load), code stays plain text; nothing else
 * changes.
 */
import type { CodeHighlighterPlugin, HighlightOptions, HighlightResult } from 'streamdown';
import type { HighlightReply, HighlightRequest, WireTokens } from './protocol.js';

/** The worker as the window uses it: a `Worker`, or one end of a `MessageChannel` (tests). */
export interface HighlightWorker {
  postMessage(message: HighlightRequest): void;
  addEventListener(type: 'message', listener: (e: MessageEvent<HighlightReply>) => void): void;
  addEventListener(type: 'error', listener: (e: Event) => void): void;
}

/** Whether the worker was started yet, runs, or could not start. */
type Connection = { kind: 'idle' } | { kind: 'open'; worker: HighlightWorker } | { kind: 'failed' };

/** A request sent and not answered yet: who waits for it, and whether its answer is kept. */
interface Pending {
  key: string;
  keep: boolean;
  callbacks: Array<(result: HighlightResult) => void>;
}

/** Bounds of the kept results: tokens in all (about 100 bytes each), and results. */
export interface CacheBounds {
  tokens: number;
  entries: number;
}

const DEFAULT_BOUNDS: CacheBounds = { tokens: 200_000, entries: 2_000 };

/** Finished blocks' results, least recently used dropped first once a bound is passed. */
class ResultCache {
  private readonly entries = new Map<string, { result: WireTokens; cost: number }>();
  private cost = 0;

  constructor(private readonly bounds: CacheBounds) {}

  get(key: string): WireTokens | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.result;
  }

  set(key: string, result: WireTokens): void {
    this.drop(key);
    const cost = result.tokens.reduce((n, row) => n + row.length + 1, 0);
    this.entries.set(key, { result, cost });
    this.cost += cost;
    while ((this.cost > this.bounds.tokens || this.entries.size > this.bounds.entries) && this.entries.size > 1) this.drop(this.entries.keys().next().value!);
  }

  private drop(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    this.entries.delete(key);
    this.cost -= e.cost;
  }
}

/** A theme as streamdown passes it: a bundled theme's name, or a theme object (by its name). */
function themeName(t: HighlightOptions['themes'][number]): string {
  return typeof t === 'string' ? t : (t.name ?? 'custom');
}

/**
 * The highlighter plugin for `<Streamdown plugins={{ code }}>`. One per window; the worker starts
 * with the first code block.
 */
export class WorkerHighlighter implements CodeHighlighterPlugin {
  readonly name = 'shiki' as const;
  readonly type = 'code-highlighter' as const;
  private connection: Connection = { kind: 'idle' };
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  /** Requests in flight by key, so the same code asked twice is sent once. */
  private readonly inFlight = new Map<string, number>();
  private languages: ReadonlySet<string> = new Set();
  private readonly cache: ResultCache;

  /**
   * @param connect starts the worker (called once, on the first request)
   * @param themes the light and dark theme names streamdown is told to use
   * @param bounds how much of finished blocks' tokens is kept
   */
  constructor(
    private readonly connect: () => HighlightWorker,
    private readonly themes: [string, string],
    bounds: CacheBounds = DEFAULT_BOUNDS,
  ) {
    this.cache = new ResultCache(bounds);
  }

  getThemes(): [string, string] {
    return this.themes;
  }

  /** The language names and aliases the worker said it knows (none before it has started). */
  getSupportedLanguages(): string[] {
    return [...this.languages];
  }

  supportsLanguage(language: string): boolean {
    return this.languages.has(language.trim().toLowerCase());
  }

  /**
   * The tokens at once when this code was highlighted before, else null and `callback` later with
   * the worker's answer (never when highlighting failed: the block stays plain text). Results of
   * code still streaming (`isIncomplete`) are not kept: the next one supersedes them.
   */
  highlight(options: HighlightOptions, callback?: (result: HighlightResult) => void): HighlightResult | null {
    const themes: [string, string] = [themeName(options.themes[0]), themeName(options.themes[1])];
    const key = `${options.language}\n${themes[0]}\n${themes[1]}\n${options.code}`;
    const hit = this.cache.get(key);
    if (hit) return hit;
    const worker = this.worker();
    if (!worker) return null;
    const waiting = this.inFlight.get(key);
    const pending = waiting === undefined ? undefined : this.pending.get(waiting);
    if (pending) {
      pending.keep ||= !options.isIncomplete;
      if (callback) pending.callbacks.push(callback);
      return null;
    }
    const id = this.nextId++;
    this.pending.set(id, { key, keep: !options.isIncomplete, callbacks: callback ? [callback] : [] });
    this.inFlight.set(key, id);
    worker.postMessage({ id, code: options.code, language: options.language, themes });
    return null;
  }

  /** The running worker, started on first use; null when it could not start. */
  private worker(): HighlightWorker | null {
    if (this.connection.kind === 'open') return this.connection.worker;
    if (this.connection.kind === 'failed') return null;
    try {
      const worker = this.connect();
      worker.addEventListener('message', (e) => this.onReply(e.data));
      worker.addEventListener('error', () => this.fail());
      this.connection = { kind: 'open', worker };
      return worker;
    } catch {
      this.fail();
      return null;
    }
  }

  private onReply(reply: HighlightReply): void {
    if (reply.kind === 'languages') {
      this.languages = new Set(reply.names);
      return;
    }
    const p = this.pending.get(reply.id);
    if (!p) return;
    this.pending.delete(reply.id);
    this.inFlight.delete(p.key);
    if (reply.kind === 'failed') return;
    if (p.keep) this.cache.set(p.key, reply.result);
    for (const cb of p.callbacks) cb(reply.result);
  }

  /** The worker failed (to load, or later): code stays plain from now on; waiting blocks too. */
  private fail(): void {
    if (this.connection.kind !== 'failed') console.warn('Code highlighting is off: its worker could not start.');
    this.connection = { kind: 'failed' };
    this.pending.clear();
    this.inFlight.clear();
  }
}
