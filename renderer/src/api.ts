/**
 * The renderer's only way to main: `window.openprogram` from the Electron preload, or — in the
 * browser shell — the same contract over a loopback WebSocket (token from the URL fragment).
 */
import type { ChannelInput, ChannelName, ChannelOutput, Envelope, ErrorCode, ErrorFact, EventName, EventPayloads, IpcError, OpenProgramApi } from '../../preload/contract/index.js';
import { BRIDGE_MESSAGE_BYTES } from '../../preload/contract/rules/index.js';
import { t } from './i18n';
import { describeError, type LocalError } from './i18n/errors';

declare global {
  interface Window {
    openprogram?: OpenProgramApi;
  }
}

/**
 * An error returned by main, with its typed code and offending field. `message` is the text to
 * show (`describeError`, in the language current when it arrived); `detail` is main's own
 * (English) message.
 */
export class ApiError extends Error {
  readonly code: IpcError['code'];
  readonly field: string | undefined;
  readonly detail: string;
  /** What the error is about, for a view that shows more than its text (a failed start's server output). */
  readonly fact: ErrorFact | undefined;
  constructor(e: IpcError) {
    super(describeError(e));
    this.code = e.code;
    this.field = e.field;
    this.detail = e.message;
    this.fact = e.fact;
  }
}

/**
 * Connection state of the browser-shell bridge, for the UI (Electron is always `open`).
 * `stale-token`: the core answers again but refuses this tab's token — it was restarted (each
 * start makes a new token), so only the newly printed link can connect; nothing was lost.
 */
export type BridgeState = 'open' | 'connecting' | 'lost' | 'no-token' | 'stale-token';

/** What a tab with a stale token tells the user (also the error of every call it makes), in the current language. */
export function staleTokenMessage(): string {
  return t('app.staleToken');
}
let bridgeState: BridgeState = 'open';
const stateListeners = new Set<(s: BridgeState) => void>();
function setBridgeState(s: BridgeState): void {
  bridgeState = s;
  stateListeners.forEach((l) => l(s));
}
/** The bridge state now. */
function currentBridgeState(): BridgeState {
  return bridgeState;
}
/** Subscribe to bridge state changes; returns an unsubscribe function. */
export function onBridgeState(l: (s: BridgeState) => void): () => void {
  stateListeners.add(l);
  l(bridgeState);
  return () => stateListeners.delete(l);
}

function createSocketApi(): OpenProgramApi {
  const hash = new URLSearchParams(location.hash.slice(1));
  const token = hash.get('token') ?? sessionStorage.getItem('openprogram.token') ?? '';
  if (hash.get('token')) {
    sessionStorage.setItem('openprogram.token', token);
    history.replaceState(null, '', location.pathname);
  }
  const listeners = new Map<string, Set<(p: unknown) => void>>();
  const pending = new Map<number, (e: Envelope<unknown>) => void>();
  let nextId = 1;
  let socket: WebSocket | null = null;
  let open: Promise<void> = Promise.resolve();
  // Said by this window itself (not main): already in the current language.
  const local = (code: ErrorCode, message: string): Envelope<never> => ({ ok: false, error: { code, message, said_here: true } as LocalError });
  const lost = (): Envelope<never> => local('internal', t('app.lostCore'));
  const stale = (): Envelope<never> => local('forbidden', staleTokenMessage());
  /** Whether the core serves this page again (so a refused socket means a refused token). */
  const coreAnswers = async (): Promise<boolean> => {
    try {
      return (await fetch('/', { method: 'HEAD', cache: 'no-store' })).ok;
    } catch {
      return false;
    }
  };
  const connect = (): void => {
    setBridgeState('connecting');
    const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ipc?token=${encodeURIComponent(token)}`);
    socket = ws;
    let opened = false;
    ws.addEventListener('open', () => (opened = true), { once: true });
    open = new Promise((resolve, reject) => {
      ws.addEventListener(
        'open',
        () => {
          setBridgeState('open');
          listeners.get('__reconnected')?.forEach((l) => l(null));
          resolve();
        },
        { once: true },
      );
      ws.addEventListener('error', () => reject(new Error(t('app.cannotReach'))), { once: true });
    });
    open.catch(() => undefined);
    ws.addEventListener('message', (ev) => {
      const msg = JSON.parse(String(ev.data)) as { id?: number; envelope?: Envelope<unknown>; event?: string; payload?: unknown };
      if (msg.event) listeners.get(msg.event)?.forEach((l) => l(msg.payload));
      else if (typeof msg.id === 'number' && msg.envelope) {
        pending.get(msg.id)?.(msg.envelope);
        pending.delete(msg.id);
      }
    });
    ws.addEventListener('close', () => {
      for (const [, resolve] of pending) resolve(lost());
      pending.clear();
      const retry = (): void => {
        setBridgeState('lost');
        setTimeout(connect, 2000);
      };
      if (opened) return retry();
      // The handshake was refused. If the core answers on this port, it no longer knows our token
      // (it was restarted): say so plainly and stop retrying; otherwise it is still away.
      void coreAnswers().then((up) => (up ? setBridgeState('stale-token') : retry()));
    });
  };
  // The link pasted into this tab (same origin, a new `#token=`) changes only the fragment, which
  // loads nothing by itself. A different token means a restarted core (docs/ARCHITECTURE.md
  // "Start-up and shutdown"): start the page over with it, so every list comes from the new core
  // and nothing said by the dead socket lingers. The same token only leaves the address bar.
  window.addEventListener('hashchange', () => {
    const next = new URLSearchParams(location.hash.slice(1)).get('token');
    if (!next) return;
    sessionStorage.setItem('openprogram.token', next);
    if (next === token) history.replaceState(null, '', location.pathname);
    else location.reload();
  });
  if (!token) setBridgeState('no-token');
  else connect();
  return {
    async invoke(channel, input) {
      if (!token) return local('forbidden', t('app.needToken'));
      if (bridgeState === 'stale-token') return stale();
      try {
        await open;
      } catch {
        return lost();
      }
      if (!socket || socket.readyState !== WebSocket.OPEN) return currentBridgeState() === 'stale-token' ? stale() : lost();
      const id = nextId++;
      // `id` first: the shell reads it from the start of a message too large to parse (main/shell/guards.ts).
      const text = JSON.stringify({ id, channel, input });
      // One request over the socket's limit fails alone, here; sending it would only be refused.
      const bytes = text.length * 3 <= BRIDGE_MESSAGE_BYTES ? text.length : new TextEncoder().encode(text).length;
      if (bytes > BRIDGE_MESSAGE_BYTES) {
        const mb = (n: number): string => (n / 1024 / 1024).toFixed(1);
        return local('too_large', t('errors.tooLargeHere', { size: mb(bytes), limit: mb(BRIDGE_MESSAGE_BYTES) }));
      }
      return new Promise((resolve) => {
        pending.set(id, resolve as (e: Envelope<unknown>) => void);
        socket!.send(text);
      });
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      set.add(listener as (p: unknown) => void);
      listeners.set(event, set);
      return () => set.delete(listener as (p: unknown) => void);
    },
  };
}

const api: OpenProgramApi = window.openprogram ?? createSocketApi();

/** Invoke a channel; resolves with its output or throws `ApiError`. */
export async function call<C extends ChannelName>(channel: C, input: ChannelInput<C>): Promise<ChannelOutput<C>> {
  const env = await api.invoke(channel, input);
  if (!env.ok) throw new ApiError(env.error);
  return env.value;
}

/** Subscribe to an event; returns an unsubscribe function. */
export function on<E extends EventName>(event: E, listener: (payload: EventPayloads[E]) => void): () => void {
  return api.on(event, listener);
}
