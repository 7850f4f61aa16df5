import { useState } from 'react';
import type { ServerPatch, ServerView } from '../../../preload/contract/index.js';
import { call } from '../api';
import { CommandLineError, joinCommandLine, splitCommandLine } from '../commandLine';
import { useApp } from '../store';
import { useTranslation } from '../i18n';
import { AuthFields, type AuthFormState } from './AuthFields';
import { SandboxFields, useSandboxForm } from './sandbox/SandboxFields';
import { SecretArgs, storedSecretPositions, UrlSecrets, urlSecretsPatch, type UrlSecretEdits } from './SecretParts';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Edit a server with PATCH semantics: secret inputs start empty and list only the stored names
 * with a "set" badge; only what the user changed is sent (absent → keep, value → replace,
 * "" → delete). The edit is saved only if the server restarts successfully with it.
 */
export function EditServerForm({ server, onDone }: { server: ServerView; onDone: () => void }) {
  const { t } = useTranslation();
  const upsert = useApp((s) => s.upsertServer);
  const local = server.type === 'local';
  const stored = local ? server.env : server.headers;
  const initialCommand = local ? joinCommandLine(server.command) : '';
  const [command, setCommand] = useState(initialCommand);
  const [url, setUrl] = useState(server.url ?? '');
  const [marked, setMarked] = useState<number[]>([]);
  const [urlEdits, setUrlEdits] = useState<UrlSecretEdits>({ replace: {}, removed: {} });
  const [timeout, setTimeoutS] = useState(String(server.timeout_seconds));
  const [replace, setReplace] = useState<Record<string, string>>({});
  const [removed, setRemoved] = useState<Record<string, boolean>>({});
  const [added, setAdded] = useState<{ key: string; value: string }[]>([]);
  const [auth, setAuth] = useState<AuthFormState>({
    kind: server.auth.kind,
    token: '',
    clientId: server.auth.client_id ?? '',
    clientSecret: '',
    scope: server.auth.scope ?? '',
  });
  const sandbox = useSandboxForm(server.sandbox_settings);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const buildPatch = (): ServerPatch => {
    const patch: ServerPatch = {};
    if (local && command !== initialCommand) {
      let argv: string[];
      try {
        argv = splitCommandLine(command);
      } catch (err) {
        throw err instanceof CommandLineError ? new Error(t(err.quote === 'single' ? 'addServer.errUnterminatedSingle' : 'addServer.errUnterminatedDouble')) : err;
      }
      if (argv.length === 0) throw new Error(t('addServer.errCommandRequired'));
      patch.command = argv;
    }
    if (local) {
      // New marks (a `***` argument is a stored secret already and stays one).
      const stored = new Set(storedSecretPositions(command));
      const n = (patch.command ?? server.command).length;
      const fresh = [...new Set(marked)].filter((i) => i >= 1 && i < n && !stored.has(i)).sort((a, b) => a - b);
      if (fresh.length) patch.secret_args = fresh;
      const sb = sandbox.patch();
      if (sb) patch.sandbox = sb;
    }
    if (!local && url.trim() !== (server.url ?? '')) {
      if (!/^https?:\/\/.+/.test(url.trim())) throw new Error(t('addServer.errUrl'));
      patch.url = url.trim();
    }
    const urlSecrets = local ? undefined : urlSecretsPatch(server.url_secrets, urlEdits);
    if (urlSecrets) patch.url_secrets = urlSecrets;
    const secs = Number(timeout);
    if (!Number.isInteger(secs) || secs < 1 || secs > 3600) throw new Error(t('addServer.errTimeout'));
    if (secs !== server.timeout_seconds) patch.timeout_seconds = secs;
    const secrets: Record<string, string> = {};
    for (const name of Object.keys(stored)) {
      if (removed[name]) secrets[name] = '';
      else if (replace[name]) secrets[name] = replace[name]!;
    }
    for (const row of added) {
      const k = row.key.trim();
      if (!k) continue;
      if (!(local ? ENV_NAME : HEADER_NAME).test(k)) throw new Error(local ? t('editServer.errVarName', { name: k }) : t('editServer.errHeaderName', { name: k }));
      if (row.value === '') throw new Error(t('editServer.errValue', { name: k }));
      secrets[k] = row.value;
    }
    if (Object.keys(secrets).length) {
      if (local) patch.env = secrets;
      else patch.headers = secrets;
    }
    if (!local) {
      const a: NonNullable<ServerPatch['auth']> = {};
      const kindChanged = auth.kind !== server.auth.kind;
      if (kindChanged) a.kind = auth.kind;
      if (auth.kind === 'bearer') {
        if (auth.token) a.token = auth.token;
        else if (kindChanged) throw new Error(t('auth.errToken'));
      }
      if (auth.kind === 'oauth') {
        if (auth.clientId.trim() !== (server.auth.client_id ?? '')) a.client_id = auth.clientId.trim();
        if (auth.clientSecret) a.client_secret = auth.clientSecret;
        if (auth.scope.trim() !== (server.auth.scope ?? '')) a.scope = auth.scope.trim();
      }
      if (Object.keys(a).length) patch.auth = a;
    }
    return patch;
  };

  const save = async () => {
    setError(null);
    let patch: ServerPatch;
    try {
      patch = buildPatch();
    } catch (err) {
      setError((err as Error).message);
      return;
    }
    if (Object.keys(patch).length === 0) {
      onDone();
      return;
    }
    setBusy(true);
    try {
      upsert(await call('servers.update', { name: server.name, patch }));
      onDone();
    } catch (err) {
      setError(sandbox.takeError(err) ? null : (err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="panel add-form"
      aria-label={t('editServer.form', { name: server.name })}
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h3>{t('editServer.title', { name: server.name })}</h3>
      {local ? (
        <label className="field">
          <span>{t('addServer.command')}</span>
          <input aria-label={t('editServer.commandLabel')} className="mono" value={command} onChange={(e) => setCommand(e.target.value)} />
        </label>
      ) : (
        <label className="field">
          <span>{t('addServer.url')}</span>
          <input aria-label={t('editServer.urlLabel')} className="mono" value={url} onChange={(e) => setUrl(e.target.value)} />
          <span className="hint">{t('addServer.urlHint')}</span>
        </label>
      )}
      {local ? <SecretArgs line={command} marked={marked} onChange={setMarked} /> : <UrlSecrets stored={server.url_secrets} edits={urlEdits} onChange={setUrlEdits} />}
      <div className="field">
        <span>{local ? t('editServer.envSecrets') : t('editServer.headerSecrets')}</span>
        {Object.entries(stored).map(([name, v]) => (
          <div className="kv" key={name}>
            <span className="mono kv-name">
              {name} {v.has_value && <span className="badge set">{t('common.set')}</span>}
            </span>
            <input
              aria-label={t('editServer.newValueFor', { name })}
              type="password"
              autoComplete="off"
              placeholder={t('editServer.unchanged')}
              disabled={!!removed[name]}
              value={replace[name] ?? ''}
              onChange={(e) => setReplace({ ...replace, [name]: e.target.value })}
            />
            <label className="check">
              <input type="checkbox" aria-label={t('editServer.removeName', { name })} checked={!!removed[name]} onChange={(e) => setRemoved({ ...removed, [name]: e.target.checked })} /> {t('editServer.remove')}
            </label>
          </div>
        ))}
        {added.map((r, i) => (
          <div className="kv" key={`new-${i}`}>
            <input
              aria-label={local ? t('editServer.newVarName', { n: i + 1 }) : t('editServer.newHeaderName', { n: i + 1 })}
              className="mono"
              placeholder={local ? 'NAME' : 'Header-Name'}
              value={r.key}
              onChange={(e) => setAdded(added.map((x, j) => (j === i ? { ...x, key: e.target.value } : x)))}
            />
            <input
              aria-label={local ? t('editServer.newVarValue', { n: i + 1 }) : t('editServer.newHeaderValue', { n: i + 1 })}
              type="password"
              autoComplete="off"
              placeholder={t('editServer.value')}
              value={r.value}
              onChange={(e) => setAdded(added.map((x, j) => (j === i ? { ...x, value: e.target.value } : x)))}
            />
          </div>
        ))}
        <button type="button" onClick={() => setAdded([...added, { key: '', value: '' }])}>
          {local ? t('addServer.addVariable') : t('addServer.addHeader')}
        </button>
      </div>
      {!local && <AuthFields value={auth} onChange={setAuth} stored={server.auth} />}
      {local && <SandboxFields form={sandbox} />}
      <label className="field narrow">
        <span>{t('addServer.timeout')}</span>
        <input aria-label={t('editServer.timeoutLabel')} inputMode="numeric" value={timeout} onChange={(e) => setTimeoutS(e.target.value)} />
      </label>
      {error && (
        <div className="field-error" role="alert">
          {error}
        </div>
      )}
      <div className="row">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? t('editServer.restarting') : t('editServer.saveRestart')}
        </button>
        <button type="button" onClick={onDone} disabled={busy}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}
