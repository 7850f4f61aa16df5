/**
 * Seeing a transport through a wrapper — this file's one job: a `Proxy` of an SDK `Transport`
 * that changes only what its hooks name (what is sent, what is delivered, what happens when it
 * closes) and leaves everything else the transport's own: its fields (`pid`, `stderr`,
 * `sessionId`), its class for `instanceof`, its methods run on itself. Used by the inspector's
 * tap and the Tasks raw request lane (docs/ARCHITECTURE.md "Protocol inspector", "Tasks").
 */
import type { Transport } from '@modelcontextprotocol/client';

/** What a wrapper changes; every hook is optional. */
export interface TransportHooks {
  /** Replaces the transport's `send` (call the transport's own inside). */
  send?: Transport['send'];
  /**
   * Sees each message before the handler the client set as `onmessage`; `deliver` hands it on
   * (a hook that does not call it keeps the message from the client).
   */
  inbound?: (message: Parameters<NonNullable<Transport['onmessage']>>[0], extra: Parameters<NonNullable<Transport['onmessage']>>[1], deliver: NonNullable<Transport['onmessage']>) => void;
  /** Runs when the transport closes, before the handler the client set as `onclose`. */
  closed?: () => void;
}

/**
 * `transport` seen through `hooks`. The handlers a client sets (`onmessage`, `onclose`) are read
 * back as they were set — so a client that chains an earlier handler does not see a message
 * twice — and handlers set before the wrap are kept the same way.
 */
export function wrapTransport<T extends Transport>(transport: T, hooks: TransportHooks): T {
  let onmessage: Transport['onmessage'] = transport.onmessage;
  let onclose: Transport['onclose'] = transport.onclose;
  const { send, inbound, closed } = hooks;
  // Methods run on the transport itself (its private fields are not the proxy's), bound once each.
  const bound = new Map<PropertyKey, { of: unknown; fn: unknown }>();
  return new Proxy(transport, {
    get(target, prop) {
      if (prop === 'send' && send) return send;
      if (prop === 'onmessage' && inbound) return onmessage;
      if (prop === 'onclose' && closed) return onclose;
      const v: unknown = Reflect.get(target, prop, target);
      if (typeof v !== 'function') return v;
      const b = bound.get(prop);
      if (b && b.of === v) return b.fn;
      const fn = (v as (...a: unknown[]) => unknown).bind(target);
      bound.set(prop, { of: v, fn });
      return fn;
    },
    set(target, prop, value: unknown) {
      if (prop === 'onmessage' && inbound) {
        onmessage = value as Transport['onmessage'];
        const own = onmessage;
        target.onmessage = own ? (message, extra) => inbound(message, extra, own) : undefined;
        return true;
      }
      if (prop === 'onclose' && closed) {
        onclose = value as Transport['onclose'];
        const own = onclose;
        target.onclose = () => {
          closed();
          own?.();
        };
        return true;
      }
      return Reflect.set(target, prop, value, target);
    },
  });
}
