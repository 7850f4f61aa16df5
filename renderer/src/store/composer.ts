/**
 * The composer's prompts and resources (docs/ARCHITECTURE.md "Prompts and resources in chat"):
 * the resource templates of ready servers (listed on demand) and the resource viewer's state.
 * What is attached to the message being written is part of its conversation's draft (./drafts.ts).
 */
import type { StateCreator } from 'zustand';
import type { ResourceReadView, ResourceTemplateView } from '../../../preload/contract/index.js';
import { call } from '../api';
import type { AppState } from './index';

/** The resource viewer, as the UI renders it. */
export type ViewerState =
  | { state: 'closed' }
  | { state: 'loading'; server: string; uri: string }
  | { state: 'ready'; view: ResourceReadView; updated: boolean }
  | { state: 'error'; server: string; uri: string; /** What the read was refused with (components/ErrorText.tsx words it). */ error: unknown };

/** Resource templates: not asked yet, being listed, or listed. */
export type TemplatesState = { state: 'idle' } | { state: 'loading' } | { state: 'ready'; templates: ResourceTemplateView[] };

export interface ComposerSlice {
  templates: TemplatesState;
  /** List the resource templates of ready servers (again when `refresh`). */
  loadTemplates(refresh?: boolean): Promise<void>;
  viewer: ViewerState;
  /** Open a resource in the viewer (read from its server; subscribed while open where supported). */
  openResource(server: string, uri: string): Promise<void>;
  closeViewer(): void;
  /** A subscribed resource changed: read the open one again. */
  resourceUpdated(server: string, uri: string): void;
}

export const createComposerSlice: StateCreator<AppState, [], [], ComposerSlice> = (set, get) => {
  const unsubscribe = (server: string, uri: string): void => {
    void call('context.unsubscribe', { server, uri }).catch(() => undefined);
  };
  const read = async (server: string, uri: string, updated: boolean): Promise<void> => {
    try {
      const view = await call('context.read', { server, uri });
      const v = get().viewer;
      if (v.state === 'closed' || (v.state === 'ready' ? v.view.server !== server || v.view.uri !== uri : v.server !== server || v.uri !== uri)) return;
      set({ viewer: { state: 'ready', view, updated } });
    } catch (err) {
      set({ viewer: { state: 'error', server, uri, error: err } });
    }
  };
  return {
    templates: { state: 'idle' },
    async loadTemplates(refresh = false) {
      if (!refresh && get().templates.state !== 'idle') return;
      set({ templates: { state: 'loading' } });
      try {
        set({ templates: { state: 'ready', templates: await call('context.templates', {}) } });
      } catch {
        set({ templates: { state: 'ready', templates: [] } });
      }
    },
    viewer: { state: 'closed' },
    async openResource(server, uri) {
      get().closeViewer();
      set({ viewer: { state: 'loading', server, uri } });
      await read(server, uri, false);
      const v = get().viewer;
      if (v.state === 'ready' && v.view.can_subscribe) void call('context.subscribe', { server, uri }).catch(() => undefined);
    },
    closeViewer() {
      const v = get().viewer;
      if (v.state === 'ready' && v.view.can_subscribe) unsubscribe(v.view.server, v.view.uri);
      set({ viewer: { state: 'closed' } });
    },
    resourceUpdated(server, uri) {
      const v = get().viewer;
      if (v.state === 'ready' && v.view.server === server && v.view.uri === uri) void read(server, uri, true);
    },
  };
};
