/** The `http` (Streamable HTTP) transport in the window (docs/ARCHITECTURE.md "Transports"). */
import { t } from '../i18n';
import type { TransportUi } from './kind';
import { remoteInput, remoteUi } from './remote';

/** The `http` transport's window parts. */
export const streamableHttpUi: TransportUi = {
  ...remoteUi,
  type: 'http',
  option: () => t('addServer.typeHttp'),
  badge: 'http',
  input: (draft, values, timeout) => remoteInput('http', draft, values, timeout),
};
