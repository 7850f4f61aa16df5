import type { StateCreator } from 'zustand';
import type { AppInfo, AppWarning, ConversationsWarning, ModelProfileView, ModelSettingsView, SecretsInfo } from '../../../preload/contract/index.js';
import { call } from '../api';
import type { AppState } from './index';

/**
 * A banner at the top of the window, kept as what it says rather than as text, so it is worded in
 * the language current when it shows (components/WarningText.tsx): an app warning or a warning
 * about the conversation database main sent by code, a server's note that a browser step is
 * finished, or a list that could not be loaded (its error).
 */
export type WindowWarning =
  | { kind: 'app'; warning: AppWarning }
  | { kind: 'conversations'; warning: ConversationsWarning }
  | { kind: 'url_completed'; server: string }
  | { kind: 'error'; error: unknown };

/** What tells two banners apart (the same one is shown once). */
export function warningKey(w: WindowWarning): string {
  if (w.kind === 'error') return `error:${w.error instanceof Error ? w.error.message : String(w.error)}`;
  return `${w.kind}:${JSON.stringify(w.kind === 'url_completed' ? w.server : w.warning)}`;
}

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
  warnings: WindowWarning[];
  /** The saved model profiles (masked), for the composer's picker. */
  profiles: ModelProfileView[];
  loadSettings(): Promise<void>;
  loadProfiles(): Promise<void>;
  setModelView(v: ModelSettingsView): void;
  addWarning(w: WindowWarning): void;
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
    const fromInfo: WindowWarning[] = [...info.warnings.map((warning) => ({ kind: 'app' as const, warning })), ...(info.conversations_warning ? [{ kind: 'conversations' as const, warning: info.conversations_warning }] : [])];
    set((s) => {
      const shown = new Set(s.warnings.map(warningKey));
      return { info, model, warnings: [...s.warnings, ...fromInfo.filter((w) => !shown.has(warningKey(w)))] };
    });
  },
  setModelView(model) {
    set({ model });
  },
  addWarning(w) {
    set((s) => (s.warnings.some((x) => warningKey(x) === warningKey(w)) ? s : { warnings: [...s.warnings, w] }));
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
