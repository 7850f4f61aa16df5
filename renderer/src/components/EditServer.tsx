import { useState } from 'react';
import type { ServerPatch, ServerView } from '../../../preload/contract/index.js';
import { call } from '../api';
import { joinCommandLine, splitCommandLine } from '../commandLine';
import { useApp } from '../store';
import { AuthFields, type AuthFormState } from './AuthFields';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Edit a server with PATCH semantics: secret inputs start empty and list only the stored names
 * with a "set" badge; only what the user changed is sent (absent → keep, value → replace,
 * "" → delete). The edit is saved only if the server restarts successfully with it.
 */
export function EditServerForm({ server, onDone }: { server: ServerView; onDone: () => void }) {
  const upsert = useApp((s) => s.upsertServer);
  const local = server.type === 'local';
  const stored = local ? server.env : server.headers;
  const initialCommand = local ? joinCommandLine(server.command) : '';
  const [command, setCommand] = useState(initialCommand);
  const [url, setUrl] = useState(server.url ?? '');
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
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const buildPatch = (): ServerPatch => {
    const patch: ServerPatch = {};
    if (local && command !== initialCommand) {
      const argv = splitCommandLine(command);
      if (argv.length === 0) throw new Error('Command is required.');
      patch.command = argv;
    }
    if (!local && url.trim() !== (server.url ?? '')) {
      if (!/^https?:\/\/.+/.test(url.trim())) throw new Error('Enter an http:// or https:// URL.');
      patch.url = url.trim();
    }
    const t = Number(timeout);
    if (!Number.isInteger(t) || t < 1 || t > 3600) throw new Error('Timeout must be a whole number of seconds from 1 to 3600.');
    if (t !== server.timeout_seconds) patch.timeout_seconds = t;
    const secrets: Record<string, string> = {};
    for (const name of Object.keys(stored)) {
      if (removed[name]) secrets[name] = '';
      else if (replace[name]) secrets[name] = replace[name]!;
    }
    for (const row of added) {
      const k = row.key.trim();
      if (!k) continue;
      if (!(local ? ENV_NAME : HEADER_NAME).test(k)) throw new Error(`Not a valid ${local ? 'variable' : 'header'} name: ${k}`);
      if (row.value === '') throw new Error(`Enter a value for ${k}.`);
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
        else if (kindChanged) throw new Error('Enter the bearer token.');
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
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="panel add-form"
      aria-label={`Edit ${server.name}`}
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h3>Edit {server.name}</h3>
      {local ? (
        <label className="field">
          <span>Command and arguments</span>
          <input aria-label="Edit command" className="mono" value={command} onChange={(e) => setCommand(e.target.value)} />
        </label>
      ) : (
        <label className="field">
          <span>URL</span>
          <input aria-label="Edit URL" className="mono" value={url} onChange={(e) => setUrl(e.target.value)} />
        </label>
      )}
      <div className="field">
        <span>{local ? 'Environment variables' : 'Headers'} (values are secrets: leave empty to keep)</span>
        {Object.entries(stored).map(([name, v]) => (
          <div className="kv" key={name}>
            <span className="mono kv-name">
              {name} {v.has_value && <span className="badge set">set</span>}
            </span>
            <input
              aria-label={`New value for ${name}`}
              type="password"
              autoComplete="off"
              placeholder="unchanged"
              disabled={!!removed[name]}
              value={replace[name] ?? ''}
              onChange={(e) => setReplace({ ...replace, [name]: e.target.value })}
            />
            <label className="check">
              <input type="checkbox" aria-label={`Remove ${name}`} checked={!!removed[name]} onChange={(e) => setRemoved({ ...removed, [name]: e.target.checked })} /> remove
            </label>
          </div>
        ))}
        {added.map((r, i) => (
          <div className="kv" key={`new-${i}`}>
            <input
              aria-label={`New ${local ? 'variable' : 'header'} name ${i + 1}`}
              className="mono"
              placeholder={local ? 'NAME' : 'Header-Name'}
              value={r.key}
              onChange={(e) => setAdded(added.map((x, j) => (j === i ? { ...x, key: e.target.value } : x)))}
            />
            <input
              aria-label={`New ${local ? 'variable' : 'header'} value ${i + 1}`}
              type="password"
              autoComplete="off"
              placeholder="value"
              value={r.value}
              onChange={(e) => setAdded(added.map((x, j) => (j === i ? { ...x, value: e.target.value } : x)))}
            />
          </div>
        ))}
        <button type="button" onClick={() => setAdded([...added, { key: '', value: '' }])}>
          + Add {local ? 'variable' : 'header'}
        </button>
      </div>
      {!local && <AuthFields value={auth} onChange={setAuth} stored={server.auth} />}
      <label className="field narrow">
        <span>Timeout (seconds)</span>
        <input aria-label="Edit timeout seconds" inputMode="numeric" value={timeout} onChange={(e) => setTimeoutS(e.target.value)} />
      </label>
      {error && (
        <div className="field-error" role="alert">
          {error}
        </div>
      )}
      <div className="row">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Restarting with the new settings…' : 'Save and restart'}
        </button>
        <button type="button" onClick={onDone} disabled={busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}
