/**
 * The ONE definition of every IPC channel between the renderer and main — this file re-exports
 * the contract's parts (docs/ARCHITECTURE.md "The IPC contract"), one file per domain:
 *
 * - `channels.ts`: request/response channels (renderer → main), each with a zod input schema
 *   (strict: unknown fields are rejected, strings are bounded) and an output type (`ChannelOutputs`);
 * - `events.ts`: push channels (main → renderer) with their payload types;
 * - `errors.ts`: the typed error codes every handler may return, and the envelope;
 * - the domains: `servers.ts` and `server-view.ts`, `tools.ts` (tools, permissions, approvals),
 *   `chat.ts` (chat and conversations), `profiles.ts`, `catalog.ts`, `protocol.ts` (logs,
 *   elicitation, sampling, roots, the composer's prompts and resources), `apps.ts` (MCP Apps),
 *   `inspector.ts` (the protocol inspector), `tasks.ts` (MCP Tasks), `app-info.ts`; `limits.ts` holds the shared limits and primitives.
 *
 * The contract imports nothing of ours but its own files and its shared rules (layer rule in
 * docs/ARCHITECTURE.md); main validates every input against these schemas, the preload exposes
 * only these channel names, and the browser shell carries the same envelopes over a loopback
 * WebSocket. Import it from here.
 */
import type { ChannelInput, ChannelName, ChannelOutput } from './channels.js';
import type { Envelope } from './errors.js';
import type { EventName, EventPayloads } from './events.js';

export type { PermissionMode, ResourceLinkKind, ResourceReadRefusal, ToolApproval } from './rules/index.js';
export * from './limits.js';
export * from './servers.js';
export * from './server-view.js';
export * from './tools.js';
export * from './profiles.js';
export * from './chat.js';
export * from './app-info.js';
export * from './protocol.js';
export * from './catalog.js';
export * from './apps.js';
export * from './sandbox.js';
export * from './inspector.js';
export * from './tasks.js';
export * from './channels.js';
export * from './events.js';
export * from './errors.js';

/** The API the preload (or the browser-shell bridge) exposes as `window.openprogram`. */
export interface OpenProgramApi {
  invoke<C extends ChannelName>(channel: C, input: ChannelInput<C>): Promise<Envelope<ChannelOutput<C>>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayloads[E]) => void): () => void;
}
