/**
 * The sandbox against real bubblewrap (docs/ARCHITECTURE.md "Sandbox"): a hostile fixture server
 * (test/fixtures/sandbox-probe-server.mjs) runs inside the policy and tries, from inside, every
 * access the default policy denies — the app's state folder, `~/.ssh` (even with the whole home
 * folder granted), writing outside its grants, a loopback connection, a host not allowed through
 * the proxy — while its argument folder, its scratch folder and an allowed host work. Skipped, and
 * saying so, where bubblewrap cannot run.
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { ManagedStdioTransport } from '../../../../main/mcp/stdio.js';
import { SandboxLauncher, type SandboxedLaunch } from '../../../../main/mcp/sandbox/launcher.js';
import { SandboxSupport } from '../../../../main/mcp/sandbox/support.js';
import { sandboxRunsHere, SKIPPED_WITHOUT_BWRAP } from './availability.js';
import { DEFAULT_SANDBOX_SETTINGS, type SandboxDenial, type SandboxSettings } from '../../../../preload/contract/index.js';
import { ROOT, makeTempDir, removeDir } from '../../helpers.js';

const PROBE = path.join(ROOT, 'test/fixtures/sandbox-probe-server.mjs');
const support = new SandboxSupport();
const runs = await sandboxRunsHere(support);

interface Running {
  client: Client;
  launch: SandboxedLaunch;
  denials: Omit<SandboxDenial, 'count' | 'at'>[];
  probe(op: string, target: string, data?: string): Promise<string>;
  close(): Promise<void>;
}

describe.skipIf(!runs)(`sandbox (bubblewrap) ${SKIPPED_WITHOUT_BWRAP}`, () => {
  let base: string;
  let stateDir: string;
  let home: string;
  let argDir: string;
  let outside: string;
  let launcher: SandboxLauncher;
  let loopback: net.Server;
  let loopbackPort: number;

  beforeAll(async () => {
    base = makeTempDir('sbx-');
    stateDir = path.join(base, 'state');
    home = path.join(base, 'home');
    argDir = path.join(base, 'work');
    outside = path.join(base, 'outside');
    for (const d of [stateDir, path.join(home, '.ssh'), argDir, outside, path.join(home, 'Documents')]) mkdirSync(d, { recursive: true });
    writeFileSync(path.join(stateDir, 'mcp_servers.json'), '{"servers":{"secret":"state"}}');
    writeFileSync(path.join(home, '.ssh', 'id_ed25519'), 'PRIVATE KEY');
    writeFileSync(path.join(home, 'Documents', 'notes.txt'), 'my notes');
    writeFileSync(path.join(outside, 'x.txt'), 'outside');
    writeFileSync(path.join(argDir, 'given.txt'), 'given');
    launcher = new SandboxLauncher({ stateDir, support, home });
    loopback = net.createServer((s) => s.end('hello'));
    await new Promise<void>((r) => loopback.listen(0, '127.0.0.1', () => r()));
    loopbackPort = (loopback.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((r) => loopback.close(() => r()));
    removeDir(base);
  });

  async function start(name: string, settings: Partial<SandboxSettings> = {}, extraArgs: string[] = []): Promise<Running> {
    const denials: Omit<SandboxDenial, 'count' | 'at'>[] = [];
    const launch = await launcher.wrap({
      server: name,
      settings: { ...DEFAULT_SANDBOX_SETTINGS, ...settings },
      roots: [],
      launch: { command: process.execPath, args: [PROBE, argDir, ...extraArgs], env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } },
      onDenial: (d) => denials.push(d),
    });
    const transport = new ManagedStdioTransport({ command: launch.command, args: launch.args, env: launch.env, cwd: launch.cwd });
    const client = new Client({ name: 't', version: '1' });
    await client.connect(transport);
    launch.ready();
    return {
      client,
      launch,
      denials,
      async probe(op, target, data) {
        const r = await client.callTool({ name: 'probe', arguments: { op, target, ...(data !== undefined ? { data } : {}) } });
        return (r.content as { type: string; text: string }[])[0]!.text;
      },
      async close() {
        await client.close();
        await launch.dispose();
      },
    };
  }

  it('runs the server in bubblewrap with its policy on the card', async () => {
    const s = await start('probe-a');
    try {
      expect(s.launch.state.kind).toBe('on');
      expect(path.basename(s.launch.command)).toBe('bwrap');
      expect(s.launch.policy!.write).toContain(argDir);
    } finally {
      await s.close();
    }
  });

  it('never shows the state folder, even through a granted parent', async () => {
    const s = await start('probe-b', { read: [base] });
    try {
      expect(await s.probe('read', path.join(stateDir, 'mcp_servers.json'))).toMatch(/^error /);
      expect(await s.probe('read', path.join(outside, 'x.txt'))).toBe('ok outside');
    } finally {
      await s.close();
    }
  });

  it('never shows ~/.ssh, even with the whole home folder granted', async () => {
    const s = await start('probe-c', { read: ['~'] });
    try {
      expect(await s.probe('read', path.join(home, 'Documents', 'notes.txt'))).toBe('ok my notes');
      expect(await s.probe('read', path.join(home, '.ssh', 'id_ed25519'))).toMatch(/^error /);
      expect(s.launch.policy!.deny).toContain(path.join(home, '.ssh'));
    } finally {
      await s.close();
    }
  });

  it('reads and writes its argument folder and nothing else', async () => {
    const s = await start('probe-d');
    try {
      expect(await s.probe('read', path.join(argDir, 'given.txt'))).toBe('ok given');
      expect(await s.probe('write', path.join(argDir, 'made.txt'), 'made')).toBe('ok');
      expect(readFileSync(path.join(argDir, 'made.txt'), 'utf8')).toBe('made');
      expect(await s.probe('read', path.join(outside, 'x.txt'))).toMatch(/^error ENOENT/);
      expect(await s.probe('read', path.join(home, 'Documents', 'notes.txt'))).toMatch(/^error ENOENT/);
      expect(await s.probe('write', path.join(outside, 'y.txt'))).toMatch(/^error /);
      expect(existsSync(path.join(outside, 'y.txt'))).toBe(false);
      expect(await s.probe('write', '/usr/lib/sandbox-escape.txt')).toMatch(/^error E(ROFS|ACCES|PERM)/);
    } finally {
      await s.close();
    }
  });

  it('keeps its scratch folder (its HOME) across restarts', async () => {
    const first = await start('probe-e');
    const homeInside = (await first.probe('env', 'HOME')).slice(3);
    expect(homeInside).toBe(path.join(launcher.scratch('probe-e'), 'home'));
    expect(await first.probe('write', path.join(homeInside, 'memory.jsonl'), 'remembered')).toBe('ok');
    await first.close();
    const second = await start('probe-e');
    try {
      expect(await second.probe('read', path.join(homeInside, 'memory.jsonl'))).toBe('ok remembered');
      expect(await second.probe('list', launcher.scratch('probe-d'))).toMatch(/^error /);
    } finally {
      await second.close();
    }
  });

  it('has no network: a loopback connection on the host does not reach it', async () => {
    const s = await start('probe-f');
    try {
      expect(await s.probe('connect', `127.0.0.1:${loopbackPort}`)).toMatch(/^error ECONNREFUSED/);
      expect(await s.probe('env', 'HTTPS_PROXY')).toBe('ok ');
    } finally {
      await s.close();
    }
  });

  it('reaches an allowed host through the proxy, and a host not allowed is refused and reported', async () => {
    const s = await start('probe-g', { hosts: [`127.0.0.1:${loopbackPort}`] });
    try {
      expect(await s.probe('tunnel', `127.0.0.1:${loopbackPort}`)).toBe('status 200');
      expect(await s.probe('tunnel', `127.0.0.1:${loopbackPort + 1}`)).toBe('status 403');
      expect(await s.probe('tunnel', 'example.com:443')).toBe('status 403');
      expect(s.denials).toEqual([
        { kind: 'connect', target: `127.0.0.1:${loopbackPort + 1}`, grantable: true },
        { kind: 'connect', target: 'example.com:443', grantable: true },
      ]);
      expect(await s.probe('connect', `127.0.0.1:${loopbackPort}`)).toMatch(/^error ECONNREFUSED/);
    } finally {
      await s.close();
    }
  });

  it('refuses a grant inside a denied path and says so', async () => {
    const s = await start('probe-h', { write: [path.join(stateDir)] });
    try {
      expect(s.launch.policy!.refused).toEqual([stateDir]);
      expect(await s.probe('read', path.join(stateDir, 'mcp_servers.json'))).toMatch(/^error /);
    } finally {
      await s.close();
    }
  });

  it('runs unsandboxed only when the user turned it off, and says so', async () => {
    const s = await start('probe-i', { enabled: false });
    try {
      expect(s.launch.state).toEqual({ kind: 'off' });
      expect(await s.probe('read', path.join(outside, 'x.txt'))).toBe('ok outside');
    } finally {
      await s.close();
    }
  });
});
