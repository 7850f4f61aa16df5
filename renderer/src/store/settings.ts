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
  /**
   * The user hid Settings' notice that secrets are not in a keychain, for this session (the
   * window's sessionStorage); the forms that take secrets still say it (components/SecretsFormNote.tsx).
   */
  secretsNoticeHidden: boolean;
  warnings: string[];
  /** The saved model profiles (masked), for the composer's picker. */
  profiles: ModelProfileView[];
  loadSettings(): Promise<void>;
  loadProfiles(): Promise<void>;
  setModelView(v: ModelSettingsView): void;
  addWarning(message: string): void;
  dismissWarning(i: number): void;
  /** Hide Settings' keychain notice until the app (or this tab of the browser shell) is closed. */
  hideSecretsNotice(): void;
}

/** The sessionStorage key of {@link SettingsSlice.secretsNoticeHidden}. */
const NOTICE_HIDDEN_KEY = 'openprogram.secretsNoticeHidden';

/** Whether the notice was hidden earlier in this session (false where sessionStorage cannot be read). */
function noticeHiddenThisSession(): boolean {
  try {
    return sessionStorage.getItem(NOTICE_HIDDEN_KEY) === '1';
  } catch {
    return false;
  }
}

export const createSettingsSlice: StateCreator<AppState, [], [], SettingsSlice> = (set) => ({
  info: null,
  model: null,
  secrets: null,
  secretsNoticeHidden: noticeHiddenThisSession(),
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
  hideSecretsNotice() {
    try {
      sessionStorage.setItem(NOTICE_HIDDEN_KEY, '1');
    } catch {
      // Hidden for this window's life only.
    }
    set({ secretsNoticeHidden: true });
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
