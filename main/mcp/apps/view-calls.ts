/**
 * The lifetime of a view's requests (docs/ARCHITECTURE.md "MCP Apps"): a tool call or resource
 * read that a view asked for lives no longer than the view instance that asked. The window gives
 * each shown view a random instance id; when that view is torn down (Close view, the conversation
 * switched, the chat unmounted) the window releases the id, and every request of it still under
 * way is aborted — its approval card withdrawn, its server request cancelled. The carrier adds the
 * page's own lifetime (a reload or a dropped connection aborts the page's requests; see
 * main/ipc/dispatch.ts), since a page that goes away cannot release anything.
 */

/** How many released instance ids are remembered (a late request of one is refused). */
const REMEMBERED_RELEASED = 1024;

/** One request's handle: its signal (aborted on release or when `outer` aborts) and `done()`. */
export interface ViewRequest {
  signal: AbortSignal;
  /** The request is over (answered or failed): forget it. Idempotent. */
  done(): void;
}

/** Requests in flight per view instance, abortable as a group. */
export class ViewCalls {
  private readonly live = new Map<string, Set<AbortController>>();
  private readonly released = new Set<string>();

  /**
   * Start a request of view instance `instance`.
   * @param outer the carrier's signal (the page's lifetime), if any
   * @returns null when the instance was already released (the request must be refused)
   */
  begin(instance: string, outer?: AbortSignal): ViewRequest | null {
    if (this.released.has(instance)) return null;
    const ctl = new AbortController();
    const onOuter = (): void => ctl.abort(outer?.reason);
    if (outer?.aborted) ctl.abort(outer.reason);
    else outer?.addEventListener('abort', onOuter, { once: true });
    let set = this.live.get(instance);
    if (!set) this.live.set(instance, (set = new Set()));
    set.add(ctl);
    let finished = false;
    return {
      signal: ctl.signal,
      done: () => {
        if (finished) return;
        finished = true;
        outer?.removeEventListener('abort', onOuter);
        const s = this.live.get(instance);
        s?.delete(ctl);
        if (s && !s.size) this.live.delete(instance);
      },
    };
  }

  /**
   * The view instance is gone: abort its requests and refuse any later one.
   * @returns how many requests were aborted
   */
  release(instance: string): number {
    this.released.add(instance);
    if (this.released.size > REMEMBERED_RELEASED) this.released.delete(this.released.values().next().value!);
    const set = this.live.get(instance);
    this.live.delete(instance);
    if (!set) return 0;
    for (const ctl of set) ctl.abort();
    return set.size;
  }

  /** How many requests are in flight (all instances). */
  get size(): number {
    let n = 0;
    for (const s of this.live.values()) n += s.size;
    return n;
  }
}
