/**
 * The size rule of one request on the browser shell's socket (its JSON text, in bytes). A bigger
 * one is refused with `too_large`, by the window before sending and by the shell when it arrives;
 * the socket and every other request go on (docs/ARCHITECTURE.md "Security"). Dependency-free:
 * main and the window import this value.
 */
export const BRIDGE_MESSAGE_BYTES = 4 * 1024 * 1024;
