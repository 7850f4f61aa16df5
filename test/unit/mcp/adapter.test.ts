/**
 * mcp/adapter: tool naming (sanitizing, 64-char limit, collisions) and result conversion for every
 * MCP content type (docs/ARCHITECTURE.md "Tool names and result content").
 */
import { describe, expect, it } from 'vitest';
import {
  buildToolTable,
  contentToText,
  convertCallResult,
  MAX_TOOL_NAME,
  namespaceToolName,
  normalizeInputSchema,
  sanitizeNamePart,
  shortHash,
  type ServerTool,
} from '../../../main/mcp/adapter.js';

const VALID = /^[A-Za-z0-9_-]{1,64}$/;

describe('namespaceToolName', () => {
  it('joins server and tool with a double underscore', () => {
    expect(namespaceToolName('files', 'read_file')).toBe('files__read_file');
    expect(namespaceToolName('a-b', 'c-d')).toBe('a-b__c-d');
  });

  it('replaces dots and spaces with underscores', () => {
    expect(namespaceToolName('my.server', 'read file')).toBe('my_server__read_file');
    expect(namespaceToolName('srv', 'ns.sub.tool')).toBe('srv__ns_sub_tool');
    expect(namespaceToolName('srv', ' lead and trail ')).toBe('srv___lead_and_trail_');
  });

  it('replaces each unicode code point (accents, CJK, emoji) with one underscore', () => {
    expect(namespaceToolName('café', 'naïve')).toBe('caf___na_ve');
    expect(namespaceToolName('服务器', '读取')).toBe('_______');
    // An emoji outside the BMP is one code point (two UTF-16 units) → one underscore.
    expect(namespaceToolName('srv', 'go🚀now')).toBe('srv__go_now');
    expect(namespaceToolName('srv', '🚀')).toBe('srv___');
    for (const n of [namespaceToolName('服务器', '读取文件'), namespaceToolName('😀😀', '👍'), namespaceToolName('e\u0301', 'x\u200dy')]) {
      expect(n).toMatch(VALID);
    }
  });

  it('never produces an empty part', () => {
    expect(sanitizeNamePart('')).toBe('_');
    expect(namespaceToolName('', '')).toBe('____');
  });

  it('keeps names of exactly 64 characters unchanged', () => {
    const tool = 't'.repeat(64 - 'srv__'.length);
    expect(namespaceToolName('srv', tool)).toBe(`srv__${tool}`);
    expect(namespaceToolName('srv', tool)).toHaveLength(64);
  });

  it('shortens a long server name and keeps the whole tool name', () => {
    const server = 's'.repeat(100);
    const n = namespaceToolName(server, 'read_file');
    expect(n).toHaveLength(MAX_TOOL_NAME);
    expect(n).toMatch(VALID);
    expect(n.endsWith('__read_file')).toBe(true);
    expect(n.startsWith('ssssssss')).toBe(true);
  });

  it('shortens a long tool name from the front so that its suffix survives', () => {
    const tool = `${'prefix_'.repeat(12)}distinctive_suffix`;
    const n = namespaceToolName('github', tool);
    expect(n.length).toBeLessThanOrEqual(MAX_TOOL_NAME);
    expect(n).toMatch(VALID);
    expect(n.startsWith('github__')).toBe(true);
    expect(n.endsWith('distinctive_suffix')).toBe(true);
    expect(n).toBe(`github__${tool.slice(-(64 - 'github__'.length))}`);
  });

  it('with both parts long, keeps at least 8 characters of the server and the tool suffix', () => {
    const server = 'S'.repeat(80);
    const tool = `${'x'.repeat(80)}_the_end`;
    const n = namespaceToolName(server, tool);
    expect(n).toHaveLength(MAX_TOOL_NAME);
    expect(n).toMatch(VALID);
    expect(n.startsWith('SSSSSSSS__')).toBe(true);
    expect(n.endsWith('_the_end')).toBe(true);
  });

  it('stays within 64 valid characters for long unicode names', () => {
    const n = namespaceToolName('服'.repeat(70), `${'🚀'.repeat(70)}_tail`);
    expect(n.length).toBeLessThanOrEqual(MAX_TOOL_NAME);
    expect(n).toMatch(VALID);
    expect(n.endsWith('_tail')).toBe(true);
  });

  it('never exceeds 64 characters for any lengths', () => {
    for (let s = 0; s <= 130; s += 7) {
      for (let t = 0; t <= 130; t += 9) {
        const n = namespaceToolName('a'.repeat(s), 'b'.repeat(t));
        expect(n.length).toBeLessThanOrEqual(MAX_TOOL_NAME);
        expect(n).toMatch(VALID);
      }
    }
  });
});

describe('buildToolTable', () => {
  const tool = (server: string, name: string): ServerTool => ({ server, name, description: `${server}/${name}`, inputSchema: { type: 'object' } });

  it('names every tool and keeps the map back to its real name', () => {
    const t = buildToolTable([tool('fs', 'read.file'), tool('fs', 'write file')]);
    expect(t.tools.map((x) => x.name)).toEqual(['fs__read_file', 'fs__write_file']);
    expect(t.byName.get('fs__read_file')).toMatchObject({ server: 'fs', original_name: 'read.file', description: 'fs/read.file' });
    expect(t.renames.size).toBe(0);
  });

  it('gives the second of two tools that sanitize alike a stable hash suffix and a warning; drops nothing', () => {
    const input = [tool('srv', 'read.file'), tool('srv', 'read file'), tool('srv', 'read_file')];
    const t = buildToolTable(input);
    expect(t.tools).toHaveLength(3);
    const names = t.tools.map((x) => x.name);
    expect(new Set(names).size).toBe(3);
    expect(names[0]).toBe('srv__read_file');
    expect(names[1]).toBe(`srv__read_file_${shortHash('srv', 'read file')}`);
    expect(names[2]).toBe(`srv__read_file_${shortHash('srv', 'read_file')}`);
    for (const n of names) expect(n).toMatch(VALID);
    // The map back to the real name is kept for every one of them.
    expect(t.tools.map((x) => t.byName.get(x.name)?.original_name)).toEqual(['read.file', 'read file', 'read_file']);
    // Each renamed tool is an issue of its server, by kind, for the window to word.
    expect(t.renames.get('srv')).toEqual([
      { kind: 'tool_renamed', tool: 'read file', like: 'read.file', like_server: 'srv', offered_as: names[1] },
      { kind: 'tool_renamed', tool: 'read_file', like: 'read.file', like_server: 'srv', offered_as: names[2] },
    ]);
    // Stable: the same input gives the same names (the hash depends only on the real names).
    expect(buildToolTable(input).tools.map((x) => x.name)).toEqual(names);
    expect(shortHash('srv', 'read file')).toMatch(/^[0-9a-f]{6}$/);
  });

  it('handles collisions across servers whose names sanitize alike', () => {
    const t = buildToolTable([tool('my.srv', 'echo'), tool('my_srv', 'echo')]);
    expect(t.tools.map((x) => x.name)).toEqual(['my_srv__echo', `my_srv__echo_${shortHash('my_srv', 'echo')}`]);
    expect(t.renames.get('my.srv')).toBeUndefined();
    expect(t.renames.get('my_srv')?.[0]).toMatchObject({ like_server: 'my.srv' });
    expect(t.byName.get(t.tools[1]!.name)).toMatchObject({ server: 'my_srv', original_name: 'echo' });
  });

  it('keeps suffixed names within 64 characters when the colliding names are cut', () => {
    const long = 'x'.repeat(100);
    const t = buildToolTable([tool('srv', `a${long}`), tool('srv', `b${long}`)]);
    expect(t.tools).toHaveLength(2);
    const [a, b] = t.tools.map((x) => x.name);
    expect(a).not.toBe(b);
    expect(b!.length).toBeLessThanOrEqual(64);
    expect(b).toMatch(VALID);
    expect(b!.endsWith(`_${shortHash('srv', `b${long}`)}`)).toBe(true);
    expect(t.byName.get(b!)?.original_name).toBe(`b${long}`);
  });

  it('keeps every duplicate (a server listing the same name twice) unique and valid', () => {
    const t = buildToolTable(Array.from({ length: 12 }, () => tool('s'.repeat(30), 'y'.repeat(40))));
    const names = t.tools.map((x) => x.name);
    expect(new Set(names).size).toBe(12);
    for (const n of names) expect(n).toMatch(VALID);
  });

  it('normalizes input schemas to object schemas', () => {
    expect(normalizeInputSchema(undefined)).toEqual({ type: 'object', properties: {} });
    expect(normalizeInputSchema({ properties: { a: { type: 'string' } } })).toEqual({ type: 'object', properties: { a: { type: 'string' } } });
    expect(normalizeInputSchema([1, 2])).toEqual({ type: 'object', properties: {} });
  });

  it('shares a schema that already is an object schema, and copies (never mutates) one that is not', () => {
    const ready = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
    expect(normalizeInputSchema(ready)).toBe(ready);
    const partial = { properties: { a: { type: 'string' } } };
    const fixed = normalizeInputSchema(partial);
    expect(fixed).not.toBe(partial);
    expect(partial).toEqual({ properties: { a: { type: 'string' } } });
    const noProps = { type: 'object' };
    expect(normalizeInputSchema(noProps)).toEqual({ type: 'object', properties: {} });
    expect(noProps).toEqual({ type: 'object' });
  });
});

describe('buildToolTable reuse (docs/ARCHITECTURE.md "Memory per server")', () => {
  it('keeps a tool\'s registered object while its name stays, and makes a new one when a collision renames it', () => {
    const reuse = new WeakMap<ServerTool, ReturnType<typeof buildToolTable>['tools'][number]>();
    const a: ServerTool = { server: 'files', name: 'read', inputSchema: { type: 'object', properties: {} } };
    const first = buildToolTable([a], reuse).tools[0]!;
    expect(first.input_schema).toBe(a.inputSchema);
    expect(first.annotations).toEqual({});
    expect(buildToolTable([a], reuse).tools[0]).toBe(first);
    // Another server's tool that sanitizes to the same name comes first: ours is renamed, so a new entry.
    const clash: ServerTool = { server: 'files', name: 'read', inputSchema: {} };
    const table = buildToolTable([clash, a], reuse);
    const renamed = table.tools[1]!;
    expect(renamed).not.toBe(first);
    expect(renamed.name).not.toBe(first.name);
    expect(table.renames.get('files')).toHaveLength(1);
    // The shared empty annotations cannot be changed by accident.
    expect(Object.isFrozen(first.annotations)).toBe(true);
  });
});

describe('convertCallResult', () => {
  it('text → text', () => {
    expect(convertCallResult({ content: [{ type: 'text', text: 'hello' }] })).toEqual({ content: [{ type: 'text', text: 'hello' }], isError: false });
  });

  it('image → image (data and mime type kept)', () => {
    const r = convertCallResult({ content: [{ type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }] });
    expect(r.content).toEqual([{ type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }]);
    expect(contentToText(r.content)).toBe('[image: image/png]');
  });

  it('image without data → a short text, not an image', () => {
    expect(convertCallResult({ content: [{ type: 'image', mimeType: 'image/png' }] }).content).toEqual([{ type: 'text', text: '[image without data]' }]);
  });

  it('audio → a short text naming its type, never the raw data', () => {
    const data = 'QUFBQUFBQUFBQUFB'.repeat(1000);
    const r = convertCallResult({ content: [{ type: 'audio', data, mimeType: 'audio/wav' }] });
    expect(r.content).toEqual([{ type: 'text', text: '[audio: audio/wav]' }]);
    expect(JSON.stringify(r)).not.toContain('QUFB');
  });

  it('embedded resource → [resource: <uri>], never its text or blob', () => {
    const blob = Buffer.from('SECRET-BYTES'.repeat(100)).toString('base64');
    const r = convertCallResult({
      content: [
        { type: 'resource', resource: { uri: 'file:///tmp/report.pdf', mimeType: 'application/pdf', blob } },
        { type: 'resource', resource: { uri: 'mem://notes/1', mimeType: 'text/plain', text: 'EMBEDDED-TEXT-BODY' } },
      ],
    });
    expect(r.content).toEqual([
      { type: 'text', text: '[resource: file:///tmp/report.pdf]' },
      { type: 'text', text: '[resource: mem://notes/1]' },
    ]);
    const all = JSON.stringify(r);
    expect(all).not.toContain(blob.slice(0, 16));
    expect(all).not.toContain('EMBEDDED-TEXT-BODY');
  });

  it('embedded resource without a uri → [resource: unknown]', () => {
    expect(convertCallResult({ content: [{ type: 'resource', resource: { blob: 'AAAA' } }, { type: 'resource' }] }).content).toEqual([
      { type: 'text', text: '[resource: unknown]' },
      { type: 'text', text: '[resource: unknown]' },
    ]);
  });

  it('resource_link → [resource: <uri>]', () => {
    expect(convertCallResult({ content: [{ type: 'resource_link', uri: 'https://example.com/a.txt', name: 'a.txt' }] }).content).toEqual([
      { type: 'text', text: '[resource: https://example.com/a.txt]' },
    ]);
  });

  it('unknown type → a short description naming the type and fields, not their values', () => {
    const r = convertCallResult({ content: [{ type: 'hologram', payload: 'P'.repeat(100_000), angle: 3 }] });
    expect(r.content).toHaveLength(1);
    const text = (r.content[0] as { text: string }).text;
    expect(text).toContain('hologram');
    expect(text).toContain('payload');
    expect(text).not.toContain('PPPP');
    expect(text.length).toBeLessThan(200);
  });

  it('unknown type stays short even with a huge type string and huge or many field names', () => {
    const fields: Record<string, unknown> = { type: 'T'.repeat(10_000) };
    for (let i = 0; i < 50; i++) fields[`${'k'.repeat(5_000)}${i}`] = i;
    const r = convertCallResult({ content: [fields] });
    const text = (r.content[0] as { text: string }).text;
    expect(text.length).toBeLessThan(500);
  });

  it('malformed blocks never throw and become short texts', () => {
    const r = convertCallResult({ content: [null, 42, 'str', [], { type: 'text' }, { type: 'text', text: 7 }, {}, { type: 5 }] });
    expect(r.isError).toBe(false);
    expect(r.content).toHaveLength(8);
    expect(r.content.slice(0, 3)).toEqual([
      { type: 'text', text: '[malformed content block]' },
      { type: 'text', text: '[malformed content block]' },
      { type: 'text', text: '[malformed content block]' },
    ]);
    expect(r.content[4]).toEqual({ type: 'text', text: '' });
    expect(r.content[5]).toEqual({ type: 'text', text: '' });
    for (const c of r.content) expect(c.type).toBe('text');
  });

  it('malformed results never throw', () => {
    for (const bad of [undefined, null, 42, 'text', [], { content: 'nope' }, { content: { type: 'text' } }]) {
      expect(convertCallResult(bad)).toEqual({ content: [], isError: false });
    }
  });

  it('structuredContent only → its JSON as text', () => {
    const r = convertCallResult({ structuredContent: { temperature: 21.5, unit: 'C' } });
    expect(r).toEqual({ content: [{ type: 'text', text: '{"temperature":21.5,"unit":"C"}' }], isError: false });
  });

  it('structuredContent next to content → the content is used', () => {
    const r = convertCallResult({ content: [{ type: 'text', text: '21.5 C' }], structuredContent: { temperature: 21.5 } });
    expect(r.content).toEqual([{ type: 'text', text: '21.5 C' }]);
  });

  it('isError true → marked as an error with its content kept', () => {
    expect(convertCallResult({ content: [{ type: 'text', text: 'disk full' }], isError: true })).toEqual({ content: [{ type: 'text', text: 'disk full' }], isError: true });
    expect(convertCallResult({ isError: 'yes' }).isError).toBe(false);
  });

  it('keeps block order across mixed types', () => {
    const r = convertCallResult({
      content: [
        { type: 'text', text: 'a' },
        { type: 'image', data: 'AA==', mimeType: 'image/gif' },
        { type: 'resource_link', uri: 'x://y' },
      ],
    });
    expect(contentToText(r.content)).toBe('a\n[image: image/gif]\n[resource: x://y]');
  });
});

describe('exceedsDepth', () => {
  it('finds nesting deeper than the limit, iteratively (safe on values too deep to recurse)', async () => {
    const { exceedsDepth, MAX_SCHEMA_DEPTH } = await import('../../../main/mcp/adapter.js');
    let deep: unknown = { type: 'string' };
    for (let i = 0; i < 100_000; i++) deep = { type: 'array', items: deep };
    const shallow = { type: 'object', properties: { a: { type: 'array', items: { type: 'string' } } } };
    expect(exceedsDepth(deep, MAX_SCHEMA_DEPTH)).toBe(true);
    expect(exceedsDepth(shallow, MAX_SCHEMA_DEPTH)).toBe(false);
    expect(exceedsDepth(shallow, 3)).toBe(true);
    expect(exceedsDepth(shallow, 5)).toBe(false);
  });
});
