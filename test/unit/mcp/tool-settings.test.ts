/**
 * Per-tool settings stored with each server in mcp_servers.json: parsing (strict for our `tools`
 * key, mapping other hosts' keys), PATCH rules, load/save, edits, export and import — with a real
 * config file and a real server (server-filesystem) through McpHost.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyPatch, ConfigStore, parseConfigDocument, parseServerEntry } from '../../../main/mcp/config.js';
import { McpHost } from '../../../main/mcp/host.js';
import { applyToolSettingsPatch, mapForeignToolKeys, parseToolSettings, ToolSettingsError } from '../../../main/mcp/tool-settings.js';
import { Permissions } from '../../../main/chat/permissions/index.js';
import { localServer, makeTempDir, removeDir, ROOT, waitFor, waitNoChildren } from '../helpers.js';

const FS_SERVER = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

describe('tools map: parsing', () => {
  it('reads our own shape and keeps only non-default choices', () => {
    expect(parseToolSettings({ a: { enabled: false }, b: { approval: 'always_allow' }, c: { enabled: true }, d: {}, e: { approval: 'ask', enabled: false } })).toEqual({
      a: { enabled: false },
      b: { approval: 'always_allow' },
      e: { enabled: false, approval: 'ask' },
    });
    expect(parseToolSettings(undefined)).toEqual({});
  });

  it.each([
    [[], /must be an object/],
    [{ a: true }, /tools\.a must be an object/],
    [{ a: { enabled: 'no' } }, /enabled must be true or false/],
    [{ a: { approval: 'sometimes' } }, /approval must be "ask" or "always_allow"/],
    [{ a: { allow: true } }, /unknown field "allow"/],
    [{ ['x'.repeat(129)]: { enabled: false } }, /1–128 characters/],
  ])('refuses %j with a clear error', (raw, msg) => {
    expect(() => parseToolSettings(raw)).toThrow(ToolSettingsError);
    expect(() => parseToolSettings(raw)).toThrow(msg);
  });

  it('a server entry with a bad tools map is skipped with a visible warning, the others load', () => {
    const parsed = parseConfigDocument({ servers: { good: { type: 'local', command: ['x'], tools: { t: { enabled: false } } }, bad: { type: 'local', command: ['x'], tools: { t: { approval: 1 } } } } });
    expect([...parsed.servers.keys()]).toEqual(['good']);
    expect(parsed.servers.get('good')!.tools).toEqual({ t: { enabled: false } });
    expect(parsed.warning).toMatch(/"bad": tools\.t\.approval must be/);
  });

  it('maps other hosts’ keys: Cline/Roo/Kiro/Codex/Gemini lists → enabled:false / always_allow; non-lists are reported, not granted', () => {
    expect(mapForeignToolKeys({ disabledTools: ['w'], alwaysAllow: ['r'], autoApprove: ['l', 'w'], disabled_tools: ['x'], excludeTools: ['y'] })).toEqual({
      tools: { w: { enabled: false, approval: 'always_allow' }, r: { approval: 'always_allow' }, l: { approval: 'always_allow' }, x: { enabled: false }, y: { enabled: false } },
      unmapped: [],
    });
    expect(mapForeignToolKeys({ autoApprove: true, trust: true, includeTools: ['a'] })).toEqual({ tools: {}, unmapped: ['autoApprove', 'trust', 'includeTools'] });
    expect(() => mapForeignToolKeys({ disabledTools: [1] })).toThrow(/disabledTools must be a list of tool names/);
  });

  it('a tool named __proto__ is an ordinary entry (no prototype change) in every path', () => {
    const fromFile = parseToolSettings(JSON.parse('{"__proto__": {"enabled": false}, "x": {"approval": "ask"}}'));
    expect(Object.getPrototypeOf(fromFile)).toBe(Object.prototype);
    expect(Object.keys(fromFile).sort()).toEqual(['__proto__', 'x']);
    const foreign = mapForeignToolKeys({ disabledTools: ['__proto__'], alwaysAllow: ['__proto__'] });
    expect(Object.getOwnPropertyDescriptor(foreign.tools, '__proto__')?.value).toEqual({ enabled: false, approval: 'always_allow' });
    const patched = applyToolSettingsPatch({}, JSON.parse('{"__proto__": {"enabled": false}}'));
    expect(Object.keys(patched)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(patched)).toBe(Object.prototype);
    const cfg = parseServerEntry(JSON.parse('{"command": "node", "tools": {"__proto__": {"enabled": false}}}'));
    expect(JSON.parse(JSON.stringify(cfg.tools))).toEqual(JSON.parse('{"__proto__": {"enabled": false}}'));
  });

  it('a Cline-style entry becomes enabled + a tools map; our own tools key wins per field', () => {
    const cfg = parseServerEntry({ command: 'node', args: ['s.js'], disabled: true, disabledTools: ['write_file'], alwaysAllow: ['read_file'], tools: { read_file: { approval: 'ask' } } });
    expect(cfg).toMatchObject({ type: 'local', command: ['node', 's.js'], enabled: false, tools: { write_file: { enabled: false }, read_file: { approval: 'ask' } } });
    expect('tools' in parseServerEntry({ command: 'node' })).toBe(false);
  });
});

describe('tools map: PATCH', () => {
  const stored = { a: { enabled: false }, b: { approval: 'always_allow' as const }, c: { enabled: false, approval: 'ask' as const } };
  it('absent → keep; a field → replace; approval null → follow the mode; entry null → forget; defaults are dropped', () => {
    expect(applyToolSettingsPatch(stored, undefined)).toEqual(stored);
    expect(applyToolSettingsPatch(stored, { a: { enabled: true }, b: { approval: null }, c: { approval: 'always_allow' }, d: { enabled: false } })).toEqual({
      c: { enabled: false, approval: 'always_allow' },
      d: { enabled: false },
    });
    expect(applyToolSettingsPatch(stored, { c: null })).toEqual({ a: { enabled: false }, b: { approval: 'always_allow' } });
    expect(stored.a).toEqual({ enabled: false }); // the input is not modified
  });

  it('applyPatch keeps the tools map through other edits and patches it when given', () => {
    const cfg = { ...localServer(['node', 'x']), tools: { a: { enabled: false } } };
    expect(applyPatch(cfg, { timeout_seconds: 5 }).tools).toEqual({ a: { enabled: false } });
    expect(applyPatch(cfg, { tools: { a: null } }).tools).toBeUndefined();
    expect(applyPatch(cfg, { tools: { b: { approval: 'ask' } } }).tools).toEqual({ a: { enabled: false }, b: { approval: 'ask' } });
  });
});

describe('tools map: file, edits, export and import (real host, real server)', () => {
  let stateDir: string;
  let work: string;
  let store: ConfigStore;
  let host: McpHost;

  beforeEach(async () => {
    stateDir = makeTempDir('op-toolset-');
    work = makeTempDir('op-toolset-work-');
    store = new ConfigStore(stateDir);
    await store.load();
    host = new McpHost(store);
  });
  afterEach(async () => {
    await host.shutdown();
    expect(await waitNoChildren(15_000)).toBe(true);
    await removeDir(stateDir);
    await removeDir(work);
  });

  const fsCommand = () => [process.execPath, FS_SERVER, work];
  const disk = () => (JSON.parse(readFileSync(store.file, 'utf8')) as { servers: Record<string, Record<string, unknown>> }).servers;

  it('load → save keeps the map; a hand-written file with the map is honoured after a restart', async () => {
    writeFileSync(store.file, JSON.stringify({ servers: { files: { type: 'local', command: fsCommand(), tools: { write_file: { enabled: false }, read_text_file: { approval: 'always_allow' } } } } }));
    await store.load();
    host.startAll();
    expect(await waitFor(() => host.view('files').state.kind === 'ready', 20_000)).toBe(true);
    const view = host.view('files');
    expect(view.tools.find((t) => t.original_name === 'write_file')).toMatchObject({ enabled: false, approval: null });
    expect(view.tools.find((t) => t.original_name === 'read_text_file')).toMatchObject({ enabled: true, approval: 'always_allow', annotations: { readOnlyHint: true } });
    expect(view.tool_count).toBe(view.tools.length - 1); // offered = all but the disabled one
    expect(host.tools().some((t) => t.original_name === 'write_file')).toBe(false);
    // A connection edit keeps the map in the file.
    await host.update('files', { timeout_seconds: 30 });
    expect(disk().files!.tools).toEqual({ write_file: { enabled: false }, read_text_file: { approval: 'always_allow' } });
  });

  it('a tools-only PATCH through servers.update is saved without restarting the server', async () => {
    await host.add('files', { type: 'local', command: fsCommand() });
    expect(await waitFor(() => host.view('files').state.kind === 'ready', 20_000)).toBe(true);
    const conn = host.connection('files');
    await host.update('files', { tools: { move_file: { enabled: false }, list_directory: { approval: 'always_allow' } } });
    expect(host.connection('files')).toBe(conn);
    expect(disk().files!.tools).toEqual({ move_file: { enabled: false }, list_directory: { approval: 'always_allow' } });
    await host.update('files', { tools: { move_file: { enabled: true }, list_directory: { approval: null } } });
    expect(disk().files!.tools).toBeUndefined();
    await expect(host.setToolSettings('missing', 'x', { enabled: false })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('concurrent per-tool changes to one server all land (no lost update)', async () => {
    await host.add('files', { type: 'local', command: fsCommand(), enabled: false });
    const names = Array.from({ length: 20 }, (_, i) => `tool_${i}`);
    await Promise.all(names.map((n, i) => host.setToolSettings('files', n, i % 2 ? { enabled: false } : { approval: 'always_allow' })));
    const tools = disk().files!.tools as Record<string, unknown>;
    expect(Object.keys(tools).sort()).toEqual([...names].sort());
    expect(store.get('files')!.tools).toEqual(tools);
  });

  it('bulk actions: disable all, enable all, always allow the read-only ones', async () => {
    await host.add('files', { type: 'local', command: fsCommand() });
    expect(await waitFor(() => host.view('files').state.kind === 'ready', 20_000)).toBe(true);
    const names = host.view('files').tools.map((t) => t.original_name);
    let v = await host.bulkToolSettings('files', 'disable_all');
    expect(v.tools.every((t) => !t.enabled)).toBe(true);
    expect(host.tools()).toEqual([]);
    v = await host.bulkToolSettings('files', 'enable_all');
    expect(v.tools.every((t) => t.enabled)).toBe(true);
    expect(host.tools().length).toBe(names.length);
    v = await host.bulkToolSettings('files', 'allow_read_only');
    const ro = v.tools.filter((t) => t.annotations.readOnlyHint === true).map((t) => t.original_name);
    expect(ro).toContain('read_text_file');
    expect(v.tools.filter((t) => t.approval === 'always_allow').map((t) => t.original_name)).toEqual(ro);
    expect(v.tools.find((t) => t.original_name === 'write_file')!.approval).toBeNull();
  });

  it('export carries the map and importing the export restores it', async () => {
    await host.add('files', { type: 'local', command: fsCommand(), enabled: false });
    await host.setToolSettings('files', 'write_file', { enabled: false });
    await host.setToolSettings('files', 'read_text_file', { approval: 'always_allow' });
    const exp = await host.exportServers(false);
    const doc = JSON.parse(exp.json!) as { servers: Record<string, { tools: unknown }> };
    expect(doc.servers.files!.tools).toEqual({ write_file: { enabled: false }, read_text_file: { approval: 'always_allow' } });
    await host.remove('files');
    const r = await host.importServers(exp.json!, false);
    expect(r.added).toEqual(['files']);
    expect(store.get('files')!.tools).toEqual({ write_file: { enabled: false }, read_text_file: { approval: 'always_allow' } });
  });

  it('a Cline-style import: the preview shows disabledTools/alwaysAllow, and they take effect', async () => {
    const json = JSON.stringify({
      mcpServers: { cline: { command: process.execPath, args: [FS_SERVER, work], disabled: false, disabledTools: ['write_file'], alwaysAllow: ['list_allowed_directories'], autoApprove: true } },
    });
    const preview = host.importPreview(json);
    expect(preview.servers).toEqual([
      expect.objectContaining({ name: 'cline', enabled: true, disabled_tools: ['write_file'], always_allow_tools: ['list_allowed_directories'], unmapped_keys: ['autoApprove'], exists: false }),
    ]);
    await host.importServers(json, false);
    expect(disk().cline!.tools).toEqual({ write_file: { enabled: false }, list_allowed_directories: { approval: 'always_allow' } });
    expect(disk().cline!.disabledTools).toBeUndefined();
    expect(await waitFor(() => host.view('cline').state.kind === 'ready', 20_000)).toBe(true);
    expect(host.tools().map((t) => t.name)).not.toContain('cline__write_file');
    await expect(host.callTool('cline__write_file', { path: path.join(work, 'x'), content: 'x' })).rejects.toMatchObject({ code: 'forbidden' });
    const perms = new Permissions(stateDir, host);
    await perms.setMode('ask_all');
    expect(await perms.gate.authorize({ conversation_id: 'c', run_id: 'r', call_id: '1', tool: host.tool('cline__list_allowed_directories')!, args: {} })).toMatchObject({ allowed: true, via: 'always_allow', decision: null });
  });

  it('an import with a bad tools list is refused for that server with the reason, and nothing else changes', () => {
    const preview = host.importPreview(JSON.stringify({ mcpServers: { bad: { command: 'node', alwaysAllow: [42] }, ok: { command: 'node' } } }));
    expect(preview.servers.map((s) => s.name)).toEqual(['ok']);
    expect(preview.warning).toMatch(/"bad": alwaysAllow must be a list of tool names/);
  });
});
