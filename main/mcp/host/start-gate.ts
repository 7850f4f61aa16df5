/**
 * When the startup queue runs: the window comes first. Servers start once the UI has loaded (the
 * window's first call answered) or, when no window calls (headless), after a short fallback
 * delay — and never before the config is loaded. Nothing here makes the UI wait for a server
 * (docs/ARCHITECTURE.md "Readiness", "Start-up and shutdown").
 */

/** How long servers wait for a window's first call before they start anyway, in ms. */
export const SERVER_START_FALLBACK_MS = 2000;

/** Opens once both the config is loaded and the UI is up (or the fallback delay passed). */
export class ServerStartGate {
  private loaded = false;
  private uiUp = false;
  private done = false;
  private timer: NodeJS.Timeout | null = null;

  /**
   * @param start starts the servers (called at most once)
   * @param fallbackMs how long to wait for the UI after the config is loaded, in ms
   */
  constructor(
    private readonly start: () => void,
    private readonly fallbackMs = SERVER_START_FALLBACK_MS,
  ) {}

  /** The config is loaded: start now if the UI is already up, else wait for it (with the fallback). */
  configLoaded(): void {
    this.loaded = true;
    if (this.uiUp) return this.open();
    if (this.done || this.timer) return;
    this.timer = setTimeout(() => this.open(), this.fallbackMs);
    // A pending start must not keep a process alive that has nothing else to do.
    this.timer.unref?.();
  }

  /** The UI is up (the window's first call was answered): start now if the config is loaded. */
  uiReady(): void {
    this.uiUp = true;
    if (this.loaded) this.open();
  }

  /** Never start (shutdown). */
  cancel(): void {
    this.done = true;
    this.clearTimer();
  }

  private open(): void {
    this.clearTimer();
    if (this.done) return;
    this.done = true;
    this.start();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
