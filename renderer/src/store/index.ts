/**
 * Renderer state: one zustand store built from slices (servers, chat, settings, approvals). It holds only
 * the masked views main sends.
 */
import { create } from 'zustand';
import { createApprovalsSlice, type ApprovalsSlice } from './approvals';
import { createChatSlice, type ChatSlice } from './chat';
import { createServersSlice, type ServersSlice } from './servers';
import { createSettingsSlice, type SettingsSlice } from './settings';

export type AppState = ServersSlice & ChatSlice & SettingsSlice & ApprovalsSlice;

export const useApp = create<AppState>()((...a) => ({
  ...createServersSlice(...a),
  ...createChatSlice(...a),
  ...createSettingsSlice(...a),
  ...createApprovalsSlice(...a),
}));
