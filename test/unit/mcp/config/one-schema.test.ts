/**
 * One schema for add, edit and load (docs/ARCHITECTURE.md "Config file"): what `servers.add` and
 * `servers.update` accept is exactly what loading mcp_servers.json accepts — a `file:` or
 * `javascript:` URL, or an env/header name `__proto__`, is refused with a field error and nothing
 * is saved, instead of being saved and silently dropped at the next start.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppCore } from '../../../../main/core.js';
import { createDispatcher, type Dispatcher } from '../../../../main/ipc/dispatch.js';
import { ConfigStore } from '../../../../main/mcp/config.js';
import { HostError, McpHost } from '../../../../main/mcp/host.js';
import { MemorySecretStore } from '../../../../main/secrets/store.js';
import type { Envelope, IpcError, ServerInput } from '../../../../preload/contract/index.js';
import { makeTempDir, removeDir } from '../../helpers.js';

let dir: string;
let core: AppCore;
let d: Dispatcher;
beforeEach(async () => {
  dir = makeTempDir('op-schema-');
  core = new AppCore({ stateDir: dir, shell: 'browser', secrets: new MemorySecretStore() });
  await core.start();
  d = createDispatcher(core);
});
afterEach(async () => {
  await core.shutdown();
  await removeDir(dir);
});

function errorOf(env: Envelope<unknown>): IpcError {
  if (env.ok) throw new Error(`expected an error, got ${JSON.stringify(env.value).slice(0, 200)}`);
  return env.error;
}

const proto = (value: string): Record<string, string> => JSON.parse(`{"__proto__": ${JSON.stringify(value)}, "OK": "v"}`) as Record<string, string>;

describe('servers.add / servers.update refuse what loading would drop', () => {
  it.each([['file:///etc/passwd'], ['javascript:alert(1)'], ['data:text/plain,hi'], ['ftp://example.com/mcp']])('url %s', async (url) => {
    const e = errorOf(await d.invoke('servers.add', { name: 'r', config: { type: 'http', url } }));
    expect(e).toMatchObject({ code: 'invalid_input', field: 'config.url' });
    expect(existsSync(path.join(dir, 'mcp_servers.json'))).toBe(false);
  });

  it('an env name __proto__', async () => {
    const e = errorOf(await d.invoke('servers.add', { name: 'l', config: { type: 'local', command: [process.execPath], env: proto('secret-value') } }));
    expect(e).toMatchObject({ code: 'invalid_input', field: 'config.env.__proto__' });
  });

  it('a header name __proto__', async () => {
    const e = errorOf(await d.invoke('servers.add', { name: 'r', config: { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: proto('secret-value'), enabled: false } }));
    expect(e).toMatchObject({ code: 'invalid_input', field: 'config.headers.__proto__' });
  });

  it('an edit to a file: URL or a __proto__ header, and nothing is saved', async () => {
    expect((await d.invoke('servers.add', { name: 'r', config: { type: 'http', url: 'http://127.0.0.1:9/mcp', enabled: false } })).ok).toBe(true);
    const before = readFileSync(path.join(dir, 'mcp_servers.json'), 'utf8');
    expect(errorOf(await d.invoke('servers.update', { name: 'r', patch: { url: 'file:///etc/passwd' } }))).toMatchObject({ code: 'invalid_input', field: 'patch.url' });
    expect(errorOf(await d.invoke('servers.update', { name: 'r', patch: { headers: proto('x-secret-value') } }))).toMatchObject({ code: 'invalid_input', field: 'patch.headers.__proto__' });
    expect(readFileSync(path.join(dir, 'mcp_servers.json'), 'utf8')).toBe(before);
  });

  it('the host refuses them too when called past the contract', async () => {
    const secrets = new MemorySecretStore();
    const store = new ConfigStore(dir, secrets);
    await store.load();
    const host = new McpHost(store, { secrets });
    const bad: ServerInput[] = [
      { type: 'http', url: 'file:///etc/passwd', enabled: false },
      { type: 'local', command: ['node'], env: proto('secret-value'), enabled: false },
      { type: 'http', url: 'http://127.0.0.1:9/', headers: { 'bad header': 'v' }, enabled: false },
    ];
    for (const input of bad) {
      const err = await host.add('x', input).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(HostError);
      expect((err as HostError).code).toBe('invalid_input');
      expect((err as HostError).field).toMatch(/^(url|env|headers)$/);
    }
    expect(store.names()).toEqual([]);
    await host.shutdown();
  });
});

describe('loading applies the same rules, visibly', () => {
  it('an entry with a __proto__ env name or a file: URL is skipped with its reason, never half-loaded', async () => {
    const file = path.join(dir, 'cfg', 'mcp_servers.json');
    const store = new ConfigStore(path.dirname(file), new MemorySecretStore());
    await import('node:fs').then((fs) => fs.mkdirSync(path.dirname(file)));
    writeFileSync(
      file,
      '{"servers": {"a": {"command": ["node"], "env": {"__proto__": "v"}}, "b": {"type": "http", "url": "file:///etc/passwd"}, "c": {"command": ["node"], "env": {"GOOD": "v"}}}}',
    );
    await store.load();
    expect(store.names()).toEqual(['c']);
    expect(store.skippedEntries().map((s) => s.name)).toEqual(['a', 'b']);
    expect(store.warning).toMatch(/"a": env name "__proto__"/);
    expect(store.warning).toMatch(/"b": url: The URL must start with http/);
  });
});
