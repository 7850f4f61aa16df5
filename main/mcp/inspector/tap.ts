/**
 * The transport tap — this file's one job: see every JSON-RPC message a connection's transport
 * sends and receives, without changing it (docs/ARCHITECTURE.md "Protocol inspector").
 *
 * The SDK's `Transport` is the boundary: the client calls `send()` for what goes out and sets
 * `onmessage` for what comes in. The tap is a `Proxy` of the transport the descriptor created,
 * so everything else the SDK and the connection read of it (`pid`, `stderr`, `sessionId`, its
 * class for `instanceof`) stays the transport's own. Framing stays the SDK's; nothing here parses
 * or builds JSON-RPC.
 */
import type { Transport } from '@modelcontextprotocol/client';

/** Where tapped messages go: `out` sent to the server, `in` received from it. */
export type TapSink = (dir: 'out' | 'in', message: unknown) => void;

/**
 * `transport` with every message it sends or delivers also given to `sink` (a sent one right after
 * the transport's `send` was called, a received one before the SDK's handler sees it; a sink that
 * throws changes nothing). The handler the SDK sets as `onmessage` is read back as it was
 * set, so a client that chains an earlier handler does not record a message twice.
 */
export function tapTransport<T extends Transport>(transport: T, sink: TapSink): T {
  const safeSink: TapSink = (dir, message) => {
    try {
      sink(dir, message);
    } catch {
      // The recorder must never break the connection.
    }
  };
  let handler: Transport['onmessage'];
  // What goes out is recorded just after the transport took it (its write is under way), so the
  // server's work overlaps the recording instead of waiting for it. Nothing can come back in
  // between: an answer arrives in a later turn of the event loop.
  const send: Transport['send'] = (message, options) => {
    try {
      return transport.send(message, options);
    } finally {
      safeSink('out', message);
    }
  };
  // Methods run on the transport itself (its private fields are not the proxy's), bound once each.
  const bound = new Map<PropertyKey, { of: unknown; fn: unknown }>();
  return new Proxy(transport, {
    get(target, prop) {
      if (prop === 'send') return send;
      if (prop === 'onmessage') return handler;
      const v: unknown = Reflect.get(target, prop, target);
      if (typeof v !== 'function') return v;
      const b = bound.get(prop);
      if (b && b.of === v) return b.fn;
      const fn = (v as (...a: unknown[]) => unknown).bind(target);
      bound.set(prop, { of: v, fn });
      return fn;
    },
    set(target, prop, value: unknown) {
      if (prop !== 'onmessage') return Reflect.set(target, prop, value, target);
      handler = value as Transport['onmessage'];
      const own = handler;
      target.onmessage = own
        ? (message, extra) => {
            safeSink('in', message);
            own(message, extra);
          }
        : undefined;
      return true;
    },
  });
}
