/**
 * Keeping a connection's lists current: the `list_changed` notifications coalesced into one
 * re-list per burst, and on 2026-07-28 the `subscriptions/listen` stream that carries them
 * (MCP spec 2026-07-28 "Subscriptions"). docs/ARCHITECTURE.md "Protocol eras".
 *
 * One {@link SessionLists} per session: its state is three small records and its behaviour lives
 * on the prototype, so an idle connection holds no closures for it beyond the three notification
 * handlers (docs/ARCHITECTURE.md "Memory per server").
 */
import type { Client } from '@modelcontextprotocol/client';
import type { ListName as WatchedList } from './listing.js';

/** Most times a dropped `subscriptions/listen` stream is opened again per session. */
export const MAX_RELISTENS = 5;


/** What a session's lists need of their connection. */
export interface ListsOwner {
  /** Whether `session` is still the connection's current, open session (else re-listing stops). */
  isCurrent(session: Client): boolean;
  /** Read one whole list again; `timeoutMs` absent = the connection's own timeout. */
  relist(what: WatchedList, timeoutMs?: number): Promise<void>;
  /** Called after each successful re-list. */
  changed(): void;
  /** Write a lifecycle line to the server's log. */
  note(text: string): void;
}

/** One list's re-list state. */
interface ListState {
  state: 'idle' | 'scheduled' | 'running';
  again: boolean;
}

const NOTIFICATIONS = {
  tools: 'notifications/tools/list_changed',
  resources: 'notifications/resources/list_changed',
  prompts: 'notifications/prompts/list_changed',
} as const;

/**
 * The lists of one session. list_changed is honoured even from servers that did not declare
 * `listChanged`. A burst of notifications causes one re-list: while one is scheduled, more are
 * absorbed; any that come while a listing runs (the initial one included) ask for exactly one
 * more afterwards.
 */
export class SessionLists {
  private readonly lists: Record<WatchedList, ListState> = {
    tools: { state: 'idle', again: false },
    resources: { state: 'idle', again: false },
    prompts: { state: 'idle', again: false },
  };

  constructor(
    private readonly session: Client,
    private readonly owner: ListsOwner,
  ) {}

  /** Route the session's three `list_changed` notifications here. */
  install(): void {
    this.session.setNotificationHandler(NOTIFICATIONS.tools, () => this.notify('tools'));
    this.session.setNotificationHandler(NOTIFICATIONS.resources, () => this.notify('resources'));
    this.session.setNotificationHandler(NOTIFICATIONS.prompts, () => this.notify('prompts'));
  }

  private get live(): boolean {
    return this.owner.isCurrent(this.session);
  }

  /** A `list_changed` for `what` arrived (or the lists must be read once more). */
  notify(what: WatchedList): void {
    const l = this.lists[what];
    if (l.state === 'scheduled') return;
    if (l.state === 'running') {
      l.again = true;
      return;
    }
    this.owner.note(`${what}/list_changed received`);
    l.state = 'scheduled';
    l.again = true;
    // Notifications that arrived in the same read are handled before this runs.
    setImmediate(() => {
      l.state = 'running';
      void this.loop(what);
    });
  }

  /** The initial listing of `what`, counted as a running re-list (its errors are the caller's). */
  async initial(what: WatchedList, timeoutMs: number): Promise<void> {
    this.lists[what].state = 'running';
    try {
      await this.owner.relist(what, timeoutMs);
    } finally {
      void this.loop(what);
    }
  }

  private async loop(what: WatchedList): Promise<void> {
    const l = this.lists[what];
    while (l.again) {
      l.again = false;
      if (!this.live) break;
      try {
        await this.owner.relist(what);
        this.owner.changed();
      } catch (err) {
        this.owner.note(`refreshing ${what} failed: ${(err as Error).message}`);
      }
    }
    l.state = 'idle';
  }

  /**
   * 2026-07-28: list_changed notifications come only on a `subscriptions/listen` stream the
   * client opened; the SDK dispatches them to the handlers {@link install} registered. Asks for
   * every list the server offers; a stream the server drops is opened again (at most
   * {@link MAX_RELISTENS} times per session). Never throws: without the stream the lists are
   * still correct as of the last listing. When the stream opens, every list is read once more, so
   * a change made before it opened is not lost.
   */
  async listen(timeoutMs: number, attempt = 0): Promise<void> {
    const caps = this.session.getServerCapabilities() ?? {};
    const filter = { ...(caps.tools ? { toolsListChanged: true } : {}), ...(caps.resources ? { resourcesListChanged: true } : {}), ...(caps.prompts ? { promptsListChanged: true } : {}) };
    if (Object.keys(filter).length === 0 || !this.live) return;
    try {
      const subscription = await this.session.listen(filter, { timeout: timeoutMs });
      this.owner.note(`listening for list changes (${Object.keys(subscription.honoredFilter).join(', ') || 'nothing honored'})`);
      void subscription.closed.then((how) => this.reopen(how, timeoutMs, attempt));
    } catch (err) {
      this.owner.note(`listening for list changes failed: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    if (attempt > 0 || !this.live) return;
    this.notify('tools');
    this.notify('resources');
    this.notify('prompts');
  }

  /** The stream closed: open it again after a second when the server dropped it. */
  private reopen(how: string, timeoutMs: number, attempt: number): void {
    if (how !== 'remote' || !this.live) return;
    if (attempt + 1 > MAX_RELISTENS) return void this.owner.note('the list-change stream closed again; not reopening it');
    this.owner.note('the list-change stream closed; opening it again');
    setTimeout(() => void this.listen(timeoutMs, attempt + 1), 1000).unref();
  }
}
