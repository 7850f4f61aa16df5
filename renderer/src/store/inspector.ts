import type { StateCreator } from 'zustand';
import type { AppState } from './index';

/**
 * Which server's protocol inspector is open (docs/ARCHITECTURE.md "Protocol inspector"), and the
 * call it was opened for: `focus` is a tag of the recorded messages (`chat:<run_id>:<call_id>` from
 * a tool card), or null. The recording itself is main's; the inspector loads it when it opens.
 */
export interface InspectorSlice {
  inspector: { server: string; focus: string | null } | null;
  /** Open the inspector of `server`, jumping to the messages tagged `focus` when given. */
  openInspector(server: string, focus?: string | null): void;
  closeInspector(): void;
}

/** The tag main gives a chat's tool call (run-tools.ts), so a tool card can find its messages. */
export function chatCallTag(runId: string, callId: string): string {
  return `chat:${runId}:${callId}`;
}

/** The inspector slice (wired into the app store in ./index.ts). */
export const createInspectorSlice: StateCreator<AppState, [], [], InspectorSlice> = (set) => ({
  inspector: null,
  openInspector(server, focus = null) {
    set({ inspector: { server, focus } });
  },
  closeInspector() {
    set({ inspector: null });
  },
});
