import type { StateCreator } from 'zustand';
import type { ServerView } from '../../../preload/contract/index.js';
import { call } from '../api';
import type { AppState } from './index';

/** Server views by name, in config order. */
export interface ServersSlice {
  servers: Record<string, ServerView>;
  serverOrder: string[];
  /** Authorization pages main asked to open, by server (a fallback link if the popup was blocked). */
  signInUrls: Record<string, string>;
  setSignInUrl(server: string, url: string): void;
  loadServers(): Promise<void>;
  upsertServer(view: ServerView): void;
  dropServer(name: string): void;
}

export const createServersSlice: StateCreator<AppState, [], [], ServersSlice> = (set) => ({
  servers: {},
  serverOrder: [],
  signInUrls: {},
  setSignInUrl(server, url) {
    set((s) => ({ signInUrls: { ...s.signInUrls, [server]: url } }));
  },
  async loadServers() {
    const list = await call('servers.list', {});
    set({ servers: Object.fromEntries(list.map((s) => [s.name, s])), serverOrder: list.map((s) => s.name) });
  },
  upsertServer(view) {
    set((s) => ({
      servers: { ...s.servers, [view.name]: view },
      serverOrder: s.serverOrder.includes(view.name) ? s.serverOrder : [...s.serverOrder, view.name],
    }));
  },
  dropServer(name) {
    set((s) => {
      const servers = { ...s.servers };
      delete servers[name];
      return { servers, serverOrder: s.serverOrder.filter((n) => n !== name) };
    });
  },
});
