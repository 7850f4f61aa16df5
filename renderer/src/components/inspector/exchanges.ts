/**
 * The inspector's pure logic (no DOM; unit-tested under Node): recorded messages grouped into
 * exchanges — a request with its response, and a 2026-07-28 `input_required` round with the
 * request it retries — and the method and text filters (docs/ARCHITECTURE.md "Protocol inspector").
 */
import type { InspectorMessage } from '../../../../preload/contract/index.js';

/** One exchange: its messages in order; `key` is the `seq` of its first request. */
export interface Exchange {
  key: number;
  method: string | null;
  tag: string | null;
  /** How many `input_required` results it had. */
  rounds: number;
  messages: InspectorMessage[];
}

/** Messages the window keeps of one server (the newest). */
export const MAX_KEPT = 2000;
/** Exchanges the window renders at once (the newest, or those from the focused one on). */
export const MAX_SHOWN = 200;

/** The exchange a message belongs to: its round, its request, or itself. */
function exchangeKey(m: InspectorMessage): number {
  if (m.group !== null) return m.group;
  if (m.kind === 'request' || m.kind === 'notification') return m.seq;
  return m.request_seq ?? m.seq;
}

/** Group messages (oldest first) into exchanges, in the order their first message was recorded. */
export function toExchanges(messages: readonly InspectorMessage[]): Exchange[] {
  const byKey = new Map<number, Exchange>();
  const order: Exchange[] = [];
  for (const m of messages) {
    const key = exchangeKey(m);
    let ex = byKey.get(key);
    if (!ex) {
      ex = { key, method: m.method, tag: m.tag, rounds: 0, messages: [] };
      byKey.set(key, ex);
      order.push(ex);
    }
    ex.messages.push(m);
    if (m.input_required) ex.rounds++;
    ex.tag ??= m.tag;
    ex.method ??= m.method;
  }
  return order;
}

/** Exchanges with `method` (empty: any) whose method or message text contains `text` (any case). */
export function filterExchanges(exchanges: readonly Exchange[], method: string, text: string): Exchange[] {
  const needle = text.trim().toLowerCase();
  return exchanges.filter(
    (ex) =>
      (method === '' || ex.method === method) &&
      (needle === '' || ex.messages.some((m) => (m.method ?? '').toLowerCase().includes(needle) || (m.json ?? m.preview ?? '').toLowerCase().includes(needle))),
  );
}

/** Every method seen, sorted (for the method filter). */
export function methodsOf(messages: readonly InspectorMessage[]): string[] {
  return [...new Set(messages.map((m) => m.method).filter((x): x is string => x !== null))].sort();
}

/**
 * The exchanges to render: at most {@link MAX_SHOWN}, the newest — or, when `focus` names a tag
 * that one of them carries, a window starting at the first such exchange.
 */
export function visibleWindow(exchanges: readonly Exchange[], focus: string | null): { shown: Exchange[]; hidden: number } {
  const at = focus === null ? -1 : exchanges.findIndex((ex) => ex.tag === focus);
  const start = at >= 0 ? Math.min(at, Math.max(0, exchanges.length - MAX_SHOWN)) : Math.max(0, exchanges.length - MAX_SHOWN);
  const shown = exchanges.slice(start, start + MAX_SHOWN);
  return { shown, hidden: exchanges.length - shown.length };
}

/** Append a live batch to what the window keeps, newest {@link MAX_KEPT} only, without repeats. */
export function appendMessages(kept: readonly InspectorMessage[], batch: readonly InspectorMessage[]): InspectorMessage[] {
  const last = kept.length ? kept[kept.length - 1]!.seq : 0;
  const fresh = batch.filter((m) => m.seq > last);
  return [...kept, ...fresh].slice(-MAX_KEPT);
}

/** The parsed message, or null when only a preview was kept or it does not parse. */
export function parsed(m: InspectorMessage): Record<string, unknown> | null {
  if (m.json === null) return null;
  try {
    const v = JSON.parse(m.json) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The message as indented JSON for reading and copying (the preview when only that was kept). */
export function prettyJson(m: InspectorMessage): string {
  const p = parsed(m);
  return p ? JSON.stringify(p, null, 2) : (m.preview ?? m.json ?? '');
}

/** A recorded `tools/call` request's tool name and arguments, when this exchange starts with one. */
export function replayable(ex: Exchange): { seq: number; name: string; args: Record<string, unknown> } | null {
  const first = ex.messages[0];
  if (!first || first.dir !== 'out' || first.kind !== 'request' || first.method !== 'tools/call') return null;
  const params = parsed(first)?.params as { name?: unknown; arguments?: unknown } | undefined;
  if (typeof params?.name !== 'string') return null;
  const args = typeof params.arguments === 'object' && params.arguments !== null && !Array.isArray(params.arguments) ? (params.arguments as Record<string, unknown>) : {};
  return { seq: first.seq, name: params.name, args };
}

/** The final result of an exchange (its last response's `result`), or null. */
export function finalResult(ex: Exchange): unknown {
  for (let i = ex.messages.length - 1; i >= 0; i--) {
    const m = ex.messages[i]!;
    if (m.kind === 'response' || m.kind === 'error') {
      const p = parsed(m);
      return p ? (p.result ?? p.error ?? null) : m.preview;
    }
  }
  return null;
}
