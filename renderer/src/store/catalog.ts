import type { StateCreator } from 'zustand';
import type { CatalogDiffItem, CatalogPage } from '../../../preload/contract/index.js';
import { call } from '../api';
import type { AppState } from './index';

/**
 * The Catalog screen's data: the registry URL, the shown results (a state the screen renders as
 * is), and the catalog diff of installed catalog servers. Only views main sends; no secret.
 */
export type CatalogResults =
  | { kind: 'idle' }
  | { kind: 'loading'; query: string }
  | { kind: 'shown'; page: CatalogPage; query: string; loadingMore: boolean }
  | { kind: 'failed'; message: string };

export type CatalogDiffState = { kind: 'idle' } | { kind: 'loading' } | { kind: 'shown'; items: CatalogDiffItem[] } | { kind: 'failed'; message: string };

export interface CatalogSlice {
  registryUrl: string | null;
  catalogResults: CatalogResults;
  includeDeprecated: boolean;
  catalogDiff: CatalogDiffState;
  loadCatalogSettings(): Promise<void>;
  saveRegistryUrl(url: string): Promise<void>;
  setIncludeDeprecated(v: boolean): void;
  searchCatalog(query: string): Promise<void>;
  loadMoreCatalog(): Promise<void>;
  loadCatalogDiff(): Promise<void>;
  /** Note in the shown results that `server` was installed from entry `name`. */
  markCatalogInstalled(name: string, server: string): void;
}

export const createCatalogSlice: StateCreator<AppState, [], [], CatalogSlice> = (set, get) => ({
  registryUrl: null,
  catalogResults: { kind: 'idle' },
  includeDeprecated: false,
  catalogDiff: { kind: 'idle' },
  async loadCatalogSettings() {
    const s = await call('catalog.getSettings', {});
    set({ registryUrl: s.registry_url });
  },
  async saveRegistryUrl(url) {
    const s = await call('catalog.setSettings', { registry_url: url });
    set({ registryUrl: s.registry_url, catalogResults: { kind: 'idle' }, catalogDiff: { kind: 'idle' } });
  },
  setIncludeDeprecated(v) {
    set({ includeDeprecated: v });
  },
  async searchCatalog(query) {
    set({ catalogResults: { kind: 'loading', query } });
    try {
      const page = await call('catalog.search', { query, include_deprecated: get().includeDeprecated });
      set({ catalogResults: { kind: 'shown', page, query, loadingMore: false } });
    } catch (err) {
      set({ catalogResults: { kind: 'failed', message: (err as Error).message } });
    }
  },
  async loadMoreCatalog() {
    const cur = get().catalogResults;
    if (cur.kind !== 'shown' || !cur.page.next_cursor) return;
    set({ catalogResults: { ...cur, loadingMore: true } });
    try {
      const next = await call('catalog.search', { query: cur.query, cursor: cur.page.next_cursor, include_deprecated: get().includeDeprecated });
      set({ catalogResults: { kind: 'shown', query: cur.query, loadingMore: false, page: { ...next, entries: [...cur.page.entries, ...next.entries] } } });
    } catch (err) {
      set({ catalogResults: { kind: 'failed', message: (err as Error).message } });
    }
  },
  markCatalogInstalled(name, server) {
    const cur = get().catalogResults;
    if (cur.kind !== 'shown') return;
    const entries = cur.page.entries.map((e) => (e.name === name && !e.installed_as.includes(server) ? { ...e, installed_as: [...e.installed_as, server] } : e));
    set({ catalogResults: { ...cur, page: { ...cur.page, entries } }, catalogDiff: { kind: 'idle' } });
  },
  async loadCatalogDiff() {
    set({ catalogDiff: { kind: 'loading' } });
    try {
      set({ catalogDiff: { kind: 'shown', items: await call('catalog.diff', {}) } });
    } catch (err) {
      set({ catalogDiff: { kind: 'failed', message: (err as Error).message } });
    }
  },
});
