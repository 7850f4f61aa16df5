/**
 * Renaming a server (docs/ARCHITECTURE.md "Renaming a server"). Everything the app keeps about a
 * server is keyed by its name, so a rename moves every record, one after another, and moves back
 * the ones already moved when one fails — the server ends with all its records under the new name,
 * or all under the old one. The host's own records (the config entry and its secrets, pinned tool
 * definitions, OAuth state, the sandbox scratch folder, the log) are moved here; the rest of the
 * app (permission grants, conversations' tool choices, the inspector, the catalog's install
 * records, log levels) joins as {@link RenameParticipant}s.
 */
import type { RenameRecord, ServerView } from '../../../preload/contract/index.js';
import { HostError, NameCollisionError, nameTaken, noSuchServer, recordWords, RenameFailedError } from './errors.js';
import type { ServerManagement } from './management.js';
import type { ServerRuntime } from './runtime.js';

/**
 * One part of the app that keeps records under a server's name. `move(from, to)` moves all of
 * them, or none (it throws then); moving back is `move(to, from)`.
 */
export interface RenameParticipant {
  /** What it moves, by code (the window words it when the move fails). */
  readonly record: RenameRecord;
  /** Move every record of `from` to `to`. @throws when it could not (nothing of it moved) */
  move(from: string, to: string): Promise<void> | void;
}

/** Renames servers of one host. */
export class ServerRename {
  constructor(
    private readonly rt: ServerRuntime,
    private readonly management: ServerManagement,
    /** The rest of the app's participants, asked at each rename (they are built after the host). */
    private readonly others: () => readonly RenameParticipant[],
  ) {}

  /**
   * Refuse a new name that is taken: by another server in the file (loaded or skipped) or being
   * added, ignoring case, or by another server's tool namespace. The server's own name in another
   * case, or another spelling of its own namespace (`my.fs` → `my_fs`), is free.
   * @throws HostError('conflict'), NameCollisionError — both with field `name`
   */
  private assertFree(from: string, to: string): void {
    const t = this.management.nameTakenBy(to);
    if (!t || t.existing === from) return;
    if (t.kind === 'namespace') throw new NameCollisionError(to, t.existing);
    throw nameTaken(to, t.existing, t.adding ? 'adding' : 'same');
  }

  /** The host's own records of a server, in the order they move. */
  private own(): RenameParticipant[] {
    const rt = this.rt;
    return [
      {
        record: 'settings',
        move: async (a, b) => {
          // Taken meanwhile (an import landed): refused as any taken name is.
          if (!(await rt.store.rename(a, b))) throw nameTaken(b, b, 'same');
        },
      },
      { record: 'pins', move: (a, b) => rt.pins.rename(a, b) },
      { record: 'oauth', move: (a, b) => rt.oauth.rename(a, b) },
      { record: 'sandbox', move: (a, b) => rt.sandbox?.moveScratch(a, b) },
      { record: 'log', move: (a, b) => rt.moveRecords(a, b) },
    ];
  }

  /**
   * Rename server `from` to `to`: stop it, move every record kept under its name (./rename.ts
   * header), then start it again under the new name when it is enabled. Calls to the old
   * connection end as with a restart; conversations keep the tool names they used.
   * @returns the view under the new name
   * @throws HostError('not_found' | 'conflict'), NameCollisionError, RenameFailedError (nothing changed)
   */
  async rename(from: string, to: string): Promise<ServerView> {
    const rt = this.rt;
    rt.assertOpen();
    if (!rt.store.has(from)) throw noSuchServer(from);
    if (from === to) return rt.view(from);
    this.assertFree(from, to);
    // Another action on either name while this runs (an edit still starting) loses.
    this.management.bump(from);
    this.management.bump(to);
    return this.management.whileAdding(to, async () => {
      const conn = rt.conns.get(from);
      rt.conns.delete(from);
      rt.recovery.clear(from);
      await conn?.close('the server is being renamed');
      rt.pins.forget(from);
      const steps = [...this.own(), ...this.others()];
      const done: RenameParticipant[] = [];
      for (const step of steps) {
        try {
          await step.move(from, to);
          done.push(step);
        } catch (err) {
          await this.moveBack(done, from, to);
          this.restart(from);
          if (err instanceof HostError && err.code === 'conflict') throw err;
          throw new RenameFailedError(from, to, step.record, err);
        }
      }
      rt.rebuildTools();
      rt.events.renamed?.(from, rt.view(to));
      this.restart(to);
      return rt.view(to);
    });
  }

  /** Move back what moved, last first; a part that cannot be moved back is written to the log. */
  private async moveBack(done: RenameParticipant[], from: string, to: string): Promise<void> {
    for (const step of done.reverse()) {
      try {
        await step.move(to, from);
      } catch (err) {
        this.rt.appendLog(from, 'lifecycle', `rename to "${to}" failed, and its ${recordWords(step.record)} could not be moved back: ${(err as Error).message}`);
      }
    }
  }

  /** Start a server again after a rename (or a failed one), when it is enabled. */
  private restart(name: string): void {
    const cfg = this.rt.store.get(name);
    this.rt.rebuildTools();
    if (cfg?.enabled) this.rt.launch(name, cfg);
    else this.rt.emitChanged(name);
  }
}
