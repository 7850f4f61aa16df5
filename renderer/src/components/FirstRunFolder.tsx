/**
 * The first-run "Let the model read a folder" step (docs/ARCHITECTURE.md "First run"): one folder
 * — from the system folder picker where there is one (Electron), else a path field — becomes a
 * local server running `@modelcontextprotocol/server-filesystem` on it, sandboxed like any local
 * server (the folder named in its arguments is the one it may use). Main checks the folder first
 * (`roots.checkFolder`); a bad one is said beside the field and nothing is added.
 */
import { useEffect, useState } from 'react';
import type { FolderCheckView, ServerView } from '../../../preload/contract/index.js';
import { call } from '../api';
import { Trans, useTranslation } from '../i18n';
import { failureSentences } from '../i18n/server-state';
import { SentenceView } from '../i18n/sentence';
import { useApp } from '../store';
import { folderServerCommand, folderServerName } from '../folder-server';
import { ErrorText } from './ErrorText';

/** The i18n key that says what is wrong with a checked folder (null: it is fine). */
const FOLDER_PROBLEM: Record<FolderCheckView['state'], 'firstRun.folderMissing' | 'firstRun.folderNotFolder' | 'firstRun.folderUnreadable' | 'firstRun.folderNotAbsolute' | null> = {
  folder: null,
  missing: 'firstRun.folderMissing',
  not_folder: 'firstRun.folderNotFolder',
  unreadable: 'firstRun.folderUnreadable',
  not_absolute: 'firstRun.folderNotAbsolute',
};

/**
 * How the added server is doing, in a line: starting, ready with its tools, or not started — then
 * the first sentence of why, and where the rest is (Settings → MCP servers: what it said, Edit, Remove).
 */
function ServerLine({ server, onOpenServers }: { server: ServerView; onOpenServers: () => void }) {
  const { t } = useTranslation();
  const state = server.state;
  const failed = state.kind === 'error' || state.kind === 'needs_auth';
  const why = state.kind === 'error' ? failureSentences(state.failure)[0] : null;
  return (
    <>
      <p className="guide-server" data-testid="first-run-server-state" data-status={state.kind} role="status">
        <span className={`status-dot ${state.kind}`} aria-hidden="true" /> <span className="mono">{server.name}</span>{' '}
        {state.kind === 'ready'
          ? t('firstRun.serverReady', { count: server.tool_count })
          : failed
            ? t('firstRun.serverFailed')
            : state.kind === 'disabled'
              ? t('firstRun.serverOff')
              : t('firstRun.serverStarting')}
      </p>
      {(failed || state.kind === 'disabled') && (
        <p className="muted" data-testid="first-run-server-failure">
          {why && (
            <>
              <SentenceView s={why} />{' '}
            </>
          )}
          <Trans i18nKey="firstRun.serverFailedWhere" components={{ action: <button className="link" onClick={onOpenServers} /> }} />
        </p>
      )}
    </>
  );
}

/** The folder form, or — once a server exists — how the first server is doing. */
export function FolderStep({ onOpenServers }: { onOpenServers: () => void }) {
  const { t } = useTranslation();
  const names = useApp((s) => s.serverOrder);
  const first = useApp((s) => (s.serverOrder[0] ? s.servers[s.serverOrder[0]] : undefined));
  const upsert = useApp((s) => s.upsertServer);
  const [folder, setFolder] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [canPick, setCanPick] = useState(false);
  useEffect(() => {
    let live = true;
    call('roots.getDefault', {}).then(
      (r) => live && setCanPick(r.can_pick),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);

  if (first) return <ServerLine server={first} onOpenServers={onOpenServers} />;

  const add = async (typed: string): Promise<void> => {
    const value = typed.trim();
    if (!value) return setError(t('firstRun.folderRequired'));
    setBusy(true);
    setError(null);
    try {
      const checked = await call('roots.checkFolder', { path: value });
      const problem = FOLDER_PROBLEM[checked.state];
      if (problem) return setError(t(problem, { path: checked.path }));
      const view = await call('servers.add', { name: folderServerName(names), config: { type: 'local', command: folderServerCommand(checked.path) } });
      upsert(view);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const pick = async (): Promise<void> => {
    const r = await call('roots.pickFolder', {}).catch(() => ({ path: null }));
    if (r.path) {
      setFolder(r.path);
      await add(r.path);
    }
  };

  return (
    <form
      className="guide-folder"
      aria-label={t('firstRun.folderForm')}
      onSubmit={(e) => {
        e.preventDefault();
        void add(folder);
      }}
    >
      <p className="muted">{t('firstRun.folderIntro')}</p>
      <div className="guide-folder-row">
        {canPick && (
          <button type="button" disabled={busy} onClick={() => void pick()}>
            {t('firstRun.folderChoose')}
          </button>
        )}
        <input
          aria-label={t('firstRun.folderLabel')}
          className="mono"
          placeholder={t('firstRun.folderPlaceholder')}
          value={folder}
          aria-invalid={!!error}
          aria-describedby={error ? 'first-run-folder-error' : undefined}
          onChange={(e) => {
            setFolder(e.target.value);
            setError(null);
          }}
        />
        <button type="submit" className="primary" disabled={busy}>
          {busy ? t('firstRun.folderAdding') : t('firstRun.folderSubmit')}
        </button>
      </div>
      {error !== null && (
        <span className="field-error" role="alert" id="first-run-folder-error">
          <ErrorText error={error} />
        </span>
      )}
    </form>
  );
}
