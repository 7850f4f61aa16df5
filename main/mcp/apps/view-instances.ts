/**
 * The shown MCP App views main knows of (docs/ARCHITECTURE.md "MCP Apps: isolation"). Every view
 * the window shows was issued here by `apps.view`: a random instance id bound to exactly one tool
 * call (conversation, run, call id), one server and one tool, and an origin label of its own (so
 * no two views share an origin). A view's requests name only its instance id; main takes the
 * server, the call and the conversation from here, never from the request, so a view cannot speak
 * for another view, another call or another server. An instance lives until the window releases
 * it (`apps.releaseView`), the page that asked for it goes away (the carrier's signal), or it is
 * the oldest of too many; its requests still under way are aborted then (approval cards
 * withdrawn, server requests cancelled) and later requests naming it are refused.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { McpUiResourceCsp } from '@modelcontextprotocol/ext-apps/app-bridge';

/** Most views shown at once across all pages; past it the oldest is released. */
export const MAX_SHOWN_VIEWS = 512;

/** An origin label: `v` + 32 lowercase hex digits (a DNS label, and a host on the view scheme). */
export const VIEW_LABEL = /^v[0-9a-f]{32}$/;

/** The tool call a view belongs to. */
export interface ViewCallKey {
  conversation_id: string;
  run_id: string;
  call_id: string;
}

/** One shown view, as main issued it. */
export interface ShownView extends ViewCallKey {
  /** The random instance id the window names in every request of this view. */
  readonly id: string;
  /** The view's origin label (see {@link ViewInstances.labelFor}). */
  readonly label: string;
  /** The server the view belongs to: the only one its requests reach. */
  readonly server: string;
  /** The tool whose view this is (its real name on that server). */
  readonly tool: string;
  /** The view's sanitized CSP (./csp.ts): what its sandbox page is served with. */
  readonly csp: McpUiResourceCsp;
}

/** One request's handle: its signal (aborted on release or when the caller's signal aborts) and `done()`. */
export interface ViewRequest {
  /** The view that asks. */
  view: ShownView;
  signal: AbortSignal;
  /** The request is over (answered or failed): forget it. Idempotent. */
  done(): void;
}

interface Entry {
  view: ShownView;
  requests: Set<AbortController>;
  /** Stops listening to the page's signal. */
  unwatch: () => void;
}

/** The shown views of one app core and their requests in flight. */
export class ViewInstances {
  private readonly live = new Map<string, Entry>();
  /** Key of the origin labels: random per app core, so labels are stable for a session only. */
  private readonly labelKey = randomBytes(32);

  /**
   * The origin label of a tool call's view: a keyed hash of the call (so the same call's view
   * gets the same origin while the app runs — its storage survives a reload — and views of other
   * calls, of any server, never share one).
   */
  labelFor(key: ViewCallKey): string {
    const h = createHmac('sha256', this.labelKey).update(JSON.stringify([key.conversation_id, key.run_id, key.call_id])).digest('hex');
    return `v${h.slice(0, 32)}`;
  }

  /**
   * Issue an instance for a view about to be shown.
   * @param page the carrier's signal for the page that asked: when it aborts (a reload, a lost
   *   connection) the instance is released
   */
  open(view: Omit<ShownView, 'id' | 'label'>, page?: AbortSignal): ShownView {
    const shown: ShownView = { ...view, id: randomBytes(16).toString('hex'), label: this.labelFor(view) };
    const onPage = (): void => void this.release(shown.id);
    page?.addEventListener('abort', onPage, { once: true });
    this.live.set(shown.id, { view: shown, requests: new Set(), unwatch: () => page?.removeEventListener('abort', onPage) });
    if (page?.aborted) this.release(shown.id);
    while (this.live.size > MAX_SHOWN_VIEWS) this.release(this.live.keys().next().value!);
    return shown;
  }

  /** A live instance by id, or null (never issued, released, or evicted). */
  get(id: string): ShownView | null {
    return this.live.get(id)?.view ?? null;
  }

  /** The CSP of a live view with this origin label, or null when none is shown (its sandbox page is not served). */
  cspForLabel(label: string): McpUiResourceCsp | null {
    if (!VIEW_LABEL.test(label)) return null;
    for (const e of this.live.values()) if (e.view.label === label) return e.view.csp;
    return null;
  }

  /**
   * Start a request of instance `id`.
   * @param outer the carrier's signal for this request (the page's lifetime), if any
   * @returns null when the instance is not live (the request must be refused)
   */
  begin(id: string, outer?: AbortSignal): ViewRequest | null {
    const entry = this.live.get(id);
    if (!entry) return null;
    const ctl = new AbortController();
    const onOuter = (): void => ctl.abort(outer?.reason);
    if (outer?.aborted) ctl.abort(outer.reason);
    else outer?.addEventListener('abort', onOuter, { once: true });
    entry.requests.add(ctl);
    let finished = false;
    return {
      view: entry.view,
      signal: ctl.signal,
      done: () => {
        if (finished) return;
        finished = true;
        outer?.removeEventListener('abort', onOuter);
        entry.requests.delete(ctl);
      },
    };
  }

  /**
   * The view is gone: abort its requests and refuse any later one.
   * @returns how many requests were aborted (0 for an unknown id)
   */
  release(id: string): number {
    const entry = this.live.get(id);
    if (!entry) return 0;
    this.live.delete(id);
    entry.unwatch();
    for (const ctl of entry.requests) ctl.abort();
    return entry.requests.size;
  }

  /** How many views are shown now. */
  get shown(): number {
    return this.live.size;
  }

  /** How many requests are in flight (all instances). */
  get inFlight(): number {
    let n = 0;
    for (const e of this.live.values()) n += e.requests.size;
    return n;
  }
}
