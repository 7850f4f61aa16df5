/**
 * The window's transports by config `type` (docs/ARCHITECTURE.md "Transports"): typed over every
 * `type` of the server view, so a new one without its module does not compile.
 */
import type { TransportType, TransportUi } from './kind';
import { sseUi } from './sse';
import { stdioUi } from './stdio';
import { streamableHttpUi } from './streamable-http';

export type { AddDraft, EditDraft, TransportType, TransportUi, ValueRowsUi } from './kind';

/** Every transport's window parts, by `type`, in the Add form's order. */
export const TRANSPORT_UI: { readonly [T in TransportType]: TransportUi & { readonly type: T } } = {
  local: stdioUi as TransportUi & { type: 'local' },
  http: streamableHttpUi as TransportUi & { type: 'http' },
  sse: sseUi as TransportUi & { type: 'sse' },
};

/** The window parts of `type`. */
export function transportUi(type: TransportType): TransportUi {
  return TRANSPORT_UI[type];
}
