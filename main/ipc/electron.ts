/**
 * Electron wiring for the contract: window options, the sender check, IPC registration and
 * navigation hardening. Takes the electron module's parts as arguments so it can be unit-tested
 * with a stand-in (only types are imported from `electron` here).
 */
import type { BrowserWindowConstructorOptions, IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { channelNames, type EventName, type EventPayloads } from '../../preload/contract/index.js';
import type { Dispatcher } from './dispatch.js';

/** The renderer window's options: isolated, sandboxed, no Node, our preload only. */
export function windowOptions(preloadPath: string): BrowserWindowConstructorOptions {
  return {
    width: 1200,
    height: 800,
    minWidth: 720,
    minHeight: 480,
    show: false,
    title: 'OpenProgram',
    backgroundColor: '#111418',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: true,
    },
  };
}

/**
 * The "is this our renderer" predicate: with a dev server, any URL of exactly its origin; else
 * only the built renderer's page on the app origin (`op-app://app/index.html`, ./electron-app-origin.ts;
 * any other page, scheme or host, and every `file:` URL, is not ours). Never throws; an
 * unparsable URL is not ours.
 *
 * @param appIndexUrl the URL the window loads the built renderer from
 * @param devServerUrl electron-vite's dev server URL (`ELECTRON_RENDERER_URL`), if any
 */
export function ourUrlPredicate(appIndexUrl: string, devServerUrl?: string): (url: string) => boolean {
  const index = new URL(appIndexUrl);
  let devOrigin: string | null = null;
  if (devServerUrl) {
    try {
      devOrigin = new URL(devServerUrl).origin;
    } catch {
      devOrigin = null;
    }
  }
  return (url: string): boolean => {
    try {
      const u = new URL(url);
      if (devServerUrl) return devOrigin !== null && devOrigin !== 'null' && u.origin === devOrigin;
      return u.protocol === index.protocol && u.host === index.host && u.pathname === index.pathname;
    } catch {
      return false;
    }
  };
}

/**
 * Whether an IPC event comes from our window's main frame showing our renderer. Rejects other
 * windows, subframes, and frames that navigated elsewhere.
 * @param expected the window's webContents
 * @param isOurUrl predicate on the sending frame's URL
 */
export function isTrustedSender(event: Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>, expected: WebContents | null, isOurUrl: (url: string) => boolean): boolean {
  if (!expected || event.sender !== expected) return false;
  const frame = event.senderFrame;
  if (!frame || frame !== expected.mainFrame) return false;
  return isOurUrl(frame.url);
}

/**
 * The lifetime of the page a window shows: `signal` aborts when that page goes away (a reload or
 * any main-frame navigation, a renderer crash, the window closing), and a new one starts for the
 * next page. Requests a page made that are still under way then end (docs/ARCHITECTURE.md
 * "MCP Apps": a view's tool call waiting for approval is withdrawn).
 */
export class PageLifetime {
  private ctl = new AbortController();

  /** The current page's signal (read it when a request arrives). */
  get signal(): AbortSignal {
    return this.ctl.signal;
  }

  /** The current page is gone: abort its signal and start the next page's. */
  end(): void {
    this.ctl.abort();
    this.ctl = new AbortController();
  }

  /** Follow one window's pages. */
  watch(contents: Pick<WebContents, 'on'>): void {
    contents.on('did-start-navigation', (details) => {
      if (details.isMainFrame && !details.isSameDocument) this.end();
    });
    contents.on('render-process-gone', () => this.end());
    contents.on('destroyed', () => this.end());
  }
}

/**
 * Register one `ipcMain.handle` per contract channel. Untrusted senders get a `forbidden` error.
 * @param pageSignal the calling page's lifetime ({@link PageLifetime}), passed to the dispatcher
 * @returns a function that removes the handlers.
 */
export function registerIpc(
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>,
  dispatcher: Dispatcher,
  getContents: () => WebContents | null,
  isOurUrl: (url: string) => boolean,
  pageSignal?: () => AbortSignal,
): () => void {
  for (const channel of channelNames) {
    ipcMain.handle(channel, async (event, input: unknown) => {
      if (!isTrustedSender(event, getContents(), isOurUrl)) return { ok: false, error: { code: 'forbidden', message: 'IPC from an untrusted sender.' } };
      const signal = pageSignal?.();
      return dispatcher.invoke(channel, input, signal ? { signal } : {});
    });
  }
  return () => channelNames.forEach((c) => ipcMain.removeHandler(c));
}

/** Send an event to the renderer, if the window is alive. */
export function sendEvent<E extends EventName>(contents: WebContents | null, event: E, payload: EventPayloads[E]): void {
  if (contents && !contents.isDestroyed()) contents.send(event, payload);
}

/** Only `http:` and `https:` URLs may be handed to the system browser. */
export function isSafeExternalUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}

/**
 * No navigation away from our renderer, no new windows; external http(s) links go to the system
 * browser (`openExternal`), anything else is dropped.
 */
export function hardenWebContents(contents: WebContents, isOurUrl: (url: string) => boolean, openExternal: (url: string) => unknown): void {
  contents.on('will-navigate', (e, url) => {
    if (!isOurUrl(url)) {
      e.preventDefault();
      if (isSafeExternalUrl(url)) void openExternal(url);
    }
  });
  contents.on('will-attach-webview', (e) => e.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (isSafeExternalUrl(url)) void openExternal(url);
    return { action: 'deny' };
  });
}
