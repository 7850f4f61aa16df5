/**
 * Renderer state: one zustand store built from slices (servers, chat, conversations, settings,
 * approvals, composer, drafts, catalog, inspector, onboarding, tasks). It holds only
 * the masked views main sends.
 */
import { create } from 'zustand';
import { createApprovalsSlice, type ApprovalsSlice } from './approvals';
import { createCatalogSlice, type CatalogSlice } from './catalog';
import { createChatSlice, type ChatSlice } from './chat';
import { createComposerSlice, type ComposerSlice } from './composer';
import { createConversationsSlice, type ConversationsSlice } from './conversations';
import { createDraftsSlice, type DraftsSlice } from './drafts';
import { createInspectorSlice, type InspectorSlice } from './inspector';
import { createOnboardingSlice, type OnboardingSlice } from './onboarding';
import { createServersSlice, type ServersSlice } from './servers';
import { createSettingsSlice, type SettingsSlice } from './settings';
import { createTasksSlice, type TasksSlice } from './tasks';

export type AppState = ServersSlice & ChatSlice & ConversationsSlice & SettingsSlice & ApprovalsSlice & ComposerSlice & DraftsSlice & CatalogSlice & InspectorSlice & OnboardingSlice & TasksSlice;

export const useApp = create<AppState>()((...a) => ({
  ...createServersSlice(...a),
  ...createChatSlice(...a),
  ...createConversationsSlice(...a),
  ...createSettingsSlice(...a),
  ...createApprovalsSlice(...a),
  ...createComposerSlice(...a),
  ...createDraftsSlice(...a),
  ...createCatalogSlice(...a),
  ...createInspectorSlice(...a),
  ...createOnboardingSlice(...a),
  ...createTasksSlice(...a),
}));
