import type { StateCreator } from 'zustand';
import type { AppInfo, ModelProfileView, ModelSettingsView, SecretsInfo } from '../../../preload/contract/index.js';
import { call } from '../api';
import { describeConversationsWarning } from '../i18n/conversations-warning';
import type { AppState } from './index';

/** App info, model settings view, and visible warnings. */
export interface SettingsSlice {
  info: AppInfo | null;
  model: ModelSettingsView | null;
  /** How secrets are stored (shown in Settings; a persistent notice when not in a keychain). */
  secrets: SecretsInfo | null;
  warnings: string[];
  /** The saved model profiles (masked), for the composer's picker. */
  profiles: ModelProfileView[];
  loadSettings(): Promise<void>;
  loadProfiles(): Promise<void>;
  setModelView(v: ModelSettingsView): void;
  addWarning(message: string): void;
  dismissWarning(i: number): void;
}

export const createSettingsSlice: StateCreator<AppState, [], [], SettingsSlice> = (set) => ({
  info: null,
  model: null,
  secrets: null,
  warnings: [],
  profiles: [],
  async loadProfiles() {
    set({ profiles: await call('profiles.list', {}) });
  },
  async loadSettings() {
    const [info, model, profiles] = await Promise.all([call('app.info', {}), call('settings.getModel', {}), call('profiles.list', {})]);
    set({ profiles });
    call('app.secretsInfo', {}).then((secrets) => set({ secrets }), () => undefined);
    const fromInfo = [info.config_warning, info.conversations_warning ? describeConversationsWarning(info.conversations_warning) : null].filter((w): w is string => Boolean(w));
    set((s) => ({ info, model, warnings: [...s.warnings, ...fromInfo.filter((w) => !s.warnings.includes(w))] }));
  },
  setModelView(model) {
    set({ model });
  },
  addWarning(message) {
    set((s) => (s.warnings.includes(message) ? s : { warnings: [...s.warnings, message] }));
  },
  dismissWarning(i) {
    set((s) => ({ warnings: s.warnings.filter((_, j) => j !== i) }));
  },
});

/**
 * The profile the open conversation uses: its own, the new chat's pick, or the default (null when
 * that profile is not in the list). A selector for `useApp`.
 */
export function activeProfile(s: AppState): ModelProfileView | null {
  const summary = s.conversations.find((c) => c.id === s.conversationId);
  const id = summary ? summary.profile_id : s.draftProfileId;
  return s.profiles.find((p) => (id ? p.id === id : p.is_default)) ?? null;
}
