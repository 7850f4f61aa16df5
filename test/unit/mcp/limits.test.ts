/**
 * Size and flood limits (docs/ARCHITECTURE.md "Tool names and result content"): a tool result's
 * total size is capped (all blocks, images included) with a notice; one stdout line is capped at
 * 32 MiB by default; a storm of list_changed notifications causes one re-list per burst; one
 * server cannot hold more than a few pending elicitation or sampling dialogs.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { ChatEvent, ContentView } from '../../../preload/contract/index.js';
import { openConversationDatabase } from '../../../main/chat/conversations/database.js';
import { ConversationStore } from '../../../main/chat/conversations/store.js';
import { RunRecorder } from '../../../main/chat/run-recorder.js';
import { McpConnection } from '../../../main/mcp/connection.js';
import { ConfigStore } from '../../../main/mcp/config.js';
import { McpHost } from '../../../main/mcp/host.js';
import { MAX_PENDING_PER_SERVER, TooManyRequestsError, UserRequestBroker } from '../../../main/mcp/elicitation.js';
import { capCallResult, capContent, MAX_CALL_RESULT_CHARS, UI_CONTENT_CHARS } from '../../../main/mcp/result-limits.js';
import { DEFAULT_MAX_MESSAGE_BYTES } from '../../../main/mcp/stdio.js';
import { MemorySecretStore } from '../../../main/secrets/store.js';
import { localServer, makeTempDir, removeDir, ROOT, sleep, waitFor } from '../helpers.js';

const RAW = path.join(ROOT, 'test', 'fixtures', 'raw-server.mjs');
const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

describe('capCallResult (wire results)', () => {
  it('leaves a result that fits untouched', () => {
    const r: CallToolResult = { content: [{ type: 'text', text: 'abc' }, { type: 'image', data: 'AAAA', mimeType: 'image/png' }] };
    expect(capCallResult(r, 100)).toBe(r);
  });

  it('counts images and every block; cuts text, replaces what does not fit, says so', () => {
    const r: CallToolResult = {
      content: [
        { type: 'text', text: 'a'.repeat(40) },
        { type: 'image', data: 'B'.repeat(50), mimeType: 'image/png' },
        { type: 'text', text: 'c'.repeat(40) },
        { type: 'audio', data: 'D'.repeat(30), mimeType: 'audio/wav' },
      ],
      structuredContent: { big: 'x'.repeat(100) },
    };
    const out = capCallResult(r, 100);
    const content = out.content as Array<{ type: string; text?: string; data?: string }>;
    expect(content[0]).toEqual({ type: 'text', text: 'a'.repeat(40) });
    expect(content[1]).toMatchObject({ type: 'image', data: 'B'.repeat(50) });
    expect(content[2]).toEqual({ type: 'text', text: 'c'.repeat(10) });
    expect(content[3]!.type).toBe('text');
    expect(content[3]!.text).toMatch(/^\[audio block of 30 characters not shown/);
    expect(out.structuredContent).toBeUndefined();
    expect(content.at(-1)!.text).toMatch(/over the size limit of 100 characters: \d+ characters were not shown/);
    const kept = content.slice(0, -1).reduce((n, b) => n + (b.text?.startsWith('[') ? 0 : (b.text ?? b.data ?? '').length), 0);
    expect(kept).toBeLessThanOrEqual(100);
  });

  it('an oversized image alone becomes a placeholder', () => {
    const out = capCallResult({ content: [{ type: 'image', data: 'B'.repeat(1000), mimeType: 'image/png' }] }, 100);
    expect((out.content as Array<{ type: string }>).map((b) => b.type)).toEqual(['text', 'text']);
  });
});

describe('capContent (converted content, for the chat budgets)', () => {
  it('caps text and images together, with a notice', () => {
    const c: ContentView[] = [
      { type: 'image', data: 'I'.repeat(60), mimeType: 'image/png' },
      { type: 'image', data: 'J'.repeat(60), mimeType: 'image/jpeg' },
      { type: 'text', text: 't'.repeat(60) },
    ];
    const out = capContent(c, 100);
    expect(out[0]).toEqual(c[0]);
    expect(out[1]).toMatchObject({ type: 'text', text: expect.stringMatching(/^\[image \(image\/jpeg\) of 60 characters not shown/) });
    expect(out[2]).toEqual({ type: 'text', text: 't'.repeat(40) });
    expect(out[3]).toMatchObject({ type: 'text', text: expect.stringMatching(/80 characters were not shown/) });
    expect(capContent(c, 1000)).toBe(c);
  });
});

describe('the UI gets a capped tool result', () => {
  it('a tool entry with several large images is cut to the UI budget in its events and in the saved view', async () => {
    const dir = makeTempDir('op-uicap-');
    const store = new ConversationStore(openConversationDatabase(dir).db);
    store.ensure('c', 'q');
    const events: ChatEvent[] = [];
    const rec = new RunRecorder(store, 'c', 'r', (e) => events.push(e));
    const img = { type: 'image' as const, data: 'A'.repeat(1024 * 1024 * 1.5), mimeType: 'image/png' };
    rec.toolStart({ call_id: 'k', tool: 's__t', server: 's', original_name: 't', args: {} });
    rec.toolEnd('k', { state: 'ok', content: [img, img, img, img], error: null, duration_ms: 1 });
    const ended = events.at(-1) as Extract<ChatEvent, { type: 'item' }>;
    const shown = (ended.item as { content: Array<{ type: string; data?: string; text?: string }> }).content;
    const size = shown.reduce((n, c) => n + (c.data ?? c.text ?? '').length, 0);
    expect(size).toBeLessThanOrEqual(UI_CONTENT_CHARS + 1000);
    expect(shown.filter((c) => c.type === 'image')).toHaveLength(2);
    expect(shown.at(-1)!.text).toMatch(/over the size limit/);
    // The window's copy in the database is the same cut view; the whole entry is kept beside it.
    const view = JSON.parse(store.viewJson('c')) as Array<{ content?: unknown[] }>;
    expect(view[0]!.content).toEqual(shown);
    expect((store.get('c').items[0] as { content: unknown[] }).content.length).toBeGreaterThan(shown.filter((c) => c.type === 'image').length);
    store.close();
    await removeDir(dir);
  });
});

describe('McpHost.callTool caps every result', () => {
  it('a 20 MB result arrives cut to the limit with a notice', async () => {
    const dir = makeTempDir('op-limits-');
    const secrets = new MemorySecretStore();
    const store = new ConfigStore(dir, secrets);
    await store.load();
    const host = new McpHost(store, { secrets });
    try {
      await host.add('big', { type: 'local', command: [process.execPath, path.join(ROOT, 'test', 'fixtures', 'sdk-server.mjs')] });
      expect(await waitFor(() => host.view('big').state.kind === 'ready', 15_000)).toBe(true);
      const r = await host.callTool('big__huge', { bytes: 20 * 1024 * 1024 });
      const content = r.content as Array<{ text: string }>;
      expect(content[0]!.text.length).toBe(MAX_CALL_RESULT_CHARS);
      expect(content.at(-1)!.text).toMatch(/over the size limit/);
    } finally {
      await host.shutdown();
      await removeDir(dir);
    }
  }, 60_000);
});

describe('stdout lines', () => {
  it('the default line limit is far below 256 MB: a 40 MB line is dropped, the server lives on', async () => {
    expect(DEFAULT_MAX_MESSAGE_BYTES).toBeLessThanOrEqual(32 * 1024 * 1024);
    const c = new McpConnection('big', localServer([process.execPath, RAW, 'big-line'], { timeout_seconds: 3 }));
    open.push(c);
    await c.start();
    expect(c.status).toBe('ready');
    // The raw server writes `id` first; the call fails at once, long before its timeout.
    await expect(c.callTool('big', {}, { timeoutMs: 120_000 })).rejects.toThrow(/reply was 40\.0 MB, over the 32\.0 MB one message may have/);
    expect(c.log.all().some((e) => /Dropped a stdout message of \d+ bytes \(limit 33554432 bytes\)/.test(e.text))).toBe(true);
    const r = await c.callTool('count', {});
    expect((r.content as Array<{ text: string }>)[0]!.text).toMatch(/^\d+$/);
  }, 30_000);
});

describe('list_changed storms', () => {
  it('200 notifications in one burst cause one re-list', async () => {
    const c = new McpConnection('storm', localServer([process.execPath, RAW, 'list-storm']));
    open.push(c);
    await c.start();
    expect(c.status).toBe('ready');
    await sleep(1000);
    const r = await c.callTool('count', {});
    const lists = Number((r.content as Array<{ text: string }>)[0]!.text);
    // The initial listing, plus one for the whole burst.
    expect(lists).toBeGreaterThanOrEqual(2);
    expect(lists).toBeLessThanOrEqual(2);
  }, 30_000);
});

describe('pending dialogs per server', () => {
  it(`a server cannot hold more than ${MAX_PENDING_PER_SERVER} dialogs; others are not affected`, async () => {
    const shown: string[] = [];
    const broker = new UserRequestBroker<{ server: string }, boolean>((e) => shown.push(e.id), () => undefined, false);
    const signal = new AbortController().signal;
    const waiting = Array.from({ length: MAX_PENDING_PER_SERVER }, () => broker.ask({ server: 'noisy' }, signal));
    await expect(broker.ask({ server: 'noisy' }, signal)).rejects.toBeInstanceOf(TooManyRequestsError);
    expect(shown).toHaveLength(MAX_PENDING_PER_SERVER);
    const other = broker.ask({ server: 'calm' }, signal);
    expect(shown).toHaveLength(MAX_PENDING_PER_SERVER + 1);
    // Answering one makes room for one more.
    broker.respond(shown[0]!, true);
    expect(await waiting[0]).toBe(true);
    const next = broker.ask({ server: 'noisy' }, signal);
    expect(shown).toHaveLength(MAX_PENDING_PER_SERVER + 2);
    broker.cancelAll();
    expect(await Promise.all([...waiting.slice(1), other, next])).toEqual([false, false, false, false]);
  });
});
