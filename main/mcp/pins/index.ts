/**
 * Pinned tool definitions — this room's one job: remember, per server, the definition of each
 * tool the user has seen and accepted, and say how each listed tool stands against it
 * (`pinned | new | changed {diff}`), so a changed tool never runs on an earlier allow
 * (docs/ARCHITECTURE.md "Pinned tool definitions"). This header is the map of the room.
 *
 * - definition.ts  the fields that count and their stable hash (canonical JSON, sorted keys)
 * - diff.ts        a readable diff of two definitions
 * - store.ts       PinStore: `<state dir>/tool-pins/`, one file per server, and the settings
 * - tool-pins.ts   ToolPins: check a listing, accept definitions, the hold-back setting
 *
 * The tool table (../host/tool-table.ts) checks every ready server's listing; the permission gate
 * (main/chat/permissions/gate.ts) asks before a tool that is not `pinned` runs.
 */
export { definitionHash, definitionOf, type ToolDefinition } from './definition.js';
export { diffDefinitions, MAX_DIFF_ENTRIES, MAX_DIFF_TEXT } from './diff.js';
export { PINS_DIR, PinStore, type PinStoreSettings, type ServerPins, type ToolPin } from './store.js';
export { ToolPins, type CheckedTool } from './tool-pins.js';
