/**
 * Electron entry: lifecycle and the window. Everything else lives in the core (plain Node).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog, ipcMain, protocol, session, shell } from 'electron';
import { eventNames } from '../preload/contract/index.js';
import { AppCore, resolveStateDir } from './core.js';
import { createDispatcher } from './ipc/dispatch.js';
import { hardenWebContents, ourUrlPredicate, PageLifetime, registerIpc, sendEvent, windowOptions } from './ipc/electron.js';
import { rendererCspWithViews } from './csp.js';
import { isViewUrl, limitViewWebRtc, serveViewOrigin, viewOnlyPermissions, viewOriginFor, VIEW_FRAME_SOURCE, VIEW_SCHEME_PRIVILEGES } from './ipc/electron-views.js';
import { APP_INDEX_URL, APP_ORIGIN, APP_SCHEME_PRIVILEGES, serveAppOrigin } from './ipc/electron-app-origin.js';
import { redactConsole } from './secrets/redact.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const rendererDir = path.join(here, '../renderer');
const rendererUrl = process.env.ELECTRON_RENDERER_URL;
/** Our renderer: the dev server's exact origin, or the built index.html on the app origin. */
const isOurUrl = ourUrlPredicate(APP_INDEX_URL, rendererUrl);

// One instance per profile: a second launch focuses the first window instead of opening the same
// config and secret vault twice.
if (!app.requestSingleInstanceLock()) {
  app.quit();
  process.exit(0);
}

/** The Electron shell's own state: its one window, the page it shows, and whether quitting has begun. */
class AppShell {
  win: BrowserWindow | null = null;
  quitting = false;
  /** The window's current page: its requests still under way end when it goes (a reload). */
  readonly page = new PageLifetime();

  /** Open the window on our renderer; it shows itself once rendered. */
  createWindow(): void {
    const win = new BrowserWindow(windowOptions(path.join(here, '../preload/index.cjs')));
    this.win = win;
    hardenWebContents(win.webContents, isOurUrl, (url) => shell.openExternal(url));
    // MCP App views live in this window's frames: their WebRTC sends no UDP (./ipc/electron-views.ts).
    limitViewWebRtc(win.webContents);
    this.page.watch(win.webContents);
    win.once('ready-to-show', () => win.show());
    win.on('closed', () => {
      if (this.win === win) this.win = null;
    });
    if (rendererUrl) void win.loadURL(rendererUrl);
    else void win.loadURL(APP_INDEX_URL);
  }

  /** A second launch: bring the existing window forward. */
  focus(): void {
    if (!this.win) return;
    if (this.win.isMinimized()) this.win.restore();
    this.win.focus();
  }
}

// The renderer and MCP App views each get a scheme, hence an origin, of their own
// (./ipc/electron-app-origin.ts, ./ipc/electron-views.ts).
protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES, VIEW_SCHEME_PRIVILEGES]);

const appShell = new AppShell();
app.on('second-instance', () => appShell.focus());

const core = new AppCore({
  stateDir: resolveStateDir(app.getPath('userData')),
  shell: 'electron',
  // Servers start once the window's first call was answered, so the window comes first.
  startServers: 'after-ui',
  // The provider already checked the URL (https:, or http: to loopback); never a shell command.
  openUrl: (url) => shell.openExternal(url.href),
  // Exports go where the user picks in the system save dialog.
  chooseSavePath: async (suggestedName) => {
    const options = { defaultPath: path.join(app.getPath('documents'), suggestedName) };
    const win = appShell.win;
    const r = win ? await dialog.showSaveDialog(win, options) : await dialog.showSaveDialog(options);
    return r.canceled || !r.filePath ? null : r.filePath;
  },
  // Root folders (MCP "Roots") are picked in the system folder dialog.
  // Each shown MCP App view gets an origin of its own on the op-view: scheme.
  viewOrigins: { originFor: viewOriginFor },
  chooseFolder: async () => {
    const options = { properties: ['openDirectory' as const, 'createDirectory' as const] };
    const win = appShell.win;
    const r = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
    return r.canceled || !r.filePaths[0] ? null : r.filePaths[0];
  },
});
// The app's log passes through the same redaction as everything else that leaves main.
redactConsole(core.redactor);
const dispatcher = createDispatcher(core, (channel, err) => console.error(`[ipc] ${channel} failed:`, (err as Error)?.stack ?? err));

app.whenReady().then(async () => {
  session.defaultSession.webRequest.onHeadersReceived((details, cb) => {
    // The view origin's pages keep the CSP built for each view (main/mcp/apps/csp.ts).
    if (isViewUrl(details.url)) return cb({ responseHeaders: details.responseHeaders });
    cb({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [rendererCspWithViews(VIEW_FRAME_SOURCE)] } });
  });
  serveAppOrigin(protocol, rendererDir, rendererCspWithViews(VIEW_FRAME_SOURCE));
  serveViewOrigin(protocol, rendererUrl ? new URL(rendererUrl).origin : APP_ORIGIN, (label) => core.apps.sandboxCsp(label));
  // Device permissions only to views, only what their frame's `allow` delegates; none to the app.
  viewOnlyPermissions(session.defaultSession);
  registerIpc(ipcMain, dispatcher, () => appShell.win?.webContents ?? null, isOurUrl, () => appShell.page.signal);
  core.subscribe((event, payload) => {
    if (eventNames.includes(event)) sendEvent(appShell.win?.webContents ?? null, event, payload);
  });
  appShell.createWindow();
  await core.start();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) appShell.createWindow();
  });
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

app.on('before-quit', (e) => {
  if (appShell.quitting) return;
  e.preventDefault();
  appShell.quitting = true;
  core.shutdown().finally(() => app.quit());
});
