/**
 * The inspector window's pure logic (renderer/src/components/inspector/exchanges.ts,
 * docs/ARCHITECTURE.md "Protocol inspector"): messages grouped into exchanges (request +
 * response, an input_required round with its retry), filters, the bounded window around a
 * focused call, live batches without repeats, and what a replay starts from.
 */
import { describe, expect, it } from 'vitest';
import type { InspectorMessage } from '../../../preload/contract/index.js';
import { appendMessages, filterExchanges, finalResult, MAX_KEPT, MAX_SHOWN, replayable, toExchanges, visibleWindow } from '../../../renderer/src/components/inspector/exchanges.js';

function msg(over: Partial<InspectorMessage> & Pick<InspectorMessage, 'seq'>, body: unknown = {}): InspectorMessage {
  const json = JSON.stringify(body);
  return { connection: 1, ts: 0, dir: 'out', kind: 'request', method: 'tools/call', rpc_id: over.seq, request_seq: null, elapsed_ms: null, group: null, input_required: false, tag: null, bytes: json.length, json, preview: null, ...over };
}

const round: InspectorMessage[] = [
  msg({ seq: 1, method: 'initialize' }),
  msg({ seq: 2, dir: 'in', kind: 'response', method: 'initialize', request_seq: 1 }),
  msg({ seq: 3, tag: 'chat:r:c' }, { params: { name: 'ask', arguments: { q: 1 } } }),
  msg({ seq: 4, dir: 'in', kind: 'response', request_seq: 3, group: 3, input_required: true, tag: 'chat:r:c' }),
  msg({ seq: 5, dir: 'in', kind: 'notification', method: 'notifications/message' }, { params: { data: 'hello log' } }),
  msg({ seq: 6, group: 3, tag: 'chat:r:c' }, { params: { name: 'ask', inputResponses: {} } }),
  msg({ seq: 7, dir: 'in', kind: 'response', request_seq: 6, group: 3, tag: 'chat:r:c' }, { result: { content: [{ type: 'text', text: 'done' }] } }),
];

describe('inspector exchanges', () => {
  it('groups a request with its response and an input_required round with its retry', () => {
    const ex = toExchanges(round);
    expect(ex.map((e) => [e.key, e.messages.map((m) => m.seq)])).toEqual([
      [1, [1, 2]],
      [3, [3, 4, 6, 7]],
      [5, [5]],
    ]);
    expect(ex[1]).toMatchObject({ method: 'tools/call', tag: 'chat:r:c', rounds: 1 });
    expect(finalResult(ex[1]!)).toEqual({ content: [{ type: 'text', text: 'done' }] });
    expect(replayable(ex[1]!)).toEqual({ seq: 3, name: 'ask', args: { q: 1 } });
    expect(replayable(ex[0]!)).toBeNull();
  });

  it('filters by method and by text (any case, any message of the exchange)', () => {
    const ex = toExchanges(round);
    expect(filterExchanges(ex, 'tools/call', '').map((e) => e.key)).toEqual([3]);
    expect(filterExchanges(ex, '', 'HELLO LOG').map((e) => e.key)).toEqual([5]);
    expect(filterExchanges(ex, '', 'done').map((e) => e.key)).toEqual([3]);
    expect(filterExchanges(ex, 'initialize', 'done')).toEqual([]);
  });

  it('renders a bounded window: the newest, or from the focused call on', () => {
    const many = toExchanges(Array.from({ length: 500 }, (_, i) => msg({ seq: i + 1, tag: i === 10 ? 'chat:r:old' : null })));
    expect(visibleWindow(many, null).shown.map((e) => e.key)[0]).toBe(501 - MAX_SHOWN);
    const focused = visibleWindow(many, 'chat:r:old');
    expect(focused.shown[0]!.key).toBe(11);
    expect(focused.shown).toHaveLength(MAX_SHOWN);
    expect(focused.hidden).toBe(500 - MAX_SHOWN);
  });

  it('appends live batches without repeats and keeps the newest only', () => {
    const kept = appendMessages([], round.slice(0, 4));
    expect(appendMessages(kept, round.slice(2)).map((m) => m.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    const lots = Array.from({ length: MAX_KEPT + 10 }, (_, i) => msg({ seq: i + 1 }));
    expect(appendMessages([], lots)).toHaveLength(MAX_KEPT);
  });
});
