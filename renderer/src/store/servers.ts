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
  /**
   * Server `from` was renamed to `view.name` (docs/ARCHITECTURE.md "Renaming a server"): it keeps
   * its place in the list, and what the window holds under its name (a sign-in link, the tool
   * picker's choice for a new conversation, an open inspector) follows it. Idempotent: the
   * `servers.renamed` event and the rename's reply both apply it, whichever comes first.
   */
  renameServer(from: string, view: ServerView): void;
}

/** The newer of the view held and one that arrived (ServerView.seq); the arrived one on a tie. */
function newer(held: ServerView | undefined, arrived: ServerView): ServerView {
  return held && held.seq > arrived.seq ? held : arrived;
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
    // An event that came while the list was on its way may hold a newer view of a server: keep it.
    set((s) => ({ servers: Object.fromEntries(list.map((v) => [v.name, newer(s.servers[v.name], v)])), serverOrder: list.map((v) => v.name) }));
  },
  upsertServer(view) {
    set((s) => {
      // A reply's view can arrive after an event's newer one (the server became ready meanwhile).
      if (newer(s.servers[view.name], view) !== view) return s;
      return {
        servers: { ...s.servers, [view.name]: view },
        serverOrder: s.serverOrder.includes(view.name) ? s.serverOrder : [...s.serverOrder, view.name],
      };
    });
  },
  renameServer(from, view) {
    const to = view.name;
    const rename = (n: string): string => (n === from ? to : n);
    set((s) => {
      // Already applied (the event came before the reply): a later view of `to` is not replaced.
      if (!(from in s.servers) && to in s.servers) return s;
      const servers = { ...s.servers };
      delete servers[from];
      servers[to] = view;
      const signInUrls = { ...s.signInUrls };
      if (from in signInUrls) signInUrls[to] = signInUrls[from]!;
      delete signInUrls[from];
      const order = s.serverOrder.includes(from) ? s.serverOrder.filter((n) => n !== to).map(rename) : s.serverOrder.includes(to) ? s.serverOrder : [...s.serverOrder, to];
      return {
        servers,
        serverOrder: order,
        signInUrls,
        draftToolServers: s.draftToolServers && [...new Set(s.draftToolServers.map(rename))],
        inspector: s.inspector && s.inspector.server === from ? { ...s.inspector, server: to } : s.inspector,
      };
    });
  },
  dropServer(name) {
    set((s) => {
      const servers = { ...s.servers };
      delete servers[name];
      return { servers, serverOrder: s.serverOrder.filter((n) => n !== name) };
    });
  },
});
