import type { ServerView } from '../../../preload/contract/index.js';
import { call } from '../api';
import { useTranslation } from '../i18n';

/**
 * The server card's line about its tools' pinned definitions (docs/ARCHITECTURE.md "Pinned tool
 * definitions"): how many tools are changed or new, a warning when the server now runs another
 * program than the one its tools were accepted for, and "Accept all definitions". Nothing when
 * every tool is pinned.
 */
export function ServerPins({ server, onAct }: { server: ServerView; onAct: (fn: () => Promise<ServerView>) => Promise<void> }) {
  const { t } = useTranslation();
  const changed = server.tools.filter((x) => x.pin.kind === 'changed').length;
  const fresh = server.tools.filter((x) => x.pin.kind === 'new').length;
  if (changed + fresh === 0) return null;
  const programChanged = server.tools.some((x) => x.pin.kind === 'changed' && x.pin.program_changed);
  return (
    <div className="banner warning small" data-testid="server-pins">
      <span>{t('pins.serverSummary', { changed, fresh })}</span>
      {programChanged && <div data-testid="server-program-changed">{t('pins.serverProgramChanged')}</div>}
      <button onClick={() => void onAct(() => call('servers.acceptToolDefinitions', { name: server.name }))}>{t('pins.acceptAll')}</button>
    </div>
  );
}
