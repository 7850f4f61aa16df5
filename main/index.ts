/**
 * Electron entry: lifecycle and the window. Everything else lives in the core (plain Node).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog, ipcMain, session, shell } from 'electron';
import { eventNames } from '../preload/contract/index.js';
import { AppCore, resolveStateDir } from './core.js';
import { createDispatcher } from './ipc/dispatch.js';
import { denyAllPermissions, hardenWebContents, ourUrlPredicate, registerIpc, sendEvent, windowOptions } from './ipc/electron.js';
import { RENDERER_CSP } from './csp.js';
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
app.on('second-instance', () => {
  if (win) {
    if (win.isMinimized()) win.restore();
    win.focus();
  }
});

let win: BrowserWindow | null = null;
const core = new AppCore({
  stateDir: resolveStateDir(app.getPath('userData')),
  shell: 'electron',
  // The provider already checked the URL (https:, or http: to loopback); never a shell command.
  openUrl: (url) => shell.openExternal(url.href),
  // Exports go where the user picks in the system save dialog.
  chooseSavePath: async (suggestedName) => {
    const options = { defaultPath: path.join(app.getPath('documents'), suggestedName) };
    const r = win ? await dialog.showSaveDialog(win, options) : await dialog.showSaveDialog(options);
    return r.canceled || !r.filePath ? null : r.filePath;
  },
});
// The app's log passes through the same redaction as everything else that leaves main.
redactConsole(core.redactor);
const dispatcher = createDispatcher(core, (channel, err) => console.error(`[ipc] ${channel} failed:`, (err as Error)?.stack ?? err));

function createWindow(): void {
  win = new BrowserWindow(windowOptions(path.join(here, '../preload/index.cjs')));
  hardenWebContents(win.webContents, isOurUrl, (url) => shell.openExternal(url));
  win.once('ready-to-show', () => win?.show());
  win.on('closed', () => (win = null));
  if (rendererUrl) void win.loadURL(rendererUrl);
  else void win.loadFile(rendererIndex);
}

app.whenReady().then(async () => {
  session.defaultSession.webRequest.onHeadersReceived((details, cb) => {
    cb({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [RENDERER_CSP] } });
  });
  denyAllPermissions(session.defaultSession);
  registerIpc(ipcMain, dispatcher, () => win?.webContents ?? null, isOurUrl);
  core.subscribe((event, payload) => {
    if (eventNames.includes(event)) sendEvent(win?.webContents ?? null, event, payload);
  });
  createWindow();
  await core.start();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  });
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

let quitting = false;
app.on('before-quit', (e) => {
  if (quitting) return;
  e.preventDefault();
  quitting = true;
  core.shutdown().finally(() => app.quit());
});
