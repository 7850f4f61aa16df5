/**
 * No process outlives the app (docs/ARCHITECTURE.md "Start-up and shutdown"), first half: a
 * server's process group gets SIGKILL after the grace period even when the group leader already
 * exited — by itself, or on SIGTERM while a member ignores SIGTERM. Real processes
 * (test/fixtures/orphan-maker.mjs).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManagedStdioTransport } from '../../../main/mcp/stdio.js';
import { isAlive, makeTempDir, removeDir, ROOT, waitFor, waitGone } from '../helpers.js';

const ORPHAN = path.join(ROOT, 'test', 'fixtures', 'orphan-maker.mjs');
let dir: string | undefined;
const started: number[] = [];

afterEach(async () => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone, as it should be
    }
  }
  await removeDir(dir);
});

async function startOrphanMaker(mode: 'exit-now' | 'term-exit'): Promise<{ t: ManagedStdioTransport; grandchild: number; groups: Array<[number, boolean]> }> {
  dir = makeTempDir('op-pgroup-');
  const pidFile = path.join(dir, 'pid');
  const groups: Array<[number, boolean]> = [];
  const t = new ManagedStdioTransport({
    command: process.execPath,
    args: [ORPHAN, mode],
    env: { ...(process.env as Record<string, string>), TREE_PID_FILE: pidFile },
    onGroup: (pgid, alive) => groups.push([pgid, alive]),
  });
  await t.start();
  expect(await waitFor(() => { try { return readFileSync(pidFile, 'utf8').length > 0; } catch { return false; } }, 5000)).toBe(true);
  const grandchild = Number(readFileSync(pidFile, 'utf8'));
  started.push(grandchild);
  return { t, grandchild, groups };
}

describe('process groups', () => {
  it('the leader exited by itself: what it left in its group is ended', async () => {
    const { t, grandchild, groups } = await startOrphanMaker('exit-now');
    const leader = t.pid!;
    expect(await waitGone(leader, 5000)).toBe(true);
    // Nobody called close(): the transport ends the rest of the group by itself.
    expect(await waitGone(grandchild, 5000)).toBe(true);
    await t.close();
    expect(groups).toEqual([[leader, true], [leader, false]]);
  });

  it('close(): the leader leaves on SIGTERM, the member that ignores SIGTERM gets SIGKILL', async () => {
    const { t, grandchild } = await startOrphanMaker('term-exit');
    expect(isAlive(grandchild)).toBe(true);
    await t.close();
    expect(await waitGone(grandchild, 3000)).toBe(true);
  });
});
