/**
 * Preload: exposes exactly the contract's channels as `window.openprogram` (invoke + on).
 * Nothing else of Electron or Node reaches the renderer.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { channelNames, eventNames, type OpenProgramApi } from './contract/index.js';

const api: OpenProgramApi = {
  invoke(channel, input) {
    if (!channelNames.includes(channel)) return Promise.resolve({ ok: false, error: { code: 'unknown_channel', message: 'Unknown channel.' } });
    return ipcRenderer.invoke(channel, input);
  },
  on(event, listener) {
    if (!eventNames.includes(event)) return () => undefined;
    const wrapped = (_e: IpcRendererEvent, payload: unknown): void => listener(payload as never);
    ipcRenderer.on(event, wrapped);
    return () => ipcRenderer.removeListener(event, wrapped);
  },
};

contextBridge.exposeInMainWorld('openprogram', api);
