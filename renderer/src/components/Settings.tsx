import { useApp } from '../store';
import { ModelSettings } from './ModelSettings';
import { ServersPanel } from './Servers';
import { PermissionSettings } from './ToolPermissions';

/** The sections of Settings. */
export type SettingsSection = 'servers' | 'model' | 'permissions';

/** Settings: MCP servers, Model, Tool permissions. */
export function SettingsView({ section, onSection: setSection }: { section: SettingsSection; onSection: (s: SettingsSection) => void }) {
  const secrets = useApp((s) => s.secrets);
  return (
    <div className="settings-wrap">
      {secrets && (
        <div className={secrets.kind === 'keychain' ? 'secrets-note ok' : 'banner warning secrets-note'} data-testid="secrets-notice" role={secrets.kind === 'keychain' ? undefined : 'alert'}>
          <strong>{secrets.kind === 'keychain' ? 'Secrets are protected by your OS keychain.' : 'Secrets are not in an OS keychain.'}</strong> <span>{secrets.notice}</span>
        </div>
      )}
    <div className="settings">
      <aside className="settings-nav">
        <button className={section === 'servers' ? 'nav-item active' : 'nav-item'} onClick={() => setSection('servers')}>
          MCP servers
        </button>
        <button className={section === 'model' ? 'nav-item active' : 'nav-item'} onClick={() => setSection('model')}>
          Model
        </button>
        <button className={section === 'permissions' ? 'nav-item active' : 'nav-item'} onClick={() => setSection('permissions')}>
          Tool permissions
        </button>
      </aside>
      <section className="settings-body">{section === 'servers' ? <ServersPanel /> : section === 'model' ? <ModelSettings /> : <PermissionSettings />}</section>
    </div>
    </div>
  );
}
