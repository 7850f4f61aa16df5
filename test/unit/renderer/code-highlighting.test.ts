/**
 * Code highlighting off the window's thread (renderer/src/highlight/, docs/ARCHITECTURE.md "Code
 * highlighting off the main thread"): the window's plugin and the worker's engine, talking over a
 * real MessageChannel with real shiki grammars — the same code the worker runs, minus the worker.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { HighlightEngine } from '../../../renderer/src/highlight/engine.js';
import { serveHighlighting, type HighlightScope } from '../../../renderer/src/highlight/serve.js';
import { WorkerHighlighter, type HighlightWorker } from '../../../renderer/src/highlight/worker-highlighter.js';
import type { HighlightRequest, WireTokens } from '../../../renderer/src/highlight/protocol.js';

const THEMES: [string, string] = ['github-light', 'github-dark'];
const TS = 'const greeting: string = `hi ${name}`; /* a comment\n   over two lines */\nfunction twice(n: number) {\n  return n * 2; // double\n}\n';

const channels: MessageChannel[] = [];
afterEach(() => {
  for (const c of channels.splice(0)) {
    c.port1.close();
    c.port2.close();
  }
});

/** A plugin served by an engine over a MessageChannel; `sent` records what the window posted. */
function connected(engine = new HighlightEngine()): { plugin: WorkerHighlighter; sent: HighlightRequest[] } {
  const channel = new MessageChannel();
  channels.push(channel);
  channel.port2.start();
  serveHighlighting(channel.port2 as unknown as HighlightScope, engine);
  const sent: HighlightRequest[] = [];
  const port = channel.port1;
  const worker: HighlightWorker = {
    postMessage: (m) => {
      sent.push(m);
      port.postMessage(m);
    },
    addEventListener: (type: 'message' | 'error', listener: (e: never) => void) => {
      port.addEventListener(type, listener as unknown as EventListener);
      port.start();
    },
  };
  return { plugin: new WorkerHighlighter(() => worker, THEMES), sent };
}

/** Highlight through the plugin: the result at once when it is kept, else the worker's answer. */
function highlight(plugin: WorkerHighlighter, code: string, language = 'ts', isIncomplete = false): Promise<WireTokens> {
  return new Promise((resolve) => {
    const now = plugin.highlight({ code, language, themes: THEMES, isIncomplete }, (r) => resolve(r as WireTokens));
    if (now) resolve(now as WireTokens);
  });
}

const text = (r: WireTokens): string => r.tokens.map((row) => row.map((t) => t.content).join('')).join('\n');

describe('code highlighting in a worker', () => {
  it('colours TypeScript in both themes; the pieces put together are the code, at their offsets', async () => {
    const { plugin } = connected();
    const r = await highlight(plugin, TS);
    expect(text(r)).toBe(TS);
    const pieces = r.tokens.flat();
    for (const p of pieces) expect(TS.slice(p.offset, p.offset + p.content.length)).toBe(p.content);
    const keyword = pieces.find((p) => p.content === 'const')!;
    // Light colour and the dark one as a CSS variable, different for a keyword.
    expect(keyword.htmlStyle?.color).toMatch(/^#[0-9A-Fa-f]{6}/);
    expect(keyword.htmlStyle?.['--shiki-dark']).toMatch(/^#[0-9A-Fa-f]{6}/);
    expect(new Set(pieces.map((p) => p.htmlStyle?.color)).size).toBeGreaterThan(3);
    expect(r.bg).toBeTruthy();
  });

  it('says which languages it knows once started; aliases and case are understood, unknown ones come back plain', async () => {
    const { plugin } = connected();
    expect(plugin.supportsLanguage('python')).toBe(false); // not started yet
    const ts = await highlight(plugin, 'let x = 1', ' TS ');
    expect(plugin.supportsLanguage('python')).toBe(true);
    expect(plugin.supportsLanguage('py')).toBe(true);
    expect(plugin.supportsLanguage('no-such-language')).toBe(false);
    expect(ts.tokens[0]!.length).toBeGreaterThan(1);
    const plain = await highlight(plugin, 'let x = 1', 'no-such-language');
    expect(plain.tokens).toEqual([[expect.objectContaining({ content: 'let x = 1', offset: 0 })]]);
  });

  it('code that streams in, asked for again and again, gives exactly the tokens of the whole code asked at once', async () => {
    const streamed = connected().plugin;
    let last: WireTokens | null = null;
    // Every few characters, as an answer streams (mid-line, mid-comment, mid-template string).
    for (let end = 3; end <= TS.length; end += 7) last = await highlight(streamed, TS.slice(0, end), 'ts', true);
    last = await highlight(streamed, TS, 'ts', false);
    const once = await highlight(connected().plugin, TS);
    expect(last).toEqual(once);
  });

  it('keeps finished blocks (drawn again at once), not streaming ones, and sends the same code once while it is in flight', async () => {
    const { plugin, sent } = connected();
    const a = highlight(plugin, 'const a = 1', 'ts');
    const b = highlight(plugin, 'const a = 1', 'ts');
    expect(await a).toEqual(await b);
    expect(sent).toHaveLength(1);
    expect(plugin.highlight({ code: 'const a = 1', language: 'ts', themes: THEMES }, () => undefined)).not.toBeNull();
    await highlight(plugin, 'const b = 2', 'ts', true);
    expect(plugin.highlight({ code: 'const b = 2', language: 'ts', themes: THEMES, isIncomplete: true }, () => undefined)).toBeNull();
    expect(sent).toHaveLength(3);
  });

  it('an unknown theme is refused by the worker: no callback, the block stays plain, later blocks still work', async () => {
    const { plugin } = connected();
    let called = false;
    expect(plugin.highlight({ code: 'x', language: 'ts', themes: ['no-such-theme', 'github-dark'] }, () => (called = true))).toBeNull();
    const r = await highlight(plugin, 'const ok = true');
    expect(called).toBe(false);
    expect(text(r)).toBe('const ok = true');
  });

  it('a worker that cannot start leaves code plain, and is not started again', () => {
    let starts = 0;
    const plugin = new WorkerHighlighter(() => {
      starts++;
      throw new Error('blocked');
    }, THEMES);
    const warn = console.warn;
    console.warn = () => undefined;
    try {
      expect(plugin.highlight({ code: 'x', language: 'ts', themes: THEMES }, () => undefined)).toBeNull();
      expect(plugin.highlight({ code: 'y', language: 'ts', themes: THEMES }, () => undefined)).toBeNull();
    } finally {
      console.warn = warn;
    }
    expect(starts).toBe(1);
  });
});
