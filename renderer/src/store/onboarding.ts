/**
 * The first-run guide's state (components/FirstRun.tsx; docs/ARCHITECTURE.md "First run"): shown
 * when the window opens on a fresh state — no model profile, no server, no conversation — until
 * the user skips it or starts a conversation; kept as done in this window's storage. Also the
 * composer's fill requests (an example prompt the user picked).
 */
import type { StateCreator } from 'zustand';
import type { AppState } from './index';

/** Where the guide is: waiting for the first lists, shown, or hidden for good. */
export type FirstRunState = { kind: 'checking' } | { kind: 'shown' } | { kind: 'hidden' };

/** A request to put text in the composer (`seq` tells two requests of the same text apart). */
export interface ComposerFill {
  text: string;
  seq: number;
}

export interface OnboardingSlice {
  firstRun: FirstRunState;
  composerFill: ComposerFill | null;
  /** Decide once, after the first lists arrived, whether the guide is shown. */
  checkFirstRun(loaded: { profiles: boolean; servers: boolean; conversations: boolean }): void;
  /** The user skipped the guide or finished it: hide it, for good in this window. */
  finishFirstRun(): void;
  /** Put `text` in the composer (replacing what is there) and focus it. */
  fillComposer(text: string): void;
  /**
   * The composer applied fill `seq`: the request is done. A fill is applied once — a composer
   * mounted again later (back from Settings) must not put the example back over what was sent.
   */
  composerFilled(seq: number): void;
}

const STORAGE_KEY = 'openprogram.firstRun';

function storedDone(): boolean {
  try {
    return localStorage.getItem(STORAGE_KEY) === 'done';
  } catch {
    return false;
  }
}

export const createOnboardingSlice: StateCreator<AppState, [], [], OnboardingSlice> = (set, get) => ({
  firstRun: { kind: 'checking' },
  composerFill: null,
  checkFirstRun(loaded) {
    if (get().firstRun.kind !== 'checking') return;
    const s = get();
    // A list that could not be loaded counts as not empty: the guide is for a state known fresh.
    const fresh = loaded.profiles && loaded.servers && loaded.conversations && s.profiles.length === 0 && s.serverOrder.length === 0 && s.conversations.length === 0;
    set({ firstRun: fresh && !storedDone() ? { kind: 'shown' } : { kind: 'hidden' } });
  },
  finishFirstRun() {
    try {
      localStorage.setItem(STORAGE_KEY, 'done');
    } catch {
      // Storage refused (private mode): hidden for this session only.
    }
    set({ firstRun: { kind: 'hidden' } });
  },
  fillComposer(text) {
    set((s) => ({ composerFill: { text, seq: (s.composerFill?.seq ?? 0) + 1 } }));
  },
  composerFilled(seq) {
    if (get().composerFill?.seq === seq) set({ composerFill: null });
  },
});
