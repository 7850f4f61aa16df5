/**
 * Prompts and resources in chat (docs/ARCHITECTURE.md "Prompts and resources in chat"):
 * - budgets: text cut with a notice (per attachment and per message), binary where text was
 *   expected and non-raster images described, images over the byte budget left out, malformed
 *   prompt messages described — nothing pasted whole;
 * - the scheme guard: only a server's own schemes are read from it; https and data images are the
 *   only other openable links; everything else is text (main and the window's copy);
 * - the model context: prompt messages in their roles, resources and typed text in one user
 *   message, images as image parts or a note;
 * - the service against the real server-everything: a prompt with arguments, a template-expanded
 *   resource, completions depending on an earlier argument, and a foreign URI refused before any
 *   request reaches the server;
 * - refusals carry the facts the window words: why a URI is not read, a prompt not listed or its
 *   missing arguments, a resource too large or empty to save.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ContentView, TranscriptItem } from '../../../../preload/contract/index.js';
import { ATTACHMENT_TEXT_CHARS, ContextBudget, fitBlock, fitPromptMessages, fitResourceContents, MESSAGE_CONTEXT_CHARS, notesFrom, partsForViewer, VIEWER_TEXT_CHARS } from '../../../../main/chat/context/budget.js';
import { classifyResourceUri, mayReadFromServer, ownSchemes } from '../../../../preload/contract/rules/index.js';
import { userItemToMessages } from '../../../../main/chat/context/to-model.js';
import { ContextService, MAX_SAVE_BYTES, resourceFileName, templateVariables } from '../../../../main/chat/context/service.js';
import { transcriptToMessages } from '../../../../main/chat/conversations/history.js';
import { conversationToMarkdown } from '../../../../main/chat/conversations/export.js';
import { searchableText } from '../../../../main/chat/conversations/text.js';
import { McpConnection } from '../../../../main/mcp/connection.js';
import { readyServer } from '../../../../main/mcp/host/ready-server.js';
import { HostError } from '../../../../main/mcp/host/errors.js';
import type { ReadyServer } from '../../../../main/mcp/host/ready-server.js';
import { ExportWriteError } from '../../../../main/chat/conversations/service.js';
import { resourceUriOfText } from '../../../../renderer/src/resource-links.js';
import { expandUriTemplate } from '../../../../renderer/src/uri-template.js';
import { randomPng } from '../../../fixtures/png.js';
import { localServer, makeTempDir, removeDir, ROOT } from '../../helpers.js';

const EVERYTHING = path.join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

describe('budgets', () => {
  it('cuts a huge text resource with a marker and a notice, never pasting it whole', () => {
    const b = new ContextBudget();
    const huge = 'x'.repeat(ATTACHMENT_TEXT_CHARS * 3);
    const c = fitResourceContents({ uri: 'demo://a', mimeType: 'text/plain', text: huge }, b, 'a');
    expect(c.type).toBe('text');
    const text = (c as { text: string }).text;
    expect(text.length).toBeLessThan(ATTACHMENT_TEXT_CHARS + 200);
    expect(text).toMatch(/\[… cut: 80000 more characters not included\]$/);
    expect(text.startsWith('[resource: demo://a]\n')).toBe(true);
    // The model and exports read the English notice; the window words the typed note (no label in it, the number a number).
    expect(notesFrom(b, 0)).toEqual({ notice: 'a: 80000 characters of demo://a were cut', notes: [{ kind: 'cut', chars: 80000, uri: 'demo://a' }] });
  });

  it('shares one text budget across the attachments of a message', () => {
    const b = new ContextBudget();
    const n = Math.ceil(MESSAGE_CONTEXT_CHARS / ATTACHMENT_TEXT_CHARS) + 1;
    const out = Array.from({ length: n }, (_, i) => fitResourceContents({ uri: `demo://${i}`, text: 'y'.repeat(ATTACHMENT_TEXT_CHARS) }, b, `r${i}`));
    const total = out.reduce((s, c) => s + (c.type === 'text' ? c.text.replace(/^\[resource: [^\]]+\]\n/, '').replace(/\n\[… cut.*$/, '').length : 0), 0);
    expect(total).toBe(MESSAGE_CONTEXT_CHARS);
    expect((out.at(-1) as { text: string }).text).toMatch(/cut: 40000 more characters/);
  });

  it('describes binary where text was expected, and decodes a text blob', () => {
    const b = new ContextBudget();
    const bin = fitResourceContents({ uri: 'demo://bin', mimeType: 'application/octet-stream', blob: Buffer.from([0, 1, 2, 255, 0, 7]).toString('base64') }, b, 'bin');
    expect(bin).toEqual({ type: 'text', text: '[resource: demo://bin — binary application/octet-stream, 1 KB: not included]' });
    const nul = fitResourceContents({ uri: 'demo://t', mimeType: 'text/plain', blob: Buffer.from('a\0b').toString('base64') }, b, 't');
    expect((nul as { text: string }).text).toMatch(/binary text\/plain/);
    const ok = fitResourceContents({ uri: 'demo://u', mimeType: 'text/plain', blob: Buffer.from('héllo').toString('base64') }, b, 'u');
    expect(ok).toEqual({ type: 'text', text: '[resource: demo://u]\nhéllo' });
    expect(b.notes).toHaveLength(2);
  });

  it('keeps raster images within the byte budgets; describes SVG, oversized and over-total images', () => {
    const b = new ContextBudget(MESSAGE_CONTEXT_CHARS, 700_000, 700_000);
    const small = randomPng(400_000).toString('base64');
    expect(fitBlock({ type: 'image', data: small, mimeType: 'image/png' }, b, 'p').type).toBe('image');
    expect(fitBlock({ type: 'image', data: randomPng(800_000).toString('base64'), mimeType: 'image/png' }, b, 'p')).toMatchObject({ type: 'text', text: expect.stringMatching(/not included \(larger than 700 KB\)/) });
    expect(fitBlock({ type: 'image', data: small, mimeType: 'image/png' }, b, 'p')).toMatchObject({ type: 'text', text: expect.stringMatching(/exceed/) });
    expect(fitBlock({ type: 'image', data: Buffer.from('<svg/>').toString('base64'), mimeType: 'image/svg+xml' }, b, 'p')).toMatchObject({ type: 'text', text: expect.stringMatching(/a type models do not take/) });
  });

  it('describes malformed prompt messages and unknown blocks instead of failing', () => {
    const b = new ContextBudget();
    expect(fitPromptMessages('nope', b, 'p')).toEqual([]);
    const msgs = fitPromptMessages([{ role: 'user', content: null }, { role: 'system', content: { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' } }, { role: 'assistant', content: { type: 'text', text: 'hi' } }], b, 'p');
    expect(msgs).toEqual([
      { role: 'user', content: [{ type: 'text', text: '[p: malformed content left out]' }] },
      { role: 'user', content: [{ type: 'text', text: '[audio content, audio/wav: not included]' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'hi' }] },
    ]);
    expect(b.notes.map((n) => n.note)).toEqual([{ kind: 'no_messages' }, { kind: 'malformed' }, { kind: 'described', content_kind: 'audio' }]);
  });

  it('the viewer shows text cut to its budget, images, and binary as a size', () => {
    const v = partsForViewer([
      { uri: 'a://1', mimeType: 'text/markdown', text: 'z'.repeat(VIEWER_TEXT_CHARS + 10) },
      { uri: 'a://2', mimeType: 'image/png', blob: randomPng(1000).toString('base64') },
      { uri: 'a://3', mimeType: 'application/zip', blob: Buffer.from([0, 1, 2]).toString('base64') },
    ]);
    expect(v.parts.map((p) => p.type)).toEqual(['text', 'image', 'binary']);
    expect((v.parts[0] as { text: string }).text.length).toBeLessThan(VIEWER_TEXT_CHARS + 20);
    expect(v.notice).toMatch(/10 characters of a:\/\/1 are not shown/);
    expect(v.notes).toEqual([{ kind: 'cut', chars: 10, uri: 'a://1' }]);
    expect(v.parts[2]).toEqual({ type: 'binary', uri: 'a://3', mime_type: 'application/zip', bytes: 3 });
  });
});

describe('scheme guard', () => {
  const own = ownSchemes(['demo://resource/static/document/a.md', 'demo://resource/dynamic/text/{resourceId}', 'https://example.com/x', 'javascript:alert(1)']);
  it('takes a server’s own schemes from what it lists, never web or script schemes', () => {
    expect([...own]).toEqual(['demo']);
  });
  it('classifies links', () => {
    expect(classifyResourceUri('demo://resource/dynamic/text/2', own)).toBe('server');
    expect(classifyResourceUri('https://example.com/doc', own)).toBe('https');
    expect(classifyResourceUri('data:image/png;base64,iVBORw0KGgo=', own)).toBe('data_image');
    for (const bad of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'file:///etc/passwd', 'http://example.com/', 'data:text/html;base64,PHNjcmlwdD4=', 'data:image/svg+xml;base64,PHN2Zz4=', 'other://x', 'no scheme', '', 'demo://a\nb', 'vbscript:x'])
      expect(classifyResourceUri(bad, own), bad).toBe('text');
    expect(mayReadFromServer('demo://x', own)).toBe(true);
    expect(mayReadFromServer('https://example.com/', own)).toBe(false);
    expect(mayReadFromServer('file:///etc/passwd', own)).toBe(false);
  });
  it('the window applies the same rule (one definition, preload/contract/rules)', () => {
    const mine = ownSchemes(['demo://a', 'https://b', 'data:x']);
    expect([...mine]).toEqual(['demo']);
    for (const [uri, kind] of [
      ['demo://a/1', 'server'],
      ['https://x.example/', 'https'],
      ['data:image/png;base64,AAAA', 'data_image'],
      ['javascript:alert(1)', 'text'],
      ['file:///etc/passwd', 'text'],
      ['data:text/html,<b>', 'text'],
    ] as const)
      expect(classifyResourceUri(uri, mine), uri).toBe(kind);
    expect(resourceUriOfText('[resource: demo://a/1]')).toBe('demo://a/1');
    expect(resourceUriOfText('[resource link: demo://a/1]')).toBe('demo://a/1');
    expect(resourceUriOfText('see [resource: demo://a/1]')).toBeNull();
  });
});

describe('templates and file names', () => {
  it('finds template variables and expands them (RFC 6570)', () => {
    expect(templateVariables('demo://r/{id}/x{?a,b*}{+path}')).toEqual(['id', 'a', 'b', 'path']);
    expect(expandUriTemplate('demo://resource/dynamic/text/{resourceId}', { resourceId: '2' })).toBe('demo://resource/dynamic/text/2');
    expect(expandUriTemplate('x://{a}/{+p}{?q,r}', { a: 'a b/c', p: 'd/e f', q: '1', r: '' })).toBe('x://a%20b%2Fc/d/e%20f?q=1');
  });
  it('names saved files after the URI’s last segment, nothing that could be a path', () => {
    expect(resourceFileName('demo://resource/static/document/architecture.md')).toBe('architecture.md');
    expect(resourceFileName('x://a/..%2F..%2Fetc%2Fpasswd')).toBe('etc-passwd');
    expect(resourceFileName('x://a/%2E%2E')).toBe('resource');
    expect(resourceFileName('x://')).toBe('resource');
  });
});

describe('model context', () => {
  const png = randomPng(2000).toString('base64');
  const item: Extract<TranscriptItem, { kind: 'user' }> = {
    kind: 'user',
    id: 'u1',
    ts: 1,
    text: 'what now?',
    context: [
      { kind: 'prompt', server: 's', name: 'p', title: 'P', arguments: {}, messages: [{ role: 'user', content: [{ type: 'text', text: 'Do X.' }] }, { role: 'assistant', content: [{ type: 'text', text: 'OK.' }] }], notice: null },
      { kind: 'resource', server: 's', uri: 'demo://r', title: 'r', mime_type: 'image/png', content: [{ type: 'image', data: png, mimeType: 'image/png' }] as ContentView[], notice: 'r: cut' },
    ],
  };
  it('prompt messages keep their roles; resources and the typed text form the last user message', () => {
    const m = userItemToMessages(item, true);
    expect(m.map((x) => x.role)).toEqual(['user', 'assistant', 'user']);
    expect(m[2]!.content).toEqual([
      { type: 'text', text: '[attached resource s: demo://r]' },
      { type: 'image', image: png, mediaType: 'image/png' },
      { type: 'text', text: 'note: r: cut' },
      { type: 'text', text: 'what now?' },
    ]);
  });
  it('the Markdown export shows what a message carried', () => {
    const md = conversationToMarkdown({ summary: { id: 'c', title: 't', created_at: 1, updated_at: 1, message_count: 1, profile_id: null, tool_servers: null }, items: [item] });
    expect(md).toContain('Prompt `s/p`:');
    expect(md).toContain('Do X.');
    expect(md).toContain('Resource `demo://r` from `s`:');
    expect(md).toContain('*[image: image/png');
    expect(md).not.toContain(png);
  });
  it('what a message carried is searchable', () => {
    const text = searchableText(item);
    expect(text).toContain('Do X.');
    expect(text).toContain('what now?');
    expect(text).not.toContain(png);
  });
  it('images become a note for a model without images; transcriptToMessages uses it', () => {
    const m = transcriptToMessages([item], { acceptsImages: false, imagesInToolResults: false });
    expect(JSON.stringify(m)).not.toContain(png);
    expect(JSON.stringify(m)).toContain('this model does not accept images');
    expect(userItemToMessages({ ...item, context: undefined }, true)).toEqual([{ role: 'user', content: 'what now?' }]);
  });
});

describe('a pasted text attached as a file', () => {
  it('needs no server, is fitted to the message share with a notice, reaches the model with its header, and is exported and searchable', async () => {
    const svc = new ContextService({ ready: () => null, names: () => [] }, () => undefined);
    const [e] = await svc.resolve([{ kind: 'text', name: 'pasted text.txt', text: 'p'.repeat(MESSAGE_CONTEXT_CHARS + 5) }]);
    expect(e).toMatchObject({ kind: 'text', title: 'pasted text.txt', notice: 'pasted text.txt: 5 characters were cut' });
    const body = ((e as Extract<typeof e, { kind: 'text' }>)!.content[0] as { text: string }).text;
    expect(body.startsWith('p'.repeat(MESSAGE_CONTEXT_CHARS))).toBe(true);
    expect(body).toContain('[… cut: 5 more characters not included]');
    const item: Extract<TranscriptItem, { kind: 'user' }> = { kind: 'user', id: 'u', ts: 1, text: 'read it', context: [e!] };
    const m = userItemToMessages(item, false);
    expect((m[0]!.content as Array<{ text: string }>).map((x) => x.text.slice(0, 40))).toEqual(['[attached text: pasted text.txt]', 'p'.repeat(40), 'note: pasted text.txt: 5 characters were', 'read it']);
    expect(conversationToMarkdown({ summary: { id: 'c', title: 't', created_at: 1, updated_at: 1, message_count: 1, profile_id: null, tool_servers: null }, items: [item] })).toContain('Attached text `pasted text.txt`:');
    expect(searchableText(item)).toContain('pasted text.txt');
  });
});

describe('ContextService with server-everything', () => {
  let conn: McpConnection | null = null;
  afterEach(async () => {
    await conn?.close();
    conn = null;
  });
  const start = async (): Promise<{ svc: ContextService; updated: string[] }> => {
    conn = new McpConnection('every', localServer([process.execPath, EVERYTHING, 'stdio'], { timeout_seconds: 20 }));
    await conn.start();
    expect(conn.status).toBe('ready');
    const updated: string[] = [];
    const c = conn;
    return { svc: new ContextService({ ready: (n) => (n === 'every' && c.status === 'ready' ? readyServer(c) : null), names: () => ['every'] }, (_s, u) => updated.push(u)), updated };
  };

  it('resolves a prompt, a template-expanded resource and completions from the real server', async () => {
    const { svc } = await start();
    const tpl = await svc.templates();
    expect(tpl.map((t) => t.uri_template)).toContain('demo://resource/dynamic/text/{resourceId}');
    const names = await svc.complete('every', { type: 'ref/prompt', name: 'completable-prompt' }, { name: 'name', value: '' }, { department: 'Sales' });
    expect(names.values).toEqual(['David', 'Eve', 'Frank']);
    // Typing on: a newer request for the same argument cancels the one in flight.
    const first = svc.complete('every', { type: 'ref/prompt', name: 'completable-prompt' }, { name: 'department', value: 'S' });
    const second = svc.complete('every', { type: 'ref/prompt', name: 'completable-prompt' }, { name: 'department', value: 'Su' });
    expect(await first).toEqual({ values: [], has_more: false });
    expect((await second).values).toEqual(['Support']);
    const [p, r] = await svc.resolve([
      { kind: 'prompt', server: 'every', name: 'completable-prompt', arguments: { department: 'Support', name: 'Kim' } },
      { kind: 'resource', server: 'every', uri: 'demo://resource/dynamic/text/4' },
    ]);
    expect(p).toMatchObject({ kind: 'prompt', title: 'Team Management', messages: [{ role: 'user', content: [{ type: 'text', text: 'Please promote Kim to the head of the Support team.' }] }], notice: null });
    expect(r).toMatchObject({ kind: 'resource', uri: 'demo://resource/dynamic/text/4', content: [{ type: 'text', text: expect.stringContaining('Resource 4: This is a plaintext resource') }] });
  }, 30_000);

  it('refuses a URI that is not the server’s own before any request, and a missing required argument', async () => {
    const { svc } = await start();
    // Why, as the fact the window words: a scheme never read through a server, or one the server does not list.
    for (const [uri, why] of [['file:///etc/passwd', 'not_listed'], ['https://example.com/', 'scheme'], ['javascript:alert(1)', 'scheme']] as const) {
      const err = await svc.read('every', uri).catch((e: unknown) => e);
      expect(err, uri).toBeInstanceOf(HostError);
      expect((err as HostError).code, uri).toBe('forbidden');
      expect((err as HostError).fact, uri).toEqual({ kind: 'resource_refused', server: 'every', uri, why });
      const viaSend = await svc.resolve([{ kind: 'resource', server: 'every', uri }]).catch((e: unknown) => e);
      expect((viaSend as HostError).code, uri).toBe('forbidden');
      expect((viaSend as HostError).fact, uri).toMatchObject({ kind: 'resource_refused', why });
    }
    const missing = await svc.resolve([{ kind: 'prompt', server: 'every', name: 'completable-prompt', arguments: { department: 'Sales' } }]).catch((e: unknown) => e);
    expect((missing as HostError).code).toBe('invalid_input');
    expect((missing as HostError).message).toMatch(/needs: name/);
    expect((missing as HostError).fact).toEqual({ kind: 'prompt_arguments', server: 'every', prompt: 'completable-prompt', missing: ['name'] });
    const unknown = await svc.resolve([{ kind: 'prompt', server: 'other', name: 'x', arguments: {} }]).catch((e: unknown) => e);
    expect((unknown as HostError).code).toBe('not_found');
    // A prompt the server does not (or no longer does) list: its name and the server, for the window.
    const gone = await svc.resolve([{ kind: 'prompt', server: 'every', name: 'no-such-prompt', arguments: {} }]).catch((e: unknown) => e);
    expect((gone as HostError).code).toBe('not_found');
    expect((gone as HostError).fact).toEqual({ kind: 'prompt_unknown', server: 'every', prompt: 'no-such-prompt' });
  }, 30_000);

  it('reads a resource for the viewer and follows its updates while subscribed', async () => {
    const { svc } = await start();
    const v = await svc.read('every', 'demo://resource/static/document/architecture.md');
    expect(v.parts[0]).toMatchObject({ type: 'text', mime_type: 'text/markdown' });
    expect(v.can_subscribe).toBe(true);
    expect(await svc.subscribe('every', 'demo://resource/static/document/architecture.md')).toEqual({ subscribed: true });
    expect(await svc.unsubscribe('every', 'demo://resource/static/document/architecture.md')).toEqual({ unsubscribed: true });
    expect(await svc.unsubscribe('every', 'demo://resource/static/document/architecture.md')).toEqual({ unsubscribed: false });
  }, 30_000);
});

describe('saving a resource', () => {
  /** A server that lists `note://` resources and answers every read with `contents`; `chooseSavePath` as Electron's dialog. */
  const serving = (contents: unknown[], chooseSavePath: ((name: string) => Promise<string | null>) | null = null): ContextService => {
    const server = {
      name: 'notes',
      tools: [],
      resources: [{ uri: 'note://a', name: 'a' }],
      prompts: [],
      supportsLogging: false,
      supports: () => true,
      listResourceTemplates: async () => ({ items: [] }),
      readResource: async () => ({ contents }),
    } as unknown as ReadyServer;
    return new ContextService({ ready: (n) => (n === 'notes' ? server : null), names: () => ['notes'] }, () => undefined, chooseSavePath);
  };

  it('refuses a resource over the limit or without content, by facts the window words (its size and the limit in bytes)', async () => {
    const big = Buffer.alloc(MAX_SAVE_BYTES + 1).toString('base64');
    const tooLarge = await serving([{ uri: 'note://a', blob: big }]).save('notes', 'note://a').catch((e: unknown) => e);
    expect(tooLarge).toBeInstanceOf(HostError);
    expect((tooLarge as HostError).code).toBe('invalid_input');
    expect((tooLarge as HostError).fact).toEqual({ kind: 'resource_too_large', size_bytes: MAX_SAVE_BYTES + 1, limit_bytes: MAX_SAVE_BYTES });
    const empty = await serving([]).save('notes', 'note://a').catch((e: unknown) => e);
    expect((empty as HostError).fact).toEqual({ kind: 'resource_empty' });
  });

  it('a file that cannot be written says where and the system’s code (write_failed)', async () => {
    const dir = makeTempDir('op-save-');
    try {
      const target = path.join(dir, 'missing-folder', 'a.txt');
      const err = await serving([{ uri: 'note://a', text: 'hello' }], async () => target)
        .save('notes', 'note://a')
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ExportWriteError);
      expect(err).toMatchObject({ path: target, errno: 'ENOENT' });
    } finally {
      await removeDir(dir);
    }
  });
});
