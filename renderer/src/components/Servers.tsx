import { useState, type ReactNode } from 'react';
import type { ServerView } from '../../../preload/contract/index.js';
import { isValidServerName } from '../../../preload/contract/rules/index.js';
import { ApiError, call } from '../api';
import { useApp } from '../store';
import { formatDateTime, Trans, useTranslation } from '../i18n';
import { ServerStateNotes } from '../i18n/server-state';
import { EditServerForm } from './EditServer';
import { ImportExport } from './ImportExport';
import { duplicateRows } from './env-rows';
import { emptyAuth } from './AuthFields';
import { ServerToolsPanel } from './ToolPermissions';
import { ServerPins } from './ServerPins';
import { ServerLogs } from './ServerLogs';
import { ServerActions, type CardPanel } from './ServerActions';
import { Icon, ProtocolBadges, ServerIcon } from './ProtocolBadges';
import { ServerRoots } from './Roots';
import { TRANSPORT_UI, transportUi, type AddDraft, type TransportType } from '../transports';
import { ServerSandbox } from './sandbox/SandboxCard';
import { SandboxFields, useSandboxForm } from './sandbox/SandboxFields';
import { NewValueRow } from './ValueRows';
import { SecretsFormNote } from './SecretsFormNote';
import { useFocusFirstProblem } from './first-problem';
import { ErrorText } from './ErrorText';

interface Row {
  key: string;
  value: string;
}

type Errors = Partial<Record<'name' | 'command' | 'url' | 'env' | 'timeout' | 'form', ReactNode>>;

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

/**
 * The Add-server form, with inline validation. Nothing is saved unless everything is valid; a
 * refusal brings its first field into view (./first-problem.ts).
 */
export function AddServerForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const existing = useApp((s) => s.serverOrder);
  const upsert = useApp((s) => s.upsertServer);
  const [name, setName] = useState('');
  const [type, setType] = useState<TransportType>('local');
  const [draft, setDraft] = useState<AddDraft>({ command: '', secretArgs: [], url: '', auth: emptyAuth });
  const [rows, setRows] = useState<Row[]>([]);
  const [timeout, setTimeoutS] = useState('60');
  const ui = transportUi(type);
  const values = ui.values;
  const sandbox = useSandboxForm(null);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  // Rows that repeat an earlier row's name (said beside the row as the user types, and only there).
  const duplicates = duplicateRows(rows.map((r) => r.key), type !== 'local');
  // Rows whose name is not allowed (marked; the sentence naming them is under the rows).
  const badRows = new Set(rows.flatMap((r, i) => (r.key.trim() && !values.nameRule.test(r.key.trim()) ? [i] : [])));
  const [formRef, focusFirstProblem] = useFocusFirstProblem<HTMLFormElement>();

  const validate = (): Errors => {
    const e: Errors = {};
    const n = name.trim();
    if (!n) e.name = t('addServer.errNameRequired');
    else if (!isValidServerName(n)) e.name = t('addServer.errNameChars');
    else if (existing.includes(n)) e.name = t('addServer.errNameExists', { name: n });
    Object.assign(e, ui.checkTarget(draft));
    if (badRows.size) e.env = values.badNames(rows.filter((_, i) => badRows.has(i)).map((r) => r.key).join(', '));
    const secs = Number(timeout);
    if (!Number.isInteger(secs) || secs < 1 || secs > 3600) e.timeout = t('addServer.errTimeout');
    return e;
  };

  const submit = async () => {
    const e = validate();
    setErrors(e);
    // Each problem is said beside its field; the focus goes to the first (it may be out of view).
    if (Object.keys(e).length || duplicates.size) {
      focusFirstProblem();
      return;
    }
    const map = Object.fromEntries(rows.filter((r) => r.key.trim()).map((r) => [r.key.trim(), r.value]));
    let config;
    try {
      config = ui.input(draft, map, Number(timeout));
    } catch (err) {
      setErrors({ form: (err as Error).message });
      focusFirstProblem();
      return;
    }
    setBusy(true);
    try {
      const view = await call('servers.add', { name: name.trim(), config: config.type === 'local' ? { ...config, ...sandbox.input() } : config });
      upsert(view);
      onDone();
    } catch (err) {
      const f = err instanceof ApiError ? fieldOf(err.field) : 'form';
      setErrors(sandbox.takeError(err) ? {} : { [f]: <ErrorText error={err} /> });
      focusFirstProblem();
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      ref={formRef}
      className="panel add-form"
      aria-label={t('addServer.form')}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h3>{t('addServer.title')}</h3>
      <SecretsFormNote />
      <label className="field">
        <span>{t('addServer.name')}</span>
        <input aria-label={t('addServer.nameLabel')} value={name} onChange={(e) => setName(e.target.value)} placeholder={t('addServer.namePlaceholder')} aria-invalid={!!errors.name} />
        {errors.name && <span className="field-error" role="alert">{errors.name}</span>}
      </label>
      <label className="field">
        <span>{t('addServer.type')}</span>
        <select aria-label={t('addServer.typeLabel')} value={type} onChange={(e) => setType(e.target.value as typeof type)}>
          {Object.values(TRANSPORT_UI).map((u) => (
            <option key={u.type} value={u.type}>
              {u.option()}
            </option>
          ))}
        </select>
      </label>
      <ui.AddTarget draft={draft} set={(patch) => setDraft({ ...draft, ...patch })} errors={errors} />
      <div className="field">
        <span>{values.title()}</span>
        {rows.map((r, i) => (
          <NewValueRow
            key={i}
            name={r.key}
            value={r.value}
            nameLabel={values.nameLabel(i + 1)}
            valueLabel={values.valueLabel(i + 1)}
            removeLabel={t('addServer.removeRow', { n: i + 1 })}
            namePlaceholder={values.placeholder()}
            valuePlaceholder={t('addServer.valueSecret')}
            duplicate={duplicates.has(i) ? t('addServer.errDuplicateName', { name: r.key.trim() }) : null}
            invalid={!!errors.env && badRows.has(i)}
            onName={(key) => setRows(rows.map((x, j) => (j === i ? { ...x, key } : x)))}
            onValue={(value) => setRows(rows.map((x, j) => (j === i ? { ...x, value } : x)))}
            onRemove={() => setRows(rows.filter((_, j) => j !== i))}
          />
        ))}
        <button type="button" onClick={() => setRows([...rows, { key: '', value: '' }])}>
          {values.addLabel()}
        </button>
        {errors.env && <span className="field-error" role="alert">{errors.env}</span>}
      </div>
      {type === 'local' && <SandboxFields form={sandbox} />}
      <label className="field narrow">
        <span>{t('addServer.timeout')}</span>
        <input aria-label={t('addServer.timeoutLabel')} inputMode="numeric" value={timeout} onChange={(e) => setTimeoutS(e.target.value)} aria-invalid={!!errors.timeout} />
        {errors.timeout && <span className="field-error" role="alert">{errors.timeout}</span>}
      </label>
      {errors.form && <div className="field-error" role="alert">{errors.form}</div>}
      <div className="row">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? t('addServer.adding') : t('addServer.submit')}
        </button>
        <button type="button" onClick={onDone}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}

/** One server: status, tools, errors, actions. */
export function ServerCard({ server }: { server: ServerView }) {
  const { t } = useTranslation();
  const upsert = useApp((s) => s.upsertServer);
  const [panel, setPanel] = useState<CardPanel>('none');
  // The edit form stays open while Tools or Logs are looked at, so no typed change is lost.
  const [editing, setEditing] = useState(false);
  const pendingUrl = useApp((s) => s.signInUrls[server.name]);
  // What an action failed with (a failed start shows the server's own output, marked as its).
  const [actionError, setActionError] = useState<unknown>(null);
  const act = async (fn: () => Promise<ServerView | void>) => {
    setActionError(null);
    try {
      const v = await fn();
      if (v) upsert(v);
    } catch (err) {
      setActionError(err);
    }
  };
  return (
    <div className="server-card" data-testid={`server-${server.name}`} data-status={server.state.kind}>
      <div className="server-head">
        <span className={`status-dot ${server.state.kind}`} />
        <ServerIcon server={server} />
        <strong className="server-name">{server.name}</strong>
        <span className={`badge ${server.state.kind}`} data-testid="server-status">
          {t(`servers.status.${server.state.kind}`)}
        </span>
        <span className="muted">{server.state.kind === 'ready' ? server.tool_count === server.tools.length ? t('servers.tools', { count: server.tool_count }) : t('servers.toolsOf', { count: server.tool_count, total: server.tools.length }) : transportUi(server.type).badge}</span>
        <span className="spacer" />
        <label className="check">
          <input
            type="checkbox"
            aria-label={t('servers.enable', { name: server.name })}
            checked={server.enabled}
            onChange={(e) => void act(() => call('servers.setEnabled', { name: server.name, enabled: e.target.checked }))}
          />{' '}
          {t('servers.enabled')}
        </label>
        <ServerActions server={server} panel={panel} setPanel={setPanel} editing={editing} setEditing={setEditing} act={act} />
      </div>
      <div className="server-meta mono">{transportUi(server.type).target(server)}</div>
      <ProtocolBadges server={server} />
      <ServerRoots server={server} />
      <ServerSandbox server={server} />
      {Object.keys({ ...server.env, ...server.headers }).length > 0 && (
        <div className="server-meta">
          {transportUi(server.type).values.cardTitle()}{t('common.colon')}
          {Object.entries({ ...server.env, ...server.headers }).map(([k, v]) => (
            <span key={k} className="badge set" title={t('servers.storedSecret')}>
              {k} {v.has_value ? t('common.set') : t('common.empty')}
            </span>
          ))}
        </div>
      )}
      {server.auth.kind !== 'none' && (
        <div className="server-meta" data-testid="server-auth">
          {server.auth.kind === 'bearer'
            ? t('servers.bearer', { state: server.auth.has_token ? t('servers.bearerSet') : t('servers.bearerMissing') })
            : `${t('servers.oauth', { state: t(`servers.oauthState.${server.auth.state ?? 'unknown'}`) })}${server.auth.client_id ? t('servers.oauthClient', { id: server.auth.client_id }) : ''}${server.auth.expires_at ? t('servers.oauthUntil', { time: formatDateTime(server.auth.expires_at) }) : ''}`}
        </div>
      )}
      {pendingUrl && server.auth.state === 'signing_in' && (
        <div className="banner warning small">
          <Trans i18nKey="servers.noBrowser" components={{ action: <a href={pendingUrl} target="_blank" rel="noopener noreferrer" /> }} />
        </div>
      )}
      <ServerStateNotes server={server} />
      {server.state.kind === 'ready' && server.server_info && (
        <div className="server-about" data-testid="server-info">
          {t('servers.serverInfo')} <span className="mono">{`${server.server_info.name} ${server.server_info.version}`}</span>
          {server.server_info.protocol_version ? t('servers.protocol', { version: server.server_info.protocol_version }) : ''}
        </div>
      )}
      <ServerPins server={server} onAct={act} />
      {server.shares_namespace_with.map((other) => (
        <div key={`ns:${other}`} className="banner warning small" data-testid="server-namespace-warning">
          {t('servers.sharesNamespace', { other })}
        </div>
      ))}
      {server.issues.map((issue) => (
        <div
          key={`${issue.kind}:${issue.kind === 'list_stopped' ? issue.list : issue.tool}${issue.kind === 'tool_left_out_for_provider' ? `:${issue.family}` : issue.kind === 'tool_renamed' ? `:${issue.offered_as}` : ''}`}
          className="banner warning small"
          data-testid="server-issue"
        >
          {issue.kind === 'list_stopped'
            ? t(`servers.issue.${issue.reason}`, { list: t(`servers.listName.${issue.list}`) })
            : issue.kind === 'tool_renamed'
              ? t('servers.issue.renamed', { tool: issue.tool, like: issue.like, server: issue.like_server, name: issue.offered_as })
              : issue.kind === 'tool_left_out_for_provider'
                ? t('servers.issue.leftOutFor', { tool: issue.tool, family: t(`servers.schemaFamily.${issue.family}`), why: t(`servers.schemaFit.${issue.reason}`) })
                : t(`servers.issue.${issue.reason}`, { tool: issue.tool })}
        </div>
      ))}
      {actionError !== null && (
        <div className="field-error" role="alert">
          <ErrorText error={actionError} />
        </div>
      )}
      {panel === 'tools' && (
        <div className="tools-list" data-testid="tools-list">
          {server.tools.length === 0 ? (
            <div className="muted">
              {server.state.kind === 'ready' ? t('servers.noTools') : server.enabled ? t('servers.toolsWhenReady') : t('servers.enableToSee')}
            </div>
          ) : (
            <ServerToolsPanel server={server} />
          )}
          {server.resources.length > 0 && (
            <details className="tool-item" data-testid="resources-list">
              <summary>{t('servers.resources', { count: server.resources.length })}</summary>
              {server.resources.map((r) => (
                <div key={r.uri} className="small">
                  <Icon icon={server.protocol?.resource_icons[r.uri]} name={r.name} />
                  <span className="mono">{r.uri}</span> <span className="muted">{r.name}{r.description ? ` — ${r.description}` : ''}</span>
                </div>
              ))}
            </details>
          )}
          {server.prompts.length > 0 && (
            <details className="tool-item" data-testid="prompts-list">
              <summary>{t('servers.prompts', { count: server.prompts.length })}</summary>
              {server.prompts.map((p) => (
                <div key={p.name} className="small">
                  <Icon icon={server.protocol?.prompt_icons[p.name]} name={p.name} />
                  <span className="mono">{p.name}</span>
                  {p.arguments.length > 0 && <span className="muted"> ({p.arguments.map((a) => `${a.name}${a.required ? '' : '?'}`).join(', ')})</span>}{' '}
                  <span className="muted">{p.description}</span>
                </div>
              ))}
            </details>
          )}
        </div>
      )}
      {panel === 'logs' && <ServerLogs server={server} />}
      {editing && <EditServerForm server={server} onDone={() => setEditing(false)} />}
    </div>
  );
}

/** Settings → MCP servers. `onBrowseCatalog` opens Settings → Catalog (the empty list's action). */
export function ServersPanel({ onBrowseCatalog }: { onBrowseCatalog?: () => void }) {
  const { t } = useTranslation();
  const order = useApp((s) => s.serverOrder);
  const servers = useApp((s) => s.servers);
  const [adding, setAdding] = useState(false);
  const [porting, setPorting] = useState(false);
  return (
    <div className="panel">
      <div className="row">
        <h2>{t('servers.title')}</h2>
        <span className="spacer" />
        {!porting && <button onClick={() => setPorting(true)}>{t('servers.importExport')}</button>}
        {!adding && (
          <button className="primary" onClick={() => setAdding(true)}>
            {t('servers.add')}
          </button>
        )}
      </div>
      {porting && <ImportExport onClose={() => setPorting(false)} />}
      {adding && <AddServerForm onDone={() => setAdding(false)} />}
      {order.length === 0 && !adding && (
        <div className="empty-state" data-testid="servers-empty">
          <p className="muted">{t('servers.empty')}</p>
          {onBrowseCatalog && <button onClick={onBrowseCatalog}>{t('servers.emptyCatalog')}</button>}
        </div>
      )}
      {order.map((n) => servers[n] && <ServerCard key={n} server={servers[n]} />)}
    </div>
  );
}
