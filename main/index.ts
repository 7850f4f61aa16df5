/**
 * Electron entry: lifecycle and the window. Everything else lives in the core (plain Node).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog, ipcMain, protocol, session, shell } from 'electron';
import { eventNames } from '../preload/contract/index.js';
import { AppCore, resolveStateDir } from './core.js';
import { createDispatcher } from './ipc/dispatch.js';
import { denyAllPermissions, hardenWebContents, ourUrlPredicate, registerIpc, sendEvent, windowOptions } from './ipc/electron.js';
import { rendererCspWithViews } from './csp.js';
import { isViewUrl, serveViewOrigin, VIEW_ORIGIN, VIEW_SCHEME_PRIVILEGES } from './ipc/electron-views.js';
import { redactConsole } from './secrets/redact.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const rendererIndex = path.join(here, '../renderer/index.html');
const rendererUrl = process.env.ELECTRON_RENDERER_URL;
/** Our renderer: the dev server's exact origin, or the built index.html file. */
const isOurUrl = ourUrlPredicate(rendererIndex, rendererUrl);

// One instance per profile: a second launch focuses the first window instead of opening the same
// config and secret vault twice.
if (!app.requestSingleInstanceLock()) {
  app.quit();
  process.exit(0);
}

/** The Electron shell's own state: its one window, and whether quitting has begun. */
class AppShell {
  win: BrowserWindow | null = null;
  quitting = false;

  /** Open the window on our renderer; it shows itself once rendered. */
  createWindow(): void {
    const win = new BrowserWindow(windowOptions(path.join(here, '../preload/index.cjs')));
    this.win = win;
    hardenWebContents(win.webContents, isOurUrl, (url) => shell.openExternal(url));
    win.once('ready-to-show', () => win.show());
    win.on('closed', () => {
      if (this.win === win) this.win = null;
    });
    if (rendererUrl) void win.loadURL(rendererUrl);
    else void win.loadFile(rendererIndex);
  }

  /** A second launch: bring the existing window forward. */
  focus(): void {
    if (!this.win) return;
    if (this.win.isMinimized()) this.win.restore();
    this.win.focus();
  }
}

// MCP App views: their own scheme, hence their own origin (./ipc/electron-views.ts).
protocol.registerSchemesAsPrivileged([VIEW_SCHEME_PRIVILEGES]);

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
    cb({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [rendererCspWithViews(VIEW_ORIGIN)] } });
  });
  serveViewOrigin(protocol, rendererUrl ? new URL(rendererUrl).origin : 'file://');
  core.apps.setSandboxOrigin(VIEW_ORIGIN);
  denyAllPermissions(session.defaultSession);
  registerIpc(ipcMain, dispatcher, () => appShell.win?.webContents ?? null, isOurUrl);
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
