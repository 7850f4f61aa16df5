/**
 * No process outlives the app (docs/ARCHITECTURE.md "Start-up and shutdown"), second half: when the
 * app itself was killed (-9), the servers left from that run are found at the next start (from the
 * process ledger, verified by the run marker in their environment) and ended; a process group that
 * does not carry the marker is never signalled. Real processes throughout.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppCore } from '../../../main/core.js';
import { LEDGER_FILE, RUN_MARKER_ENV } from '../../../main/mcp/process-ledger.js';
import { MemorySecretStore } from '../../../main/secrets/store.js';
import { isAlive, makeTempDir, removeDir, ROOT, waitFor, waitGone } from '../helpers.js';


const CHILD = path.join(ROOT, 'test', 'unit', 'fixtures', 'crash-child.ts');
const WRAPPER = path.join(ROOT, 'test', 'fixtures', 'tree-wrapper.mjs');
const ORPHAN = path.join(ROOT, 'test', 'fixtures', 'orphan-maker.mjs');

/** The process group of a live process (Linux /proc), or null. */
function processGroupOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
  } catch {
    return null;
  }
}

let dir: string | undefined;
const cleanup: number[] = [];
afterEach(async () => {
  for (const pid of cleanup.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  await removeDir(dir);
});

/**
 * The ledger is what ends an unsandboxed server left by a killed app; a sandboxed one dies with
 * the app (bubblewrap's --die-with-parent, test/unit/mcp/sandbox/real-servers.test.ts) and sees
 * its own PID namespace, so these servers run unsandboxed.
 */
const UNSANDBOXED = { sandbox: { enabled: false, read: [], write: [], hosts: [] } };

describe('after the app was killed with -9', () => {
  it('the next start ends the servers of that run, and nothing else', async () => {
    dir = makeTempDir('op-ledger-');
    const pidFile = path.join(dir, 'grandchild.pid');
    const orphanPidFile = path.join(dir, 'orphan.pid');
    writeFileSync(
      path.join(dir, 'mcp_servers.json'),
      JSON.stringify({
        servers: {
          tree: { type: 'local', command: [process.execPath, WRAPPER], env: { TREE_PID_FILE: pidFile }, enabled: true, timeout_seconds: 20, ...UNSANDBOXED },
          // A server that survives its app: it ignores the end of stdin, its child ignores SIGTERM.
          stubborn: { type: 'local', command: [process.execPath, ORPHAN, 'term-exit'], env: { TREE_PID_FILE: orphanPidFile }, enabled: true, timeout_seconds: 30, ...UNSANDBOXED },
        },
      }),
    );
    // One process (no tsx launcher in between), so SIGKILL really ends the app.
    const app: ChildProcess = spawn(process.execPath, ['--import', 'tsx', CHILD, dir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    app.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    app.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    expect(await waitFor(() => out.includes('READY'), 30_000), out).toBe(true);
    expect(out).toContain('READY ready');
    expect(await waitFor(() => { try { return readFileSync(orphanPidFile, 'utf8').length > 0; } catch { return false; } }, 10_000)).toBe(true);
    const grandchild = Number(readFileSync(orphanPidFile, 'utf8'));
    const ledger = JSON.parse(readFileSync(path.join(dir, LEDGER_FILE), 'utf8')) as { groups: number[]; run: string };
    expect(ledger.groups).toHaveLength(2);
    const pgid = ledger.groups.find((g) => processGroupOf(grandchild) === g);
    expect(pgid).toBeDefined();
    cleanup.push(grandchild, ...ledger.groups);

    // An unrelated process group that the ledger also (wrongly) names: it lacks the marker.
    const bystander = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { detached: true, stdio: 'ignore' });
    cleanup.push(bystander.pid!);
    writeFileSync(path.join(dir, LEDGER_FILE), JSON.stringify({ ...ledger, groups: [...ledger.groups, bystander.pid] }));

    app.kill('SIGKILL');
    await new Promise((r) => app.once('exit', r));
    // The app is gone; its server tree is still there (that is the defect being fixed).
    expect(isAlive(pgid!)).toBe(true);
    expect(isAlive(grandchild)).toBe(true);

    const core = new AppCore({ stateDir: dir, shell: 'browser', secrets: new MemorySecretStore() });
    writeFileSync(path.join(dir, 'mcp_servers.json'), JSON.stringify({ servers: {} }));
    await core.start();
    try {
      expect(await waitGone(grandchild, 5000)).toBe(true);
      expect(await waitGone(pgid!, 5000)).toBe(true);
      expect(isAlive(bystander.pid!)).toBe(true);
    } finally {
      await core.shutdown();
    }
    const after = JSON.parse(readFileSync(path.join(dir, LEDGER_FILE), 'utf8')) as { groups: number[]; run: string };
    expect(after.groups).toEqual([]);
    expect(after.run).not.toBe(ledger.run);
    expect(RUN_MARKER_ENV).toMatch(/^OPENPROGRAM_/);
  }, 60_000);
});
