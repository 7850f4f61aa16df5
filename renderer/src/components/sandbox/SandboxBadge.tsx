/**
 * A local server's sandbox badge (docs/ARCHITECTURE.md "Sandbox"): "Sandboxed", "Unsandboxed"
 * (warning-coloured, with what that means), or "Not sandboxed" with the reason in words — the
 * platform by name, the missing bubblewrap package, or the system's own words when bubblewrap
 * cannot create namespaces (marked as the system's).
 */
import type { SandboxState } from '../../../../preload/contract/index.js';
import { useTranslation } from '../../i18n/index.js';
import { platformKey } from './sandbox-form.js';

/** The badge and the reason beside it. */
export function SandboxBadge({ state }: { state: SandboxState }) {
  const { t } = useTranslation();
  if (state.kind === 'on') return <span className="badge sandbox-on" data-testid="sandbox-badge">{t('sandbox.on')}</span>;
  if (state.kind === 'off')
    return (
      <>
        <span className="badge sandbox-off" data-testid="sandbox-badge">{t('sandbox.off')}</span>
        <span className="sandbox-reason warn">{t('sandbox.offNote')}</span>
      </>
    );
  const key = platformKey(state.platform);
  return (
    <>
      <span className="badge sandbox-unavailable" data-testid="sandbox-badge">{t('sandbox.unavailable')}</span>
      <span className="sandbox-reason" data-testid="sandbox-reason">
        {state.reason === 'platform'
          ? t('sandbox.reasonPlatform', { platform: key ? t(`sandbox.${key}`) : state.platform })
          : state.reason === 'no_bubblewrap'
            ? t('sandbox.reasonNoBubblewrap')
            : t('sandbox.reasonNoNamespaces')}
        {state.reason === 'no_namespaces' && state.detail && (
          <>
            {' — '}
            <q className="sandbox-system-words">{t('sandbox.systemSays', { detail: state.detail })}</q>
          </>
        )}
      </span>
    </>
  );
}
