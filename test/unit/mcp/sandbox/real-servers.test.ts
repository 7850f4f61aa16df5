/**
 * Real servers sandboxed through the host (docs/ARCHITECTURE.md "Sandbox"): server-filesystem
 * works inside its folder and sees nothing outside it, server-everything runs, the hand-written
 * bash fixture runs, the server's card shows the policy, removing the server ends its process
 * tree, and a server that ignores EOF and SIGTERM ends at once when the app is killed with
 * SIGKILL (bubblewrap's `--die-with-parent`). Skipped, and saying so, where bubblewrap cannot run.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigStore } from '../../../../main/mcp/config.js';
import { McpHost } from '../../../../main/mcp/host.js';
import { SandboxLauncher } from '../../../../main/mcp/sandbox/launcher.js';
import { SandboxSupport } from '../../../../main/mcp/sandbox/support.js';
import { sandboxRunsHere, SKIPPED_WITHOUT_BWRAP } from './availability.js';
import { BASH_SERVER, ROOT, localServer, makeTempDir, removeDir, waitFor, waitNoChildren } from '../../helpers.js';

const FS_SERVER = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const EVERYTHING = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const PROBE = path.join(ROOT, 'test/fixtures/sandbox-probe-server.mjs');
const support = new SandboxSupport();
const runs = await sandboxRunsHere(support);

function text(r: { content?: unknown }): string {
  return ((r.content ?? []) as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');
}

/** Processes whose command line contains `token` (Linux /proc). */
function processesWith(token: string): number[] {
  const out: number[] = [];
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      if (readFileSync(`/proc/${e}/cmdline`, 'utf8').includes(token)) out.push(Number(e));
    } catch {
      // gone
    }
  }
  return out;
}

/** Whether process `p` is `root` or descends from it (parent chain in /proc; false once a link is gone). */
function descendsFrom(p: number, root: number): boolean {
  for (let cur = p, hops = 0; cur > 1 && hops < 64; hops++) {
    if (cur === root) return true;
    try {
      // /proc/PID/stat: "pid (comm) state ppid …"; comm may hold spaces, so read after the last ')'.
      const stat = readFileSync(`/proc/${cur}/stat`, 'utf8');
      cur = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    } catch {
      return false;
    }
  }
  return false;
}

describe.skipIf(!runs)(`real servers in the sandbox ${SKIPPED_WITHOUT_BWRAP}`, () => {
  let stateDir: string;
  let work: string;
  let outside: string;
  let host: McpHost;

  beforeEach(async () => {
    stateDir = makeTempDir('op-sbx-state-');
    work = makeTempDir('op-sbx-work-');
    outside = makeTempDir('op-sbx-outside-');
    writeFileSync(path.join(work, 'inside.txt'), 'inside');
    writeFileSync(path.join(outside, 'secret.txt'), 'outside');
    const store = new ConfigStore(stateDir);
    await store.load();
    await store.put('files', localServer([process.execPath, FS_SERVER, work]));
    await store.put('everything', localServer([process.execPath, EVERYTHING]));
    await store.put('bash', localServer(['bash', BASH_SERVER]));
    host = new McpHost(store, { sandbox: new SandboxLauncher({ stateDir, support }) });
    host.startAll();
    expect(await waitFor(() => ['files', 'everything', 'bash'].every((n) => host.view(n).state.kind === 'ready'), 30_000)).toBe(true);
  });

  afterEach(async () => {
    await host.shutdown();
    expect(await waitNoChildren(15_000)).toBe(true);
    for (const d of [stateDir, work, outside]) await removeDir(d);
  });

  it('server-filesystem works inside its folder and its card shows the policy', async () => {
    const v = host.view('files');
    expect(v.sandbox).toMatchObject({ kind: 'on', engine: 'bubblewrap' });
    expect(v.sandbox?.kind === 'on' && v.sandbox.policy?.write).toContain(work);
    expect(text(await host.callTool('files__read_text_file', { path: path.join(work, 'inside.txt') }))).toBe('inside');
    await host.callTool('files__write_file', { path: path.join(work, 'new.txt'), content: 'written' });
    expect(readFileSync(path.join(work, 'new.txt'), 'utf8')).toBe('written');
  });

  it('server-everything and the bash fixture run sandboxed', async () => {
    expect(text(await host.callTool('everything__echo', { message: 'hi' }))).toContain('hi');
    expect(host.view('bash').sandbox?.kind).toBe('on');
    expect(host.view('bash').tools.length).toBeGreaterThan(0);
  });

  it('a read the sandbox hid shows on the card as a denial; a path missing everywhere does not', async () => {
    await host.add('probe', { type: 'local', command: [process.execPath, PROBE] });
    expect(await waitFor(() => host.view('probe').state.kind === 'ready', 20_000)).toBe(true);
    expect(text(await host.callTool('probe__probe', { op: 'read', target: path.join(outside, 'secret.txt') }))).toMatch(/^error ENOENT/);
    expect(text(await host.callTool('probe__probe', { op: 'read', target: path.join(outside, 'nowhere', 'missing.txt') }))).toMatch(/^error ENOENT/);
    expect(text(await host.callTool('probe__probe', { op: 'write', target: path.join(outside, 'new.txt') }))).toMatch(/^error ENOENT/);
    expect(text(await host.callTool('probe__probe', { op: 'read', target: path.join(outside, 'secret.txt') }))).toMatch(/^error ENOENT/);
    expect(await waitFor(() => host.view('probe').sandbox_denials.length > 1, 5000)).toBe(true);
    expect(host.view('probe').sandbox_denials).toEqual([
      expect.objectContaining({ kind: 'read', target: path.join(outside, 'secret.txt'), count: 2 }),
      expect.objectContaining({ kind: 'read', target: outside, count: 1 }),
    ]);
    expect(host.logs('probe').some((l) => l.source === 'lifecycle' && l.text === `sandbox blocked reading ${path.join(outside, 'secret.txt')}`)).toBe(true);
  });

  it('a denial stays on the card across restarts until a grant allows it; a never-visible path is not grantable', async () => {
    await host.add('probe', { type: 'local', command: [process.execPath, PROBE] });
    expect(await waitFor(() => host.view('probe').state.kind === 'ready', 20_000)).toBe(true);
    const secret = path.join(outside, 'secret.txt');
    expect(text(await host.callTool('probe__probe', { op: 'read', target: secret }))).toMatch(/^error ENOENT/);
    expect(text(await host.callTool('probe__probe', { op: 'read', target: path.join(stateDir, 'mcp_servers.json') }))).toMatch(/^error ENOENT/);
    expect(await waitFor(() => host.view('probe').sandbox_denials.length === 2, 5000)).toBe(true);
    expect(host.view('probe').sandbox_denials).toEqual([
      expect.objectContaining({ kind: 'read', target: secret, grantable: true }),
      expect.objectContaining({ kind: 'read', target: path.join(stateDir, 'mcp_servers.json'), grantable: false }),
    ]);
    // A plain restart: nothing was granted, both stay.
    await host.restart('probe');
    expect(await waitFor(() => host.view('probe').state.kind === 'ready', 20_000)).toBe(true);
    expect(host.view('probe').sandbox_denials.map((d) => d.target)).toEqual([secret, path.join(stateDir, 'mcp_servers.json')]);
    // Granting the secret's file: only its denial goes.
    await host.update('probe', { sandbox: { read: [secret] } });
    expect(await waitFor(() => host.view('probe').state.kind === 'ready', 20_000)).toBe(true);
    expect(host.view('probe').sandbox_denials.map((d) => d.target)).toEqual([path.join(stateDir, 'mcp_servers.json')]);
  });

  it('a connection a program makes past the proxy is shown as blocked, with its host', async () => {
    await host.add('probe', { type: 'local', command: [process.execPath, PROBE] });
    expect(await waitFor(() => host.view('probe').state.kind === 'ready', 20_000)).toBe(true);
    expect(text(await host.callTool('probe__probe', { op: 'connect', target: '1.1.1.1:443' }))).toMatch(/^error (ENETUNREACH|EHOSTUNREACH)/);
    expect(await waitFor(() => host.view('probe').sandbox_denials.length === 1, 5000)).toBe(true);
    expect(host.view('probe').sandbox_denials[0]).toMatchObject({ kind: 'connect', target: '1.1.1.1:443', grantable: true });
  });

  it('a server the user unsandboxed says so, and reads outside', async () => {
    await host.add('loose', { type: 'local', command: [process.execPath, PROBE], sandbox: { enabled: false } });
    expect(await waitFor(() => host.view('loose').state.kind === 'ready', 20_000)).toBe(true);
    expect(host.view('loose').sandbox).toEqual({ kind: 'off' });
    expect(text(await host.callTool('loose__probe', { op: 'read', target: path.join(outside, 'secret.txt') }))).toBe('ok outside');
  });

  it('removing a sandboxed server ends its process tree', async () => {
    const pid = host.view('everything').resolved_command ? (host as unknown as { rt: { conns: Map<string, { pid: number | null }> } }).rt.conns.get('everything')!.pid : null;
    expect(pid).toBeGreaterThan(0);
    // Only this server's own tree: other suites (e2e) may run server-everything at the same time.
    const tree = processesWith(EVERYTHING).filter((p) => descendsFrom(p, pid!));
    expect(tree.length).toBeGreaterThan(0);
    await host.remove('everything');
    expect(await waitFor(() => !processesWith(EVERYTHING).some((p) => tree.includes(p)), 5000)).toBe(true);
  });
});

describe.skipIf(!runs)(`a sandboxed server and the app ${SKIPPED_WITHOUT_BWRAP}`, () => {
  it('ends at once when the app is killed with SIGKILL, though it ignores EOF and SIGTERM', async () => {
    const stateDir = makeTempDir('op-sbx-kill-');
    const mark = `mark-${process.pid}-${Date.now()}`;
    const app = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'test/fixtures/sandbox-app.mts'), stateDir, PROBE, mark], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      let out = '';
      app.stdout.on('data', (c: Buffer) => (out += c.toString()));
      expect(await waitFor(() => out.includes('ready'), 20_000)).toBe(true);
      expect(processesWith(mark).length).toBeGreaterThan(0);
      app.kill('SIGKILL');
      expect(await waitFor(() => processesWith(mark).length === 0, 3000)).toBe(true);
    } finally {
      app.kill('SIGKILL');
      await removeDir(stateDir);
    }
  });
});

describe.skipIf(!runs)(`an npx -y server in the sandbox ${SKIPPED_WITHOUT_BWRAP}`, () => {
  it('fetches its package through the proxy on first run, and keeps its memory in its scratch folder across restarts', { timeout: 240_000 }, async () => {
    const stateDir = makeTempDir('op-sbx-npx-');
    const store = new ConfigStore(stateDir);
    await store.load();
    await store.put('memory', localServer(['npx', '-y', '@modelcontextprotocol/server-memory@2026.8.31'], { timeout_seconds: 180 }));
    const launcher = new SandboxLauncher({ stateDir, support });
    let host = new McpHost(store, { sandbox: launcher });
    try {
      host.startAll();
      await host.whenStarted();
      expect(host.view('memory').state.kind).toBe('ready');
      const policy = host.view('memory').sandbox;
      expect(policy?.kind === 'on' && policy.policy?.fetch_hosts).toContain('registry.npmjs.org');
      await host.callTool('memory__create_entities', { entities: [{ name: 'sandbox', entityType: 'test', observations: ['kept'] }] });
      await host.shutdown();
      host = new McpHost(store, { sandbox: launcher });
      host.startAll();
      await host.whenStarted();
      expect(text(await host.callTool('memory__read_graph', {}))).toContain('kept');
      // The package (and its memory file) live under the server's scratch folder, not in ~/.npm.
      const files = filesNamed(launcher.scratch('memory'), 'memory.jsonl');
      expect(files.length).toBe(1);
    } finally {
      await host.shutdown();
      await removeDir(stateDir);
    }
  });
});

/** Files named `name` under `dir` (recursive). */
function filesNamed(dir: string, name: string): string[] {
  return (readdirSync(dir, { recursive: true, encoding: 'utf8' }) as string[]).filter((p) => path.basename(p) === name);
}
