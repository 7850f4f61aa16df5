import { useApp } from '../store';
import { useTranslation } from '../i18n';
import { CatalogPanel } from './Catalog';
import { LanguageSettings } from './LanguageSettings';
import { ModelSettings } from './ModelSettings';
import { ServersPanel } from './Servers';
import { PermissionSettings } from './ToolPermissions';
import { DefaultRoots } from './Roots';

/** The sections of Settings. */
export type SettingsSection = 'servers' | 'catalog' | 'model' | 'permissions' | 'language';

/** Settings: MCP servers, Catalog, Model, Tool permissions, Language. */
export function SettingsView({ section, onSection: setSection }: { section: SettingsSection; onSection: (s: SettingsSection) => void }) {
  const { t } = useTranslation();
  const secrets = useApp((s) => s.secrets);
  const noticeHidden = useApp((s) => s.secretsNoticeHidden);
  const hideNotice = useApp((s) => s.hideSecretsNotice);
  return (
    <div className="settings-wrap">
      {/* Not in a keychain: a warning the user may hide for the session; the forms that take secrets still say it (SecretsFormNote). */}
      {secrets && !(secrets.kind !== 'keychain' && noticeHidden) && (
        <div className={secrets.kind === 'keychain' ? 'secrets-note ok' : 'banner warning secrets-note'} data-testid="secrets-notice" role={secrets.kind === 'keychain' ? undefined : 'alert'}>
          <p className="secrets-text">
            <strong>{secrets.kind === 'keychain' ? t('settings.keychainOk') : t('settings.keychainMissing')}</strong>{' '}
            {/* Every language gets a one-line summary by kind; main's specific English notice (why, which file) sits behind Details. */}
            <span>{t(`settings.secretsNote.${secrets.kind}`)}</span>
          </p>
          <details className="secrets-detail">
            <summary>{t('settings.details')}</summary>
            <span lang="en">{secrets.notice}</span>
          </details>
          {secrets.kind !== 'keychain' && (
            <button className="link secrets-hide" onClick={hideNotice} title={t('settings.hideNoticeTitle')} data-testid="secrets-notice-hide">
              {t('settings.hideNotice')}
            </button>
          )}
        </div>
      )}
    <div className="settings">
      <aside className="settings-nav">
        <button className={section === 'servers' ? 'nav-item active' : 'nav-item'} onClick={() => setSection('servers')}>
          {t('settings.navServers')}
        </button>
        <button className={section === 'catalog' ? 'nav-item active' : 'nav-item'} onClick={() => setSection('catalog')}>
          {t('settings.navCatalog')}
        </button>
        <button className={section === 'model' ? 'nav-item active' : 'nav-item'} onClick={() => setSection('model')}>
          {t('settings.navModel')}
        </button>
        <button className={section === 'permissions' ? 'nav-item active' : 'nav-item'} onClick={() => setSection('permissions')}>
          {t('settings.navPermissions')}
        </button>
        <button className={section === 'language' ? 'nav-item active' : 'nav-item'} onClick={() => setSection('language')}>
          {t('settings.navLanguage')}
        </button>
      </aside>
      <section className="settings-body">{section === 'servers' ? (
          <>
            <ServersPanel onBrowseCatalog={() => setSection('catalog')} />
            <DefaultRoots />
          </>
        ) : section === 'catalog' ? <CatalogPanel /> : section === 'model' ? <ModelSettings /> : section === 'language' ? <LanguageSettings /> : <PermissionSettings />}</section>
    </div>
    </div>
  );
}
