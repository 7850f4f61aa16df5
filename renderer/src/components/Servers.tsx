import { useEffect, useState } from 'react';
import type { LogEntry, ServerView } from '../../../preload/contract/index.js';
import { ApiError, call } from '../api';
import { joinCommandLine, splitCommandLine } from '../commandLine';
import { useApp } from '../store';
import { EditServerForm } from './EditServer';
import { ImportExport } from './ImportExport';
import { AuthFields, authInput, emptyAuth, type AuthFormState } from './AuthFields';
import { ServerToolsPanel } from './ToolPermissions';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

interface Row {
  key: string;
  value: string;
}

type Errors = Partial<Record<'name' | 'command' | 'url' | 'env' | 'timeout' | 'form', string>>;

/** Map a field path from main (e.g. `config.env.X`) to a form field. */
function fieldOf(path: string | undefined): keyof Errors {
  if (!path) return 'form';
  if (path === 'name') return 'name';
  if (path.includes('command')) return 'command';
  if (path.includes('env') || path.includes('headers')) return 'env';
  if (path.includes('url')) return 'url';
  if (path.includes('timeout')) return 'timeout';
  return 'form';
}

/** The Add-server form, with inline validation. Nothing is saved unless everything is valid. */
export function AddServerForm({ onDone }: { onDone: () => void }) {
  const existing = useApp((s) => s.serverOrder);
  const upsert = useApp((s) => s.upsertServer);
  const [name, setName] = useState('');
  const [type, setType] = useState<'local' | 'http' | 'sse'>('local');
  const [command, setCommand] = useState('');
  const [url, setUrl] = useState('');
  const [rows, setRows] = useState<Row[]>([]);
  const [timeout, setTimeoutS] = useState('60');
  const [auth, setAuth] = useState<AuthFormState>(emptyAuth);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);

  const validate = (): { errors: Errors; argv: string[] } => {
    const e: Errors = {};
    let argv: string[] = [];
    const n = name.trim();
    if (!n) e.name = 'Name is required.';
    else if (!SERVER_NAME.test(n) || n.length > 64) e.name = 'Use letters, digits, "_", "-" or "." (start with a letter or digit, at most 64).';
    else if (existing.includes(n)) e.name = `A server named "${n}" already exists.`;
    if (type === 'local') {
      try {
        argv = splitCommandLine(command);
        if (argv.length === 0) e.command = 'Command is required.';
      } catch (err) {
        e.command = (err as Error).message;
      }
    } else if (!/^https?:\/\/.+/.test(url.trim())) e.url = 'Enter an http:// or https:// URL.';
    const bad = rows.filter((r) => r.key.trim() && (type === 'local' ? !ENV_NAME.test(r.key.trim()) : !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(r.key.trim())));
    if (bad.length) e.env = type === 'local' ? `Not a valid variable name: ${bad.map((r) => r.key).join(', ')} (letters, digits and "_", not starting with a digit).` : `Not a valid header name: ${bad.map((r) => r.key).join(', ')}.`;
    const t = Number(timeout);
    if (!Number.isInteger(t) || t < 1 || t > 3600) e.timeout = 'Timeout must be a whole number of seconds from 1 to 3600.';
    return { errors: e, argv };
  };

  const submit = async () => {
    const { errors: e, argv } = validate();
    setErrors(e);
    if (Object.keys(e).length) return;
    const map = Object.fromEntries(rows.filter((r) => r.key.trim()).map((r) => [r.key.trim(), r.value]));
    let authValue;
    try {
      authValue = authInput(auth);
    } catch (err) {
      setErrors({ form: (err as Error).message });
      return;
    }
    setBusy(true);
    try {
      const view = await call('servers.add', {
        name: name.trim(),
        config:
          type === 'local'
            ? { type: 'local', command: argv, env: map, timeout_seconds: Number(timeout) }
            : { type, url: url.trim(), headers: map, auth: authValue, timeout_seconds: Number(timeout) },
      });
      upsert(view);
      onDone();
    } catch (err) {
      const f = err instanceof ApiError ? fieldOf(err.field) : 'form';
      setErrors({ [f]: (err as Error).message });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="panel add-form"
      aria-label="Add server"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h3>Add an MCP server</h3>
      <label className="field">
        <span>Name</span>
        <input aria-label="Server name" value={name} onChange={(e) => setName(e.target.value)} placeholder="filesystem" aria-invalid={!!errors.name} />
        {errors.name && <span className="field-error" role="alert">{errors.name}</span>}
      </label>
      <label className="field">
        <span>Type</span>
        <select aria-label="Server type" value={type} onChange={(e) => setType(e.target.value as typeof type)}>
          <option value="local">Local command (stdio)</option>
          <option value="http">Remote URL (Streamable HTTP)</option>
          <option value="sse">Remote URL (legacy SSE)</option>
        </select>
      </label>
      {type === 'local' ? (
        <label className="field">
          <span>Command and arguments</span>
          <input
            aria-label="Command"
            className="mono"
            value={command}
            onChange={(e) => setCommand(e.target.value)}
            placeholder="npx -y @modelcontextprotocol/server-filesystem /path/to/dir"
            aria-invalid={!!errors.command}
          />
          <span className="hint">Quote arguments that contain spaces. The command is started directly, never through a shell.</span>
          {errors.command && <span className="field-error" role="alert">{errors.command}</span>}
        </label>
      ) : (
        <label className="field">
          <span>URL</span>
          <input aria-label="URL" className="mono" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://example.com/mcp" />
          {errors.url && <span className="field-error" role="alert">{errors.url}</span>}
        </label>
      )}
      {type !== 'local' && <AuthFields value={auth} onChange={setAuth} />}
      <div className="field">
        <span>{type === 'local' ? 'Environment variables' : 'Headers'}</span>
        {rows.map((r, i) => (
          <div className="kv" key={i}>
            <input
              aria-label={`${type === 'local' ? 'Variable' : 'Header'} name ${i + 1}`}
              className="mono"
              placeholder={type === 'local' ? 'NAME' : 'Header-Name'}
              value={r.key}
              onChange={(e) => setRows(rows.map((x, j) => (j === i ? { ...x, key: e.target.value } : x)))}
            />
            <input
              aria-label={`${type === 'local' ? 'Variable' : 'Header'} value ${i + 1}`}
              type="password"
              autoComplete="off"
              placeholder="value (stored as a secret)"
              value={r.value}
              onChange={(e) => setRows(rows.map((x, j) => (j === i ? { ...x, value: e.target.value } : x)))}
            />
            <button type="button" className="link" onClick={() => setRows(rows.filter((_, j) => j !== i))} aria-label={`Remove row ${i + 1}`}>
              Remove
            </button>
          </div>
        ))}
        <button type="button" onClick={() => setRows([...rows, { key: '', value: '' }])}>
          + Add {type === 'local' ? 'variable' : 'header'}
        </button>
        {errors.env && <span className="field-error" role="alert">{errors.env}</span>}
      </div>
      <label className="field narrow">
        <span>Timeout (seconds)</span>
        <input aria-label="Timeout seconds" inputMode="numeric" value={timeout} onChange={(e) => setTimeoutS(e.target.value)} />
        {errors.timeout && <span className="field-error" role="alert">{errors.timeout}</span>}
      </label>
      {errors.form && <div className="field-error" role="alert">{errors.form}</div>}
      <div className="row">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Adding…' : 'Add server'}
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function Logs({ name }: { name: string }) {
  const [entries, setEntries] = useState<LogEntry[] | null>(null);
  const load = () => call('servers.logs', { name }).then(setEntries, () => setEntries([]));
  useEffect(() => {
    void call('servers.logs', { name }).then(setEntries, () => setEntries([]));
  }, [name]);
  if (entries === null) return <div className="muted">Loading…</div>;
  return (
    <div className="logs">
      <div className="row">
        <button onClick={() => void load()}>Refresh</button>
      </div>
      <pre className="log-lines" data-testid="server-logs">
        {entries.length === 0 ? 'No log entries yet.' : entries.map((e) => `${new Date(e.ts).toLocaleTimeString()} [${e.source}] ${e.text}`).join('\n')}
      </pre>
    </div>
  );
}

/** One server: status, tools, errors, actions. */
export function ServerCard({ server }: { server: ServerView }) {
  const upsert = useApp((s) => s.upsertServer);
  const drop = useApp((s) => s.dropServer);
  const [panel, setPanel] = useState<'none' | 'tools' | 'logs'>('none');
  // The edit form stays open while Tools or Logs are looked at, so no typed change is lost.
  const [editing, setEditing] = useState(false);
  const pendingUrl = useApp((s) => s.signInUrls[server.name]);
  const [actionError, setActionError] = useState<string | null>(null);
  const act = async (fn: () => Promise<ServerView | void>) => {
    setActionError(null);
    try {
      const v = await fn();
      if (v) upsert(v);
    } catch (err) {
      setActionError((err as Error).message);
    }
  };
  return (
    <div className="server-card" data-testid={`server-${server.name}`} data-status={server.status}>
      <div className="server-head">
        <span className={`status-dot ${server.status}`} />
        <strong className="server-name">{server.name}</strong>
        <span className={`badge ${server.status}`} data-testid="server-status">
          {server.status}
        </span>
        <span className="muted">{server.status === 'ready' ? server.tool_count === server.tools.length ? `${server.tool_count} tools` : `${server.tool_count} of ${server.tools.length} tools` : server.type === 'local' ? 'stdio' : server.type}</span>
        <span className="spacer" />
        <label className="check">
          <input
            type="checkbox"
            aria-label={`Enable ${server.name}`}
            checked={server.enabled}
            onChange={(e) => void act(() => call('servers.setEnabled', { name: server.name, enabled: e.target.checked }))}
          />{' '}
          Enabled
        </label>
        {server.auth.kind === 'oauth' && server.auth.state !== 'signing_in' && server.auth.state !== 'authorized' && (
          <button className="primary" onClick={() => void act(async () => void (await call('servers.signIn', { name: server.name })))} disabled={!server.enabled}>
            Sign in
          </button>
        )}
        {server.auth.state === 'signing_in' && <button onClick={() => void act(async () => void (await call('servers.cancelSignIn', { name: server.name })))}>Cancel sign-in</button>}
        {server.auth.kind === 'oauth' && server.auth.state === 'authorized' && (
          <button onClick={() => void act(() => call('servers.signOut', { name: server.name }))}>Sign out</button>
        )}
        <button onClick={() => void act(() => call('servers.restart', { name: server.name }))} disabled={!server.enabled}>
          Restart
        </button>
        <button onClick={() => setEditing(!editing)} aria-pressed={editing}>
          Edit
        </button>
        <button onClick={() => setPanel(panel === 'tools' ? 'none' : 'tools')}>Tools</button>
        <button onClick={() => setPanel(panel === 'logs' ? 'none' : 'logs')}>Logs</button>
        <button
          className="danger"
          onClick={() => {
            if (confirm(`Remove server "${server.name}"?`))
              void act(async () => {
                await call('servers.remove', { name: server.name });
                drop(server.name);
              });
          }}
        >
          Remove
        </button>
      </div>
      <div className="server-meta mono">{server.type === 'local' ? joinCommandLine(server.command) : server.url}</div>
      {Object.keys({ ...server.env, ...server.headers }).length > 0 && (
        <div className="server-meta">
          {server.type === 'local' ? 'env' : 'headers'}:{' '}
          {Object.entries({ ...server.env, ...server.headers }).map(([k, v]) => (
            <span key={k} className="badge set" title="Stored as a secret">
              {k} {v.has_value ? 'set' : 'empty'}
            </span>
          ))}
        </div>
      )}
      {server.recovery.attempts > 0 && !server.recovery.gave_up && server.status !== 'ready' && (
        <div className="server-meta" data-testid="server-recovery">
          Crashed; automatic restart attempt {server.recovery.attempts}
          {server.recovery.next_retry_at ? ` at ${new Date(server.recovery.next_retry_at).toLocaleTimeString()}` : ''}.
        </div>
      )}
      {server.auth.kind !== 'none' && (
        <div className="server-meta" data-testid="server-auth">
          {server.auth.kind === 'bearer'
            ? `Bearer token ${server.auth.has_token ? 'set' : 'missing'}`
            : `OAuth: ${({ authorized: 'signed in', needs_auth: 'sign-in needed', needs_reauth: 'sign in again', signing_in: 'waiting for the browser…', unknown: 'not signed in' } as Record<string, string>)[server.auth.state ?? 'unknown']}${server.auth.client_id ? ` · client ${server.auth.client_id}` : ''}${server.auth.expires_at ? ` · token until ${new Date(server.auth.expires_at).toLocaleTimeString()}` : ''}`}
        </div>
      )}
      {pendingUrl && server.auth.state === 'signing_in' && (
        <div className="banner warning small">
          If no browser tab opened,{' '}
          <a href={pendingUrl} target="_blank" rel="noopener noreferrer">
            open the sign-in page
          </a>
          .
        </div>
      )}
      {server.status === 'needs_auth' && (
        <div className="server-error" data-testid="server-error">
          {server.error}
        </div>
      )}
      {server.status === 'error' && (
        <pre className="server-error" data-testid="server-error">
          {server.error}
          {server.resolved_command ? `\n(command: ${server.resolved_command})` : ''}
        </pre>
      )}
      {server.warnings.map((w) => (
        <div key={w} className="banner warning small">
          {w}
        </div>
      ))}
      {actionError && <div className="field-error" role="alert">{actionError}</div>}
      {panel === 'tools' && (
        <div className="tools-list" data-testid="tools-list">
          {server.tools.length === 0 ? (
            <div className="muted">
              {server.status === 'ready' ? 'This server offers no tools.' : server.enabled ? 'Tools appear when the server is ready.' : 'Enable the server to see its tools.'}
            </div>
          ) : (
            <ServerToolsPanel server={server} />
          )}
          {server.resources.length > 0 && (
            <details className="tool-item" data-testid="resources-list">
              <summary>Resources ({server.resources.length})</summary>
              {server.resources.map((r) => (
                <div key={r.uri} className="small">
                  <span className="mono">{r.uri}</span> <span className="muted">{r.name}{r.description ? ` — ${r.description}` : ''}</span>
                </div>
              ))}
            </details>
          )}
          {server.prompts.length > 0 && (
            <details className="tool-item" data-testid="prompts-list">
              <summary>Prompts ({server.prompts.length})</summary>
              {server.prompts.map((p) => (
                <div key={p.name} className="small">
                  <span className="mono">{p.name}</span>
                  {p.arguments.length > 0 && <span className="muted"> ({p.arguments.map((a) => `${a.name}${a.required ? '' : '?'}`).join(', ')})</span>}{' '}
                  <span className="muted">{p.description}</span>
                </div>
              ))}
            </details>
          )}
        </div>
      )}
      {panel === 'logs' && <Logs name={server.name} />}
      {editing && <EditServerForm server={server} onDone={() => setEditing(false)} />}
    </div>
  );
}

/** Settings → MCP servers. */
export function ServersPanel() {
  const order = useApp((s) => s.serverOrder);
  const servers = useApp((s) => s.servers);
  const [adding, setAdding] = useState(false);
  const [porting, setPorting] = useState(false);
  return (
    <div className="panel">
      <div className="row">
        <h2>MCP servers</h2>
        <span className="spacer" />
        {!porting && <button onClick={() => setPorting(true)}>Import / export</button>}
        {!adding && (
          <button className="primary" onClick={() => setAdding(true)}>
            Add server
          </button>
        )}
      </div>
      {porting && <ImportExport onClose={() => setPorting(false)} />}
      {adding && <AddServerForm onDone={() => setAdding(false)} />}
      {order.length === 0 && !adding && <p className="muted">No servers yet. Add a local command or a remote URL.</p>}
      {order.map((n) => servers[n] && <ServerCard key={n} server={servers[n]} />)}
    </div>
  );
}
