/**
 * What a catalog entry or bundle declares it needs from the sandbox, shown in its install form
 * before Install (docs/ARCHITECTURE.md "Sandbox"): the extra folders and hosts the new server's
 * sandbox settings will hold, or that its declaration was ignored and why. Nothing when it
 * declares nothing. The lists are the publisher's words, shown as data.
 */
import type { DeclaredSandboxNeeds } from '../../../../preload/contract/index.js';
import { useTranslation } from '../../i18n';

function List({ label, items }: { label: string; items: string[] }) {
  if (!items.length) return null;
  return (
    <li>
      {label}: <span className="mono" lang="en">{items.join(', ')}</span>
    </li>
  );
}

/** The declared needs block of an install form. */
export function DeclaredNeeds({ needs }: { needs: DeclaredSandboxNeeds }) {
  const { t } = useTranslation();
  if (needs.kind === 'none') return null;
  if (needs.kind === 'invalid')
    return (
      <div className="catalog-fixed small" data-testid="sandbox-needs" data-kind="invalid">
        <strong>{t('sandbox.needsTitle')}</strong>
        <p className="muted">{t('sandbox.needsInvalid')}</p>
        <p className="mono small" lang="en">
          {needs.detail}
        </p>
      </div>
    );
  return (
    <div className="catalog-fixed small" data-testid="sandbox-needs" data-kind="declared">
      <strong>{t('sandbox.needsTitle')}</strong>
      <ul>
        <List label={t('sandbox.extraRead')} items={needs.read} />
        <List label={t('sandbox.extraWrite')} items={needs.write} />
        <List label={t('sandbox.hosts')} items={needs.hosts} />
      </ul>
      <p className="hint">{t('sandbox.needsHint')}</p>
    </div>
  );
}
