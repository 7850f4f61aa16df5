/**
 * The traffic ring of the protocol inspector (docs/ARCHITECTURE.md "Protocol inspector"): its
 * bounds (count, bytes, one large message), the redaction of every kept message by the app's
 * own secret redactor (a secret in a tool call's arguments, in header-like values, in a result,
 * in a key), the pairing of responses with their requests, 2026-07-28 `input_required` rounds and
 * the tags of the app's own calls.
 */
import { describe, expect, it } from 'vitest';
import { SecretRedactor } from '../../../../main/secrets/redact.js';
import { TrafficRing } from '../../../../main/mcp/inspector/ring.js';
import { TrafficRecorder } from '../../../../main/mcp/inspector/recorder.js';
import type { InspectorMessage } from '../../../../preload/contract/index.js';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { INSPECTOR_SETTINGS_FILE, RecorderSwitches } from '../../../../main/mcp/inspector/switches.js';
import { makeTempDir, removeDir } from '../../helpers.js';

const SECRET = 'sk-live-4f9a8b7c6d5e';
const HEADER_SECRET = 'hdr-token-0123456789';

function redactingRing(limits = { max_messages: 100, max_bytes: 1024 * 1024, max_message_bytes: 64 * 1024 }): TrafficRing {
  const r = new SecretRedactor();
  r.add(SECRET);
  r.add(HEADER_SECRET);
  return new TrafficRing(r, () => undefined, limits);
}

const call = (id: number, args: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: args, ...extra } });
const result = (id: number, r: Record<string, unknown>) => ({ jsonrpc: '2.0', id, result: r });

describe('TrafficRing bounds', () => {
  it('keeps at most max_messages, dropping the oldest, and counts what it dropped', () => {
    const ring = redactingRing({ max_messages: 5, max_bytes: 1024 * 1024, max_message_bytes: 64 * 1024 });
    for (let i = 1; i <= 12; i++) ring.record('out', { jsonrpc: '2.0', method: 'notifications/progress', params: { i } }, 1);
    const kept = ring.all();
    expect(kept.map((m) => JSON.parse(m.json!).params.i)).toEqual([8, 9, 10, 11, 12]);
    expect(ring.dropped).toBe(7);
    expect(kept.map((m) => m.seq)).toEqual([8, 9, 10, 11, 12]);
  });

  it('keeps at most max_bytes of JSON, and a message over max_message_bytes only as a preview', () => {
    const ring = redactingRing({ max_messages: 1000, max_bytes: 10_000, max_message_bytes: 5_000 });
    for (let i = 0; i < 20; i++) ring.record('in', { jsonrpc: '2.0', method: 'notifications/message', params: { data: 'x'.repeat(1000) } }, 1);
    expect(ring.size.bytes).toBeLessThanOrEqual(10_000);
    expect(ring.size.messages).toBeLessThan(20);
    ring.record('in', result(1, { content: [{ type: 'text', text: 'y'.repeat(50_000) }] }), 1);
    const big = ring.all().at(-1)!;
    expect(big.json).toBeNull();
    expect(big.bytes).toBeGreaterThan(50_000);
    expect(big.preview!.length).toBe(4096);
    expect(ring.size.bytes).toBeLessThanOrEqual(10_000);
  });

  it('the recorder batches what rings record and drops a removed server’s ring', async () => {
    const batches: Array<{ server: string; messages: InspectorMessage[] }> = [];
    const rec = new TrafficRecorder(new SecretRedactor(), (server, messages) => batches.push({ server, messages }));
    const ring = rec.ring('a');
    for (let i = 0; i < 50; i++) ring.record('out', { jsonrpc: '2.0', method: 'notifications/x', params: { i } }, 1);
    expect(batches).toEqual([]); // nothing per message
    await new Promise((r) => setTimeout(r, 150));
    expect(batches).toHaveLength(1);
    expect(batches[0]!.messages).toHaveLength(50);
    rec.forget('a');
    expect(rec.existing('a')).toBeUndefined();
  });
});

describe('TrafficRing redaction', () => {
  it('redacts a stored secret in a tool call’s arguments, in header-like values, in results and keys', () => {
    const ring = redactingRing();
    ring.record('out', call(1, { query: `use ${SECRET} please`, headers: { Authorization: `Bearer ${HEADER_SECRET}`, 'X-Api-Key': HEADER_SECRET } }), 1);
    ring.record('in', result(1, { content: [{ type: 'text', text: `echo: ${SECRET}` }], structuredContent: { [SECRET]: 1 } }), 1);
    ring.record('in', { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: { env: { TOKEN: SECRET }, url: `https://x.example/?k=${encodeURIComponent(HEADER_SECRET)}` } } }, 1);
    const text = ring.all().map((m) => m.json ?? m.preview).join('\n');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(HEADER_SECRET);
    expect(text).toContain('[redacted]');
    const args = JSON.parse(ring.all()[0]!.json!).params.arguments;
    expect(args).toEqual({ query: 'use [redacted] please', headers: { Authorization: 'Bearer [redacted]', 'X-Api-Key': '[redacted]' } });
  });

  it('redacts a message kept only as a preview too', () => {
    const ring = redactingRing({ max_messages: 10, max_bytes: 1024 * 1024, max_message_bytes: 100 });
    ring.record('out', call(1, { key: SECRET, pad: 'z'.repeat(500) }), 1);
    const m = ring.all()[0]!;
    expect(m.json).toBeNull();
    expect(m.preview).not.toContain(SECRET);
    expect(m.preview).toContain('[redacted]');
  });
});

describe('TrafficRing pairing, rounds and tags', () => {
  it('pairs a response with its request (method, timing) per connection and direction', () => {
    const ring = redactingRing();
    ring.record('out', call(7, { text: 'hi' }), 1);
    ring.record('in', { jsonrpc: '2.0', id: 7, method: 'elicitation/create', params: {} }, 1); // the server's own request, same id
    ring.record('in', result(7, { content: [] }), 1);
    ring.record('out', { jsonrpc: '2.0', id: 7, result: { action: 'cancel' } }, 1);
    ring.record('in', { jsonrpc: '2.0', id: 7, error: { code: -32601, message: 'nope' } }, 2); // another connection: unpaired
    const [req, serverReq, res, reply, stray] = ring.all();
    expect(res).toMatchObject({ kind: 'response', method: 'tools/call', request_seq: req!.seq });
    expect(res!.elapsed_ms).toBeGreaterThanOrEqual(0);
    expect(reply).toMatchObject({ dir: 'out', kind: 'response', method: 'elicitation/create', request_seq: serverReq!.seq });
    expect(stray).toMatchObject({ kind: 'error', method: null, request_seq: null });
  });

  it('groups a 2026-07-28 input_required round with the request it retries, and keeps the tag', () => {
    const ring = redactingRing();
    ring.expectCall('echo', {}, 'chat:run-1:call-1');
    ring.record('out', call(1, {}), 1);
    ring.record('in', result(1, { resultType: 'input_required', inputRequests: { who: { method: 'elicitation/create', params: {} } }, requestState: 'st-1' }), 1);
    ring.record('out', call(2, {}, { inputResponses: { who: { action: 'accept', content: { name: 'Ada' } } }, requestState: 'st-1' }), 1);
    ring.record('in', result(2, { content: [{ type: 'text', text: 'hello Ada' }] }), 1);
    ring.record('out', call(3, {}), 1); // a new call: no group, no tag
    const [first, round, retry, done, later] = ring.all();
    expect(first).toMatchObject({ tag: 'chat:run-1:call-1', group: null });
    expect(round).toMatchObject({ input_required: true, group: first!.seq, tag: 'chat:run-1:call-1' });
    expect(retry).toMatchObject({ kind: 'request', group: first!.seq, tag: 'chat:run-1:call-1' });
    expect(done).toMatchObject({ input_required: false, group: first!.seq, request_seq: retry!.seq, tag: 'chat:run-1:call-1' });
    expect(later).toMatchObject({ group: null, tag: null });
  });

  it('tags only the call with the expected name and arguments, first in first out', () => {
    const ring = redactingRing();
    ring.expectCall('echo', { text: 'a' }, 't1');
    ring.expectCall('echo', { text: 'a' }, 't2');
    ring.record('out', call(1, { text: 'b' }), 1);
    ring.record('out', call(2, { text: 'a' }), 1);
    ring.record('out', call(3, { text: 'a' }), 1);
    expect(ring.all().map((m) => m.tag)).toEqual([null, 't1', 't2']);
  });
});

describe('Recording off the call path, and the per-server switch', () => {
  it('a recorded message is kept on the next turn (or at the next read), and what the listener gets is redacted', async () => {
    const r = new SecretRedactor();
    r.add(SECRET);
    const batches: InspectorMessage[][] = [];
    const rec = new TrafficRecorder(r, (_server, messages) => batches.push(messages));
    const ring = rec.ring('a');
    ring.record('out', call(1, { key: SECRET }), 1);
    ring.record('in', result(1, { content: [{ type: 'text', text: `got ${SECRET}` }] }), 1);
    // The reader sees both at once, in order, paired, redacted.
    const kept = ring.all();
    expect(kept.map((m) => [m.seq, m.dir, m.method, m.request_seq])).toEqual([
      [1, 'out', 'tools/call', null],
      [2, 'in', 'tools/call', 1],
    ]);
    ring.record('in', { jsonrpc: '2.0', method: 'notifications/message', params: { data: SECRET } }, 1);
    await new Promise((res) => setImmediate(res));
    expect(ring.size.messages).toBe(3);
    rec.flush();
    const sent = JSON.stringify(batches);
    expect(batches.flat()).toHaveLength(3);
    expect(sent).not.toContain(SECRET);
    expect(sent).toContain('[redacted]');
  });

  it('switched off, a server records nothing (what was kept stays); the choice holds for a new core on the same folder', async () => {
    const dir = makeTempDir('op-insp-');
    try {
      const rec = new TrafficRecorder(new SecretRedactor(), null, undefined, new RecorderSwitches(dir));
      const ring = rec.ring('a');
      ring.record('out', call(1, {}), 1);
      await rec.setRecording('a', false);
      expect(rec.recording('a')).toBe(false);
      ring.record('out', call(2, {}), 1);
      ring.record('in', result(2, {}), 1);
      expect(ring.all().map((m) => m.rpc_id)).toEqual([1]);
      expect(rec.recording('b')).toBe(true);
      // A restart: a fresh recorder on the same state folder keeps `a` off and `b` on.
      const again = new TrafficRecorder(new SecretRedactor(), null, undefined, new RecorderSwitches(dir));
      again.ring('a').record('out', call(3, {}), 1);
      again.ring('b').record('out', call(4, {}), 1);
      expect(again.ring('a').all()).toEqual([]);
      expect(again.ring('b').all()).toHaveLength(1);
      await again.setRecording('a', true);
      again.ring('a').record('out', call(5, {}), 1);
      expect(again.ring('a').all().map((m) => m.rpc_id)).toEqual([5]);
      expect(new RecorderSwitches(dir).recording('a')).toBe(true);
      // An unreadable file means every server is recorded.
      writeFileSync(path.join(dir, INSPECTOR_SETTINGS_FILE), '{nope');
      expect(new RecorderSwitches(dir).recording('a')).toBe(true);
    } finally {
      await removeDir(dir);
    }
  });
});
