/**
 * URL-mode elicitation (MCP spec 2025-11-25 "Elicitation", URL mode; on 2026-07-28 the same request
 * arrives inside an `input_required` result and the SDK routes it to the same handler): which
 * URLs a server may ask the user to open, and the pending requests waiting for the user's answer.
 * A URL is opened only after the user agreed, only through the app's open-URL hook (the system
 * browser), and only when it is `https:` or `http:` to this machine (docs/ARCHITECTURE.md
 * "Protocol features").
 */
import { UrlElicitationRequiredError } from '@modelcontextprotocol/client';
import type { AppWarning, UrlElicitationRequest } from '../../../preload/contract/index.js';
import { UnknownElicitationError, UserRequestBroker } from '../elicitation.js';
import { isSafeAuthorizationUrl } from '../oauth/url-safety.js';
import type { ProtocolHooks, UrlElicitationParams } from './hooks.js';

/** The user's answer, as the server gets it. */
export type UrlAction = 'accept' | 'decline' | 'cancel';

/** Thrown for a URL a server may not send the user to (scheme, host, credentials, control characters). */
export class UnsafeElicitationUrlError extends Error {
  override name = 'UnsafeElicitationUrlError';
}

/**
 * The URL a server asks the user to open, parsed, when it may be opened: `https:`, or `http:` to
 * a loopback host; no credentials in it, no control characters, at most 8192 characters (the
 * same rules as an OAuth authorization URL, main/mcp/oauth/url-safety.ts).
 * @throws UnsafeElicitationUrlError for anything else (`javascript:`, `file:`, `http:` to another host, …).
 */
export function checkElicitationUrl(raw: string): URL {
  if (!isSafeAuthorizationUrl(raw)) throw new UnsafeElicitationUrlError('Only https: links, or http: links to this computer, can be opened.');
  return new URL(raw);
}

/** What the pending URL requests need from the app. */
export interface UrlElicitationDeps {
  /** Shows the dialog (`elicitation.urlRequest`). */
  emitRequest(e: UrlElicitationRequest): void;
  /** Withdraws the dialog (`elicitation.urlClosed`). */
  emitClosed(id: string): void;
  /** Opens a checked URL in the system browser (the app's open-URL hook, as for OAuth sign-in). */
  openUrl(url: URL, server: string): void | Promise<void>;
  /** Tells the user a request was refused without asking (an unsafe URL: `link_declined`). */
  warn(warning: AppWarning): void;
}

/** The URL requests of one app: asks the user, opens the URL on accept, answers the server. */
export class UrlElicitations {
  private readonly broker: UserRequestBroker<Omit<UrlElicitationRequest, 'id'>, UrlAction>;
  /** The checked URL of each pending request, by request id. */
  private readonly urls = new Map<string, { url: URL; server: string }>();

  constructor(private readonly deps: UrlElicitationDeps) {
    this.broker = new UserRequestBroker<Omit<UrlElicitationRequest, 'id'>, UrlAction>(
      (e) => {
        this.urls.set(e.id, { url: new URL(e.url), server: e.server });
        deps.emitRequest(e);
      },
      (id) => {
        this.urls.delete(id);
        deps.emitClosed(id);
      },
      'cancel',
    );
  }

  /**
   * A server's URL request: an unsafe URL is declined at once (the user is told); otherwise the
   * user is asked. Resolves with the action the server gets (`cancel` on timeout or abort).
   */
  async ask(server: string, params: UrlElicitationParams, signal: AbortSignal): Promise<UrlAction> {
    let url: URL;
    try {
      url = checkElicitationUrl(params.url);
    } catch (err) {
      if (!(err instanceof UnsafeElicitationUrlError)) throw err;
      this.deps.warn({ code: 'link_declined', server });
      return 'decline';
    }
    const message = typeof params.message === 'string' ? params.message.slice(0, 4096) : '';
    const action = await this.broker.ask({ server, message, url: url.href, host: url.host }, signal);
    return action;
  }

  /**
   * The user's answer. `accept` opens the URL first (through the open-URL hook), then the server
   * gets `accept`; if opening fails, the server gets `cancel` and the error is thrown.
   * @throws UnknownElicitationError when the request is no longer pending.
   */
  async respond(id: string, action: UrlAction): Promise<{ opened: boolean }> {
    const pending = this.urls.get(id);
    if (!pending) throw new UnknownElicitationError('This request is no longer waiting for an answer.');
    this.urls.delete(id);
    if (action !== 'accept') {
      this.broker.respond(id, action);
      return { opened: false };
    }
    try {
      await this.deps.openUrl(pending.url, pending.server);
    } catch (err) {
      this.broker.respond(id, 'cancel');
      throw err;
    }
    this.broker.respond(id, 'accept');
    return { opened: true };
  }

  /** Cancel every pending request (shutdown). */
  cancelAll(): void {
    this.broker.cancelAll();
    this.urls.clear();
  }
}

/** Most URL interactions one `-32042` error may ask for. */
const MAX_REQUIRED_URLS = 3;

/**
 * The error path of URL elicitation (MCP 2025-11-25: a request fails with `-32042`
 * URLElicitationRequired, listing the URL interactions it needs first): ask the user about each
 * one, as for an `elicitation/create` request, before the call's error goes back to the caller (the
 * model can retry once the user finished). Anything else is ignored. Never throws.
 */
export async function askRequiredUrls(hooks: Pick<ProtocolHooks, 'urlElicit'>, server: string, err: unknown, signal: AbortSignal): Promise<void> {
  if (!(err instanceof UrlElicitationRequiredError)) return;
  for (const e of err.elicitations.slice(0, MAX_REQUIRED_URLS)) {
    if (signal.aborted) return;
    const p = e as Partial<UrlElicitationParams>;
    if (typeof p.url !== 'string') continue;
    try {
      await hooks.urlElicit(server, { url: p.url, message: typeof p.message === 'string' ? p.message : '', elicitationId: typeof p.elicitationId === 'string' ? p.elicitationId : '' }, signal);
    } catch {
      // Too many dialogs waiting, or the user's browser could not be opened: the call fails anyway.
    }
  }
}
