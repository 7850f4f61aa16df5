/**
 * One server's traffic ring — this file's one job: keep the JSON-RPC messages that crossed the
 * server's transport, redacted and bounded (docs/ARCHITECTURE.md "Protocol inspector").
 *
 * Recording is split in two so it stays off a call's path: {@link TrafficRing.record} only stamps
 * the message (sequence number, time, direction) and queues it; the queue is worked through in
 * order on the next turn of the event loop (`setImmediate`, while the server works on the request)
 * and before every read, so a reader always sees everything recorded so far. A ring can be
 * switched off ({@link TrafficRing.enabled}): then nothing is stamped or kept.
 *
 * Each message is redacted by the app's secret redactor (the same `SecretRedactor` that events
 * and replies pass through: `redactDeep`) before it is kept, encoded once as JSON text, and
 * dropped oldest first when the ring holds more than `max_messages` messages or `max_bytes` bytes
 * of JSON. A message larger than `max_message_bytes` keeps only a preview. Responses are paired
 * with their request (timing), 2026-07-28 `input_required` rounds with the request they retry,
 * and a tool call the app tagged (a chat call, a replay) carries its tag.
 */
import type { InspectorLimits, InspectorMessage } from '../../../preload/contract/index.js';
import type { SecretRedactor } from '../../secrets/redact.js';

/** The default bounds of one server's ring. */
export const TRAFFIC_LIMITS: InspectorLimits = { max_messages: 2000, max_bytes: 8 * 1024 * 1024, max_message_bytes: 256 * 1024 };

/** Characters of a preview of a message too large to keep whole. */
const PREVIEW_CHARS = 4096;
/** Requests awaiting their response, and open `input_required` rounds, kept at most (oldest forgotten). */
const MAX_PENDING = 1024;

/**
 * The app's secret redactor, as the ring uses it (the core's `SecretRedactor`): `redactText` tells
 * whether a message's JSON text holds a stored secret in any form, `redactDeep` redacts the
 * message itself (values and keys) when it does.
 */
export type Redactor = Pick<SecretRedactor, 'redactText' | 'redactDeep'>;

interface PendingRequest {
  seq: number;
  ts: number;
  method: string;
  group: number | null;
  tag: string | null;
  name: string | null;
}

interface OpenRound {
  group: number;
  tag: string | null;
  method: string;
  name: string | null;
}

type Json = Record<string, unknown>;

/** A message stamped as it crossed, not yet encoded, redacted or kept. */
interface Stamped {
  dir: 'out' | 'in';
  message: unknown;
  connection: number;
  seq: number;
  ts: number;
}

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Requests are paired per connection and direction: each side numbers its own requests. */
function pendingKey(connection: number, dir: 'out' | 'in', id: string | number | null): string {
  return `${connection}:${dir}:${typeof id}:${String(id)}`;
}

/** What one kept message counts against the byte bound: its JSON, or its preview. */
function kept(m: InspectorMessage): number {
  return m.json === null ? (m.preview?.length ?? 0) : m.bytes;
}

/** The tool name of a `tools/call` request's params, else null. */
function toolName(method: string, params: unknown): string | null {
  return method === 'tools/call' && isObject(params) && typeof params.name === 'string' ? params.name : null;
}

/** A key for matching a tagged tool call: its name and its arguments' JSON. */
function callKey(name: string, args: unknown): string {
  let json: string;
  try {
    json = JSON.stringify(args ?? {}) ?? '';
  } catch {
    json = '';
  }
  return `${name}\u0000${json}`;
}

/** The bounded, redacted message ring of one server; shared by the connections it has across restarts. */
export class TrafficRing {
  /** The kept messages are `buf[head…]`; dropped ones are skipped by `head` and compacted away now and then. */
  private buf: InspectorMessage[] = [];
  private head = 0;
  private bytes = 0;
  private lastSeq = 0;
  private lastConnection = 0;
  /** How many messages were dropped to make room, since the ring was made or cleared. */
  dropped = 0;
  private readonly pending = new Map<string, PendingRequest>();
  private rounds: OpenRound[] = [];
  private readonly expected = new Map<string, string[]>();
  /** Stamped messages waiting to be encoded and kept, oldest first. */
  private queued: Stamped[] = [];
  private drainScheduled = false;
  /** Whether messages are recorded (the user's per-server switch; off: nothing is stamped or kept). */
  enabled = true;

  /**
   * @param redactor the core's secret redactor: applied to every message before it is kept
   * @param onRecord told of each kept message (the live batches)
   */
  constructor(
    private readonly redactor: Redactor,
    private readonly onRecord: (m: InspectorMessage) => void = () => undefined,
    readonly limits: InspectorLimits = TRAFFIC_LIMITS,
  ) {}

  /** A new connection tag (1, 2, …) for one connection of the server writing into this ring. */
  nextConnection(): number {
    return ++this.lastConnection;
  }

  /**
   * Tag the next outgoing `tools/call` of `name` with exactly these `args` (the app's reason for
   * it: `chat:<run>:<call>` or `replay:<id>`). Its response and `input_required` retries inherit
   * the tag. Expectations are matched first in, first out.
   */
  expectCall(name: string, args: unknown, tag: string): void {
    const key = callKey(name, args);
    const list = this.expected.get(key) ?? [];
    list.push(tag);
    if (list.length > 64) list.shift();
    this.expected.set(key, list);
    if (this.expected.size > MAX_PENDING) this.expected.delete(this.expected.keys().next().value!);
  }

  /**
   * Record one message as it crossed the transport (`out`: sent to the server, `in`: received):
   * stamped now, encoded, redacted and kept on the next turn of the event loop or at the next read,
   * whichever is first. Nothing when the ring is switched off. Never throws: a message that cannot
   * be encoded is kept as a preview of its description.
   */
  record(dir: 'out' | 'in', message: unknown, connection: number): void {
    if (!this.enabled) return;
    if (Array.isArray(message)) {
      for (const m of message) this.record(dir, m, connection);
      return;
    }
    this.queued.push({ dir, message, connection, seq: ++this.lastSeq, ts: Date.now() });
    if (!this.drainScheduled) {
      this.drainScheduled = true;
      setImmediate(() => this.drain());
    }
  }

  /** Encode, redact and keep every queued message now, in order. */
  drain(): void {
    this.drainScheduled = false;
    if (this.queued.length === 0) return;
    const queued = this.queued;
    this.queued = [];
    for (const q of queued) {
      try {
        this.keep(q);
      } catch {
        // One odd message never stops the others being kept.
      }
    }
  }

  private keep({ dir, message, connection, seq, ts }: Stamped): void {

    const msg = isObject(message) ? message : {};
    const hasId = 'id' in msg && (typeof msg.id === 'string' || typeof msg.id === 'number');
    const rpcId = hasId ? (msg.id as string | number) : null;
    const method = typeof msg.method === 'string' ? msg.method : null;
    const kind: InspectorMessage['kind'] = method !== null ? (hasId ? 'request' : 'notification') : 'error' in msg ? 'error' : 'response';
    let entryMethod = method;
    let requestSeq: number | null = null;
    let elapsed: number | null = null;
    let group: number | null = null;
    let tag: string | null = null;
    let inputRequired = false;
    if (kind === 'request') {
      const name = toolName(method!, msg.params);
      const params = isObject(msg.params) ? msg.params : {};
      if (dir === 'out' && ('inputResponses' in params || 'requestState' in params)) {
        // A retry answering an input_required result (2026-07-28 multi round-trip requests).
        const i = this.rounds.findLastIndex((r) => r.method === method && r.name === name);
        if (i >= 0) {
          group = this.rounds[i]!.group;
          tag = this.rounds[i]!.tag;
          this.rounds.splice(i, 1);
        }
      }
      if (tag === null && dir === 'out' && name !== null) tag = this.takeExpected(name, params.arguments);
      this.remember(pendingKey(connection, dir, rpcId), { seq, ts, method: method!, group, tag, name });
    } else if (kind === 'response' || kind === 'error') {
      const answered = dir === 'in' ? 'out' : 'in';
      const key = pendingKey(connection, answered, rpcId);
      const req = this.pending.get(key);
      if (req) {
        this.pending.delete(key);
        entryMethod = req.method;
        requestSeq = req.seq;
        elapsed = ts - req.ts;
        tag = req.tag;
        inputRequired = kind === 'response' && isObject(msg.result) && msg.result.resultType === 'input_required';
        group = req.group ?? (inputRequired ? req.seq : null);
        if (inputRequired) {
          this.rounds.push({ group: group!, tag, method: req.method, name: req.name });
          if (this.rounds.length > MAX_PENDING) this.rounds.shift();
        }
      }
    }
    const { json, bytes } = this.encode(message);
    const keep = bytes <= this.limits.max_message_bytes;
    const entry: InspectorMessage = {
      seq,
      connection,
      ts,
      dir,
      kind,
      method: entryMethod,
      rpc_id: rpcId,
      request_seq: requestSeq,
      elapsed_ms: elapsed,
      group,
      input_required: inputRequired,
      tag,
      bytes,
      json: keep ? json : null,
      preview: keep ? null : json.slice(0, PREVIEW_CHARS),
    };
    this.push(entry);
  }

  private takeExpected(name: string, args: unknown): string | null {
    if (this.expected.size === 0) return null;
    const key = callKey(name, args);
    const list = this.expected.get(key);
    if (!list) return null;
    const tag = list.shift() ?? null;
    if (list.length === 0) this.expected.delete(key);
    return tag;
  }

  private remember(key: string, req: PendingRequest): void {
    this.pending.set(key, req);
    if (this.pending.size > MAX_PENDING) this.pending.delete(this.pending.keys().next().value!);
  }

  /**
   * The redacted JSON text of a message (a description when it cannot be encoded). The text is
   * checked first (one pass of the redactor's pattern, which knows every JSON-escaped form of each
   * secret); only a message that holds a secret is redacted value by value and encoded again.
   */
  private encode(message: unknown): { json: string; bytes: number } {
    let json: string;
    try {
      json = JSON.stringify(message) ?? 'null';
      if (this.redactor.redactText(json) !== json) json = JSON.stringify(this.redactor.redactDeep(message)) ?? 'null';
    } catch {
      json = '"[a message that could not be encoded as JSON]"';
    }
    return { json, bytes: Buffer.byteLength(json, 'utf8') };
  }

  private push(entry: InspectorMessage): void {
    this.buf.push(entry);
    this.bytes += kept(entry);
    while (this.buf.length - this.head > this.limits.max_messages || (this.bytes > this.limits.max_bytes && this.buf.length - this.head > 1)) {
      this.bytes -= kept(this.buf[this.head]!);
      this.head++;
      this.dropped++;
    }
    // Compact once as many are dropped as the ring holds: amortized O(1) per message.
    if (this.head >= this.limits.max_messages) {
      this.buf = this.buf.slice(this.head);
      this.head = 0;
    }
    this.onRecord(entry);
  }

  /** Every kept message, oldest first (a copy of the list; the entries are never changed). */
  all(): InspectorMessage[] {
    this.drain();
    return this.buf.slice(this.head);
  }

  /** One kept message by `seq`, or undefined. */
  get(seq: number): InspectorMessage | undefined {
    this.drain();
    for (let i = this.buf.length - 1; i >= this.head; i--) if (this.buf[i]!.seq === seq) return this.buf[i];
    return undefined;
  }

  /** The JSON bytes kept now (for tests and the view). */
  get size(): { messages: number; bytes: number } {
    this.drain();
    return { messages: this.buf.length - this.head, bytes: this.bytes };
  }

  /** Forget every kept message. @returns how many there were */
  clear(): number {
    this.drain();
    const n = this.buf.length - this.head;
    this.buf = [];
    this.head = 0;
    this.bytes = 0;
    this.dropped = 0;
    return n;
  }
}
