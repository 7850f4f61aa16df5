/**
 * Keeping a connection's lists current: the `list_changed` notifications coalesced into one
 * re-list per burst, and on 2026-07-28 the `subscriptions/listen` stream that carries them
 * (MCP spec 2026-07-28 "Subscriptions"). docs/ARCHITECTURE.md "Protocol eras".
 */
import type { Client } from '@modelcontextprotocol/client';

/** Most times a dropped `subscriptions/listen` stream is opened again per session. */
export const MAX_RELISTENS = 5;

/** One list's re-listing: `notify` on each list_changed; `initial` wraps the first listing. */
export interface Relister {
  notify: () => void;
  /** The initial listing, counted as a running re-list (its errors are the caller's). */
  initial: (list: () => Promise<void>) => Promise<void>;
}

/**
 * list_changed is honoured even from servers that did not declare `listChanged`. A burst of
 * notifications causes one re-list: while one is scheduled, more are absorbed; any that come
 * while a listing runs (the initial one included) ask for exactly one more afterwards.
 * @param live whether the session is still the connection's current one (else re-listing stops)
 * @param changed called after each successful re-list
 * @param note writes a lifecycle line to the server's log
 */
export function coalescedRelist(what: 'tools' | 'resources' | 'prompts', refresh: () => Promise<void>, live: () => boolean, changed: () => void, note: (text: string) => void): Relister {
  let state: 'idle' | 'scheduled' | 'running' = 'idle';
  let again = false;
  const loop = async (): Promise<void> => {
    while (again) {
      again = false;
      if (!live()) break;
      try {
        await refresh();
        changed();
      } catch (err) {
        note(`refreshing ${what} failed: ${(err as Error).message}`);
      }
    }
    state = 'idle';
  };
  return {
    notify: (): void => {
      if (state === 'scheduled') return;
      if (state === 'running') {
        again = true;
        return;
      }
      note(`${what}/list_changed received`);
      state = 'scheduled';
      again = true;
      // Notifications that arrived in the same read are handled before this runs.
      setImmediate(() => {
        state = 'running';
        void loop();
      });
    },
    initial: async (list: () => Promise<void>): Promise<void> => {
      state = 'running';
      try {
        await list();
      } finally {
        void loop();
      }
    },
  };
}

/**
 * 2026-07-28: list_changed notifications come only on a `subscriptions/listen` stream the
 * client opened; the SDK dispatches them to the handlers registered on `client`. Asks for every
 * list the server offers; a stream the server drops is opened again (at most
 * {@link MAX_RELISTENS} times per session). Never throws: without the stream the lists are still
 * correct as of the last listing. Resolves true when the stream is open.
 * @param live whether `client` is still the connection's current, open session
 */
export async function listenForChanges(client: Client, timeoutMs: number, live: () => boolean, note: (text: string) => void, attempt = 0): Promise<boolean> {
  const caps = client.getServerCapabilities() ?? {};
  const filter = { ...(caps.tools ? { toolsListChanged: true } : {}), ...(caps.resources ? { resourcesListChanged: true } : {}), ...(caps.prompts ? { promptsListChanged: true } : {}) };
  if (Object.keys(filter).length === 0 || !live()) return false;
  try {
    const subscription = await client.listen(filter, { timeout: timeoutMs });
    note(`listening for list changes (${Object.keys(subscription.honoredFilter).join(', ') || 'nothing honored'})`);
    void subscription.closed.then((how) => {
      if (how !== 'remote' || !live()) return;
      if (attempt + 1 > MAX_RELISTENS) return void note('the list-change stream closed again; not reopening it');
      note('the list-change stream closed; opening it again');
      setTimeout(() => void listenForChanges(client, timeoutMs, live, note, attempt + 1), 1000).unref();
    });
    return true;
  } catch (err) {
    note(`listening for list changes failed: ${err instanceof Error ? err.message : String(err)}`);
    return false;
  }
}
