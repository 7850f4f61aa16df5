/**
 * ipc/electron: the Electron wiring, exercised with plain stand-ins for Electron's objects
 * (main/ipc/electron.ts imports only types from `electron`): window options, the sender check,
 * IPC registration over the real dispatcher, and navigation / window.open hardening.
 */
import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { channelNames, type Envelope } from '../../../preload/contract/index.js';
import { AppCore } from '../../../main/core.js';
import { createDispatcher, type Dispatcher } from '../../../main/ipc/dispatch.js';
import { hardenWebContents, isSafeExternalUrl, isTrustedSender, ourUrlPredicate, PageLifetime, registerIpc, sendEvent, windowOptions } from '../../../main/ipc/electron.js';
import { APP_INDEX_URL, APP_ORIGIN } from '../../../main/ipc/electron-app-origin.js';
import { MemorySecretStore } from '../../../main/secrets/store.js';
import { makeTempDir, removeDir } from '../helpers.js';

/** The page the window loads (op-app://app/index.html), judged by main's own predicate. */
const OUR_PAGE = APP_INDEX_URL;
const isOurUrl = ourUrlPredicate(APP_INDEX_URL);
/** Where the renderer was loaded from before the app origin: a `file:` page is never ours now. */
const OLD_FILE_PAGE = 'file:///opt/openprogram/resources/app/out/renderer/index.html';

interface FakeFrame {
  url: string;
}

type Listener = (...args: any[]) => void;

/** A stand-in for Electron's WebContents with just what the wiring uses. */
class FakeWebContents {
  readonly mainFrame: FakeFrame = { url: OUR_PAGE };
  readonly listeners = new Map<string, Listener[]>();
  windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null;
  destroyed = false;
  sent: Array<{ channel: string; payload: unknown }> = [];
  on(event: string, listener: Listener): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  setWindowOpenHandler(h: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = h;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  send(channel: string, payload: unknown): void {
    this.sent.push({ channel, payload });
  }
  /** Emit like Electron: returns whether a listener called preventDefault(). */
  emitPreventable(event: string, ...args: unknown[]): boolean {
    let prevented = false;
    const e = { preventDefault: () => (prevented = true) };
    for (const l of this.listeners.get(event) ?? []) l(e, ...args);
    return prevented;
  }
  asContents(): WebContents {
    return this as unknown as WebContents;
  }
}

/** A stand-in for ipcMain: throws on a second handler for one channel, like Electron. */
class FakeIpcMain {
  readonly handlers = new Map<string, (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown>();
  handle(channel: string, fn: (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown): void {
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, fn);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
  async invoke(channel: string, event: Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>, input: unknown): Promise<Envelope<unknown>> {
    const h = this.handlers.get(channel);
    if (!h) throw new Error(`No handler registered for '${channel}'`);
    return (await h(event as IpcMainInvokeEvent, input)) as Envelope<unknown>;
  }
  asIpcMain(): Pick<IpcMain, 'handle' | 'removeHandler'> {
    return this as unknown as Pick<IpcMain, 'handle' | 'removeHandler'>;
  }
}

const eventFrom = (sender: FakeWebContents, frame: FakeFrame | null): Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'> =>
  ({ sender: sender.asContents(), senderFrame: frame }) as unknown as Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>;

describe('windowOptions', () => {
  it('is isolated, sandboxed, without Node, with web security and our preload only', () => {
    const o = windowOptions('/app/out/preload/index.cjs');
    const w = o.webPreferences!;
    expect(w.contextIsolation).toBe(true);
    expect(w.sandbox).toBe(true);
    expect(w.nodeIntegration).toBe(false);
    expect(w.nodeIntegrationInWorker).toBe(false);
    expect(w.nodeIntegrationInSubFrames).toBe(false);
    expect(w.webSecurity).toBe(true);
    expect(w.allowRunningInsecureContent).toBe(false);
    expect(w.webviewTag).toBe(false);
    expect(w.preload).toBe('/app/out/preload/index.cjs');
    expect(o.show).toBe(false);
  });
});

describe('isTrustedSender', () => {
  const ours = new FakeWebContents();

  it('accepts our window main frame on our URL', () => {
    expect(isTrustedSender(eventFrom(ours, ours.mainFrame), ours.asContents(), isOurUrl)).toBe(true);
  });

  it('rejects another webContents, even one showing our URL', () => {
    const other = new FakeWebContents();
    expect(isTrustedSender(eventFrom(other, other.mainFrame), ours.asContents(), isOurUrl)).toBe(false);
    expect(isTrustedSender(eventFrom(other, ours.mainFrame), ours.asContents(), isOurUrl)).toBe(false);
  });

  it('rejects a subframe of our window, even on our URL', () => {
    const sub: FakeFrame = { url: OUR_PAGE };
    expect(isTrustedSender(eventFrom(ours, sub), ours.asContents(), isOurUrl)).toBe(false);
  });

  it('rejects our main frame after it navigated to a foreign URL', () => {
    const wc = new FakeWebContents();
    wc.mainFrame.url = 'https://evil.example/';
    expect(isTrustedSender(eventFrom(wc, wc.mainFrame), wc.asContents(), isOurUrl)).toBe(false);
    wc.mainFrame.url = 'file:///etc/passwd';
    expect(isTrustedSender(eventFrom(wc, wc.mainFrame), wc.asContents(), isOurUrl)).toBe(false);
    // The renderer's old file: address, another page or host of the app scheme: not ours either.
    for (const url of [OLD_FILE_PAGE, `${APP_ORIGIN}/assets/index.js`, 'op-app://evil/index.html', 'op-view://app/index.html']) {
      wc.mainFrame.url = url;
      expect(isTrustedSender(eventFrom(wc, wc.mainFrame), wc.asContents(), isOurUrl), url).toBe(false);
    }
  });

  it('rejects when there is no window or no frame', () => {
    expect(isTrustedSender(eventFrom(ours, ours.mainFrame), null, isOurUrl)).toBe(false);
    expect(isTrustedSender(eventFrom(ours, null), ours.asContents(), isOurUrl)).toBe(false);
  });
});

describe('registerIpc', () => {
  let dir: string;
  let core: AppCore;
  let dispatcher: Dispatcher;
  let calls: Array<{ channel: unknown; input: unknown }>;

  beforeEach(async () => {
    dir = makeTempDir('op-electron-');
    core = new AppCore({ stateDir: dir, shell: 'electron', secrets: new MemorySecretStore() });
    await core.start();
    const real = createDispatcher(core);
    calls = [];
    dispatcher = {
      invoke: (channel, input) => {
        calls.push({ channel, input });
        return real.invoke(channel, input);
      },
    };
  });

  afterEach(async () => {
    await core.shutdown();
    await removeDir(dir);
  });

  it("registers exactly the contract's channel names, and the returned function removes them", () => {
    const ipc = new FakeIpcMain();
    const win = new FakeWebContents();
    const unregister = registerIpc(ipc.asIpcMain(), dispatcher, () => win.asContents(), isOurUrl);
    expect([...ipc.handlers.keys()].sort()).toEqual([...channelNames].sort());
    expect(ipc.handlers.size).toBe(channelNames.length);
    unregister();
    expect(ipc.handlers.size).toBe(0);
    // Can be registered again after removal (no leftovers).
    registerIpc(ipc.asIpcMain(), dispatcher, () => win.asContents(), isOurUrl);
    expect(ipc.handlers.size).toBe(channelNames.length);
  });

  it('a trusted sender reaches the real dispatcher', async () => {
    const ipc = new FakeIpcMain();
    const win = new FakeWebContents();
    registerIpc(ipc.asIpcMain(), dispatcher, () => win.asContents(), isOurUrl);
    expect(await ipc.invoke('servers.list', eventFrom(win, win.mainFrame), {})).toEqual({ ok: true, value: [] });
    const bad = await ipc.invoke('servers.get', eventFrom(win, win.mainFrame), { name: 42 });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(calls.map((c) => c.channel)).toEqual(['servers.list', 'servers.get']);
  });

  it('an untrusted sender gets forbidden on every channel and never reaches the dispatcher', async () => {
    const ipc = new FakeIpcMain();
    const win = new FakeWebContents();
    const other = new FakeWebContents();
    const sub: FakeFrame = { url: OUR_PAGE };
    registerIpc(ipc.asIpcMain(), dispatcher, () => win.asContents(), isOurUrl);
    for (const channel of channelNames) {
      for (const ev of [eventFrom(other, other.mainFrame), eventFrom(win, sub)]) {
        const r = await ipc.invoke(channel, ev, {});
        expect(r, channel).toEqual({ ok: false, error: { code: 'forbidden', message: 'IPC from an untrusted sender.' } });
      }
    }
    // After the window closed (no contents), even the old window's events are refused.
    const closed = new FakeIpcMain();
    registerIpc(closed.asIpcMain(), dispatcher, () => null, isOurUrl);
    expect(await closed.invoke('servers.list', eventFrom(win, win.mainFrame), {})).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(calls).toEqual([]);
  });
});

describe('PageLifetime', () => {
  const emit = (win: FakeWebContents, event: string, ...args: unknown[]): void => {
    for (const l of win.listeners.get(event) ?? []) l(...args);
  };

  it("aborts the page's signal when the main frame navigates (a reload), crashes or closes — not for subframes or in-page moves", () => {
    const win = new FakeWebContents();
    const life = new PageLifetime();
    life.watch(win.asContents());
    const first = life.signal;
    emit(win, 'did-start-navigation', { isMainFrame: false, isSameDocument: false, url: 'op-view://x/' });
    emit(win, 'did-start-navigation', { isMainFrame: true, isSameDocument: true, url: `${OUR_PAGE}#a` });
    expect(first.aborted).toBe(false);
    emit(win, 'did-start-navigation', { isMainFrame: true, isSameDocument: false, url: OUR_PAGE });
    expect(first.aborted).toBe(true);
    const second = life.signal;
    expect(second.aborted).toBe(false);
    emit(win, 'render-process-gone', {}, { reason: 'crashed' });
    expect(second.aborted).toBe(true);
    const third = life.signal;
    emit(win, 'destroyed');
    expect(third.aborted).toBe(true);
  });

  it("registerIpc hands the dispatcher the calling page's signal", async () => {
    const dir = makeTempDir('op-electron-');
    const core = new AppCore({ stateDir: dir, shell: 'electron', secrets: new MemorySecretStore() });
    try {
      await core.start();
      const real = createDispatcher(core);
      const seen: Array<AbortSignal | undefined> = [];
      const ipc = new FakeIpcMain();
      const win = new FakeWebContents();
      const life = new PageLifetime();
      life.watch(win.asContents());
      registerIpc(ipc.asIpcMain(), { invoke: (c, i, caller) => (seen.push(caller?.signal), real.invoke(c, i, caller)) }, () => win.asContents(), isOurUrl, () => life.signal);
      await ipc.invoke('servers.list', eventFrom(win, win.mainFrame), {});
      expect(seen[0]).toBe(life.signal);
      emit(win, 'did-start-navigation', { isMainFrame: true, isSameDocument: false, url: OUR_PAGE });
      expect(seen[0]!.aborted).toBe(true);
    } finally {
      await core.shutdown();
      await removeDir(dir);
    }
  });
});

describe('hardenWebContents', () => {
  let win: FakeWebContents;
  let opened: string[];

  beforeEach(() => {
    win = new FakeWebContents();
    opened = [];
    hardenWebContents(win.asContents(), isOurUrl, (url) => opened.push(url));
  });

  it('denies every window.open; only http/https go to openExternal', () => {
    const urls = [
      'https://example.com/docs',
      'http://example.com/page',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://attacker/share',
      'ms-msdt:/id PCWDiagnostic',
      'data:text/html,<script>1</script>',
      'not a url',
      `${OUR_PAGE}#second-window`,
      OLD_FILE_PAGE,
    ];
    for (const url of urls) expect(win.windowOpenHandler!({ url })).toEqual({ action: 'deny' });
    expect(opened).toEqual(['https://example.com/docs', 'http://example.com/page']);
  });

  it('blocks navigation to foreign URLs (http(s) ones open in the system browser instead)', () => {
    expect(win.emitPreventable('will-navigate', 'https://evil.example/phish')).toBe(true);
    expect(win.emitPreventable('will-navigate', 'file:///home/user/.ssh/id_rsa')).toBe(true);
    expect(win.emitPreventable('will-navigate', 'javascript:alert(1)')).toBe(true);
    expect(win.emitPreventable('will-navigate', 'file:///opt/openprogram/resources/app/out/other/')).toBe(true);
    expect(win.emitPreventable('will-navigate', OLD_FILE_PAGE)).toBe(true);
    expect(win.emitPreventable('will-navigate', `${APP_ORIGIN}/other.html`)).toBe(true);
    expect(win.emitPreventable('will-navigate', 'op-app://evil/index.html')).toBe(true);
    expect(opened).toEqual(['https://evil.example/phish']);
  });

  it('allows navigation within our renderer', () => {
    expect(win.emitPreventable('will-navigate', `${OUR_PAGE}#/settings`)).toBe(false);
    expect(win.emitPreventable('will-navigate', OUR_PAGE)).toBe(false);
    expect(opened).toEqual([]);
  });

  it('blocks attaching webviews', () => {
    expect(win.emitPreventable('will-attach-webview', {}, {})).toBe(true);
  });

  it('isSafeExternalUrl accepts only http and https', () => {
    expect(isSafeExternalUrl('https://a.example')).toBe(true);
    expect(isSafeExternalUrl('http://a.example')).toBe(true);
    for (const u of ['file:///x', 'javascript:1', 'vbscript:1', 'mailto:a@b.c', 'ftp://x', '', '//a.example', 'HTTPS//x']) expect(isSafeExternalUrl(u), u).toBe(false);
  });
});

describe('sendEvent', () => {
  it('sends to a live window and drops events for a destroyed or missing one', () => {
    const wc = new FakeWebContents();
    sendEvent(wc.asContents(), 'app.warning', { code: 'link_declined', server: 'hello' });
    wc.destroyed = true;
    sendEvent(wc.asContents(), 'app.warning', { code: 'link_declined', server: 'dropped' });
    sendEvent(null, 'app.warning', { code: 'link_declined', server: 'dropped' });
    expect(wc.sent).toEqual([{ channel: 'app.warning', payload: { code: 'link_declined', server: 'hello' } }]);
  });
});
