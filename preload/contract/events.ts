/**
 * The table of every event channel (main → renderer): each domain's payload types merged into
 * {@link EventPayloads}, and the list of event names the preload and the browser shell forward,
 * derived from it. docs/ARCHITECTURE.md "The IPC contract".
 */
import { appInfoEventTable, type AppInfoEventPayloads } from './app-info.js';
import { chatEventTable, type ChatEventPayloads } from './chat.js';
import { inspectorEventTable, type InspectorEventPayloads } from './inspector.js';
import { protocolEventTable, type ProtocolEventPayloads } from './protocol.js';
import { serverEventTable, type ServerEventPayloads } from './servers.js';
import { toolEventTable, type ToolEventPayloads } from './tools.js';
import { taskEventTable, type TaskEventPayloads } from './tasks.js';

/** Every event channel (main → renderer) and its payload type. */
export interface EventPayloads extends ServerEventPayloads, ChatEventPayloads, AppInfoEventPayloads, ToolEventPayloads, ProtocolEventPayloads, InspectorEventPayloads, TaskEventPayloads {}
export type EventName = keyof EventPayloads;
/**
 * One entry per event of {@link EventPayloads}: the type makes a missing name a compile error
 * (and each domain's table is typed by its own payloads), so the list the preload and the browser
 * shell forward cannot drift from the contract.
 */
const eventTable: { [E in EventName]: true } = {
  ...serverEventTable,
  ...chatEventTable,
  ...appInfoEventTable,
  ...toolEventTable,
  ...protocolEventTable,
  ...inspectorEventTable,
  ...taskEventTable,
};
/** Every event name, derived from {@link EventPayloads} (see `eventTable`). */
export const eventNames = Object.keys(eventTable) as EventName[];
