/**
 * The contract of the protocol inspector (docs/ARCHITECTURE.md "Protocol inspector"): one
 * server's recorded MCP traffic as main keeps it (redacted, bounded), its live batches, saving it
 * as a `.jsonl` file, and replaying a recorded `tools/call` through the permission gate.
 */
import { z } from 'zod';
import { jsonWithin, serverNameSchema } from './limits.js';

/**
 * One recorded JSON-RPC message of one server, as it crossed the transport (MCP spec "Base
 * Protocol: Messages"):
 * - `seq`: increasing per server (across its restarts); `connection`: which connection of the
 *   server carried it (1, 2, … — a restart is a new connection);
 * - `ts`: when it crossed, ms epoch; `dir`: `out` client → server, `in` server → client;
 * - `kind`: request, response (a result), error (an error response) or notification;
 * - `method`: the request's or notification's method; for a response, the method of the request
 *   it answers (null when that request was not seen);
 * - `request_seq`: for a response, the `seq` of its request; `elapsed_ms`: ms since that request;
 * - `group`: the `seq` of the first request of a 2026-07-28 multi-round-trip request (an
 *   `input_required` result and the retries that answer it share it), else null;
 * - `input_required`: a result with `resultType: "input_required"`;
 * - `tag`: what the app sent it for — `chat:<run_id>:<call_id>` for a tool call of a chat,
 *   `replay:<id>` for a replay from the inspector — or null;
 * - `json`: the message's JSON text with every stored secret redacted; null when it was larger
 *   than a message may be kept (`preview` then holds its first characters); `bytes`: its size.
 */
export interface InspectorMessage {
  seq: number;
  connection: number;
  ts: number;
  dir: 'out' | 'in';
  kind: 'request' | 'response' | 'error' | 'notification';
  method: string | null;
  rpc_id: string | number | null;
  request_seq: number | null;
  elapsed_ms: number | null;
  group: number | null;
  input_required: boolean;
  tag: string | null;
  bytes: number;
  json: string | null;
  preview: string | null;
}

/** What the recorder keeps of one server, as numbers (docs/ARCHITECTURE.md "Protocol inspector"). */
export interface InspectorLimits {
  max_messages: number;
  max_bytes: number;
  max_message_bytes: number;
}

/**
 * One server's recording: its messages oldest first, the limits, how many were dropped for room,
 * and whether the server is being recorded (the user's per-server switch, kept across restarts).
 */
export interface InspectorSnapshot {
  server: string;
  recording: boolean;
  messages: InspectorMessage[];
  dropped: number;
  limits: InspectorLimits;
}

/** A saved recording: the file written (owner-only, `<state dir>/exports/`) and how many messages it holds. */
export interface InspectorSaveResult {
  path: string;
  count: number;
}

/**
 * A replay's outcome: `ok` with the server's result and the replay's tag (its messages carry it);
 * `refused` when the permission gate did not allow it (`message` says why); `failed` when the
 * call itself failed (`message`, the error's text).
 */
export type InspectorReplayResult =
  | { kind: 'ok'; tag: string; result: Record<string, unknown>; duration_ms: number }
  | { kind: 'refused'; tag: string; message: string }
  | { kind: 'failed'; tag: string; message: string };

/** The `run_id` of every approval a replay asks for (the window shows those cards in the inspector). */
export const INSPECTOR_RUN_ID = 'inspector-replay';

const server = z.strictObject({ server: serverNameSchema });

/** The inspector channels (spread into `channels`, channels.ts). */
export const inspectorChannels = {
  'inspector.list': { input: server },
  'inspector.clear': { input: server },
  'inspector.save': { input: server },
  /** Switch the recorder on or off for one server, at once and across restarts (what was kept stays). */
  'inspector.setRecording': { input: z.strictObject({ server: serverNameSchema, on: z.boolean() }) },
  'inspector.replay': {
    input: z.strictObject({
      server: serverNameSchema,
      seq: z.number().int().min(1),
      arguments: z.record(z.string().max(256), z.unknown()).refine((v) => jsonWithin(v, 1_000_000), 'Arguments too large or nested too deeply'),
    }),
  },
} as const;

/** What each of {@link inspectorChannels} returns (part of `ChannelOutputs`, channels.ts). */
export interface InspectorChannelOutputs {
  'inspector.list': InspectorSnapshot;
  'inspector.clear': { cleared: number };
  'inspector.save': InspectorSaveResult;
  'inspector.setRecording': { server: string; recording: boolean };
  'inspector.replay': InspectorReplayResult;
}

/**
 * The inspector's events (part of `EventPayloads`, events.ts): `inspector.messages` — messages
 * recorded since the last batch (at most every 100 ms), oldest first; `dropped` counts those left
 * out of this batch for size (the window reloads with `inspector.list` then).
 */
export interface InspectorEventPayloads {
  'inspector.messages': { server: string; messages: InspectorMessage[]; dropped: number };
}
/** The names of {@link InspectorEventPayloads}, one entry each (merged into `eventTable`, events.ts). */
export const inspectorEventTable: { [E in keyof InspectorEventPayloads]: true } = { 'inspector.messages': true };
