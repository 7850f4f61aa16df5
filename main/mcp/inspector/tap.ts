/**
 * The transport tap — this file's one job: see every JSON-RPC message a connection's transport
 * sends and receives, without changing it (docs/ARCHITECTURE.md "Protocol inspector").
 *
 * The SDK's `Transport` is the boundary: the client calls `send()` for what goes out and sets
 * `onmessage` for what comes in. The tap sees the transport the descriptor created through
 * ../transports/wrap.ts, so everything else the SDK and the connection read of it (`pid`,
 * `stderr`, `sessionId`, its class for `instanceof`) stays the transport's own. Framing stays the
 * SDK's; nothing here parses or builds JSON-RPC.
 */
import type { Transport } from '@modelcontextprotocol/client';
import { wrapTransport } from '../transports/wrap.js';

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
  return wrapTransport(transport, {
    // What goes out is recorded just after the transport took it (its write is under way), so the
    // server's work overlaps the recording instead of waiting for it. Nothing can come back in
    // between: an answer arrives in a later turn of the event loop.
    send: (message, options) => {
      try {
        return transport.send(message, options);
      } finally {
        safeSink('out', message);
      }
    },
    inbound: (message, extra, deliver) => {
      safeSink('in', message);
      deliver(message, extra);
    },
  });
}
