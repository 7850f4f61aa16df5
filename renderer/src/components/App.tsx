import { ResourceViewer } from './ResourceViewer';
import { InspectorDialog } from './inspector/Inspector';
import { TasksDialog } from './TasksDialog';
import { useEffect, useRef, useState } from 'react';
import { isHttpsOrLoopbackHttp } from '../../../preload/contract/rules/index.js';
import { on, onBridgeState, staleTokenMessage, type BridgeState } from '../api';
import { useTranslation } from '../i18n';
import { warningKey } from '../store/settings';
import { WarningText } from './WarningText';
import { useApp } from '../store';
import { ChatView } from './Chat';
import { ConversationList } from './ConversationList';
import { PendingApprovals } from './ApprovalCard';
import { SettingsView, type SettingsSection } from './Settings';
import { ElicitationDialogs } from './Elicitation';
import { UrlElicitationDialogs } from './UrlElicitation';
import { SamplingDialogs } from './Sampling';

/** The app frame: tabs, warnings banner, and the event subscriptions that feed the store. */
export function App() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<'chat' | 'settings'>('chat');
  const [settingsSection, setSettingsSection] = useState<SettingsSection>('servers');
  const [bridge, setBridge] = useState<BridgeState>('open');
  const warnings = useApp((s) => s.warnings);
  const dismiss = useApp((s) => s.dismissWarning);
  const searchRef = useRef<HTMLInputElement>(null);
  // Profiles may have changed in Settings: the composer's picker reads them again on the way back.
  useEffect(() => {
    if (tab === 'chat') useApp.getState().loadProfiles().catch(() => undefined);
  }, [tab]);
  const composerRef = useRef<HTMLTextAreaElement>(null);

  // Keyboard: new chat (Ctrl/Cmd+Shift+O, or Ctrl/Cmd+N where the browser lets the page have it),
  // focus search (Ctrl/Cmd+K), stop the running answer (Esc, when no dialog is open).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const mod = e.ctrlKey || e.metaKey;
      const key = e.key.toLowerCase();
      if (mod && ((e.shiftKey && key === 'o') || (!e.shiftKey && key === 'n'))) {
        e.preventDefault();
        setTab('chat');
        useApp.getState().newChat();
        setTimeout(() => composerRef.current?.focus(), 0);
      } else if (mod && !e.shiftKey && key === 'k') {
        e.preventDefault();
        setTab('chat');
        setTimeout(() => searchRef.current?.focus(), 0);
      } else if (e.key === 'Escape' && !document.querySelector('.modal-backdrop')) {
        const st = useApp.getState();
        if (st.conversations.find((c) => c.id === st.conversationId)?.running) void st.stop();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  useEffect(() => {
    const offs = [
      on('servers.changed', (v) => useApp.getState().upsertServer(v)),
      on('servers.removed', ({ name }) => useApp.getState().dropServer(name)),
      on('servers.renamed', ({ from, view }) => useApp.getState().renameServer(from, view)),
      on('chat.event', (e) => useApp.getState().applyChatEvent(e)),
      on('tasks.changed', (v) => useApp.getState().applyTaskEvent(v)),
      on('conversations.changed', (c) => useApp.getState().upsertConversation(c)),
      on('conversations.removed', ({ id }) => useApp.getState().dropConversation(id)),
      on('app.warning', (warning) => useApp.getState().addWarning({ kind: 'app', warning })),
      on('conversations.warning', (warning) => useApp.getState().addWarning({ kind: 'conversations', warning })),
      on('context.resourceUpdated', ({ server, uri }) => useApp.getState().resourceUpdated(server, uri)),
      on('auth.openUrl', ({ server, url }) => {
        // Main checked the URL; check again here: only https:, or http: to this machine.
        let u: URL;
        try {
          u = new URL(url);
        } catch {
          return;
        }
        if (!isHttpsOrLoopbackHttp(u)) return;
        useApp.getState().setSignInUrl(server, u.href);
        window.open(u.href, '_blank', 'noopener,noreferrer');
      }),
    ];
    const load = (first: boolean) => {
      const st = useApp.getState();
      const loaded = (p: Promise<void>): Promise<boolean> =>
        p.then(
          () => true,
          (error: unknown) => (st.addWarning({ kind: 'error', error }), false),
        );
      const lists = [loaded(st.loadServers()), loaded(st.loadSettings()), loaded(st.loadConversations(first))] as const;
      // The first-run guide: decided once, when the first lists are in (store/onboarding.ts).
      if (first) void Promise.all(lists).then(([servers, profiles, conversations]) => useApp.getState().checkFirstRun({ servers, profiles, conversations }));
      // After a reconnect the open conversation may have moved on: take main's copy again.
      if (!first && st.conversations.some((c) => c.id === st.conversationId)) void st.openConversation(st.conversationId);
    };
    offs.push(onBridgeState(setBridge), on('__reconnected' as never, () => load(false)), useApp.getState().followApprovals());
    load(true);
    return () => offs.forEach((off) => off());
  }, []);

  return (
    <div className="app">
      <header className="topbar">
        <div className="brand">{t('app.brand')}</div>
        <nav role="tablist">
          <button role="tab" aria-selected={tab === 'chat'} className={tab === 'chat' ? 'tab active' : 'tab'} onClick={() => setTab('chat')}>
            {t('app.tabChat')}
          </button>
          <button role="tab" aria-selected={tab === 'settings'} className={tab === 'settings' ? 'tab active' : 'tab'} onClick={() => setTab('settings')}>
            {t('app.tabSettings')}
          </button>
        </nav>
      </header>
      {bridge === 'lost' && (
        <div className="banner error" role="alert" data-testid="bridge-lost">
          {t('app.bridgeLost')}
        </div>
      )}
      {bridge === 'stale-token' && (
        <div className="banner error" role="alert" data-testid="bridge-stale">
          {staleTokenMessage()}
        </div>
      )}
      {bridge === 'no-token' && (
        <div className="banner error" role="alert">
          {t('app.bridgeNoToken')}
        </div>
      )}
      {bridge !== 'stale-token' && warnings.map((w, i) => (
        <div key={warningKey(w)} className="banner warning" role="alert" data-testid="app-warning">
          <span>
            <WarningText warning={w} />
          </span>
          <button className="link" onClick={() => dismiss(i)} aria-label={t('app.dismissWarning')}>
            {t('app.dismiss')}
          </button>
        </div>
      ))}
      <InspectorDialog />
      <TasksDialog />
      <ElicitationDialogs />
      <UrlElicitationDialogs />
      <SamplingDialogs />
      <ResourceViewer />
      {/* Tool calls waiting for approval in other conversations (the open one shows each card in its tool call). */}
      <PendingApprovals />
      <main className="content">
        {bridge === 'stale-token' ? (
          // Lists fetched with a dead token would be empty, as if everything were gone: show
          // nothing but what to do.
          <p className="muted">{t('app.staleNothing')}</p>
        ) : tab === 'chat' ? (
          <>
            <ConversationList searchRef={searchRef} composerRef={composerRef} />
            <ChatView
              composerRef={composerRef}
              onOpenSettings={(target) => {
                setSettingsSection(target);
                setTab('settings');
              }}
            />
          </>
        ) : (
          <SettingsView section={settingsSection} onSection={setSettingsSection} />
        )}
      </main>
    </div>
  );
}
