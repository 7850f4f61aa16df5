/** Rules shared by main and the window, dependency-free (docs/ARCHITECTURE.md "Security"). */
export * from './bridge-message.js';
