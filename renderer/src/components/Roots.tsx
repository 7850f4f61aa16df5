/**
 * Root folders (MCP "Roots"): the folders servers may work in. The default list (Settings → MCP
 * servers) goes to every server without its own; a server card can give that server its own
 * list. Folders come from the system folder picker where there is one (Electron) or a path field
 * (the browser shell); each change is saved at once. Main checks every path (absolute, no control characters) and tells the
 * servers when their folders change (docs/ARCHITECTURE.md "Protocol features"). A server given no
 * root folders is said to be given none; a filesystem server then works in the folders of its
 * command line (../folder-server.ts), and root folders given to it would replace those.
 */
import { useEffect, useState } from 'react';
import type { ServerView } from '../../../preload/contract/index.js';
import { call } from '../api';
import { useApp } from '../store';
import { useTranslation } from '../i18n';
import { commandFolders } from '../folder-server';
import { useShallow } from 'zustand/react/shallow';
import { ErrorText } from './ErrorText';

/**
 * Whether a typed folder path is absolute: `/…` (POSIX), `C:\…` or `C:/…` (Windows drive) or
 * `\\server\share` (UNC). Main checks again on save (main/mcp/protocol/roots.ts normalizeRoots).
 */
function isAbsolutePath(p: string): boolean {
  return /^(\/|[A-Za-z]:[\\/]|\\\\)/.test(p);
}

/**
 * An editable list of folders with a picker or a path field. Each add or remove is saved at once
 * (no separate Save step, so nothing is lost by leaving the screen); a refused change is undone
 * and says why.
 */
function RootsEditor({ initial, canPick, onSave, testId, empty }: { initial: string[]; canPick: boolean; onSave: (roots: string[]) => Promise<void>; testId: string; empty: React.ReactNode }) {
  const { t } = useTranslation();
  const [roots, setRoots] = useState<string[]>(initial);
  const [draft, setDraft] = useState('');
  const [status, setStatus] = useState<{ kind: 'idle' } | { kind: 'saving' } | { kind: 'saved' } | { kind: 'error'; error: unknown }>({ kind: 'idle' });
  const [draftError, setDraftError] = useState<string | null>(null);
  useEffect(() => setRoots(initial), [initial.join('\n')]);
  const busy = status.kind === 'saving';

  const save = async (next: string[]): Promise<boolean> => {
    const before = roots;
    setRoots(next);
    setStatus({ kind: 'saving' });
    try {
      await onSave(next);
      setStatus({ kind: 'saved' });
      return true;
    } catch (err) {
      setRoots(before);
      setStatus({ kind: 'error', error: err });
      return false;
    }
  };
  const add = async (p: string): Promise<void> => {
    const v = p.trim();
    if (!v) return;
    if (!isAbsolutePath(v)) return setDraftError(t('protocol.rootsNotAbsolute'));
    setDraftError(null);
    if (roots.includes(v)) return setDraft('');
    if (await save([...roots, v])) setDraft('');
  };
  const pick = async () => {
    const r = await call('roots.pickFolder', {});
    if (r.path) await add(r.path);
  };

  return (
    <div data-testid={testId}>
      <div className="roots-list">
        {roots.length === 0 && <span className="muted small" data-testid="roots-empty">{empty}</span>}
        {roots.map((r) => (
          <div key={r} className="root-row">
            <span className="mono">{r}</span>
            <button type="button" className="link" aria-label={t('protocol.rootsRemove', { path: r })} disabled={busy} onClick={() => void save(roots.filter((x) => x !== r))}>
              {t('common.remove')}
            </button>
          </div>
        ))}
      </div>
      <div className="row">
        {canPick && (
          <button type="button" disabled={busy} onClick={() => void pick()}>
            {t('protocol.rootsChoose')}
          </button>
        )}
        <input
          aria-label={t('protocol.rootsPath')}
          aria-invalid={draftError ? true : undefined}
          className="mono roots-path"
          placeholder={t('protocol.rootsPathPlaceholder')}
          value={draft}
          onChange={(e) => (setDraft(e.target.value), setDraftError(null))}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              if (!busy) void add(draft);
            }
          }}
        />
        <button type="button" onClick={() => void add(draft)} disabled={busy || !draft.trim()}>
          {t('protocol.rootsAdd')}
        </button>
      </div>
      {draftError && (
        <div className="field-error" role="alert">
          {draftError}
        </div>
      )}
      {status.kind === 'saved' && <div role="status">{t('protocol.rootsSaved')}</div>}
      {status.kind === 'error' && (
        <div className="field-error" role="alert">
          <ErrorText error={status.error} />
        </div>
      )}
    </div>
  );
}

/** The folders a local server's command line gives it (a filesystem server's), else none. */
function folderArgs(server: ServerView): string[] {
  return server.type === 'local' ? commandFolders(server.command) : [];
}

/** Settings → MCP servers: the default root folders. */
export function DefaultRoots() {
  const { t } = useTranslation();
  const [state, setState] = useState<{ roots: string[]; can_pick: boolean } | null>(null);
  // Servers that follow the default list and name their folders in their command line.
  const fromCommand = useApp(useShallow((s) => s.serverOrder.filter((n) => s.servers[n] && s.servers[n]!.protocol.roots.own === null && folderArgs(s.servers[n]!).length > 0)));
  useEffect(() => {
    void call('roots.getDefault', {}).then(setState, () => setState({ roots: [], can_pick: false }));
  }, []);
  if (!state) return null;
  return (
    <div className="panel roots-panel" aria-label={t('protocol.rootsTitle')} role="region">
      <h3>{t('protocol.rootsTitle')}</h3>
      <p className="muted small">{t('protocol.rootsHint')}</p>
      <RootsEditor
        testId="default-roots"
        empty={
          <>
            {t('protocol.rootsDefaultNone')}
            {fromCommand.length > 0 && <> {t('protocol.rootsDefaultCommand', { names: fromCommand.join(', ') })}</>}
          </>
        }
        initial={state.roots}
        canPick={state.can_pick}
        onSave={async (roots) => setState({ ...state, roots: (await call('roots.setDefault', { roots })).roots })}
      />
    </div>
  );
}

/** A server card's root folders: the default ones, or its own list. */
export function ServerRoots({ server }: { server: ServerView }) {
  const { t } = useTranslation();
  const upsert = useApp((s) => s.upsertServer);
  const [canPick, setCanPick] = useState(false);
  const roots = server.protocol.roots;
  const [own, setOwn] = useState(roots.own !== null);
  useEffect(() => setOwn(roots.own !== null), [roots.own === null]);
  useEffect(() => {
    void call('roots.getDefault', {}).then((r) => setCanPick(r.can_pick), () => undefined);
  }, []);
  const [error, setError] = useState<unknown>(null);
  const useDefault = async () => {
    setError(null);
    try {
      upsert(await call('servers.update', { name: server.name, patch: { roots: null } }));
      setOwn(false);
    } catch (err) {
      setError(err);
    }
  };
  const given = roots.effective;
  const inCommand = folderArgs(server);
  const folders = inCommand.join(', ');
  return (
    <details className="tool-item" data-testid="server-roots">
      <summary>
        {given.length > 0
          ? `${t('protocol.rootsServerCount', { title: t('protocol.rootsServerTitle'), n: given.length })} · ${roots.own === null ? t('protocol.rootsSummaryDefault') : t('protocol.rootsSummaryOwn')}`
          : inCommand.length > 0
            ? t('protocol.rootsSummaryCommand', { folders })
            : t('protocol.rootsSummaryNone')}
      </summary>
      <label className="check">
        <input type="radio" name={`roots-${server.name}`} checked={!own} onChange={() => void useDefault()} /> {t('protocol.rootsFollowDefault')}
      </label>
      <label className="check">
        <input type="radio" name={`roots-${server.name}`} checked={own} onChange={() => setOwn(true)} /> {t('protocol.rootsOwn')}
      </label>
      {own ? (
        <RootsEditor
          testId="server-roots-editor"
          initial={roots.own ?? roots.effective}
          canPick={canPick}
          onSave={async (list) => upsert(await call('servers.update', { name: server.name, patch: { roots: list } }))}
          empty={t('protocol.rootsNone')}
        />
      ) : given.length > 0 ? (
        <div className="small">
          <span className="muted">{t('protocol.rootsNow')}{t('common.colon')}</span>
          <span className="mono">{given.join(', ')}</span>
        </div>
      ) : (
        inCommand.length === 0 && <div className="small muted">{t('protocol.rootsNoneGiven')}</div>
      )}
      {inCommand.length > 0 && (
        <div className="small muted" data-testid="roots-command">
          {given.length > 0 ? t('protocol.rootsReplaceCommand', { folders }) : t('protocol.rootsFromCommand', { folders })}
        </div>
      )}
      {error !== null && (
        <div className="field-error" role="alert">
          <ErrorText error={error} />
        </div>
      )}
    </details>
  );
}
