/**
 * Malformed tool input schemas (main/mcp/tool-check.ts) and guarded pagination, against real
 * servers: the raw stdio fixture lists good tools among bad ones / repeats or empties its page
 * cursor; the host shows the issues in the server view and offers the model only object schemas.
 */
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigStore } from '../../../main/mcp/config.js';
import { McpConnection } from '../../../main/mcp/connection.js';
import { McpHost } from '../../../main/mcp/host.js';
import { checkTools } from '../../../main/mcp/tool-check.js';
import { localServer, makeTempDir, removeDir, ROOT, waitFor } from '../helpers.js';

const RAW = path.join(ROOT, 'test', 'fixtures', 'raw-server.mjs');
const open: McpConnection[] = [];
let dir: string;
let host: McpHost | null = null;

beforeEach(() => {
  dir = makeTempDir('op-toolcheck-');
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
  await host?.shutdown();
  host = null;
  await removeDir(dir);
});

function raw(mode: string): McpConnection {
  const c = new McpConnection('raw', localServer([process.execPath, RAW, mode], { timeout_seconds: 10 }));
  open.push(c);
  return c;
}

describe('malformed tool input schemas', () => {
  it('one server with bad tools among good ones: the good ones are kept and callable, each bad one is named', async () => {
    const c = raw('bad-tools');
    await c.start();
    expect(c.state).toEqual({ kind: 'ready' });
    expect(c.status).toBe('ready');
    expect(c.tools.map((t) => t.name)).toEqual(['ok', 'no_type', 'also_ok']);
    expect(c.tools.find((t) => t.name === 'no_type')!.inputSchema.type).toBe('object');
    expect(c.issues).toEqual([
      { kind: 'tool_rejected', tool: 'stringy', reason: 'not_object' },
      { kind: 'tool_rejected', tool: 'broken_props', reason: 'invalid_schema' },
      { kind: 'tool_rejected', tool: 'number_schema', reason: 'not_object' },
      { kind: 'tool_rejected', tool: 'typo_type', reason: 'invalid_schema' },
      { kind: 'tool_rejected', tool: 'bad_required', reason: 'invalid_schema' },
    ]);
    const r = await c.callTool('ok', { text: 'x' });
    expect(r.content).toEqual([{ type: 'text', text: 'called ok' }]);
  });

  it('through the host: the view carries the issues, the model is offered only object schemas', async () => {
    const store = new ConfigStore(dir);
    await store.load();
    host = new McpHost(store, {});
    await host.add('bad', { type: 'local', command: [process.execPath, RAW, 'bad-tools'] });
    expect(await waitFor(() => host!.view('bad').state.kind === 'ready', 10_000)).toBe(true);
    const view = host.view('bad');
    expect(view.tools.map((t) => t.original_name)).toEqual(['ok', 'no_type', 'also_ok']);
    expect(view.issues.map((i) => (i.kind === 'list_stopped' ? i.list : i.tool))).toEqual(['stringy', 'broken_props', 'number_schema', 'typo_type', 'bad_required']);
    const offered = host.tools();
    expect(offered.map((t) => t.original_name)).toEqual(['ok', 'no_type', 'also_ok']);
    for (const t of offered) expect(t.input_schema.type).toBe('object');
  });

  it('checkTools keeps a too-deep tool without its schema, and validates the rest of the tool shape', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 100; i++) deep = { type: 'array', items: deep };
    const r = checkTools([
      { name: 'deep', inputSchema: { type: 'object', properties: { a: deep } } },
      { name: 'bad_annotations', inputSchema: { type: 'object' }, annotations: 'yes' },
      { name: 'fine', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
    ]);
    expect(r.tools.map((t) => [t.name, t.inputSchema])).toEqual([
      ['deep', { type: 'object', properties: {} }],
      ['fine', { type: 'object' }],
    ]);
    expect(r.issues).toEqual([
      { kind: 'tool_schema_dropped', tool: 'deep', reason: 'too_deep' },
      { kind: 'tool_rejected', tool: 'bad_annotations', reason: 'invalid_schema' },
    ]);
  });
});

describe('pagination against a real server', () => {
  it('a server that ignores the cursor: each tool once, listing stops with an issue', async () => {
    const c = raw('pages-ignore-cursor');
    await c.start();
    expect(c.status).toBe('ready');
    expect(c.tools.map((t) => t.name)).toEqual(['t0', 't1']);
    expect(c.issues).toEqual([{ kind: 'list_stopped', list: 'tools', reason: 'repeated_cursor' }]);
  });

  it('an empty-string cursor is the end: no issue', async () => {
    const c = raw('pages-empty-cursor');
    await c.start();
    expect(c.status).toBe('ready');
    expect(c.tools.map((t) => t.name)).toEqual(['t0']);
    expect(c.issues).toEqual([]);
  });
});

describe('JSON Schema 2020-12 keywords survive the check (SEP-1613)', () => {
  it('keeps $schema, $defs, $ref, additionalProperties and composition keywords of an accepted tool', () => {
    const inputSchema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: { address: { $anchor: 'addr', type: 'object', properties: { street: { type: 'string' } } } },
      properties: { home: { $ref: '#/$defs/address' }, kind: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
      allOf: [{ anyOf: [{ required: ['home'] }, { required: ['kind'] }] }],
      if: { properties: { kind: { const: 'x' } } },
      then: { required: ['home'] },
      else: {},
      additionalProperties: false,
    };
    const r = checkTools([{ name: 'rich', inputSchema }]);
    expect(r.issues).toEqual([]);
    expect(r.tools[0]!.inputSchema).toEqual(inputSchema);
  });
});
