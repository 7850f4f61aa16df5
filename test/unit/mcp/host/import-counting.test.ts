/**
 * What an import says it will do (docs/ARCHITECTURE.md "Config file"): a real host previews and
 * imports pasted documents; the window's counts (renderer/src/components/import-count.ts) are
 * checked against what the import then really did. Empty documents are nothing to import; every
 * skipped entry is counted, however many; an env variable or header given twice refuses its entry.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigStore } from '../../../../main/mcp/config.js';
import { duplicateKeys } from '../../../../main/mcp/config/duplicate-keys.js';
import { HostError, McpHost } from '../../../../main/mcp/host.js';
import { MemorySecretStore } from '../../../../main/secrets/store.js';
import { importCounts } from '../../../../renderer/src/components/import-count.js';
import { makeTempDir, removeDir } from '../../helpers.js';

let dir: string;
let store: ConfigStore;
let host: McpHost;
beforeEach(async () => {
  dir = makeTempDir('op-import-count-');
  const secrets = new MemorySecretStore();
  store = new ConfigStore(dir, secrets);
  await store.load();
  host = new McpHost(store, { secrets });
  await host.add('there', { type: 'local', command: ['node', 'a.js'], enabled: false });
});
afterEach(async () => {
  await host.shutdown();
  await removeDir(dir);
});

describe('nothing to import', () => {
  it.each(['{}', '[]', '{"mcpServers": {}}', '{"servers": {}}'])('%s: an empty preview, not an error; importing does nothing', async (json) => {
    const preview = host.importPreview(json);
    expect(preview).toMatchObject({ servers: [], unreadable: [] });
    expect(importCounts(preview, false)).toMatchObject({ nothing: true, imported: 0, skipped: 0 });
    expect(await host.importServers(json, false)).toEqual({ added: [], replaced: [], skipped: [] });
  });

  it('a document that is not one still is an error, by its problem (the window words it; it is pasted text, not a file)', () => {
    const problem = (json: string): unknown => {
      try {
        host.importPreview(json);
      } catch (err) {
        return { code: (err as HostError).code, field: (err as HostError).field, fact: (err as HostError).fact };
      }
      return null;
    };
    expect(problem('[1]')).toEqual({ code: 'invalid_input', field: 'json', fact: { kind: 'import', problem: 'not_object' } });
    expect(problem('"a"')).toEqual({ code: 'invalid_input', field: 'json', fact: { kind: 'import', problem: 'not_object' } });
    expect(problem('nope')).toEqual({ code: 'invalid_input', field: 'json', fact: { kind: 'import', problem: 'not_json' } });
    expect(problem('{"servers": [1]}')).toEqual({ code: 'invalid_input', field: 'json', fact: { kind: 'import', problem: 'servers_not_object' } });
  });
});

describe('counting', () => {
  const json = JSON.stringify({
    mcpServers: {
      fresh: { command: 'node', args: ['b.js'], disabled: true },
      there: { command: 'node', args: ['a.js'], disabled: true },
      'bad name': { command: 'x' },
      empty: { command: '' },
      badurl: { url: 'not a url' },
    },
  });

  it('several skipped entries: each counted, with and without replacing, and the import skips exactly those', async () => {
    const preview = host.importPreview(json);
    expect(preview.servers.map((s) => s.name)).toEqual(['fresh', 'there']);
    expect(preview.unreadable.map((u) => u.name)).toEqual(['bad name', 'empty', 'badurl']);
    // Each with why, by code: a refused field as the issue a form's refusal is worded from.
    expect(preview.unreadable.map((u) => u.why)).toEqual([
      { code: 'invalid_name' },
      { code: 'invalid_entry', issue: { code: 'custom', path: ['command'], rule: 'required' } },
      { code: 'invalid_entry', issue: { code: 'invalid_format', path: ['url'], format: 'url' } },
    ]);
    expect(importCounts(preview, false)).toEqual({ fresh: 1, replaced: 0, skipped: 4, refused: 0, imported: 1, nothing: false });
    expect(importCounts(preview, true)).toEqual({ fresh: 1, replaced: 1, skipped: 3, refused: 0, imported: 2, nothing: false });
    const r = await host.importServers(json, false);
    expect(r.added).toEqual(['fresh']);
    expect(r.skipped.map((s) => s.name).sort()).toEqual(['bad name', 'badurl', 'empty', 'there']);
    expect(r.skipped.find((s) => s.name === 'there')?.why).toEqual({ code: 'exists' });
    expect(r.skipped.length).toBe(importCounts(preview, false).skipped);
  });

  it('an env variable or a header given twice refuses its entry (JSON.parse would keep one value unseen)', async () => {
    const twice = '{"mcpServers": {"ok": {"command": "node", "env": {"A": "1", "B": "2"}, "disabled": true}, "dup": {"command": "node", "env": {"A": "1", "A": "2"}}, "hdr": {"url": "https://x.example.com/mcp", "headers": {"K": "1", "K": "2"}}}}';
    const preview = host.importPreview(twice);
    expect(preview.servers.map((s) => s.name)).toEqual(['ok']);
    expect(preview.unreadable).toEqual([
      { name: 'dup', why: { code: 'given_twice', map: 'env', key: 'A' }, reason: 'the environment variable "A" is given twice' },
      { name: 'hdr', why: { code: 'given_twice', map: 'headers', key: 'K' }, reason: 'the header "K" is given twice' },
    ]);
    const r = await host.importServers(twice, false);
    expect(r.added).toEqual(['ok']);
    expect(store.get('dup')).toBeUndefined();
  });
});

describe('duplicateKeys', () => {
  it('finds repeated keys at their path, escaped keys and strings with braces included, and nothing in arrays', () => {
    const text = '{"a": {"k": "{\\"k\\": 1}", "k\\u0041": 1, "kA": 2}, "b": [{"x": 1}, {"x": 2}], "c": {"d": {"e": 1, "e": 2}}}';
    expect(duplicateKeys(text)).toEqual([
      { path: ['a'], key: 'kA' },
      { path: ['c', 'd'], key: 'e' },
    ]);
  });

  it('deep nesting does not exhaust the stack', () => {
    const deep = '['.repeat(200_000) + ']'.repeat(200_000);
    expect(duplicateKeys(deep)).toEqual([]);
  });
});
