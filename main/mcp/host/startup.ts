/**
 * The startup queue: every enabled server starts in the background, at most `concurrency` at
 * once, each with the config persisted at its turn (docs/ARCHITECTURE.md "Readiness").
 */
import os from 'node:os';
import type { McpConnection } from '../connection.js';
import type { ServerRuntime } from './runtime.js';

/**
 * How many servers start at once by default: twice the CPU count, at least 4 and at most 20.
 * Starting a server is mostly waiting (process start, npm, network), but each start also costs
 * CPU, so on a small machine a lower bound keeps the window responsive while servers start.
 */
export function defaultStartConcurrency(cpus = os.availableParallelism?.() ?? os.cpus().length): number {
  return Math.min(20, Math.max(4, 2 * cpus));
}

/**
 * Queue every enabled server that has no connection yet: each is visible as `starting` at once.
 * Returns the queue for {@link runStartupQueue}.
 */
export function queueEnabledServers(rt: ServerRuntime): { name: string; conn: McpConnection }[] {
  const queue: { name: string; conn: McpConnection }[] = [];
  for (const name of rt.store.names()) {
    const cfg = rt.store.get(name)!;
    if (!cfg.enabled || rt.conns.has(name)) continue;
    const conn = rt.makeConnection(name, cfg);
    rt.conns.set(name, conn);
    queue.push({ name, conn });
    rt.emitChanged(name);
  }
  return queue;
}

/**
 * Start the queued servers, at most `concurrency` at once. At each server's turn the *current*
 * persisted config is read: a server deleted or disabled meanwhile is skipped, a client created
 * by add/restart meanwhile wins, and a config edited meanwhile is started as edited. Stops taking
 * servers once shutdown began. Resolves when the queue is done.
 */
export async function runStartupQueue(rt: ServerRuntime, queue: { name: string; conn: McpConnection }[], concurrency: number): Promise<void> {
  const worker = async (): Promise<void> => {
    for (let item = queue.shift(); item; item = queue.shift()) {
      if (rt.shuttingDown) return;
      const { name, conn } = item;
      if (rt.conns.get(name) !== conn) continue; // a management action replaced it
      const current = rt.store.get(name);
      if (!current || !current.enabled) {
        rt.conns.delete(name);
        void conn.close();
        if (current) rt.emitChanged(name);
        continue;
      }
      if (JSON.stringify(current) !== JSON.stringify(conn.config)) {
        // The persisted config changed since the snapshot: start with the current one.
        const fresh = rt.makeConnection(name, current);
        rt.conns.set(name, fresh);
        void conn.close();
        await fresh.start();
      } else {
        await conn.start();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, worker));
}
