/**
 * mcp/config + util/atomic-write: load/save of mcp_servers.json with real files (docs/ARCHITECTURE.md
 * "Secrets at rest", "Config file"), the import shape of other hosts, PATCH merge rules, and crash safety of
 * the atomic write under kill -9 of a real writer process.
 */
import { spawn } from 'node:child_process';
import { chmodSync, promises as fs, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AppWarning } from '../../../../preload/contract/index.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  applyPatch,
  ConfigError,
  ConfigStore,
  configFromInput,
  mergeSecretMap,
  parseConfigDocument,
  type LocalServerConfig,
  type RemoteServerConfig,
} from '../../../../main/mcp/config.js';
import { maskSecret } from '../../../../main/secrets/mask.js';
import { writeFileAtomic } from '../../../../main/util/atomic-write.js';
import { makeTempDir, removeDir, ROOT, sleep } from '../../helpers.js';

const local = (over: Partial<LocalServerConfig> = {}): LocalServerConfig => ({
  type: 'local',
  command: ['node', 'server.js'],
  env: {},
  enabled: true,
  timeout_seconds: 60,
  ...over,
});

const remote = (over: Partial<RemoteServerConfig> = {}): RemoteServerConfig => ({
  type: 'http',
  url: 'https://mcp.example.com/mcp',
  headers: {},
  auth: { kind: 'none' },
  enabled: true,
  timeout_seconds: 60,
  ...over,
});

const modeOf = (file: string): number => statSync(file).mode & 0o777;

let dir: string;
beforeEach(() => {
  dir = makeTempDir('op-config-');
});
afterEach(async () => {
  await removeDir(dir);
});

describe('ConfigStore.load', () => {
  it('a missing file → empty list and no warning, and nothing is created', async () => {
    const store = new ConfigStore(dir);
    const r = await store.load();
    expect(r.servers.size).toBe(0);
    expect(r.warning).toBeNull();
    expect(store.warning).toBeNull();
    expect(await fs.readdir(dir)).toEqual([]);
  });

  it('a missing state dir → empty list and no warning', async () => {
    const r = await new ConfigStore(path.join(dir, 'does', 'not', 'exist')).load();
    expect(r).toEqual({ servers: new Map(), warning: null });
  });

  it('corrupt JSON → empty list, a warning, and the file kept byte-for-byte', async () => {
    const store = new ConfigStore(dir);
    const bad = Buffer.from('{"servers": {"a": {"type": "local", "command": ["x"]}, \u00ff trailing garbage\n', 'latin1');
    writeFileSync(store.file, bad);
    const r = await store.load();
    expect(r.servers.size).toBe(0);
    expect(r.warning).toMatch(/not valid JSON/);
    expect(r.warning).toContain('kept');
    expect(store.warnings).toEqual([{ code: 'config_unusable', file: store.file, problem: 'not_json' }]);
    expect(store.names()).toEqual([]);
    expect(readFileSync(store.file).equals(bad)).toBe(true);
    // Loading again does not touch it either.
    await store.load();
    expect(readFileSync(store.file).equals(bad)).toBe(true);
    expect(await fs.readdir(dir)).toEqual(['mcp_servers.json']);
  });

  it('a JSON document of the wrong shape is treated like a corrupt file', async () => {
    const store = new ConfigStore(dir);
    for (const [text, problem] of [['[]', 'not_object'], ['"x"', 'not_object'], ['{"servers": []}', 'servers_not_object'], ['{"servers": 5}', 'servers_not_object'], ['null', 'not_object']] as const) {
      writeFileSync(store.file, text);
      const r = await store.load();
      expect(r.servers.size).toBe(0);
      expect(r.warning, text).toBeTruthy();
      expect(store.warnings, text).toEqual([{ code: 'config_unusable', file: store.file, problem }]);
      expect(readFileSync(store.file, 'utf8')).toBe(text);
    }
  });

  it('on the next save the bad file is moved aside (not lost) and a good file is written', async () => {
    const store = new ConfigStore(dir);
    const bad = '{ this is not json';
    writeFileSync(store.file, bad);
    await store.load();
    await store.put('fresh', local());
    const files = await fs.readdir(dir);
    const aside = files.filter((f) => f.startsWith('mcp_servers.json.corrupt-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(path.join(dir, aside[0]!), 'utf8')).toBe(bad);
    expect(JSON.parse(readFileSync(store.file, 'utf8'))).toEqual({ servers: { fresh: local() } });
    expect(store.warning).toContain(aside[0]);
    expect(store.warnings).toEqual([{ code: 'config_set_aside', kept_as: path.join(dir, aside[0]!) }]);
    // A second save does not move the good file aside.
    await store.put('second', local());
    expect((await fs.readdir(dir)).filter((f) => f.includes('corrupt'))).toHaveLength(1);
  });

  it('an unreadable path (a directory) → empty list and a warning, never a throw', async () => {
    const store = new ConfigStore(dir);
    await fs.mkdir(store.file);
    const r = await store.load();
    expect(r.servers.size).toBe(0);
    expect(r.warning).toMatch(/Could not read/);
    expect(store.warnings).toEqual([{ code: 'config_unreadable', file: store.file, said: expect.stringMatching(/^EISDIR/) }]);
  });

  it('loads the config file shape', async () => {
    const store = new ConfigStore(dir);
    writeFileSync(
      store.file,
      JSON.stringify({
        servers: {
          drawio: { type: 'local', command: ['npx', '-y', '@drawio/mcp'], env: {}, enabled: true, timeout_seconds: 60 },
          remote: { type: 'http', url: 'https://x.example/mcp', headers: { Authorization: 'Bearer t' }, auth: { kind: 'oauth' }, enabled: false, timeout_seconds: 30 },
        },
      }),
    );
    const r = await store.load();
    expect(r.warning).toBeNull();
    expect(store.names()).toEqual(['drawio', 'remote']);
    expect(store.get('drawio')).toEqual(local({ command: ['npx', '-y', '@drawio/mcp'] }));
    expect(store.get('remote')).toEqual(remote({ url: 'https://x.example/mcp', headers: { Authorization: 'Bearer t' }, auth: { kind: 'oauth' }, enabled: false, timeout_seconds: 30 }));
  });
});

describe('import shape {"mcpServers": {…}}', () => {
  const doc = {
    mcpServers: {
      fs: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'], env: { TOKEN: 'abc', PORT: 8080, DEBUG: true } },
      plain: { command: 'my-server' },
      web: { url: 'https://api.example.com/mcp', headers: { Authorization: 'Bearer xyz' } },
      legacy: { type: 'sse', url: 'http://127.0.0.1:9000/sse' },
      stdio: { type: 'stdio', command: 'uvx', args: ['mcp-server-git'], disabled: true, timeout: 5 },
      streamy: { type: 'streamable-http', url: 'https://s.example/mcp' },
    },
  };

  it('is accepted: command string + args, url, headers, env; type inferred or mapped', () => {
    const r = parseConfigDocument(doc);
    expect(r.warning).toBeNull();
    expect([...r.servers.keys()]).toEqual(['fs', 'plain', 'web', 'legacy', 'stdio', 'streamy']);
    expect(r.servers.get('fs')).toEqual(local({ command: ['npx', '-y', '@modelcontextprotocol/server-filesystem', '/tmp'], env: { TOKEN: 'abc', PORT: '8080', DEBUG: 'true' } }));
    expect(r.servers.get('plain')).toEqual(local({ command: ['my-server'] }));
    expect(r.servers.get('web')).toEqual(remote({ url: 'https://api.example.com/mcp', headers: { Authorization: 'Bearer xyz' } }));
    expect(r.servers.get('legacy')).toEqual(remote({ type: 'sse', url: 'http://127.0.0.1:9000/sse' }));
    expect(r.servers.get('stdio')).toEqual(local({ command: ['uvx', 'mcp-server-git'], enabled: false, timeout_seconds: 5 }));
    expect(r.servers.get('streamy')).toEqual(remote({ url: 'https://s.example/mcp' }));
  });

  it('loads from a file and is saved back in the config file shape', async () => {
    const store = new ConfigStore(dir);
    writeFileSync(store.file, JSON.stringify(doc));
    expect((await store.load()).warning).toBeNull();
    await store.put('added', local({ command: ['x'] }));
    const saved = JSON.parse(readFileSync(store.file, 'utf8')) as { servers: Record<string, unknown>; mcpServers?: unknown };
    expect(saved.mcpServers).toBeUndefined();
    expect(Object.keys(saved.servers)).toEqual(['fs', 'plain', 'web', 'legacy', 'stdio', 'streamy', 'added']);
    // Values were migrated into the secret store; the file holds only references.
    const fsEntry = saved.servers.fs as { env: Record<string, { secret: string }> };
    expect(Object.keys(fsEntry.env)).toEqual(['TOKEN', 'PORT', 'DEBUG']);
    for (const ref of Object.values(fsEntry.env)) expect(ref).toEqual({ secret: expect.stringMatching(/^mcp:fs:env:/) });
    expect(readFileSync(store.file, 'utf8')).not.toContain('"abc"');
    expect(store.get('fs')).toEqual(local({ command: ['npx', '-y', '@modelcontextprotocol/server-filesystem', '/tmp'], env: { TOKEN: 'abc', PORT: '8080', DEBUG: 'true' } }));
  });

  it('an empty document → empty list, no warning', () => {
    expect(parseConfigDocument({})).toEqual({ servers: new Map(), refs: new Map(), skipped: new Map(), unreadable: [], warning: null });
    expect(parseConfigDocument({ mcpServers: {} })).toEqual({ servers: new Map(), refs: new Map(), skipped: new Map(), unreadable: [], warning: null });
  });
});

describe('bad entries', () => {
  it('are skipped with a warning naming each; good ones are kept', async () => {
    const store = new ConfigStore(dir);
    writeFileSync(
      store.file,
      JSON.stringify({
        servers: {
          good: { type: 'local', command: ['node', 'x.js'] },
          'bad name!': { command: 'x' },
          nocommand: { type: 'local' },
          emptycmd: { type: 'local', command: ['  '] },
          badargs: { command: 'x', args: 'not-a-list' },
          badurl: { type: 'http', url: 'not a url' },
          ftp: { url: 'ftp://example.com/x' },
          weird: { type: 'carrier-pigeon', url: 'https://x' },
          badenv: { command: 'x', env: ['A=1'] },
          badtimeout: { command: 'x', timeout_seconds: -1 },
          notobject: 'npx foo',
          alsogood: { url: 'https://ok.example/mcp' },
        },
      }),
    );
    const r = await store.load();
    expect([...r.servers.keys()]).toEqual(['good', 'alsogood']);
    const w = r.warning ?? '';
    for (const name of ['bad name!', 'nocommand', 'emptycmd', 'badargs', 'badurl', 'ftp', 'weird', 'badenv', 'badtimeout', 'notobject']) {
      expect(w, name).toContain(`"${name}"`);
    }
    expect(w).toContain('command is required');
    expect(w).toContain('The URL must start with http:// or https://');
    // The window's warning: each skipped entry with why by code, as an import says it.
    expect(store.warnings).toHaveLength(1);
    const skipped = store.warnings[0] as Extract<AppWarning, { code: 'config_skipped' }>;
    expect(skipped.code).toBe('config_skipped');
    expect(skipped.entries.map((e) => e.name)).toEqual(['bad name!', 'nocommand', 'emptycmd', 'badargs', 'badurl', 'ftp', 'weird', 'badenv', 'badtimeout', 'notobject']);
    expect(skipped.entries[0]!.why).toEqual({ code: 'invalid_name' });
    expect(skipped.entries.find((e) => e.name === 'ftp')!.why).toMatchObject({ code: 'invalid_entry', issue: { rule: 'http_scheme' } });
    // Skipping entries is not a corrupt file: the file is not moved aside on the next save.
    await store.put('third', local());
    expect((await fs.readdir(dir)).filter((f) => f.includes('corrupt'))).toEqual([]);
  });

  it('an over-long server name is skipped and the warning stays short', () => {
    const r = parseConfigDocument({ servers: { ['n'.repeat(100_000)]: { command: 'x' } } });
    expect(r.servers.size).toBe(0);
    expect(r.warning!.length).toBeLessThan(300);
  });
});

describe('saving', () => {
  it('creates the file with mode 0600', async () => {
    const store = new ConfigStore(path.join(dir, 'state'));
    await store.load();
    await store.put('a', local({ env: { API_KEY: 'sk-secret-value' } }));
    expect(modeOf(store.file)).toBe(0o600);
    expect(JSON.parse(readFileSync(store.file, 'utf8'))).toEqual({ servers: { a: { ...local(), env: { API_KEY: { secret: expect.stringMatching(/^mcp:a:env:API_KEY:/) } } } } });
    expect(readFileSync(store.file, 'utf8')).not.toContain('sk-secret-value');
    // The state dir it had to create is owner-only too.
    expect(statSync(path.join(dir, 'state')).mode & 0o777).toBe(0o700);
  });

  it('an existing 0644 file becomes 0600 after a save', async () => {
    const store = new ConfigStore(dir);
    writeFileSync(store.file, JSON.stringify({ servers: { old: { command: ['x'] } } }), { mode: 0o644 });
    chmodSync(store.file, 0o644);
    expect(modeOf(store.file)).toBe(0o644);
    await store.load();
    await store.put('new', local());
    expect(modeOf(store.file)).toBe(0o600);
    expect(store.names()).toEqual(['old', 'new']);
  });

  it('leaves no temp files behind, and concurrent saves lose nothing', async () => {
    const store = new ConfigStore(dir);
    await store.load();
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.put(`s${i}`, local({ command: [`cmd${i}`] }))));
    await Promise.all([store.delete('s3'), store.delete('s7'), store.delete('missing')]);
    expect(await fs.readdir(dir)).toEqual(['mcp_servers.json']);
    const saved = JSON.parse(readFileSync(store.file, 'utf8')) as { servers: Record<string, LocalServerConfig> };
    expect(Object.keys(saved.servers)).toHaveLength(18);
    expect(saved.servers.s3).toBeUndefined();
    expect(saved.servers.s19?.command).toEqual(['cmd19']);
    // A fresh store reads back exactly what the first one holds.
    const again = new ConfigStore(dir);
    await again.load();
    expect(again.names()).toEqual(store.names());
  });

  it('a failed write leaves the old file intact and no temp file', async () => {
    const target = path.join(dir, 'f.json');
    writeFileSync(target, 'old');
    // Writing "into" a regular file as if it were a directory fails (ENOTDIR).
    await expect(writeFileAtomic(path.join(target, 'child.json'), 'new')).rejects.toThrow();
    // Renaming over a non-empty directory fails after the temp file was written.
    const asDir = path.join(dir, 'busy');
    await fs.mkdir(asDir);
    writeFileSync(path.join(asDir, 'x'), 'x');
    await expect(writeFileAtomic(asDir, 'new')).rejects.toThrow();
    expect(readFileSync(target, 'utf8')).toBe('old');
    expect((await fs.readdir(dir)).sort()).toEqual(['busy', 'f.json']);
  });

  it('get() returns copies: mutating one does not change the store', async () => {
    const store = new ConfigStore(dir);
    await store.put('a', local({ env: { A: '1' } }));
    const c = store.get('a') as LocalServerConfig;
    c.env.A = 'changed';
    c.command.push('--evil');
    expect(store.get('a')).toEqual(local({ env: { A: '1' } }));
  });
});

describe('PATCH merge rules', () => {
  it('mergeSecretMap: absent → preserve, value → replace, "" → delete', () => {
    const stored = { KEEP: 'k', REPLACE: 'old', DROP: 'd' };
    expect(mergeSecretMap(stored, { REPLACE: 'new', DROP: '', ADD: 'a' })).toEqual({ KEEP: 'k', REPLACE: 'new', ADD: 'a' });
    expect(mergeSecretMap(stored, undefined)).toEqual(stored);
    expect(mergeSecretMap(stored, {})).toEqual(stored);
    expect(mergeSecretMap(stored, { NEVER_SET: '' })).toEqual(stored);
    expect(stored).toEqual({ KEEP: 'k', REPLACE: 'old', DROP: 'd' });
  });

  it('applyPatch on a local server merges env and keeps everything absent', () => {
    const cfg = local({ command: ['a', 'b'], env: { TOKEN: 't1', OTHER: 'o' }, timeout_seconds: 30 });
    const before = structuredClone(cfg);
    expect(applyPatch(cfg, {})).toEqual(cfg);
    expect(applyPatch(cfg, { env: { TOKEN: 't2' } })).toEqual({ ...cfg, env: { TOKEN: 't2', OTHER: 'o' } });
    expect(applyPatch(cfg, { env: { OTHER: '' } })).toEqual({ ...cfg, env: { TOKEN: 't1' } });
    expect(applyPatch(cfg, { command: ['c'], enabled: false, timeout_seconds: 5 })).toEqual({ ...cfg, command: ['c'], enabled: false, timeout_seconds: 5 });
    expect(cfg).toEqual(before);
  });

  it('applyPatch on a remote server merges headers', () => {
    const cfg = remote({ headers: { Authorization: 'Bearer a', 'X-Team': 't' } });
    expect(applyPatch(cfg, { headers: { Authorization: '' } })).toEqual({ ...cfg, headers: { 'X-Team': 't' } });
    expect(applyPatch(cfg, { url: 'https://new.example/mcp', headers: { 'X-New': 'n' } })).toEqual({
      ...cfg,
      url: 'https://new.example/mcp',
      headers: { Authorization: 'Bearer a', 'X-Team': 't', 'X-New': 'n' },
    });
  });

  it('applyPatch rejects fields of the other server type', () => {
    expect(() => applyPatch(local(), { url: 'https://x.example' })).toThrow(ConfigError);
    expect(() => applyPatch(local(), { headers: {} })).toThrow(ConfigError);
    expect(() => applyPatch(remote(), { command: ['x'] })).toThrow(ConfigError);
    expect(() => applyPatch(remote(), { env: { A: '1' } })).toThrow(ConfigError);
  });

  it('configFromInput applies defaults and copies', () => {
    const env = { A: '1' };
    const c = configFromInput({ type: 'local', command: ['x'], env });
    expect(c).toEqual(local({ command: ['x'], env: { A: '1' } }));
    env.A = '2';
    expect((c as LocalServerConfig).env.A).toBe('1');
    expect(configFromInput({ type: 'sse', url: 'https://x.example/sse' })).toEqual(remote({ type: 'sse', url: 'https://x.example/sse' }));
  });

  it('maskSecret reveals nothing of short secrets and at most the last 4 characters of long ones', () => {
    expect(maskSecret('')).toEqual({ has_value: false, masked: '' });
    expect(maskSecret(undefined)).toEqual({ has_value: false, masked: '' });
    expect(maskSecret('short')).toEqual({ has_value: true, masked: '••••••••' });
    const long = 'sk-0123456789abcdefWXYZ';
    expect(maskSecret(long)).toEqual({ has_value: true, masked: '••••••••WXYZ' });
  });
});

describe('crash safety of writeFileAtomic (kill -9 of a real writer)', () => {
  it('after every kill the file parses and equals one of the two full contents', async () => {
    const target = path.join(dir, 'mcp_servers.json');
    // Two big, different, valid JSON documents (~3 MB each).
    const make = (tag: string): string =>
      JSON.stringify({ servers: Object.fromEntries(Array.from({ length: 6000 }, (_, i) => [`${tag}${i}`, { type: 'local', command: ['x'.repeat(400), tag], env: {}, enabled: true, timeout_seconds: 60 }])) });
    const a = make('a');
    const b = make('b');
    expect(a.length).toBeGreaterThan(2_500_000);
    const fileA = path.join(dir, 'a.json');
    const fileB = path.join(dir, 'b.json');
    writeFileSync(fileA, a);
    writeFileSync(fileB, b);
    writeFileSync(target, a);
    const child = path.join(dir, 'writer.mts');
    const moduleUrl = pathToFileURL(path.join(ROOT, 'main', 'util', 'atomic-write.ts')).href;
    writeFileSync(
      child,
      `import { readFileSync } from 'node:fs';
import { writeFileAtomic } from ${JSON.stringify(moduleUrl)};
const [target, fa, fb] = process.argv.slice(2);
const docs = [readFileSync(fb, 'utf8'), readFileSync(fa, 'utf8')];
let n = 0;
for (;;) {
  await writeFileAtomic(target, docs[n % 2]);
  n++;
  process.stdout.write(n === 1 ? 'ready\\n' : 'w');
}
`,
    );
    const kills = 6;
    let writes = 0;
    for (let round = 0; round < kills; round++) {
      const proc = spawn(process.execPath, ['--import', 'tsx', child, target, fileA, fileB], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      proc.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const exited = new Promise<NodeJS.Signals | number | null>((resolve) => proc.on('exit', (code, signal) => resolve(signal ?? code)));
      await new Promise<void>((resolve, reject) => {
        proc.stdout.on('data', (c: Buffer) => {
          const s = c.toString();
          writes += s.replace(/[^w]/g, '').length;
          if (s.includes('ready')) resolve();
        });
        proc.on('exit', () => reject(new Error(`writer exited early: ${stderr}`)));
      });
      // Random moments; the last round waits long enough for several complete writes.
      await sleep(round === kills - 1 ? 400 : Math.floor(Math.random() * 120));
      proc.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');
      const text = readFileSync(target, 'utf8');
      expect(() => JSON.parse(text)).not.toThrow();
      const which = text === a ? 'a' : text === b ? 'b' : 'torn';
      expect(which, `round ${round}: file is neither full content (length ${text.length})`).not.toBe('torn');
      expect(modeOf(target)).toBe(0o600);
    }
    // The writer really was replacing the file while it was killed (not idle before its loop).
    expect(writes).toBeGreaterThan(0);
    // A crash may leave a temp file beside the target, but never in place of it.
    const leftovers = (await fs.readdir(dir)).filter((f) => f.endsWith('.tmp'));
    for (const f of leftovers) expect(f.startsWith('.mcp_servers.json.')).toBe(true);
  }, 60_000);
});
