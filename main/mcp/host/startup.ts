/**
 * The startup queue: every enabled server starts in the background, begun when the start
 * admission (./start-admission.ts) lets it, each with the config persisted at its turn
 * (docs/ARCHITECTURE.md "Readiness").
 */
import type { McpConnection } from '../connection.js';
import type { ServerRuntime } from './runtime.js';
import type { StartAdmission } from './start-admission.js';

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
 * Start the queued servers, each begun when `admission` lets it. At each server's turn the
 * *current* persisted config is read: a server deleted or disabled meanwhile is skipped, a client
 * created by add/restart meanwhile wins, and a config edited meanwhile is started as edited. Stops
 * taking servers once shutdown began. Resolves when the queue is done.
 */
export async function runStartupQueue(rt: ServerRuntime, queue: { name: string; conn: McpConnection }[], admission: StartAdmission): Promise<void> {
  await admission.run(queue, async ({ name, conn }) => {
    if (rt.shuttingDown) return;
    if (rt.conns.get(name) !== conn) return; // a management action replaced it
    const current = rt.store.get(name);
    if (!current || !current.enabled) {
      rt.conns.delete(name);
      void conn.close();
      if (current) rt.emitChanged(name);
      return;
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
  });
}
