/** The `sse` (legacy HTTP+SSE) transport in the window (docs/ARCHITECTURE.md "Transports"). */
import { t } from '../i18n';
import type { TransportUi } from './kind';
import { remoteInput, remoteUi } from './remote';

/** The `sse` transport's window parts. */
export const sseUi: TransportUi = {
  ...remoteUi,
  type: 'sse',
  option: () => t('addServer.typeSse'),
  badge: 'sse',
  input: (draft, values, timeout) => remoteInput('sse', draft, values, timeout),
};
