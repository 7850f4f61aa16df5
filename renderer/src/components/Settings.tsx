import { useState } from 'react';
import { ModelSettings } from './ModelSettings';
import { ServersPanel } from './Servers';

/** Settings: MCP servers and Model. */
export function SettingsView() {
  const [section, setSection] = useState<'servers' | 'model'>('servers');
  return (
    <div className="settings">
      <aside className="settings-nav">
        <button className={section === 'servers' ? 'nav-item active' : 'nav-item'} onClick={() => setSection('servers')}>
          MCP servers
        </button>
        <button className={section === 'model' ? 'nav-item active' : 'nav-item'} onClick={() => setSection('model')}>
          Model
        </button>
      </aside>
      <section className="settings-body">{section === 'servers' ? <ServersPanel /> : <ModelSettings />}</section>
    </div>
  );
}
