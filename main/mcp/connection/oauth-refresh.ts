/**
 * OAuth background refresh for one connection: refresh the access token shortly before it
 * expires, so concurrent calls never race two refreshes of a rotating refresh token. The
 * connection owns one of these per remote OAuth server. docs/ARCHITECTURE.md "OAuth".
 */
import { refreshIfNeeded } from '../oauth/flow.js';
import type { PersistentOAuthProvider } from '../oauth/provider.js';

/** What the refresher asks of the connection that owns it. */
export interface RefreshOwner {
  /** Whether the connection was closed (no refresh is scheduled or run then). */
  closed(): boolean;
  /** Write a lifecycle line to the server's log. */
  note(text: string): void;
  /** The refresh was rejected: turn the server to `needs_auth` with `kind` and close its session. */
  authLost(kind: 'needs_auth' | 'needs_reauth'): Promise<void>;
  /** Something observable changed (the expiry, or the state). */
  changed(): void;
}

/**
 * Schedules the refresh of one server's stored access token. `schedule()` after each connect and
 * each refresh; `stop()` on close. A rejected refresh calls `owner.authLost`; a failed one (e.g.
 * the authorization server is unreachable) is logged and tried again at the next schedule.
 */
export class OAuthRefresher {
  /** When the current access token expires (ms epoch), when known. */
  expiresAt: number | null = null;
  private timer: NodeJS.Timeout | null = null;

  /**
   * @param oauth the server's provider (its stored tokens, and the clock they expire by)
   * @param url the server's URL (the resource the tokens are for)
   * @param owner the connection
   */
  constructor(
    private readonly oauth: PersistentOAuthProvider,
    private readonly url: string,
    private readonly owner: RefreshOwner,
  ) {}

  /** Read the stored expiry and (re)arm the timer: a minute before expiry, or a quarter of a short lifetime. */
  async schedule(): Promise<void> {
    const tokens = await this.oauth.storedTokens().catch(() => undefined);
    this.expiresAt = tokens?.expires_at ?? null;
    this.stop();
    if (this.expiresAt === null || this.owner.closed()) return;
    // Refresh a minute before expiry, or a quarter of the lifetime for short-lived tokens.
    const lifetime = tokens?.saved_at ? this.expiresAt - tokens.saved_at : 3_600_000;
    const margin = Math.max(500, Math.min(60_000, lifetime / 4));
    const delay = Math.max(1000, this.expiresAt - this.oauth.now() - margin);
    this.timer = setTimeout(async () => {
      this.timer = null;
      if (this.owner.closed()) return;
      try {
        const r = await refreshIfNeeded(this.oauth, this.url, { marginMs: margin });
        if (r === 'needs_auth' || r === 'needs_reauth') {
          this.owner.note('background refresh rejected; sign in again');
          await this.owner.authLost(r);
          return;
        }
        if (r === 'refreshed') this.owner.note('access token refreshed in the background');
      } catch (err) {
        this.owner.note(`background refresh failed for now: ${(err as Error).message}`);
      }
      await this.schedule();
      this.owner.changed();
    }, Math.min(delay, 2 ** 31 - 1));
    this.timer.unref?.();
  }

  /** Disarm the timer (idempotent). */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
