/**
 * Fitting what the model is sent (main/chat/model-context.ts, pure): tool images go as image
 * parts only to models that accept them and within a byte budget (else a text note, never base64
 * text); long conversations are fitted to the context window, oldest tool results first, with a
 * notice.
 */
import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { base64Bytes, estimateTokens, fitImagesForModel, fitToContextWindow, SHORTENED_RESULT_CHARS } from '../../../main/chat/model-context.js';
import type { ContentView } from '../../../preload/contract/index.js';
import { contentForModel, MODEL_CONTENT_CHARS } from '../../../main/chat/limits.js';

const png = (bytes: number): ContentView => ({ type: 'image', mimeType: 'image/png', data: Buffer.alloc(bytes, 7).toString('base64') });

describe('fitImagesForModel', () => {
  const content: ContentView[] = [{ type: 'text', text: 'Here it is:' }, png(3000)];

  it('a model that accepts images gets an image part (Anthropic-style tool results)', () => {
    const r = fitImagesForModel(content, { acceptsImages: true, imagesInToolResults: true });
    expect(r.output).toEqual({ type: 'content', value: [{ type: 'text', text: 'Here it is:' }, { type: 'image-data', data: (content[1] as { data: string }).data, mediaType: 'image/png' }] });
    expect([r.imagesSent, r.imagesOmitted, r.followUpImages]).toEqual([1, 0, []]);
  });

  it('where tool results are text only, the image comes back for a follow-up message, never as base64 text', () => {
    const r = fitImagesForModel(content, { acceptsImages: true, imagesInToolResults: false });
    expect(r.output.type).toBe('text');
    expect(JSON.stringify(r.output)).not.toContain((content[1] as { data: string }).data.slice(0, 40));
    expect(r.followUpImages).toEqual([{ data: (content[1] as { data: string }).data, mediaType: 'image/png' }]);
    expect((r.output as { value: string }).value).toMatch(/attached as image 1/);
  });

  it('a model without image input gets a short note instead', () => {
    const r = fitImagesForModel(content, { acceptsImages: false, imagesInToolResults: true });
    expect(r.output).toEqual({ type: 'text', value: 'Here it is:\n[image/png, 3 KB: not shown to the model (this model does not accept images)]' });
    expect(r.imagesOmitted).toBe(1);
  });

  it('images over the per-image or total budget are omitted with a note', () => {
    const big = fitImagesForModel([png(50_000)], { acceptsImages: true, imagesInToolResults: true, maxImageBytes: 10_000 });
    expect(big.output).toEqual({ type: 'text', value: '[image/png, 50 KB: not shown to the model (larger than 10 KB)]' });
    const many = fitImagesForModel([png(6000), png(6000), png(6000)], { acceptsImages: true, imagesInToolResults: true, maxImageBytes: 10_000, maxTotalImageBytes: 13_000 });
    expect([many.imagesSent, many.imagesOmitted]).toEqual([2, 1]);
    expect(JSON.stringify(many.output)).toMatch(/exceed 13 KB/);
  });

  it('counts decoded bytes', () => {
    expect(base64Bytes(Buffer.alloc(10).toString('base64'))).toBe(10);
    expect(base64Bytes(Buffer.alloc(11).toString('base64'))).toBe(11);
    expect(base64Bytes(Buffer.alloc(12).toString('base64'))).toBe(12);
  });
});

function toolExchange(i: number, resultChars: number): ModelMessage[] {
  return [
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId: `c${i}`, toolName: 'fs__read', input: { path: `/f${i}` } }] },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: `c${i}`, toolName: 'fs__read', output: { type: 'text', value: `${i}:`.padEnd(resultChars, 'x') } }] },
  ];
}

describe('fitToContextWindow', () => {
  const history: ModelMessage[] = [
    { role: 'system', content: 'You are helpful.' },
    { role: 'user', content: 'read three files' },
    ...toolExchange(1, 40_000),
    ...toolExchange(2, 40_000),
    { role: 'assistant', content: 'Done with the first two.' },
    { role: 'user', content: 'and the third?' },
    ...toolExchange(3, 40_000),
  ];

  it('leaves a request that fits alone', () => {
    const r = fitToContextWindow(history, 1_000_000);
    expect(r.notice).toBeNull();
    expect(r.messages).toEqual(history);
  });

  it('shortens the oldest tool results first, keeps the current turn, and says so', () => {
    const budget = estimateTokens(history) - 15_000; // room is made by shortening two old results
    const r = fitToContextWindow(history, budget);
    expect(estimateTokens(r.messages)).toBeLessThanOrEqual(budget);
    const outputs = r.messages.filter((m) => m.role === 'tool').map((m) => ((m.content[0] as { output: { value: string } }).output.value));
    expect(outputs[0]!.length).toBeLessThan(SHORTENED_RESULT_CHARS + 200);
    expect(outputs[0]).toMatch(/shortened to fit the context window/);
    expect(outputs[2]!.length).toBe(40_000); // the current turn's result is untouched
    expect(r.notice).toMatchObject({ shortenedToolResults: 2, removedToolResults: 0, removedMessages: 0, stillTooLong: false });
    expect(r.notice!.message).toMatch(/2 older tool results were shortened/);
    expect(history[3]).toEqual(toolExchange(1, 40_000)[1]); // input untouched
  });

  it('then leaves results out, then drops the oldest messages (never system or the last user turn)', () => {
    const tight = fitToContextWindow(history, 1_200);
    expect(tight.messages[0]).toEqual({ role: 'system', content: 'You are helpful.' });
    expect(tight.messages.some((m) => m.role === 'user' && m.content === 'and the third?')).toBe(true);
    expect(tight.notice!.removedToolResults).toBeGreaterThan(0);
    // No tool result is left without its call.
    const calls = new Set(tight.messages.flatMap((m) => (m.role === 'assistant' && Array.isArray(m.content) ? m.content.filter((p) => p.type === 'tool-call').map((p) => (p as { toolCallId: string }).toolCallId) : [])));
    for (const m of tight.messages) if (m.role === 'tool') for (const p of m.content) expect(calls.has((p as { toolCallId: string }).toolCallId)).toBe(true);
  });

  it('says plainly when even the newest turn does not fit', () => {
    const r = fitToContextWindow([{ role: 'user', content: 'x'.repeat(100_000) }], 1000);
    expect(r.notice).toMatchObject({ stillTooLong: true });
    expect(r.notice!.message).toMatch(/Start a new chat/);
  });
});

describe('fitting a step within a run', () => {
  it('a result of the current turn is shortened when it alone does not fit, and the notice does not call it older', () => {
    const step: ModelMessage[] = [{ role: 'user', content: 'read it' }, ...toolExchange(9, 60_000)];
    const r = fitToContextWindow(step, 2_000);
    expect(estimateTokens(r.messages)).toBeLessThanOrEqual(2_000);
    expect(r.notice).toMatchObject({ shortenedToolResults: 1, removedToolResults: 0, stillTooLong: false });
    expect(r.notice!.message).toBe("To fit the model's context window, 1 tool result was shortened.");
  });
});

describe('contentForModel', () => {
  it('cuts text in total but passes images on to fitImagesForModel, which holds the image budgets', () => {
    const big = png(1_500_000); // 2,000,000 base64 characters: more than the text cap
    const small = png(300_000);
    const out = contentForModel([{ type: 'text', text: 'y'.repeat(MODEL_CONTENT_CHARS + 10) }, small, big]);
    expect(out[1]).toBe(small);
    expect(out[2]).toBe(big);
    expect((out[0] as { text: string }).text.length).toBeLessThanOrEqual(MODEL_CONTENT_CHARS);
    const fitted = fitImagesForModel(out, { acceptsImages: true, imagesInToolResults: true });
    expect([fitted.imagesSent, fitted.imagesOmitted]).toEqual([1, 1]);
    expect(JSON.stringify(fitted.output)).toContain('1.5 MB: not shown to the model (larger than 1.0 MB)');
  });
});
